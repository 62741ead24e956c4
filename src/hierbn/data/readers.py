"""Readers for ARFF, CSV/TSV and R ``.rda`` files into pandas frames.

Nominal attributes become :class:`pandas.Categorical` with the *declared* levels in declared
order (as R factors read from ARFF would be); numeric attributes become float64; ``?`` is
missing. Errors name the file, the line and what was expected.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd


class DataFormatError(ValueError):
    """A data file could not be parsed; the message names the file and line."""


@dataclass
class ArffAttribute:
    name: str
    kind: str  # "nominal", "numeric" or "string"
    levels: list[str] = field(default_factory=list)


_NUMERIC_TYPES = ("numeric", "real", "integer")


def _unquote(token: str) -> str:
    token = token.strip()
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return token[1:-1]
    return token


def _split_values(text: str) -> list[str]:
    """Split a comma-separated ARFF line honouring ' and " quotes."""
    if "'" not in text and '"' not in text:
        return [v.strip() for v in text.split(",")]
    for quote in ("'", '"'):
        if quote in text:
            reader = csv.reader([text], quotechar=quote, skipinitialspace=True, escapechar="\\")
            return [v.strip() for v in next(reader)]
    return [v.strip() for v in text.split(",")]


def _parse_attribute(path: Path, line_no: int, text: str) -> ArffAttribute:
    rest = text[len("@attribute") :].strip()
    if not rest:
        raise DataFormatError(f"{path}, line {line_no}: @attribute without a name")
    if rest[0] in "'\"":
        end = rest.find(rest[0], 1)
        if end < 0:
            raise DataFormatError(f"{path}, line {line_no}: unterminated quoted attribute name")
        name, rest = rest[1:end], rest[end + 1 :]
    else:
        match = re.match(r"([^\s{,]+)", rest)
        if match is None:
            raise DataFormatError(f"{path}, line {line_no}: cannot read the attribute name")
        name, rest = match.group(1), rest[match.end() :]
    rest = rest.strip().lstrip(",").strip()  # tolerate "name,{a,b}" (a known malformed header)
    if rest.startswith("{"):
        close = rest.rfind("}")
        if close < 0:
            raise DataFormatError(
                f"{path}, line {line_no}: nominal list of {name!r} has no closing brace"
            )
        levels = [_unquote(v) for v in _split_values(rest[1:close]) if v.strip() != ""]
        return ArffAttribute(name, "nominal", levels)
    kind = rest.split()[0].lower() if rest else ""
    if kind in _NUMERIC_TYPES:
        return ArffAttribute(name, "numeric")
    if kind in ("string", "date"):
        return ArffAttribute(name, "string")
    raise DataFormatError(
        f"{path}, line {line_no}: attribute {name!r} has unsupported type {rest!r} "
        "(expected numeric, real, integer, string, date or a {nominal} list)"
    )


def read_arff(path: str | Path) -> pd.DataFrame:
    """Read a dense ARFF file."""
    path = Path(path)
    attributes: list[ArffAttribute] = []
    rows: list[list[str]] = []
    row_lines: list[int] = []
    in_data = False
    with open(path, encoding="utf-8", errors="replace", newline="") as fh:
        for line_no, raw in enumerate(fh, start=1):
            text = raw.strip()
            if not text or text.startswith("%"):
                continue
            if not in_data:
                lower = text.lower()
                if lower.startswith("@attribute"):
                    attributes.append(_parse_attribute(path, line_no, text))
                elif lower.startswith("@data"):
                    in_data = True
                elif not lower.startswith("@relation"):
                    raise DataFormatError(
                        f"{path}, line {line_no}: unexpected header line {text[:60]!r}"
                    )
                continue
            if text.startswith("{"):
                raise DataFormatError(f"{path}, line {line_no}: sparse ARFF rows are not supported")
            values = _split_values(text)
            if len(values) != len(attributes):
                raise DataFormatError(
                    f"{path}, line {line_no}: expected {len(attributes)} values, found {len(values)}"
                )
            rows.append(values)
            row_lines.append(line_no)
    if not attributes:
        raise DataFormatError(f"{path}: no @attribute declarations found")
    if not in_data:
        raise DataFormatError(f"{path}: no @data section found")
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in attributes]
    frame = {}
    for j, attr in enumerate(attributes):
        frame[attr.name] = _column(path, attr, columns[j], row_lines)
    return pd.DataFrame(frame)


def _column(path: Path, attr: ArffAttribute, raw: tuple[str, ...], lines: list[int]) -> pd.Series:
    values = np.array([_unquote(v) for v in raw], dtype=object)
    missing = values == "?"
    if attr.kind == "numeric":
        out = np.full(values.shape, np.nan)
        for i in np.flatnonzero(~missing):
            try:
                out[i] = float(values[i])
            except ValueError:
                raise DataFormatError(
                    f"{path}, line {lines[i]}: attribute {attr.name!r} expects a number, got {values[i]!r}"
                ) from None
        return pd.Series(out, name=attr.name)
    if attr.kind == "string":
        return pd.Series(pd.Categorical(np.where(missing, None, values)), name=attr.name)
    levels = list(dict.fromkeys(attr.levels))
    allowed = set(levels)
    for i in np.flatnonzero(~missing):
        if values[i] not in allowed:
            raise DataFormatError(
                f"{path}, line {lines[i]}: attribute {attr.name!r} has value {values[i]!r}, "
                f"not among its declared levels {levels[:12]}"
            )
    return pd.Series(
        pd.Categorical(np.where(missing, None, values), categories=levels), name=attr.name
    )


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


def read_rda(path: str | Path, object_name: str | None = None) -> pd.DataFrame:
    """Read one data frame from an R ``.rda``/``.RData`` file (factors stay categorical)."""
    import pyreadr

    path = Path(path)
    try:
        objects = pyreadr.read_r(str(path))
    except Exception as exc:  # pyreadr raises its own types
        raise DataFormatError(f"{path}: cannot read R data: {exc}") from exc
    if object_name is None:
        if len(objects) != 1:
            raise DataFormatError(f"{path}: holds {list(objects)}; name the object to read")
        object_name = next(iter(objects))
    if object_name not in objects:
        raise DataFormatError(f"{path}: no object {object_name!r}; found {list(objects)}")
    frame = objects[object_name].reset_index(drop=True)
    for name in frame.columns:
        if frame[name].dtype.kind in "iuf":
            frame[name] = frame[name].astype(np.float64)
    return frame


def read_any(
    path: str | Path,
    fmt: str,
    columns: tuple[str, ...] = (),
    skip_rows: int = 0,
    na_values: tuple[str, ...] = (),
) -> pd.DataFrame:
    """Dispatch on the registry's format name (``na_values`` apply to csv/tsv)."""
    if fmt == "arff":
        return read_arff(path)
    if fmt in ("csv", "tsv"):
        sep = "," if fmt == "csv" else "\t"
        return read_csv(path, columns, skip_rows, sep=sep, na_values=na_values)
    if fmt == "rda":
        return read_rda(path)
    raise DataFormatError(f"{path}: unknown format {fmt!r}; expected arff, csv, tsv or rda")
