"""Fetch a raw file: mirrors first, then ``source_url``; sha256 checked; written atomically."""

from __future__ import annotations

import hashlib
import os
import shutil
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from hierbn.io import atomic_path

CHUNK = 1 << 20
MIRRORS_VARIABLE = "HIERBN_MIRRORS"  # os.pathsep-separated mirror folders (set by the workflow)
STALL_VARIABLE = "HIERBN_STALL_SECONDS"  # config data.stall_seconds (set by the workflow)
DEFAULT_STALL_SECONDS = 60.0


def mirrors_from_environment() -> list[str]:
    """The mirror folders listed in ``$HIERBN_MIRRORS`` (none when unset or empty)."""
    return [m for m in os.environ.get(MIRRORS_VARIABLE, "").split(os.pathsep) if m]


def stall_from_environment() -> float:
    """The stall limit in ``$HIERBN_STALL_SECONDS`` (60 s when unset)."""
    return float(os.environ.get(STALL_VARIABLE) or DEFAULT_STALL_SECONDS)


class ChecksumError(ValueError):
    """A file's sha256 differs from the registry's."""


def sha256_of(path: str | Path) -> str:
    """Hex sha256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_sha256(path: str | Path, expected: str, label: str | None = None) -> None:
    """Raise :class:`ChecksumError` naming the file and both digests when they differ."""
    got = sha256_of(path)
    if got != expected:
        name = label or str(path)
        raise ChecksumError(f"checksum mismatch for {name}: expected sha256 {expected}, got {got}")


def fetch(
    relative: str,
    source_url: str,
    sha256: str,
    destination: str | Path,
    mirrors: Sequence[str | Path] = (),
    stall_seconds: float = DEFAULT_STALL_SECONDS,
) -> str:
    """Place the verified file at ``destination``; return where it came from.

    Every mirror directory holding ``relative`` is tried first (a mirror copy with a wrong
    checksum is an error, not silently skipped); otherwise ``source_url`` is downloaded. A
    download that receives nothing for ``stall_seconds`` (config ``data.stall_seconds``) is
    abandoned; a slow one that keeps receiving never is.
    """
    for mirror in mirrors:
        candidate = Path(mirror) / relative
        if candidate.is_file():
            verify_sha256(candidate, sha256, label=str(candidate))
            with atomic_path(destination) as tmp:
                shutil.copyfile(candidate, tmp)
            return str(candidate)
    with atomic_path(destination) as tmp:
        try:
            with (
                urllib.request.urlopen(source_url, timeout=stall_seconds) as response,
                open(tmp, "wb") as out,
            ):
                shutil.copyfileobj(response, out, CHUNK)
        except OSError as exc:
            raise OSError(
                f"cannot download {source_url} for {relative} ({exc}; a connection silent for "
                f"{stall_seconds:g} s is abandoned: config data.stall_seconds raises it); no "
                f"mirror in {[str(m) for m in mirrors]} holds it. Point config data.mirrors at "
                "a copy."
            ) from exc
        verify_sha256(tmp, sha256, label=f"{relative} downloaded from {source_url}")
    return source_url
