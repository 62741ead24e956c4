"""The shared claim record and its short texts (hierbn.studies.claims)."""

import math

import pytest

from hierbn.studies.citations import Quote
from hierbn.studies.claims import (
    brief,
    claim,
    evaluate,
    not_covered,
    num,
    reported,
    series,
    status,
    wdl,
    without_timing,
)


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [
        (8912.3, 2, "8,900"),
        (38123.0, 2, "38,000"),
        (8912.3, 3, "8,910"),
        (0.0123456, 3, "0.0123"),
        (1.2345e-5, 2, "1.2e-05"),
        (0.5, 3, "0.5"),
        (1.0, 3, "1"),
        (12345, 3, "12,345"),  # counts stay exact
        (-0.0456, 2, "-0.046"),
        (0.0, 3, "0"),
        (math.nan, 3, "—"),
        (None, 3, "—"),
        (True, 3, "yes"),
    ],
)
def test_numbers_are_rounded_to_significant_digits(value, digits, text) -> None:
    assert num(value, digits) == text


def test_brief_texts_of_nested_values_and_long_ones_are_cut() -> None:
    assert brief({"a": 1.23456, "b": {"x": 0.5, "y": [1, 2]}, "c": None}) == (
        "a: 1.23; b: (x: 0.5; y: (1, 2)); c: —"
    )
    assert brief({}) == "—" and brief([]) == "—"
    long = brief(list(range(1000)))
    assert len(long) == 240 and long.endswith("…")
    assert (
        series({2: 8912.0, 4: 12000.0, 8: 38123.0}, "|X|=", 2) == "8,900 (|X|=2) … 38,000 (|X|=8)"
    )
    assert wdl({"wins": 3, "draws": 1, "losses": 2, "p_value": 0.6875}) == "3-1-2 (p = 0.69)"


def test_claim_record_has_texts_and_checks_its_status() -> None:
    record = claim("H1", "text", {"a": 0.123456}, 2.5, "crit", status(True), ours_text="ours")
    assert record["paper_text"] == "a: 0.123" and record["ours_text"] == "ours"
    assert record["status"] == "pass" and status(False) == "fail"
    assert not_covered("H2", "t", 1, "c", "why")["status"] == "not covered"
    with pytest.raises(ValueError, match="unknown status"):
        claim("H3", "t", 1, 1, "c", "maybe")


def test_evaluate_refuses_two_claims_with_one_id() -> None:
    functions = [lambda r: claim("H1", "t", r, r, "c", "pass")] * 2
    with pytest.raises(ValueError, match=r"\['H1'\]"):
        evaluate(functions, 1)


def test_only_timing_claims_may_differ_between_identical_runs() -> None:
    timed = claim("H3", "t", 1, {"speedup": 99.0}, "c", "pass", timing=True)
    exact = claim("H4", "t", 1, {"iterations": 12}, "c", "pass")
    kept = without_timing([timed, exact])
    assert kept[1] == exact and "ours" not in kept[0] and "status" not in kept[0]
    assert kept[0]["claim"] == "t" and kept[0]["timing"] is True and exact["timing"] is False


def test_claims_carry_the_papers_statement_and_the_deviation() -> None:
    quote = Quote("petitjean2018", "Section 6.3", "It is clear from this table …")
    record = claim("H2", "t", 1, 2, "c", "pass", statement=quote, deviation="tolerance 0.01")
    assert record["statement"] == {
        "paper": "petitjean2018",
        "locator": "Section 6.3",
        "text": "It is clear from this table …",
    }
    assert record["deviation"] == "tolerance 0.01"
    assert claim("H3", "t", 1, 2, "c", "fail")["deviation"] == ""
    shown = reported("H4", "t", 1, 2, "no criterion can fail", statement=quote)
    assert (
        shown["status"] == "reported, not judged" and shown["statement"]["locator"] == "Section 6.3"
    )
    assert shown["criterion"] == "reported, not judged: no criterion can fail"
    missing = not_covered("H5", "t", 1, "c", "needs kdb5", statement=quote, deviation="x")
    assert (
        missing["note"] == "needs kdb5" and missing["deviation"] == "x" and missing["ours"] is None
    )
