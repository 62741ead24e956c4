"""Bad data never becomes a wrong table: every reader refuses truncated and garbled files with
an error naming the file and the line (issue: bad input never becomes a wrong result)."""

import csv
import io
import re
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hierbn.data import readers
from hierbn.data.convert import build_dataset
from hierbn.data.download import ChecksumError
from hierbn.data.readers import DataFormatError, read_any, read_rda
from hierbn.data.registry import load_registry

REGISTRY = Path(__file__).resolve().parents[1] / "config" / "datasets.tsv"
ROWS = ["1.5,a,x", "2.5,b,y", "3.0,a,x", "4.25,?,y"]


def _write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_delimited_files_read_with_types(tmp_path: Path, fmt: str) -> None:
    sep = "," if fmt == "csv" else "\t"
    path = _write(tmp_path, "ok", "\n".join(r.replace(",", sep) for r in ROWS) + "\n")
    frame = read_any(path, fmt, ("num", "cat", "cls"))
    assert frame["num"].tolist() == [1.5, 2.5, 3.0, 4.25]
    assert frame["cat"].cat.categories.tolist() == ["a", "b"] and frame["cat"].isna().sum() == 1


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
@pytest.mark.parametrize(
    ("case", "text", "message"),
    [
        ("truncated", "\n".join(ROWS)[:-3], r"line 4: expected 3 fields .* found 2"),
        ("extra field", "\n".join([*ROWS[:2], "3.0,a,x,9", ROWS[3]]), r"line 3: expected 3 fields"),
        ("garbled number", "\n".join([*ROWS * 5, "2.#,a,x"]), r"line 21: column 'num' is numeric in 20 of 21 rows"),
        ("not text", "\n".join(ROWS[:2]).encode() + b"\n\xff\xfe,a,x\n", r"line 3: not UTF-8"),
    ],
)  # fmt: skip
def test_delimited_files_refuse_truncation_and_garbage(
    tmp_path: Path, fmt: str, case: str, text: str | bytes, message: str
) -> None:
    sep = "," if fmt == "csv" else "\t"
    body = text.replace(",", sep) if isinstance(text, str) else text.replace(b",", sep.encode())
    path = _write(tmp_path, f"{case}.{fmt}", body)
    with pytest.raises(DataFormatError, match=rf"{path.name}, {message}"):
        read_any(path, fmt, ("num", "cat", "cls"))


ARFF = """@relation toy
@attribute num numeric
@attribute cat {a, b}
@attribute cls {x, y}
@data
1.5,a,x
2.5,b,y
3.0,a,x
"""


@pytest.mark.parametrize(
    ("case", "text", "message"),
    [
        ("truncated", ARFF[:-4], r"line 8: expected 3 values, found 2"),
        ("garbled number", ARFF.replace("2.5,b,y", "2.x,b,y"), r"line 7: attribute 'num' expects a number"),
        ("garbled level", ARFF.replace("2.5,b,y", "2.5,q,y"), r"line 7: attribute 'cat' has value 'q'"),
        ("no data", ARFF.split("@data")[0], r"no @data section"),
    ],
)  # fmt: skip
def test_arff_refuses_truncation_and_garbage(tmp_path: Path, case, text, message) -> None:
    path = _write(tmp_path, "toy.arff", text)
    with pytest.raises(DataFormatError, match=message):
        read_any(path, "arff")
    assert len(read_any(_write(tmp_path, "ok.arff", ARFF), "arff")) == 3


def test_rda_refuses_a_truncated_file(tmp_path: Path) -> None:
    pyreadr = pytest.importorskip("pyreadr")
    path = tmp_path / "toy.rda"
    pyreadr.write_rdata(str(path), pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]}), "toy")
    assert read_rda(path)["a"].tolist() == [1.0, 2.0]
    cut = _write(tmp_path, "cut.rda", path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(DataFormatError, match=r"cut\.rda: cannot read R data"):
        read_rda(cut)


def _cut(source: Path, tmp_path: Path, fraction: float) -> Path:
    data = source.read_bytes()
    return _write(tmp_path, source.name, data[: int(len(data) * fraction)])


def test_real_files_cut_mid_line_are_refused(mirror, tmp_path: Path) -> None:
    """The two cases found: musk1 cut mid-line became 240 rows with a class '' and adult.data
    failed deep in pyarrow; both now name the file and the line."""
    registry = load_registry(REGISTRY)
    for study, dataset in (("petitjean2018", "musk1"), ("petitjean2018", "adult")):
        part = registry[(study, dataset)].parts[0]
        cut = _cut(mirror / part.file, tmp_path, 0.5)
        with pytest.raises(DataFormatError, match=rf"{cut.name}, line \d+: expected"):
            read_any(cut, part.format, part.columns, part.skip_rows)


def test_convert_checks_the_registered_checksum_before_reading(mirror, tmp_path: Path) -> None:
    entry = load_registry(REGISTRY)[("petitjean2018", "musk1")]
    cut = _cut(mirror / entry.parts[0].file, tmp_path, 0.999)
    with pytest.raises(ChecksumError, match=r"clean1\.data \(registered as .*clean1\.data\)"):
        build_dataset(entry, [cut])


# a cBioPortal-style table: "#" metadata lines, CR-only line ends, blanks and NA/null tokens
CBIO = ["#Patient\tSize\tSide", "#STRING\tNUMBER\tSTRING", "PATIENT_ID\tSIZE\tSIDE",
        "P1\t22\tl", "P2\t\tr", "P3\tnull\t", "P4\t15.5\tNA"]  # fmt: skip


def test_delimited_files_with_cr_line_ends_header_lines_and_missing_tokens(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path, "patients.txt", "\r".join(CBIO) + "\r")
    frame = read_any(path, "tsv", skip_rows=2, na_values=("NA", "null"))
    assert list(frame.columns) == ["PATIENT_ID", "SIZE", "SIDE"] and len(frame) == 4
    assert frame["SIZE"].dtype == "float64"  # a blank and a token in a numeric column: NaN
    assert frame["SIZE"].isna().tolist() == [False, True, True, False]
    assert frame["SIDE"].astype(object).tolist()[:3] == ["l", "r", ""]  # blank text: level ""
    assert pd.isna(frame["SIDE"].iloc[3])  # a token is missing in a text column too
    without = read_any(path, "tsv", skip_rows=2)  # without the tokens "NA" is a level
    assert without["SIDE"].astype(object).tolist()[3] == "NA"
    garbled = _write(tmp_path, "garbled.txt", "\r".join([*CBIO[2:], *CBIO[3:] * 10, "P9\t1x\tl"]))
    with pytest.raises(DataFormatError, match=r"garbled\.txt, line 46: column 'SIZE'"):
        read_any(garbled, "tsv", na_values=("NA", "null"))


def test_registry_carries_header_lines_and_missing_tokens() -> None:
    registry = load_registry(REGISTRY)
    patient = registry[("dombowsky2025", "metabric-patient")].parts[0]
    assert (patient.format, patient.skip_rows, patient.na_values) == ("tsv", 4, ("NA", "null"))
    assert registry[("dombowsky2025", "lucas0")].parts[0].na_values == ()


def test_a_utf8_byte_order_mark_is_not_part_of_the_first_column(tmp_path: Path) -> None:
    path = _write(tmp_path, "excel.csv", b"\xef\xbb\xbfa,b\n1,x\n2,y\n")
    frame = read_any(path, "csv")
    assert list(frame.columns) == ["a", "b"] and frame["a"].tolist() == [1.0, 2.0]


def test_a_header_without_rows_says_so(tmp_path: Path) -> None:
    path = _write(tmp_path, "empty.csv", "a,b\n")
    with pytest.raises(DataFormatError, match=r"empty.csv: a header line and no data rows"):
        read_any(path, "csv")


@pytest.mark.parametrize("token", ["inf", "-inf", "Infinity"])
def test_an_infinite_number_is_refused_with_column_and_line(tmp_path: Path, token: str) -> None:
    path = _write(tmp_path, "inf.csv", f"a,b\n1,x\n{token},y\n")
    with pytest.raises(DataFormatError, match=rf"inf.csv, line 3: column 'a' has '{token}'"):
        read_any(path, "csv")


def test_quoted_fields_hold_separators_quotes_and_line_breaks(tmp_path: Path) -> None:
    """RFC 4180, as spreadsheets write it: a quoted field may hold the separator, a doubled
    quote and a line break; the lines after such a field are still counted in errors."""
    text = 'note,n,cls\n"two\nlines",1,a\n"a, b",2,b\n"say ""hi""",3,a\n'
    frame = read_any(_write(tmp_path, "quoted.csv", text), "csv")
    assert frame["note"].tolist() == ["two\nlines", "a, b", 'say "hi"']
    assert frame["n"].tolist() == [1.0, 2.0, 3.0]
    header, body = text.split("\n", 1)
    garbled = f'{header}\n{body * 10}"last",x,a\n'  # 41 lines before it; its n is a word
    with pytest.raises(DataFormatError, match=r"line 42: column 'n' is numeric in 30 of 31"):
        read_any(_write(tmp_path, "garbled.csv", garbled), "csv")
    with pytest.raises(DataFormatError, match=r"line 5: expected 3 fields .* found 2"):
        read_any(_write(tmp_path, "ragged.csv", text.replace("3,a", "3")), "csv")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(
            st.one_of(
                st.sampled_from(["1", "2.5", "-3", "1e3", "", "?", "NA", "x", "a b", " y "]),
                st.text(alphabet=st.sampled_from(list('ab ,"\n\r1.')), max_size=6),
            ),
            min_size=3,
            max_size=3,
        ),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from(["\n", "\r\n"]),
)
def test_pyarrow_and_pythons_csv_module_read_the_same_table(rows, line_end) -> None:
    """The fast path (pyarrow's C++ parser) and the slow one (Python's csv module, which reads
    what pyarrow finds ragged) give the same typed table for any file Python's csv module
    writes: the two parsers are each other's oracle."""
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator=line_end).writerows([["h0", "h1", "h2"], *rows])
    data = buffer.getvalue().encode()
    body = data[data.index(line_end.encode()) + len(line_end) :]
    fast = readers._arrow_fields(body, ",", 3, 1)
    assume(fast is not None and re.search(rb"\S", body))  # a record of blanks only: slow path
    records = readers._python_records(body.decode(), ",", 2)
    assume(all(len(fields) == 3 for _, fields in records))
    slow = [list(column) for column in zip(*(f for _, f in records), strict=True)]
    assume(len(slow[0]) == len(fast[0]))  # a line of blanks is a record to pyarrow only

    def typed(column):
        try:
            return readers._typed_column(Path("t.csv"), "c", column, lambda row: row, ("NA",))
        except DataFormatError as error:
            return str(error)

    for j in range(3):
        a, b = typed(fast[j]), typed(slow[j])
        assert a == b if isinstance(a, str) else a.equals(b)


def _fields_or_error(read) -> list[list[str]] | str | None:
    """Each column's field texts, row by row (None: ragged; "not UTF-8" when it says so)."""
    try:
        columns = read()
    except UnicodeError:
        return "not UTF-8"
    if columns is None:
        return None
    pairs = [readers._texts_and_codes(column) for column in columns]
    return [[texts[code] for code in codes] for texts, codes in pairs]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([b"a", b"b", b" ", b",", b"1", b".", b"\r", b"\n", b"\xc3\xa9", b"\xff"]),
        max_size=40,
    ),
    st.integers(2, 3),
)
def test_the_one_pass_reader_splits_unquoted_text_as_pyarrow_does(pieces, width) -> None:
    """The one-pass reader of unquoted files (:func:`hierbn.data.csv_kernels.field_codes`) and
    pyarrow's parser give the same fields for any bytes without a quote: the same records (LF,
    CRLF and lone CR ends; empty lines skipped), the same texts with their blanks, the same
    refusal of a ragged record and of bytes that are not UTF-8. The one pass stops at the first
    ragged record (then pyarrow reads the file, and may find bytes that are not UTF-8 after
    it)."""
    body = b"".join(pieces)
    assume(re.search(rb"\S", body))  # read_csv refuses a file of no records before parsing
    ours = _fields_or_error(lambda: readers._unquoted_fields(body, ",", width))
    arrow = _fields_or_error(lambda: readers._arrow_fields(body, ",", width, 1))
    assert ours == arrow or (ours is None and arrow == "not UTF-8")


def test_the_one_pass_reader_tells_long_fields_of_one_digest_apart() -> None:
    """Fields over 8 bytes share digests (a byte and the one 8 places on fold into the same
    bits: these two differ in both by the same bits); their bytes tell them apart."""
    one, other = b"aaaaaaaaaaaaaaaa", b"baaaaaaabaaaaaaa"
    body = b"\n".join([one + b",x", other + b",x", one + b",y", b"short,x"]) + b"\n"
    texts, codes = readers._unquoted_fields(body, ",", 2)[0]
    assert [texts[code] for code in codes] == [one.decode(), other.decode(), one.decode(), "short"]
    assert list(codes) == [0, 1, 0, 2]


def test_the_one_pass_reader_grows_its_tables_as_pyarrow_reads_them() -> None:
    """Past its first 1,024 distinct texts the one pass grows its tables and goes on where it
    stopped: 5,000 distinct numbers and long texts read as pyarrow reads them."""
    rows = [f"{k * 0.37:.4f},level{k % 7},{'z' * (k % 13)}{k}" for k in range(5000)]
    body = ("\r\n".join(rows) + "\r\n").encode()
    assert _fields_or_error(lambda: readers._unquoted_fields(body, ",", 3)) == _fields_or_error(
        lambda: readers._arrow_fields(body, ",", 3, 1)
    )


@pytest.mark.parametrize("sep", ["§", ";;", ""])
def test_a_separator_must_be_one_ascii_character(tmp_path: Path, sep: str) -> None:
    """The one pass compares each byte with the separator's: anything else is refused."""
    with pytest.raises(ValueError, match="sep must be one ASCII character"):
        readers.read_csv(_write(tmp_path, "t.csv", "a,b\n1,2\n"), sep=sep)


def test_the_one_pass_reader_is_the_path_of_an_unquoted_file(tmp_path: Path, monkeypatch) -> None:
    """A file without quotes is read in one pass, never by pyarrow; a quoted one by pyarrow."""
    import pyarrow.csv as pv

    def refuse(*args, **kwargs):
        raise AssertionError("pyarrow read an unquoted file")

    monkeypatch.setattr(pv, "read_csv", refuse)
    frame = read_any(_write(tmp_path, "ok.csv", "n,c\r\n1.5, a\r\n\r\n2.5,b\n"), "csv")
    assert frame["n"].tolist() == [1.5, 2.5]
    assert frame["c"].tolist() == ["a", "b"]
    with pytest.raises(AssertionError, match="pyarrow read"):
        read_any(_write(tmp_path, "quoted.csv", 'n,c\n1.5,"a"\n'), "csv")


def test_a_file_pyarrow_cannot_parse_is_read_by_pythons_csv_module(
    tmp_path: Path, monkeypatch
) -> None:
    """Whatever pyarrow refuses (other than bad UTF-8) goes to the slow path, which reads a
    good file and names the line of a bad one, never a pyarrow traceback."""
    import pyarrow as pa
    import pyarrow.csv as pv

    def refuse(*args, **kwargs):
        raise pa.ArrowInvalid("CSV parse error: a fault of pyarrow's own")

    monkeypatch.setattr(pv, "read_csv", refuse)
    path = _write(tmp_path, "ok.csv", "n,c\n1.5,a\n2.5,b\n3.0,a\n")
    frame = read_any(path, "csv")
    assert frame["n"].tolist() == [1.5, 2.5, 3.0]
    bad = _write(tmp_path, "bad.csv", "n,c\n1.5,a\n2.5\n")
    with pytest.raises(DataFormatError, match=r"bad\.csv, line 3: expected 2 fields"):
        read_any(bad, "csv")
