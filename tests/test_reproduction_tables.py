"""The committed reproduction records (issue 27): one per study and the panel; every claim a
record does not pass has a row
in its study README's "Reproduction" table with the recorded verdict, and the "Recorded" table
of ``reproduction/README.md`` gives each record's verdict counts. Every recorded claim has the
scale it was judged at and its origin (the paper's sentence or a check of ours); every miss has
a cause with evidence, and the README's cause cell begins with the record's cause (issue 41)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hierbn.studies import STUDIES
from hierbn.studies.claims import CAUSES, MISSES, OUR_ORIGIN, PAPER_ORIGIN

REPO = Path(__file__).resolve().parents[1]
RECORDS = sorted((REPO / "reproduction").glob("*.json"))


def _section(text: str, title: str) -> str:
    """The lines of the markdown section ``## title`` (up to the next ``## ``)."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no '## {title}' section"
    return match.group(1)


def _rows(section: str) -> dict[str, list[str]]:
    """Table rows of a section by their first cell's first word (a claim id or study); an
    escaped pipe (\\|) stays inside its cell."""
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if line.startswith("|") and cells[0] and not set(cells[0]) <= set("-: "):
            rows[cells[0].split()[0]] = cells
    return rows


def test_every_study_and_the_panel_has_a_record() -> None:
    assert {p.stem for p in RECORDS} == set(STUDIES), "reproduction/ needs one record per study"


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_every_claim_a_record_does_not_pass_has_a_row_in_the_readme(path: Path) -> None:
    record = json.loads(path.read_text())
    readme = REPO / "src/hierbn/studies" / record["study"] / "README.md"
    rows = _rows(_section(readme.read_text(), "Reproduction"))
    for claim in record["claims"]:
        if claim["status"] == "pass":
            assert claim["id"] not in rows, f"{readme}: {claim['id']} passes but has a row"
            continue
        assert claim["id"] in rows, f"{readme}: no Reproduction row for {claim['id']}"
        assert rows[claim["id"]][1] == claim["status"], f"{readme}: {claim['id']}'s verdict"
        assert all(rows[claim["id"]][2:4]), f"{readme}: {claim['id']} needs a cause and evidence"
        if claim["status"] in MISSES and record["version"] >= 2:
            assert claim.get("cause") in CAUSES, f"{path.name}: {claim['id']} has no cause"
            assert claim.get("evidence"), f"{path.name}: {claim['id']}'s cause has no evidence"
            assert rows[claim["id"]][2].lower().startswith(claim["cause"].lower()), (
                f"{readme}: {claim['id']}'s cause reads {rows[claim['id']][2]!r}; the record "
                f"says {claim['cause']!r}"
            )


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_every_recorded_claim_has_its_scale_and_origin(path: Path) -> None:
    record = json.loads(path.read_text())
    if record["version"] < 2:
        pytest.skip(f"{path.name} was made before scales were recorded; remake it (hierbn record)")
    for claim in record["claims"]:
        assert claim.get("scale"), f"{path.name}: {claim['id']} has no scale"
        assert claim.get("origin") in (PAPER_ORIGIN, OUR_ORIGIN), f"{path.name}: {claim['id']}"


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_recorded_table_gives_each_records_counts(path: Path) -> None:
    record = json.loads(path.read_text())
    rows = _rows(_section((REPO / "reproduction/README.md").read_text(), "Recorded"))
    assert record["study"] in rows, f"reproduction/README.md: no row for {record['study']}"
    found = re.findall(r"(\d+) (pass|fail|not covered|reported)", rows[record["study"]][-1])
    shown = {status: int(n) for n, status in found}
    assert shown == {status.split(",")[0]: n for status, n in record["counts"].items()}
