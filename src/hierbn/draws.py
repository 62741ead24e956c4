"""One record of posterior draws for every sampler of the project: Stan's NUTS and ADVI, the
HDP Gibbs sampler, HiDDeN's MALA-within-Gibbs, becker2018's Gibbs regression and AIS.

A :class:`Draws` holds named variables ``[chain, draw, ...]`` (ArviZ's ``posterior`` group)
and the per-draw sample statistics under ArviZ's names (``lp``, ``acceptance_rate``,
``step_size``, ``diverging``), plus per-run summaries in ``attrs``. :meth:`Draws.to_inference_data`
converts it to an ArviZ ``InferenceData``; :mod:`hierbn.diagnostics` reads it with
``var_names``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

SAMPLE_STATS = ("lp", "acceptance_rate", "step_size", "diverging")


@dataclass(frozen=True)
class Draws:
    """``posterior[name][chain, draw, ...]`` and ``sample_stats[name][chain, draw]`` (names
    from :data:`SAMPLE_STATS`); every array has the same (chain, draw) lengths."""

    posterior: Mapping[str, np.ndarray]
    sample_stats: Mapping[str, np.ndarray] = field(default_factory=dict)
    attrs: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.sample_stats) - set(SAMPLE_STATS)
        if unknown:
            raise ValueError(f"unknown sample statistics {sorted(unknown)}; use {SAMPLE_STATS}")
        shapes = {
            name: np.shape(values)
            for name, values in {**self.posterior, **self.sample_stats}.items()
        }
        if not shapes:
            raise ValueError("a draws record needs at least one variable")
        heads = {shape[:2] for shape in shapes.values() if len(shape) >= 2}
        if len(heads) != 1 or any(len(shape) < 2 for shape in shapes.values()):
            raise ValueError(f"every variable must be [chain, draw, ...] of one size; got {shapes}")

    @property
    def n_chains(self) -> int:
        return int(np.shape(next(iter({**self.posterior, **self.sample_stats}.values())))[0])

    @property
    def n_draws(self) -> int:
        return int(np.shape(next(iter({**self.posterior, **self.sample_stats}.values())))[1])

    def variable(self, name: str) -> np.ndarray:
        """A posterior variable or a sample statistic, ``[chain, draw, ...]``."""
        if name in self.posterior:
            return np.asarray(self.posterior[name])
        if name in self.sample_stats:
            return np.asarray(self.sample_stats[name])
        known = [*self.posterior, *self.sample_stats]
        raise KeyError(f"no variable {name!r} in the draws; known: {known}")

    def names(self, var_names: Sequence[str] | None = None) -> list[str]:
        """``var_names`` (checked) or every posterior variable."""
        if var_names is None:
            return list(self.posterior)
        for name in var_names:
            self.variable(name)
        return list(var_names)

    def to_inference_data(self):  # -> arviz.InferenceData
        """The same draws as an ArviZ ``InferenceData`` (posterior and sample_stats groups)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # ArviZ 0.x announces its 1.0
            import arviz as az

        return az.from_dict(
            posterior={k: np.asarray(v) for k, v in self.posterior.items()},
            sample_stats={k: np.asarray(v) for k, v in self.sample_stats.items()} or None,
            attrs=dict(self.attrs),
        )


def one_chain(
    posterior: Mapping[str, np.ndarray],
    sample_stats: Mapping[str, np.ndarray] | None = None,
    attrs: Mapping[str, Any] | None = None,
) -> Draws:
    """A single chain's ``name[draw, ...]`` arrays as a record with one chain."""
    return Draws(
        {k: np.asarray(v)[None] for k, v in posterior.items()},
        {k: np.asarray(v)[None] for k, v in (sample_stats or {}).items()},
        dict(attrs or {}),
    )


def concat_chains(records: Sequence[Draws]) -> Draws:
    """Chains of the same sampler (same variables and draw counts) as one record."""
    if not records:
        raise ValueError("no draws to combine")
    first = records[0]
    if any(set(r.posterior) != set(first.posterior) for r in records):
        raise ValueError("chains with different variables cannot be combined")
    return Draws(
        {k: np.concatenate([r.posterior[k] for r in records]) for k in first.posterior},
        {k: np.concatenate([r.sample_stats[k] for r in records]) for k in first.sample_stats},
        dict(first.attrs),
    )
