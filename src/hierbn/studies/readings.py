"""The one reading of the papers' words (``docs/readings.md``): what "most", "a large
majority", "equivalent", "better", "k orders of magnitude", a printed number, an order, a trend
and "a plateau" mean in every claim of every study. A claims module takes its thresholds from
here and names the reading in its criterion (:meth:`Reading.named`); no study defines its own
majority, tolerance or noise constant. Where a reading seems wrong for one sentence, the claim's
deviation says so; the table does not change for one claim.

Every check returns a :class:`Verdict`: whether it holds and a short text of what was counted
against which threshold, for the claim's ``ours`` text or its note."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy.stats import spearmanr

ALMOST_ALL_SHARE = 0.9  # "almost all", "nearly always", "the vast majority": at least this share
LARGE_MAJORITY_SHARE = 2 / 3  # "a large majority", "the great majority": at least this share
MOST_SHARE = 0.5  # "most", "the majority", "generally", "usually", "tends to": more than this
EQUIVALENCE_RELATIVE = 0.1  # "equivalent", "comparable", "similar": within 10 % of the paper's
EQUIVALENT_UNITS_SHARE = 0.9  # per-unit equivalence: at least this share of the units
STANDARD_ERRORS = 2.0  # a printed number, an order, a trend's end points: noise is 2 SE
PLATEAU_CHANGE = 0.01  # "a plateau", "converges": the last stretch moves < 1 % of the total
LAST_STRETCH = 0.1  # the last stretch of a curve: its last tenth (at least its last two points)
ROUNDING = 1e-9  # a gap at a bound up to floating-point rounding is at the bound, not beyond it


@dataclass(frozen=True)
class Reading:
    """One row of the table: the paper's ``words``, the ``rule`` the criterion reads them as
    (the table's cell) and its ``short`` form, which a criterion names."""

    key: str
    words: tuple[str, ...]
    rule: str
    short: str

    def named(self, said: str | None = None) -> str:
        """The reading as a criterion names it: '“most” read as > 1/2 of the units
        (docs/readings.md)'; ``said`` is the sentence's own word when it is another of the
        row's."""
        word = said if said is not None else self.words[0]
        if word not in self.words:
            raise ValueError(f"{word!r} is not one of the {self.key!r} reading's words")
        return f"“{word}” read as {self.short} (docs/readings.md)"


EVERY = Reading(
    "every",
    ("all", "every", "always", "never", "in each case"),
    "every unit the sentence names, each judged with its noise band",
    "every unit, each within its noise",
)
ALMOST_ALL = Reading(
    "almost all",
    ("almost all", "nearly always", "the vast majority"),
    f"at least {ALMOST_ALL_SHARE:.0%} of the units",
    "≥ 90 % of the units",
)
LARGE_MAJORITY = Reading(
    "large majority",
    ("a large majority", "the large majority", "the great majority"),
    "at least 2/3 of the units",
    "≥ 2/3 of the units",
)
MOST = Reading(
    "most",
    ("most", "the majority", "generally", "in general", "usually", "typically", "tends to"),
    "more than half of the units",
    "> 1/2 of the units",
)
EQUIVALENT = Reading(
    "equivalent",
    ("equivalent", "comparable", "similar", "no clear difference"),
    "a margin fixed before the run (the paper's precision, else ±10 % relative) met by the "
    f"quantity the paper shows, pooled where it pools, else by ≥ {EQUIVALENT_UNITS_SHARE:.0%} "
    "of the units",
    "an equivalence margin (the paper's precision, else ±10 %)",
)
BETTER = Reading(
    "better",
    ("better", "outperforms", "beats"),
    "the paper's own test at its level where it used one, else more wins than losses",
    "the paper's test at its level, else W > L",
)
SIGNIFICANTLY = Reading(
    "significantly", ("significantly",), "the paper's test at its level", "the paper's test"
)
ORDERS = Reading("orders", ("k orders of magnitude",), "a ratio of at least 10^k", "a ratio ≥ 10^k")
PRINTED = Reading(
    "printed",
    ("a printed number",),
    "ours within the printed precision plus 2 standard errors of ours",
    "the printed precision + 2 SE of ours",
)
ORDER = Reading(
    "order",
    ("lowest", "highest", "ranked first", "an order"),
    "an order in which differences within 2 standard errors (or the study's stated noise "
    "band) are ties, and a tie never breaks the order",
    "an order with ties within 2 SE",
)
TREND = Reading(
    "trend",
    ("grows", "shrinks", "falls", "a trend"),
    "the sign of a rank correlation over the units the paper shows, with the end points "
    "ordered beyond noise",
    "a rank correlation's sign, ends beyond noise",
)
PLATEAU = Reading(
    "plateau",
    ("a plateau", "converges"),
    "a change over the last tenth below 1 % of the total change",
    "the last tenth moving < 1 % of the total",
)
UNJUDGED = Reading(
    "unjudged",
    ("seconds on the authors' machine", "a software version's failure rate"),
    "reported, not judged (ours shown beside the paper's)",
    "reported, not judged",
)
READINGS = (EVERY, ALMOST_ALL, LARGE_MAJORITY, MOST, EQUIVALENT, BETTER, SIGNIFICANTLY, ORDERS,
            PRINTED, ORDER, TREND, PLATEAU, UNJUDGED)  # fmt: skip
QUANTIFIERS = (EVERY, ALMOST_ALL, LARGE_MAJORITY, MOST)


@dataclass(frozen=True)
class Verdict:
    """Whether a reading holds, and what was counted against what (``text``)."""

    ok: bool
    text: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "ok", bool(self.ok))  # a numpy bool reads as a plain one

    def __bool__(self) -> bool:
        return self.ok


def within(gap: float, bound: float) -> bool:
    """``gap`` at most ``bound`` (finite), up to the floating-point rounding of both
    (:data:`ROUNDING` relative): 0.55 - 0.5 is within 0.05."""
    return bool(math.isfinite(gap) and gap <= bound * (1 + ROUNDING))


# --------------------------------------------------------------------- quantifiers
def share_holds(count: int, total: int, reading: Reading) -> bool:
    """Whether ``count`` of ``total`` units satisfy a quantifier reading (no units: never)."""
    if total <= 0:
        return False
    if reading is EVERY:
        return count == total
    if reading is ALMOST_ALL:
        return count >= ALMOST_ALL_SHARE * total
    if reading is LARGE_MAJORITY:
        return count >= LARGE_MAJORITY_SHARE * total
    if reading is MOST:
        return count > MOST_SHARE * total
    raise ValueError(f"{reading.key!r} is not a quantifier reading: use one of {QUANTIFIERS}")


def quantified(flags: Sequence[bool], reading: Reading, units: str = "units") -> Verdict:
    """How many ``units`` hold (``flags``) against a quantifier reading: '17 of 20 data sets
    (85 %)'."""
    count, total = sum(bool(f) for f in flags), len(flags)
    share = f" ({count / total:.0%})" if total else ""
    return Verdict(share_holds(count, total, reading), f"{count} of {total} {units}{share}")


def equivalent_units(flags: Sequence[bool], units: str = "units") -> Verdict:
    """Per-unit equivalence: at least :data:`EQUIVALENT_UNITS_SHARE` of the units within
    their margin."""
    count, total = sum(bool(f) for f in flags), len(flags)
    ok = total > 0 and count >= EQUIVALENT_UNITS_SHARE * total
    share = f" ({count / total:.0%})" if total else ""
    return Verdict(ok, f"{count} of {total} {units} within the margin{share}")


# --------------------------------------------------------------------- equivalence
def relative_margin(paper: float) -> float:
    """The default equivalence margin: ±10 % of the paper's value."""
    return EQUIVALENCE_RELATIVE * abs(paper)


def paper_precision(text: str) -> float:
    """An equivalence margin at the paper's own precision: two values the paper prints equal
    ('0.25' and '0.25') can be up to one unit in the last printed place apart, twice
    :func:`printed_precision` ('0.25' -> 0.01)."""
    return 2 * printed_precision(text)


def equivalent(ours: float, paper: float, margin: float | None = None) -> bool:
    """``ours`` within ``margin`` of ``paper`` (default :func:`relative_margin`)."""
    bound = relative_margin(paper) if margin is None else margin
    return within(abs(ours - paper), bound)


# --------------------------------------------------------------------- better
def better(
    wins: int, losses: int, p_value: float | None = None, alpha: float | None = None
) -> bool:
    """A beats B over data sets: with the paper's own test (``alpha`` its level, ``p_value``
    ours) more wins than losses at p <= alpha; without one, more wins than losses."""
    if alpha is None:
        return wins > losses
    if p_value is None:
        raise ValueError("better: the paper's test needs our p-value")
    return wins > losses and p_value <= alpha


def significant(p_value: float, alpha: float) -> bool:
    """ "significantly": the paper's test at the paper's level."""
    return p_value <= alpha


def orders_of_magnitude(ratio: float, k: float) -> bool:
    """ "k orders of magnitude": a ratio of at least 10**k."""
    return ratio >= 10.0**k


# --------------------------------------------------------------------- printed numbers
def printed_precision(text: str) -> float:
    """Half a unit in the last printed place of a number as the paper prints it ('0.646' ->
    0.0005, '12' -> 0.5, '5.7%' -> 0.05): the rounding interval of the printed value."""
    digits = text.strip().rstrip("%").replace(",", "")
    float(digits)  # a number, or ValueError naming it
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return 0.5 * 10.0**-decimals


def within_printed(ours: float, paper: float, precision: float, se: float = 0.0) -> Verdict:
    """A printed number: ``ours`` within the printed ``precision`` plus
    :data:`STANDARD_ERRORS` standard errors of ours."""
    bound = precision + STANDARD_ERRORS * se
    gap = abs(ours - paper)
    return Verdict(
        math.isfinite(gap) and gap <= bound, f"|ours − paper| = {gap:.3g} (bound {bound:.3g})"
    )


def lowered(step: float, magnitude: float) -> bool:
    """Whether a step of a quantity of size ``magnitude`` (an objective that "never decreases",
    say) is a decrease beyond the floating-point rounding of the quantity (:data:`ROUNDING`
    relative): a step of -1e-12 on a bound of -9,400 is no decrease."""
    return step < -ROUNDING * abs(magnitude)


# --------------------------------------------------------------------- orders
def noise(se_difference: float = 0.0, band: float = 0.0) -> float:
    """The noise of a difference: :data:`STANDARD_ERRORS` standard errors of it, or the
    study's stated band, whichever is larger."""
    return max(STANDARD_ERRORS * se_difference, band)


def compare(a: float, b: float, tolerance: float) -> int:
    """1 when a > b beyond ``tolerance``, -1 when a < b beyond it, 0 for a tie."""
    if within(abs(a - b), tolerance):
        return 0
    return 1 if a > b else -1


def order_holds(values: Sequence[float], tolerances: Sequence[float]) -> Verdict:
    """An order of noisy estimates, ``values`` in the paper's order from highest to lowest:
    it holds unless a later value exceeds an earlier one beyond the noise of their difference
    (``tolerances[i]`` for the pair (i, i + 1), and for every pair after it the larger of the
    tolerances spanned); a tie never breaks the order."""
    n = len(values)
    if len(tolerances) != max(n - 1, 0):
        raise ValueError(f"order_holds: {n} values need {max(n - 1, 0)} tolerances")
    reversed_pairs = [
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if compare(values[i], values[j], max(tolerances[i:j])) < 0
    ]
    if not reversed_pairs:
        return Verdict(True, "no pair reversed beyond noise")
    i, j = reversed_pairs[0]
    return Verdict(
        False, f"{len(reversed_pairs)} pair(s) reversed beyond noise, e.g. {i + 1} < {j + 1}"
    )


# --------------------------------------------------------------------- trends
def trend(
    positions: Sequence[float], values: Sequence[float], direction: int, tolerance: float
) -> Verdict:
    """A trend over the units the paper shows (``direction`` +1 grows, -1 shrinks): the
    Spearman correlation of ``values`` with ``positions`` has the sign, and the last value is
    beyond the first by more than ``tolerance`` (the noise of their difference)."""
    if direction not in (1, -1):
        raise ValueError("trend: direction is +1 (grows) or -1 (shrinks)")
    if len(values) < 2 or len(values) != len(positions):
        raise ValueError("trend: at least two units, one position each")
    constant = len(set(values)) == 1 or len(set(positions)) == 1
    rho = 0.0 if constant else float(spearmanr(positions, values).statistic)  # flat: no trend
    ends = compare(values[-1], values[0], tolerance)
    ok = bool(math.isfinite(rho) and rho * direction > 0 and ends == direction)
    return Verdict(
        ok,
        f"Spearman ρ = {rho:.2f}; ends {'ordered' if ends == direction else 'not ordered'} beyond noise",
    )


def plateau(values: Sequence[float]) -> Verdict:
    """ "a plateau", "converges": the change over the last tenth of a curve (its last two
    points at least) below :data:`PLATEAU_CHANGE` of its total change (first to last point);
    a flat curve is a plateau."""
    if len(values) < 2:
        raise ValueError("plateau: a curve of at least two points")
    start = min(len(values) - 2, math.floor(len(values) * (1 - LAST_STRETCH)))
    total = abs(values[-1] - values[0])
    last = abs(values[-1] - values[start])
    ok = total == 0 or last < PLATEAU_CHANGE * total
    share = last / total if total else 0.0
    return Verdict(ok, f"last stretch moves {share:.2%} of the total change")
