"""The 22 inputs of issue 45's table, each through ``hierbn fit``'s command line in this process:
a refusal is one line naming the file, row, column or flag (no traceback, exit status 1) and
leaves no network file; the inputs that are valid (a byte-order mark, a quoted line break, a
category named NA, a missing --out folder) are read and said so; Ctrl-C is one line and 130."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from hierbn.cli import INTERRUPTED, main

ROWS = 60
LINES = ["a,b,cls", *(f"{'xy'[i % 2]},{i % 3},{'pq'[i % 2 ^ (i % 5 == 0)]}" for i in range(ROWS))]
GOOD = "\n".join(LINES) + "\n"  # a small valid table: two attributes and the class


def _with_column(name: str, value) -> str:
    """GOOD with a first column ``name`` whose row ``i`` (0-based) holds ``value(i)``."""
    rows = [f"{value(i)},{line}" for i, line in enumerate(LINES[1:])]
    return "\n".join([f"{name},{LINES[0]}", *rows]) + "\n"


def _run(
    tmp_path: Path, capsys, files: dict[str, str | bytes], *flags: str
) -> tuple[int, str, str]:
    """``hierbn fit --estimator laplace --out <tmp>/out/net.bif`` with ``flags`` on ``files``
    written into ``tmp_path``: (exit status, stdout, stderr)."""
    for name, text in files.items():
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    argv = ["fit", "--estimator", "laplace", "--out", str(tmp_path / "out" / "net.bif")]
    argv += [flag.replace("{tmp}", str(tmp_path)) for flag in flags]
    try:
        code = main(argv)
    except SystemExit as refused:  # a refusal: its message is the one line the shell shows
        code = 1
        print(refused.code, file=sys.stderr)
    out, err = capsys.readouterr()
    return code, out, err


DATA = ("--data", "{tmp}/d.csv")
NB = ("--target", "cls", "--structure", "nb")
CASES = {  # files, flags, the message's pattern
    "empty file": ({"d.csv": ""}, (*DATA, *NB), r"d\.csv: no header line"),
    "header only": ({"d.csv": "a,b,cls\n"}, (*DATA, *NB), r"a header line and no data rows"),
    "all-missing column": ({"d.csv": _with_column("e", lambda i: "")}, (*DATA, *NB),
                           r"column 'e' has no data .*--drop e"),
    "target not a column": ({"d.csv": GOOD}, (*DATA, "--target", "class", "--structure", "nb"),
                            r"target column 'class' not found"),
    "ragged row": ({"d.csv": GOOD + "x,1\n"}, (*DATA, *NB), rf"line {ROWS + 2}: expected 3 fields"),
    "non-UTF-8": ({"d.csv": GOOD.encode() + b"x,\xff,p\n"}, (*DATA, *NB), rf"line {ROWS + 2}: not UTF-8"),
    "unknown edge column": ({"d.csv": GOOD, "e.txt": "a -> z\n"}, (*DATA, "--edges", "{tmp}/e.txt"),
                            r"e\.txt, line 1: .*'z'"),
    "missing edges file": ({"d.csv": GOOD}, (*DATA, "--edges", "{tmp}/none.txt"), r"--edges .*none\.txt"),
    "unknown setting": ({"d.csv": GOOD}, (*DATA, *NB, "--setting", "iteratons=5"),
                        r"has no setting \['iteratons'\]"),
    "unknown extension": ({"d.xlsx": GOOD}, ("--data", "{tmp}/d.xlsx", *NB), r"unknown extension '\.xlsx'"),
    "unique string ids": ({"d.csv": _with_column("id", lambda i: f"u{i}")}, (*DATA, *NB),
                          rf"'id' has {ROWS} distinct values .*--drop id"),
    "unique numeric ids": ({"d.csv": _with_column("id", lambda i: i)}, (*DATA, *NB),
                           r"'id' holds a different whole number .*--drop id"),
    "constant column with --learn": ({"d.csv": _with_column("k", lambda i: "c")},
                                     (*DATA, "--learn", "hc", "--keep-constant"),
                                     r"d\.csv: column 'k' has a single value .*--drop k"),
    "inf in a number column": ({"d.csv": _with_column("n", lambda i: "inf" if i == 7 else i * 0.37)},
                               (*DATA, *NB), r"line 9: column 'n' has 'inf'"),
    "edges with a cycle": ({"d.csv": GOOD, "e.txt": "a -> b\nb -> a\n"}, (*DATA, "--edges", "{tmp}/e.txt"),
                           r"cycle a -> b -> a \(the arcs at .*e\.txt, line 1"),
    "--out under a regular file": ({"d.csv": GOOD, "out": "a file"}, (*DATA, *NB), r"is a file, not a folder"),
    "too many parent configurations": ({"d.csv": GOOD}, (*DATA, "--target", "cls", "--structure", "kdb2",
                                                        "--max-parent-configurations", "2"),
                                       r"above the limit of 2.*--max-parent-configurations"),
    "misspelt estimator": ({"d.csv": GOOD}, (*DATA, *NB, "--estimator", "bdue1"), r"did you mean 'bdeu1'"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_each_bad_input_is_one_line_naming_it_and_leaves_no_file(tmp_path, capsys, case) -> None:
    files, flags, message = CASES[case]
    code, _, err = _run(tmp_path, capsys, files, *flags)
    assert code == 1 and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("hierbn fit: "), err
    assert re.search(message, err), err
    assert not (tmp_path / "out" / "net.bif").exists()


def test_valid_inputs_that_used_to_be_refused_or_silent_are_read(tmp_path, capsys) -> None:
    """A byte-order mark, a quoted line break, a category spelt NA (missing, as documented,
    and counted in the summary) and a missing --out folder (made, and said)."""
    text = "\ufeff" + "\n".join([LINES[0], '"x\ny",1,p', "NA,2,q", *LINES[1:]]) + "\n"
    code, out, err = _run(tmp_path, capsys, {"d.csv": text}, *DATA, *NB)
    assert code == 0, err
    assert "missing    1 cell" in out and "in the new folder" in out
    assert (tmp_path / "out" / "net.bif").exists()


def test_ctrl_c_is_one_line_and_130(tmp_path, capsys, monkeypatch) -> None:
    import hierbn.fit

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(hierbn.fit, "fit", interrupted)
    code, _, err = _run(tmp_path, capsys, {"d.csv": GOOD}, *DATA, *NB)
    assert code == INTERRUPTED == 130 and err.strip() == "hierbn fit: interrupted"
    assert not (tmp_path / "out" / "net.bif").exists()
