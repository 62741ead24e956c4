"""Every paper value a study prints or judges is in its paper: each study's ``paper.py``
registers its numbers and claim statements with a locator and the paper's own words
(hierbn.studies.citations), and this test reads ``shared/papers`` to check that each quote is
in its paper and each value in its quote, and that changing any single value breaks it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from hierbn.studies import STUDIES, study_module
from hierbn.studies.citations import (
    Citation,
    PaperValues,
    leaves,
    normalise,
    numbers_in,
    problems,
)

PAPERS = Path(__file__).resolve().parents[2] / "shared" / "papers"


@pytest.fixture(scope="module")
def papers() -> dict[str, str]:
    if not PAPERS.is_dir():
        pytest.skip(f"the paper texts {PAPERS} are not present")
    return {
        path.name.split("-")[0]: path.read_text(encoding="utf-8") for path in PAPERS.glob("*.txt")
    }


def registry(study: str) -> PaperValues:
    values = study_module(study, "paper").PAPER
    assert isinstance(values, PaperValues) and values.citations, (
        f"{study}: paper.py registers nothing"
    )
    return values


@pytest.mark.parametrize("study", STUDIES)
def test_every_paper_value_is_in_its_located_passage(study: str, papers: dict[str, str]) -> None:
    found = [p for c in registry(study).citations for p in problems(c, papers[c.quote.paper])]
    assert not found, "\n".join(found)


def _other_number(value: float, quote: str) -> float:
    """A number near ``value`` that the quote does not hold (a plausible typo)."""
    present = numbers_in(normalise(quote))
    for step in (1, 2, 3, 5, 7):
        candidate = value + step * (10 ** math.floor(math.log10(abs(value))) / 10 if value else 1)
        if not any(math.isclose(candidate, x) or math.isclose(candidate, x / 100) for x in present):
            return candidate
    raise AssertionError(f"no number near {value} outside the quote")


@pytest.mark.parametrize("study", STUDIES)
def test_changing_any_single_paper_value_is_caught(study: str, papers: dict[str, str]) -> None:
    for citation in registry(study).citations:
        values = leaves(citation.value)
        for i, leaf in enumerate(values):
            changed = list(values)
            changed[i] = (
                f"{leaf} (changed)"
                if isinstance(leaf, str)
                else _other_number(leaf, citation.quote.text)
            )
            mutant = Citation(citation.name, changed, citation.quote, citation.ordered)
            assert problems(mutant, papers[citation.quote.paper]), (
                f"{citation.name}: changing {leaf!r} to {changed[i]!r} is not caught"
            )


def test_a_quote_or_value_that_is_not_in_the_paper_is_reported() -> None:
    text = "K = 3: .071 (.045)\nTable 2\nNaive Bayes\t41-4-23\t40-0-28\nkDB-5\t60–4– 4\t60-2- 6\nSplice 1.499%"
    values = PaperValues("p")
    values.value(
        "nb", {"zero_one": "41-4-23", "rmse": (40, 0, 28)}, "Table 2", "Naive Bayes 41-4-23 40-0-28"
    )
    values.value("k5", (60, 4, 4), "Table 2, kDB-5", "kDB-5 60-4-4")
    values.value("splice", 0.01499, "Table 4", "Splice 1.499%")
    values.value("swapped", (28, 40), "Table 2", "Naive Bayes 41-4-23 40-0-28")
    values.value("typo", "41-4-25", "Table 2", "Naive Bayes 41-4-23 40-0-28")
    values.value("absent", 1, "Table 9", "Random Forest 1")
    values.statement("S", "Table 2", "Naive Bayes … kDB-5")
    values.value("dot", (0.071, 0.045), "Table 1", "K = 3: .071 (.045)")
    result = {c.name: problems(c, text) for c in values.citations}
    assert result["nb"] == result["k5"] == result["splice"] == result["S"] == result["dot"] == []
    assert "40 is not in the quote" in result["swapped"][0]
    assert "'41-4-25' is not in the quote" in result["typo"][0]
    assert "not in the paper" in result["absent"][0]
    with pytest.raises(ValueError, match="registered twice"):
        values.value("nb", 1, "Table 2", "x")
