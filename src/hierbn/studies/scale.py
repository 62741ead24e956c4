"""The scale of a verdict, generated from the config, never typed. Each study's ``paper.py``
registers the paper's own scale (iterations, draws, runs, repetitions, data sets, sizes) as
:class:`Dimension` entries whose values carry locators like every other paper value; its
``workflow.py`` says what the run made of each (``run_scale(section)``, passed to the claims
step by the claims rule); the claims step compares the two (:func:`reductions`) and writes
every reduction a claim depends on into the claim's ``scale`` (:class:`RunScale`), e.g. "HDP
chains of 1,000 of the paper's 50,000 iterations; 66 of 68 data sets", or "paper"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

FULL_SCALE = "paper"


@dataclass(frozen=True)
class Dimension:
    """One dimension of a paper's scale: ``paper`` is the paper's own number (registered with
    its locator in ``paper.py``); ``text`` formats a reduction with ``{ours}`` and ``{paper}``
    ("HDP chains of {ours} of the paper's {paper} iterations")."""

    key: str
    paper: float
    text: str

    def reduction(self, ours: float) -> str | None:
        """The reduction's text when the run made less than the paper, else None."""
        if ours >= self.paper:
            return None
        return self.text.format(ours=_count(ours), paper=_count(self.paper))


def _count(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def reductions(dimensions: Sequence[Dimension], run: Mapping[str, float]) -> dict[str, str]:
    """Every dimension the run made less of than the paper, with its text; a dimension the
    run does not report is an error naming it (a study's ``run_scale`` must cover its paper
    scale)."""
    missing = [d.key for d in dimensions if d.key not in run]
    if missing:
        raise ValueError(f"the run's scale lacks {missing}; expected a value for every "
                         f"dimension of the paper's scale {[d.key for d in dimensions]}")  # fmt: skip
    unknown = sorted(set(run) - {d.key for d in dimensions})
    if unknown:
        raise ValueError(f"the run's scale has {unknown}, which the paper's scale does not name")
    out = {}
    for dimension in dimensions:
        text = dimension.reduction(float(run[dimension.key]))
        if text is not None:
            out[dimension.key] = text
    return out


@dataclass(frozen=True)
class RunScale:
    """A run's reductions (:func:`reductions`) and which dimensions each claim depends on
    (``keys``: claim id -> dimension keys; a claim not listed depends on every dimension)."""

    reduced: Mapping[str, str] = field(default_factory=dict)
    keys: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def of(self, cid: str) -> str:
        """The claim's scale: its dimensions' reductions joined by '; ', or 'paper'."""
        wanted = self.keys.get(cid, tuple(self.reduced))
        texts = [self.reduced[k] for k in wanted if k in self.reduced]
        return "; ".join(texts) if texts else FULL_SCALE


def run_scale_of(dimensions: Sequence[Dimension], run: Mapping[str, float],
                 keys: Mapping[str, Sequence[str]]) -> RunScale:  # fmt: skip
    """The :class:`RunScale` of a run; every key a claim names must be a dimension."""
    names = {d.key for d in dimensions}
    for cid, wanted in keys.items():
        unknown = sorted(set(wanted) - names)
        if unknown:
            raise ValueError(f"claim {cid} depends on {unknown}, not dimensions of {sorted(names)}")
    return RunScale(reductions(dimensions, run), keys)
