"""The delimited-file reader of hierbn.data.readers before issue 45, kept as a peer of
``bench_reader.py``: every line decoded and split by Python's csv module on its own, every
column typed from a Python list. Not used by the package."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd

from hierbn.data.readers import DataFormatError

UTF8_BOM = b"\xef\xbb\xbf"  # a byte-order mark, as spreadsheets write UTF-8: not part of the text
MOSTLY_NUMERIC = 0.95  # a column this numeric with a few non-numbers is a garbled numeric column


def _delimited_rows(
    path: Path, sep: str, skip_rows: int
) -> tuple[list[tuple[int, bytes]], list[tuple[int, list[str]]]]:
    """(skipped lines, parsed rows) of a delimited file, each with its 1-based line number;
    lines end in LF, CRLF or a lone CR (old Mac files); a line that is not UTF-8 is an error
    naming it."""
    rows: list[tuple[int, list[str]]] = []
    lines = path.read_bytes().removeprefix(UTF8_BOM).splitlines()
    skipped = [(i + 1, lines[i]) for i in range(min(skip_rows, len(lines)))]
    for line_no, raw in enumerate(lines[skip_rows:], start=skip_rows + 1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataFormatError(
                f"{path}, line {line_no}: not UTF-8 text (byte {exc.start + 1}: {exc.reason})"
            ) from None
        if text.strip():
            fields = next(csv.reader([text], delimiter=sep, skipinitialspace=True))
            rows.append((line_no, [f.strip() for f in fields]))
    return skipped, rows


def _typed_column(
    path: Path, name: str, values: list[str], lines: list[int], na_values: tuple[str, ...] = ()
) -> pd.Series:
    """float64 when every present value is a number; a column of mostly numbers with a few
    other values is refused as garbled (naming the line); otherwise a categorical. ``?`` and
    ``na_values`` are missing everywhere; an empty field is missing in a numeric column and a
    level "" in a text column (as R's ``read.table`` reads them)."""
    col = pd.Series(values, dtype=object)
    col = col.where(~col.isin(("?", *na_values)))
    blank = col.eq("")
    numeric = pd.to_numeric(col.where(~blank), errors="coerce")
    present = col.notna() & ~blank
    bad = present & numeric.isna()
    if not bad.any():
        infinite = np.flatnonzero(np.isinf(numeric.to_numpy(dtype=np.float64)))
        if infinite.size:
            first = int(infinite[0])
            raise DataFormatError(
                f"{path}, line {lines[first]}: column {name!r} has {values[first]!r}, an "
                "infinite number; a value must be finite (or missing: ?, an empty field)"
            )
        return numeric.astype(np.float64).rename(name)
    if numeric.notna().sum() >= MOSTLY_NUMERIC * present.sum():
        first = int(np.flatnonzero(bad.to_numpy())[0])
        raise DataFormatError(
            f"{path}, line {lines[first]}: column {name!r} is numeric in "
            f"{int(numeric.notna().sum())} of {int(present.sum())} rows but has {values[first]!r}"
        )
    return pd.Series(pd.Categorical(col), name=name)


def read_csv(
    path: str | Path,
    columns: tuple[str, ...] = (),
    skip_rows: int = 0,
    sep: str = ",",
    na_values: tuple[str, ...] = (),
) -> pd.DataFrame:
    """Read a delimited file (header-less when ``columns`` are given); ``?`` and the
    ``na_values`` tokens are missing, so is an empty field in a numeric column.

    Every row must have one field per column (a truncated or garbled file is an error naming
    the line). Text columns become categoricals of the levels present (sorted); numeric ones
    float64; a column of numbers with a stray word is refused.
    """
    path = Path(path)
    _, rows = _delimited_rows(path, sep, skip_rows)
    if not columns:
        if not rows:
            raise DataFormatError(f"{path}: no header line")
        (_, header), rows = rows[0], rows[1:]
        columns = tuple(header)
        if not rows:
            raise DataFormatError(f"{path}: a header line and no data rows")
    if len(set(columns)) != len(columns):
        raise DataFormatError(f"{path}: duplicated column names in {list(columns)}")
    for line_no, fields in rows:
        if len(fields) != len(columns):
            raise DataFormatError(
                f"{path}, line {line_no}: expected {len(columns)} fields "
                f"({sep!r}-separated), found {len(fields)}"
            )
    lines = [line_no for line_no, _ in rows]
    cells = list(zip(*(fields for _, fields in rows), strict=True)) if rows else [()] * len(columns)
    return pd.DataFrame(
        {
            name: _typed_column(path, name, list(values), lines, na_values)
            for name, values in zip(columns, cells, strict=True)
        }
    )
