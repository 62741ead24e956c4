"""The per-user cache of what hierbn compiles once per machine: CmdStan builds, Stan executables,
the ADVI driver, Numba's kernels."""

from __future__ import annotations

import os
from pathlib import Path


def user_cache(kind: str) -> Path:
    """``$XDG_CACHE_HOME/hierbn/<kind>`` (``~/.cache/hierbn/<kind>`` when it is unset)."""
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hierbn" / kind
