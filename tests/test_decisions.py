"""The decisions the code cites are in the repository: every ``decision A12`` / ``decisions
§4.3`` reference in ``src/``, ``workflow/``, ``config/`` and ``notebooks/`` names an entry of
``docs/decisions/<study>.md`` (a heading ``### A12 — …`` or ``### §4.3 — …``), and nothing there
points to a document outside the repository (the specs the studies were written from)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hierbn.studies import STUDIES

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs" / "decisions"
SCANNED = ("src", "workflow", "config", "notebooks")
SUFFIXES = {".py", ".smk", ".yaml", ".yml", ".ipynb", ".md", ".stan", ".json", ".tsv"}
ID = r"(?:A?\d+[a-z]?|§[A-Z]?\d+(?:\.\d+)*[a-z]?)"
STUDY = "|".join(STUDIES)
REFERENCE = re.compile(rf"(?:\b({STUDY})(?:'s)? )?\bdecisions? ({ID}(?:(?:, | and | or |/){ID})*)")
HEADING = re.compile(rf"^#+\s+({ID})\b", re.MULTILINE)
OUTSIDE = re.compile(
    rf"\bspec(?:'s)? ?\(?§|\b(?:the|{STUDY}) spec\b|\bspec E\d|shared/specs|\bspec decision"
)


def scanned_files() -> list[Path]:
    return [
        path
        for top in SCANNED
        for path in sorted((REPO / top).rglob("*"))
        if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in path.parts
    ]


def owner(path: Path) -> str | None:
    """The study whose decisions a bare reference in ``path`` names (None: a shared file)."""
    text = path.relative_to(REPO).as_posix()
    return next((s for s in STUDIES if f"/{s}/" in f"/{text}" or f"/{s}." in f"/{text}"), None)


def entries(study: str) -> set[str]:
    path = DOCS / f"{study}.md"
    return set(HEADING.findall(path.read_text(encoding="utf-8"))) if path.is_file() else set()


def references() -> list[tuple[Path, str | None, str]]:
    """(file, study, id) of every decision reference."""
    found = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8")
        for match in REFERENCE.finditer(text):
            study = match.group(1) or owner(path)
            for cited in re.findall(ID, match.group(2)):
                found.append((path, study, cited))
    return found


@pytest.mark.parametrize("study", STUDIES)
def test_every_study_has_its_decisions_document(study: str) -> None:
    assert entries(study), f"docs/decisions/{study}.md is missing or has no '### <id> — …' entry"


def test_every_cited_decision_is_in_the_repository() -> None:
    known = {study: entries(study) for study in STUDIES}
    bad = [
        f"{path.relative_to(REPO)}: decision {cited} "
        + ("of no study (prefix a shared file's reference with the study)" if study is None
           else f"is not an entry of docs/decisions/{study}.md")
        for path, study, cited in references()
        if study is None or cited not in known[study]
    ]  # fmt: skip
    assert not bad, "\n".join(sorted(set(bad)))


def test_nothing_points_outside_the_repository() -> None:
    bad = [
        f"{path.relative_to(REPO)}:{text[: m.start()].count(chr(10)) + 1}: {m.group(0)!r}"
        for path in scanned_files()
        for text in [path.read_text(encoding="utf-8")]
        for m in OUTSIDE.finditer(text)
    ]
    assert not bad, f"{len(bad)} references to the specs:\n" + "\n".join(bad[:60])


def test_reference_patterns() -> None:
    text = (
        "decisions A5, A14 and §4.3; petitjean2018 decision A9; the spec §2; becker2018 spec (§3)"
    )
    cited = [(m.group(1), m.group(2)) for m in REFERENCE.finditer(text)]
    assert cited == [(None, "A5, A14 and §4.3"), ("petitjean2018", "A9")]
    assert len(OUTSIDE.findall(text)) == 2
    assert HEADING.findall("# t\n### A12 — x\n### §4.3 — y\n## 17 — z\n### §E12 — e\n") == [
        "A12",
        "§4.3",
        "17",
        "§E12",
    ]
