"""Readers for ARFF, CSV/TSV and R ``.rda`` files into pandas frames.

Nominal attributes become :class:`pandas.Categorical` with the *declared* levels in declared
order (as R factors read from ARFF would be); numeric attributes become float64; ``?`` is
missing. Errors name the file, the line and what was expected.
"""

from __future__ import annotations

import csv
import io
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
HEADER_BYTES = 1 << 16  # the header is looked for in this many bytes first
MOSTLY_NUMERIC = 0.95  # a column this numeric with a few non-numbers is a garbled numeric column


def _line_of_offset(data: bytes, offset: int) -> int:
    """The 1-based line (LF, CRLF or a lone CR ends one) holding byte ``offset`` of ``data``."""
    before = data[:offset]
    return len(before.splitlines()) + (1 if not before or before.endswith((b"\n", b"\r")) else 0)


def _utf8_text(path: Path, data: bytes) -> str:
    """``data`` as text; bytes that are not UTF-8 are refused naming the line and the byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_of_offset(data, exc.start)
        start = max(data.rfind(b"\n", 0, exc.start), data.rfind(b"\r", 0, exc.start)) + 1
        raise DataFormatError(
            f"{path}, line {line}: not UTF-8 text (byte {exc.start - start + 1}: {exc.reason})"
        ) from None


def _lines(text: str) -> list[str]:
    """``text`` cut after each LF, CRLF or lone CR (as ``bytes.splitlines`` cuts UTF-8 text;
    ``str.splitlines`` would also cut at Unicode separators), line ends kept."""
    return io.StringIO(text, newline="").readlines()


def _python_records(text: str, sep: str, first_line: int) -> list[tuple[int, list[str]]]:
    """(first line, stripped fields) of every record of ``text`` that is not blank, read by
    Python's csv module (a blank after the separator may precede a quote; quoted fields may
    span lines); lines count from ``first_line``. The slow path: for files the fast parser
    reads as ragged, and to name the line of a bad value."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, skipinitialspace=True)
    lines = _lines(text)
    records, previous = [], 0
    for fields in reader:
        first, previous = previous + 1, reader.line_num
        if previous > first or (fields and lines[first - 1].strip()):  # a line of blanks: none
            records.append((first + first_line - 1, [f.strip() for f in fields]))
    return records


def _after_lines(data: bytes, count: int, start: int = 0) -> int:
    """The offset in ``data`` after ``count`` lines from ``start`` (each ended by LF, CRLF or a
    lone CR; the end of ``data`` when it has fewer)."""
    for _ in range(count):
        ends = [i for i in (data.find(b"\n", start), data.find(b"\r", start)) if i >= 0]
        if not ends:
            return len(data)
        start = min(ends) + 1
        if data[start - 1 : start + 1] == b"\r\n":
            start += 1
    return start


def _split_header(data: bytes, sep: str) -> tuple[list[str], int, int]:
    """(the header's fields, the offset of the first byte after it, the number of lines it and
    the blank lines before it take) of delimited UTF-8 ``data`` whose first record that is not
    a line of blanks is the header. Only the first bytes are decoded when the header lies
    within them."""
    last = max(data.rfind(b"\n", 0, HEADER_BYTES), data.rfind(b"\r", 0, HEADER_BYTES))
    whole = len(data) <= HEADER_BYTES or last < 0
    for head in (data,) if whole else (data[: last + 1], data):
        text = head.decode("utf-8")  # UnicodeDecodeError: the caller names the line
        stream = io.StringIO(text, newline="")
        reader = csv.reader(stream, delimiter=sep, skipinitialspace=True)
        for fields in reader:
            if stream.tell() == len(text) and head is not data:
                break  # the record may go on past these bytes: read them all
            if fields and (len(fields) > 1 or fields[0].strip()):
                offset = len(text[: stream.tell()].encode("utf-8"))
                return [f.strip() for f in fields], offset, reader.line_num
        else:
            return [], len(data), reader.line_num
    return [], len(data), 0  # not reached: the loop ends on the whole data


def _blank_before_quote(data: bytes | memoryview, sep: str) -> bool:
    """Whether a field of ``data`` starts with blanks and then a quote (``a, "b,c"``)."""
    starts = (ord(sep), ord("\r"), ord("\n"))
    return any(
        m.start() == 0 or data[m.start() - 1] in starts for m in re.finditer(rb'[ \t]+"', data)
    )


def _unquoted_fields(data: bytes | memoryview, sep: str, width: int) -> list | None:
    """The ``width`` columns of ``data`` (no quote character in it) as (distinct texts, codes)
    pairs, read in one pass (:func:`hierbn.data.csv_kernels.field_codes`); None when a record
    has another number of fields. Raises ``UnicodeError`` for bytes that are not UTF-8."""
    from hierbn.data.csv_kernels import field_codes

    ok, codes, column_of, starts, ends = field_codes(np.frombuffer(data, np.uint8), ord(sep), width)
    if not ok:
        return None
    order = np.argsort(column_of, kind="stable")  # each column's entries in code order
    bounds = np.searchsorted(column_of[order], np.arange(width + 1))
    return [
        (
            [str(data[s:e], "utf-8") for s, e in zip(starts[chosen], ends[chosen], strict=True)],
            codes[j],
        )
        for j in range(width)
        for chosen in [order[bounds[j] : bounds[j + 1]]]
    ]


def _fast_fields(
    data: bytes | memoryview, sep: str, width: int, threads: int, quoted: bool
) -> list | None:
    """The columns of ``data`` by the one pass when it has no quote (not ``quoted``), else (or
    when the pass finds it ragged) by pyarrow. None when Python's csv module is to read it:
    ragged to pyarrow too, no record, one column (where a line of blanks would be a row to
    pyarrow), or a blank before a quote at a field's start (a quoted field to the csv module,
    text with a quote in it to pyarrow)."""
    if width < 2 or re.search(rb"\S", data) is None or (quoted and _blank_before_quote(data, sep)):
        return None
    fields = _unquoted_fields(data, sep, width) if not quoted else None
    return fields if fields is not None else _arrow_fields(data, sep, width, threads)


def _arrow_fields(data: bytes | memoryview, sep: str, width: int, threads: int) -> list | None:
    """The ``width`` columns of ``data`` as dictionary-encoded pyarrow arrays, read by
    pyarrow's C++ CSV parser on up to ``threads`` threads (RFC 4180: quoted separators, doubled
    quotes and line breaks; empty lines skipped); None when a record has another number of
    fields or when pyarrow cannot parse it otherwise (Python's csv module then reads it, naming
    the fault). Raises ``UnicodeError`` for bytes that are not UTF-8."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pv

    ragged = []

    def invalid(row) -> str:
        ragged.append(row)
        return "skip"

    names = [f"c{j}" for j in range(width)]
    stock = pa.cpu_count()
    pa.set_cpu_count(max(1, threads))
    try:
        table = pv.read_csv(
            io.BytesIO(data),
            read_options=pv.ReadOptions(column_names=names, use_threads=threads > 1),
            parse_options=pv.ParseOptions(delimiter=sep, newlines_in_values=True,
                                          invalid_row_handler=invalid),
            convert_options=pv.ConvertOptions(column_types=dict.fromkeys(names, pa.string()),
                                              strings_can_be_null=False),
        )  # fmt: skip
    except pa.ArrowInvalid as exc:
        if "UTF8" in str(exc):
            raise UnicodeError(str(exc)) from None
        return None  # anything else pyarrow cannot parse: Python's csv module names the fault
    finally:
        pa.set_cpu_count(stock)
    if ragged:
        return None
    return [pc.dictionary_encode(table.column(j)).combine_chunks() for j in range(width)]


def _texts_and_codes(column) -> tuple[list[str], np.ndarray]:
    """(the distinct texts, each row's index into them) of a column of text fields: a
    dictionary-encoded pyarrow array, a list, or already that pair (the one-pass reader's)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, tuple):
        return column
    encoded = (
        column
        if isinstance(column, pa.DictionaryArray)
        else pc.dictionary_encode(pa.array(column, pa.string()))
    )
    return encoded.dictionary.to_pylist(), encoded.indices.to_numpy(zero_copy_only=False)


def _typed_column(
    path: Path, name: str, column, line_of, na_values: tuple[str, ...] = ()
) -> pd.Series:
    """One column of text fields (see :func:`_texts_and_codes`) as float64 when every present
    value is a number; a column of mostly numbers with a few other values is refused as garbled
    (naming the line: ``line_of(row)``); otherwise a categorical of the levels present (sorted).
    ``?`` and ``na_values`` are missing everywhere; an empty field is missing in a numeric
    column and a level "" in a text column (as R's ``read.table`` reads them); blanks around a
    field do not count. Each distinct text is stripped and typed once, so a column of a few
    levels costs little whatever its length."""
    texts, rows = _texts_and_codes(column)
    texts = [t.strip() for t in texts]
    tokens = {"?", *na_values}
    missing = np.fromiter((t in tokens for t in texts), bool, len(texts))
    present = ~missing & np.fromiter((t != "" for t in texts), bool, len(texts))
    numbers = np.full(len(texts), np.nan)
    if present.any():
        typed = np.array(texts, dtype=object)[present]
        numbers[present] = pd.to_numeric(typed, errors="coerce").astype(np.float64)
    bad = present & np.isnan(numbers)
    if not bad.any():
        infinite = np.isinf(numbers)
        if infinite.any():
            first = int(np.flatnonzero(infinite[rows])[0])
            raise DataFormatError(
                f"{path}, line {line_of(first)}: column {name!r} has {texts[rows[first]]!r}, "
                "an infinite number; a value must be finite (or missing: ?, an empty field)"
            )
        return pd.Series(numbers[rows], name=name, dtype=np.float64)
    numeric = present & ~bad
    if numeric.any():  # numbers among words: garbled when they are most of the rows
        counts = np.bincount(rows, minlength=len(texts))
        numeric_rows, present_rows = int(counts[numeric].sum()), int(counts[present].sum())
        if numeric_rows >= MOSTLY_NUMERIC * present_rows:
            first = int(np.flatnonzero(bad[rows])[0])
            raise DataFormatError(
                f"{path}, line {line_of(first)}: column {name!r} is numeric in {numeric_rows} "
                f"of {present_rows} rows but has {texts[rows[first]]!r}"
            )
    levels = sorted({t for t, gone in zip(texts, missing, strict=True) if not gone})
    code = {level: i for i, level in enumerate(levels)}
    code_of = np.array(
        [-1 if gone else code[t] for t, gone in zip(texts, missing, strict=True)],
        np.min_scalar_type(-max(len(levels), 1)),  # a type pandas keeps: no copy to narrow
    )
    categorical = pd.Categorical.from_codes(
        np.take(code_of, rows), pd.Index(levels, dtype=object), validate=False
    )
    return pd.Series(categorical, name=name)


def read_csv(
    path: str | Path,
    columns: tuple[str, ...] = (),
    skip_rows: int = 0,
    sep: str = ",",
    na_values: tuple[str, ...] = (),
    threads: int = 1,
) -> pd.DataFrame:
    """Read a delimited file (header-less when ``columns`` are given); ``?`` and the
    ``na_values`` tokens are missing, so is an empty field in a numeric column.

    The text must be UTF-8 (a byte-order mark is dropped); lines end in LF, CRLF or a lone CR;
    a quoted field may hold the separator, a doubled quote or a line break (RFC 4180); blank
    lines are skipped, and blanks around a field dropped. Every record must have one field per
    column (a truncated or garbled file is an error naming the line). Text columns become
    categoricals of the levels present (sorted); numeric ones float64; a column of numbers
    with a stray word is refused naming the line. A file without a quote character is read in
    one pass that also codes each column's texts (:mod:`hierbn.data.csv_kernels`); pyarrow's
    CSV parser reads one with quotes, on up to ``threads`` threads, and one the pass finds
    ragged; Python's csv module reads one pyarrow finds ragged (refused if still ragged), one
    with a blank before a quoted field, and one of a single column.
    """
    if len(sep) != 1 or not sep.isascii():
        raise ValueError(f"sep must be one ASCII character, got {sep!r}")
    path = Path(path)
    data = path.read_bytes().removeprefix(UTF8_BOM)
    offset = _after_lines(data, skip_rows)
    start = skip_rows + 1  # the line the records start on
    if not columns:
        try:
            header, used, lines = _split_header(data[offset:], sep)
        except UnicodeDecodeError:
            _utf8_text(path, data)  # names the line
            raise
        offset, start = offset + used, start + lines
        if not header:
            raise DataFormatError(f"{path}: no header line")
        columns = tuple(header)
        if re.search(rb"\S", data[offset:]) is None:
            raise DataFormatError(f"{path}: a header line and no data rows")
    if len(set(columns)) != len(columns):
        raise DataFormatError(f"{path}: duplicated column names in {list(columns)}")
    body = memoryview(data)[offset:]  # the records, not copied
    try:
        fields = _fast_fields(body, sep, len(columns), threads, data.find(b'"', offset) >= 0)
    except UnicodeError as exc:
        _utf8_text(path, data)  # names the line
        raise DataFormatError(f"{path}: not UTF-8 text ({exc})") from None
    records: list[tuple[int, list[str]]] | None = None

    def all_records() -> list[tuple[int, list[str]]]:
        _utf8_text(path, data)
        return _python_records(str(body, "utf-8"), sep, start)

    if fields is None:  # ragged to pyarrow, or one column: Python's csv module reads it
        records = all_records()
        for line_no, values in records:
            if len(values) != len(columns):
                raise DataFormatError(
                    f"{path}, line {line_no}: expected {len(columns)} fields "
                    f"({sep!r}-separated), found {len(values)}"
                )
        fields = [list(column) for column in zip(*(v for _, v in records), strict=True)]
        fields = fields or [[]] * len(columns)

    def line_of(row: int) -> int:
        return (records or all_records())[row][0]

    return pd.DataFrame(
        {
            name: _typed_column(path, name, fields[j], line_of, na_values)
            for j, name in enumerate(columns)
        },
        copy=False,  # each column is new: pandas would copy every one of them twice
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
