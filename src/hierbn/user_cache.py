"""The per-user cache of what hierbn compiles once per machine: CmdStan builds, Stan executables,
the ADVI driver, Numba's kernels."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


def user_cache(kind: str) -> Path:
    """``$XDG_CACHE_HOME/hierbn/<kind>`` (``~/.cache/hierbn/<kind>`` when it is unset)."""
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hierbn" / kind


@contextlib.contextmanager
def exclusive_lock(lock: Path) -> Iterator[None]:
    """An exclusive lock on the file ``lock``, waiting as long as another process holds it
    (a build of the same thing in the cache)."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
