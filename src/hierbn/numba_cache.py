"""Numba's on-disk cache, keyed by the sources of the package's kernels.

Numba drops a cached function when the function's own file changes, not when a kernel it
calls from another file does: ``ais_run`` inlines ``hierbn.scoring.kernels.log_likelihood``,
and after a change to ``kernels.py`` alone it would keep running the old machine code from
``ais_kernels``' cache. So the cache lives in a directory named by a hash of every module of
the package that defines Numba kernels (``~/.cache/hierbn/numba/<hash>``, under
``$XDG_CACHE_HOME`` when set): a change to any of them starts a fresh cache, and the
compiled code always matches the sources. A ``NUMBA_CACHE_DIR`` set by the user wins.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from hierbn.user_cache import user_cache

PACKAGE_ROOT = Path(__file__).resolve().parent
KERNEL_MARK = b"@njit"


def kernel_sources(root: Path = PACKAGE_ROOT) -> list[Path]:
    """The package's modules that define Numba kernels, in a stable order."""
    this = Path(__file__).resolve()
    return sorted(
        p for p in root.rglob("*.py") if p.resolve() != this and KERNEL_MARK in p.read_bytes()
    )


def cache_dir(root: Path = PACKAGE_ROOT) -> Path:
    """The cache directory for the current kernel sources under ``root``."""
    digest = hashlib.sha256()
    for path in kernel_sources(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return user_cache("numba") / digest.hexdigest()[:16]


def use_source_keyed_cache() -> None:
    """Point Numba's cache at :func:`cache_dir` unless ``NUMBA_CACHE_DIR`` is set (the
    environment variable also reaches the processes this one starts)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    os.environ["NUMBA_CACHE_DIR"] = str(cache_dir())
    if "numba" in sys.modules:  # imported before hierbn: numba read its configuration already
        sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
