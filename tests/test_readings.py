"""The one reading of the papers' words (hierbn.studies.readings, docs/readings.md): each
threshold with a case just inside it, which passes, and one just outside, which fails. The
cases are fixed numbers at the table's thresholds, so moving any constant of the module either
way fails a test; the docs page states the same table."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hierbn.studies import readings as R

DOCS = Path(__file__).resolve().parents[1] / "docs" / "readings.md"


@pytest.mark.parametrize(
    ("reading", "inside", "outside"),
    [
        (R.EVERY, (20, 20), (19, 20)),
        (R.ALMOST_ALL, (9, 10), (17, 19)),  # 0.9 in; 0.8947 out
        (R.ALMOST_ALL, (18, 20), (26, 29)),  # 0.9 in; 0.8966 out
        (R.LARGE_MAJORITY, (2, 3), (13, 20)),  # 0.6667 in; 0.65 out
        (R.LARGE_MAJORITY, (20, 30), (199, 300)),  # 0.6667 in; 0.6633 out
        (R.MOST, (11, 20), (10, 20)),  # more than half; exactly half is not most
        (R.MOST, (51, 100), (50, 100)),
    ],
)
def test_each_quantifier_holds_just_inside_and_fails_just_outside(reading, inside, outside) -> None:
    assert R.share_holds(*inside, reading)
    assert not R.share_holds(*outside, reading)
    flags = [True] * inside[0] + [False] * (inside[1] - inside[0])
    verdict = R.quantified(flags, reading, "data sets")
    assert verdict.ok and verdict.text.startswith(f"{inside[0]} of {inside[1]} data sets")


def test_no_units_never_hold_and_a_non_quantifier_is_refused() -> None:
    assert not any(R.share_holds(0, 0, q) for q in R.QUANTIFIERS)
    with pytest.raises(ValueError, match="not a quantifier"):
        R.share_holds(1, 2, R.EQUIVALENT)


def test_equivalence_is_ten_percent_of_the_paper_by_default_or_the_papers_precision() -> None:
    assert R.equivalent(110.0, 100.0) and R.equivalent(90.0, 100.0)
    assert not R.equivalent(110.01, 100.0) and not R.equivalent(89.99, 100.0)
    assert R.equivalent(-0.55, -0.5) and not R.equivalent(-0.56, -0.5)
    assert R.equivalent(0.6465, 0.646, margin=0.0005) and not R.equivalent(0.6466, 0.646, 0.0005)
    assert not R.equivalent(math.nan, 1.0)
    assert R.relative_margin(-20.0) == pytest.approx(2.0)


def test_the_papers_precision_is_one_unit_in_its_last_printed_place() -> None:
    margin = R.paper_precision("0.25")
    assert margin == pytest.approx(0.01)
    assert R.equivalent(0.26, 0.25, margin) and not R.equivalent(0.2601, 0.25, margin)
    assert R.paper_precision("12") == pytest.approx(1.0)


def test_a_step_lowers_a_quantity_only_beyond_its_rounding() -> None:
    assert not R.lowered(-0.99e-9 * 1e4, 1e4) and not R.lowered(-0.99e-9 * 1e4, -1e4)
    assert R.lowered(-1.01e-9 * 1e4, -1e4)
    assert not R.lowered(0.0, 0.0) and R.lowered(-1e-300, 0.0)


def test_per_unit_equivalence_needs_nine_in_ten_units() -> None:
    assert R.equivalent_units([True] * 9 + [False]).ok
    assert not R.equivalent_units([True] * 17 + [False] * 2).ok  # 0.8947
    assert not R.equivalent_units([]).ok


def test_better_is_the_papers_test_at_its_level_else_more_wins_than_losses() -> None:
    assert R.better(5, 4) and not R.better(4, 4) and not R.better(3, 4)
    assert R.better(42, 23, p_value=0.05, alpha=0.05)
    assert not R.better(42, 23, p_value=0.0501, alpha=0.05)
    assert not R.better(23, 42, p_value=0.001, alpha=0.05)  # significant the other way
    with pytest.raises(ValueError, match="p-value"):
        R.better(2, 1, alpha=0.05)
    assert R.significant(0.05, 0.05) and not R.significant(0.051, 0.05)


def test_k_orders_of_magnitude_is_a_ratio_of_ten_to_the_k() -> None:
    assert R.orders_of_magnitude(100.0, 2) and not R.orders_of_magnitude(99.9, 2)
    assert R.orders_of_magnitude(10.0, 1) and not R.orders_of_magnitude(9.99, 1)


def test_a_printed_number_allows_its_precision_plus_two_standard_errors() -> None:
    assert R.printed_precision("0.646") == pytest.approx(0.0005)
    assert R.printed_precision("5.7%") == pytest.approx(0.05)
    assert R.printed_precision("1,867") == pytest.approx(0.5)
    with pytest.raises(ValueError):
        R.printed_precision("about ten")
    assert R.within_printed(0.6465, 0.646, 0.0005).ok
    assert not R.within_printed(0.64651, 0.646, 0.0005).ok
    assert R.within_printed(0.6485, 0.646, 0.0005, se=0.001).ok  # 0.0005 + 2 x 0.001
    assert not R.within_printed(0.64851, 0.646, 0.0005, se=0.001).ok
    verdict = R.within_printed(np.float64(0.6465), 0.646, 0.0005, se=np.float64(0.0))
    assert verdict.ok is True and bool(verdict) is True  # numpy inputs give a plain bool


def test_an_order_treats_differences_within_noise_as_ties_and_ties_never_break_it() -> None:
    assert R.noise(se_difference=0.01) == pytest.approx(0.02)
    assert R.noise(se_difference=0.01, band=0.03) == pytest.approx(0.03)
    assert R.compare(1.02, 1.0, 0.02) == 0 and R.compare(1.0201, 1.0, 0.02) == 1
    assert R.compare(0.9799, 1.0, 0.02) == -1
    assert R.order_holds([1.0, 1.02, 0.5], [0.02, 0.02]).ok  # a tie within noise
    assert not R.order_holds([1.0, 1.0201, 0.5], [0.02, 0.02]).ok  # a reversal beyond it
    assert not R.order_holds([1.0, 0.99, 1.03], [0.02, 0.02]).ok  # 3rd above 1st beyond noise
    with pytest.raises(ValueError, match="tolerances"):
        R.order_holds([1.0, 2.0], [])


def test_a_trend_needs_the_correlations_sign_and_its_end_points_beyond_noise() -> None:
    n = [10, 20, 40, 80]
    assert R.trend(n, [1.0, 1.1, 1.05, 1.3], +1, tolerance=0.29).ok
    assert not R.trend(n, [1.0, 1.1, 1.05, 1.3], +1, tolerance=0.3).ok  # ends within noise
    assert not R.trend(n, [1.3, 1.1, 1.05, 1.0], +1, tolerance=0.0).ok  # the wrong sign
    assert R.trend(n, [1.3, 1.1, 1.05, 1.0], -1, tolerance=0.0).ok
    assert not R.trend(n, [1.0] * 4, +1, 0.0).ok and not R.trend(n, [1.0] * 4, -1, 0.0).ok
    with pytest.raises(ValueError, match="direction"):
        R.trend(n, [1, 2, 3, 4], 0, 0.0)


def test_a_plateau_moves_less_than_one_percent_of_the_total_over_its_last_tenth() -> None:
    # 21 points from 0 to 100: the last tenth starts at point 18 (floor(21 x 0.9))
    def curve(at_18: float) -> list[float]:
        return [0.0, *([50.0] * 17), at_18, 99.5, 100.0]

    assert R.plateau(curve(99.01)).ok  # the last stretch moves 0.99 % of the total
    assert not R.plateau(curve(99.0)).ok  # 1 % is not below 1 %
    assert R.plateau([5.0, 5.0, 5.0]).ok  # flat
    assert not R.plateau([0.0, 1.0]).ok  # two points: the whole curve is its last stretch


@given(st.integers(1, 500), st.integers(0, 500))
def test_the_quantifiers_are_nested(total: int, count: int) -> None:
    count = min(count, total)
    order = [R.EVERY, R.ALMOST_ALL, R.LARGE_MAJORITY, R.MOST]
    held = [R.share_holds(count, total, q) for q in order]
    assert held == sorted(held)  # a stronger reading holding implies every weaker one


def test_the_constants_are_the_tables_numbers_and_the_docs_page_states_them() -> None:
    assert (R.ALMOST_ALL_SHARE, R.LARGE_MAJORITY_SHARE, R.MOST_SHARE) == (0.9, 2 / 3, 0.5)
    assert (R.EQUIVALENCE_RELATIVE, R.EQUIVALENT_UNITS_SHARE) == (0.1, 0.9)
    assert (R.STANDARD_ERRORS, R.PLATEAU_CHANGE, R.LAST_STRETCH) == (2.0, 0.01, 0.1)
    text = DOCS.read_text()
    for reading in R.READINGS:
        assert reading.rule in " ".join(text.split()), f"docs/readings.md lacks {reading.key}"
        for word in reading.words:
            assert word in text, f"docs/readings.md lacks the word {word!r}"
    assert re.search(r"≥ 90 %", text) and re.search(r"≥ 2/3", text) and "> 1/2" in text


def test_a_reading_names_itself_with_the_sentences_word_and_refuses_another() -> None:
    assert R.MOST.named("generally") == (
        "“generally” read as > 1/2 of the units (docs/readings.md)"
    )
    with pytest.raises(ValueError, match="not one of"):
        R.MOST.named("almost all")
