"""Atomic writers for result tables and metadata: a failed job leaves no partial output."""

from __future__ import annotations

import glob
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pandas is imported by the writers' callers; a plain import costs 0.4 s
    import pandas as pd


def _stale_temporaries(target: Path) -> list[Path]:
    """Temporary files a killed write of ``target`` left behind (a job is the only writer of its
    outputs, so any earlier temporary of the same target is stale)."""
    return list(target.parent.glob(f".{glob.escape(target.name)}.*.tmp"))


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success flush it to disk (fsync) and rename
    it onto ``path``, so a reader sees the old file or the whole new one, never a part. Stale
    temporaries of ``path`` from a killed earlier write are removed first."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in _stale_temporaries(target):
        stale.unlink(missing_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; give results the usual mode
        _fsync(tmp)
        os.replace(tmp, target)
        _fsync(target.parent)  # the rename itself reaches the disk
    finally:
        if tmp.exists():
            tmp.unlink()


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_with(path: str | os.PathLike[str], writer: Callable[[Path], None]) -> None:
    """Call ``writer(tmp_path)`` and atomically move the result to ``path``."""
    with atomic_path(path) as tmp:
        writer(tmp)


def write_parquet(frame: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Write ``frame`` to parquet atomically (no index)."""
    write_with(path, lambda tmp: frame.to_parquet(tmp, index=False))


def _json_default(value: Any) -> Any:
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot serialise {type(value).__name__} to JSON")


def write_json(data: Any, path: str | os.PathLike[str]) -> None:
    """Write ``data`` as indented JSON atomically (NaN written as null)."""

    def writer(tmp: Path) -> None:
        text = json.dumps(_nan_to_none(data), indent=2, default=_json_default, allow_nan=False)
        tmp.write_text(text + "\n", encoding="utf-8")

    write_with(path, writer)


def _nan_to_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _nan_to_none(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_nan_to_none(v) for v in value]
    if isinstance(value, float | np.floating) and not np.isfinite(value):
        return None
    return value


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read a JSON file."""
    return json.loads(Path(path).read_text(encoding="utf-8"))
