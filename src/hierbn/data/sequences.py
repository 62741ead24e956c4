"""Reader for line-based DNA window files (the large-scale splice-site data of petitjean2018
§6.5: one fixed-length window over {A, C, G, T} per line, labels +-1 one per line in a second
file). Reads the first ``rows`` lines in chunks without a Python loop over rows; plain, gzip,
bz2 and xz files are accepted."""

from __future__ import annotations

import bz2
import gzip
import lzma
from pathlib import Path
from typing import BinaryIO

import numpy as np

NUCLEOTIDES = b"ACGT"  # codes 0..3; any other letter (N, ...) is code 4
_LOOKUP = np.full(256, 4, dtype=np.int8)
for _code, _letter in enumerate(NUCLEOTIDES):
    _LOOKUP[_letter] = _code
    _LOOKUP[ord(chr(_letter).lower())] = _code


def _open(path: Path) -> BinaryIO:
    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}.get(path.suffix, open)
    return opener(path, "rb")


def read_windows(path: str | Path, rows: int | None = None) -> np.ndarray:
    """(rows, window) int8 codes of the first ``rows`` windows (A, C, G, T = 0..3, other 4).
    Every line must have the first line's length and line ending."""
    path = Path(path)
    with _open(path) as handle:
        first = handle.readline()
        if not first.strip():
            raise ValueError(f"{path}: no sequences on line 1")
        line_len = len(first)
        rest = handle.read(-1 if rows is None else max(0, rows - 1) * line_len)
    data = first + rest
    ending = first[len(first.rstrip(b"\r\n")) :] or b"\n"
    if not data.endswith(ending):
        data += ending
    if len(data) % line_len:
        count = data.count(b"\n")
        raise ValueError(
            f"{path}: lines are not all {line_len - len(ending)} characters long "
            f"(the first {count} lines hold {len(data)} bytes)"
        )
    raw = np.frombuffer(data, dtype=np.uint8).reshape(-1, line_len)
    width = line_len - len(ending)
    bad = np.flatnonzero((raw[:, width:] != np.frombuffer(ending, dtype=np.uint8)).any(axis=1))
    if bad.size:
        raise ValueError(
            f"{path}, line {bad[0] + 1}: window length differs from line 1 ({width} letters)"
        )
    return _LOOKUP[raw[:, :width]]


def read_labels(path: str | Path, rows: int | None = None) -> np.ndarray:
    """0/1 labels from a file of +-1 (or 0/1) values, one per line."""
    path = Path(path)
    with _open(path) as handle:
        try:
            values = np.loadtxt(handle, dtype=np.float64, max_rows=rows, ndmin=1)
        except ValueError as err:
            raise ValueError(f"{path}: labels must be numbers, one per line ({err})") from None
    allowed = np.isin(values, (-1.0, 0.0, 1.0))
    if not allowed.all():
        line = int(np.flatnonzero(~allowed)[0]) + 1
        raise ValueError(f"{path}, line {line}: label {values[line - 1]}, expected -1/+1 or 0/1")
    return (values > 0).astype(np.int64)
