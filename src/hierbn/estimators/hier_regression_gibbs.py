"""Gibbs sampler of the hierarchical linear regression of becker2018 (becker2018 decision 9),
the paper's reference for the VB fit: full conditionals in the sweep order beta -> sigma -> s ->
Delta -> w, the R code's start (sigma, s, w_d ~ Gamma(1, 1), Delta ~ N(0, I)). A sweep works on
the per-group sufficient statistics (hierbn.estimators.hier_regression.GroupedData) in Numba;
each beta_i is drawn through a Cholesky factor of its precision. One call is one chain, seeded by
the caller."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hierbn.draws import Draws, one_chain
from hierbn.estimators.hier_regression import R_DEFAULTS, GroupedData, Hyper
from hierbn.estimators.hier_regression_gibbs_kernels import gibbs_chain
from hierbn.seeds import kernel_seed


@dataclass(frozen=True)
class GibbsChain:
    """Kept draws of one chain: Delta (draws, D), sigma and s (draws,), w (draws, D), the
    recorded groups' beta (draws, len(record), D), and every beta_i's mean and second moment
    over the kept draws (C, D) for pooled summaries; ``seconds`` of sampling."""

    delta: np.ndarray
    sigma: np.ndarray
    s: np.ndarray
    w: np.ndarray
    beta: np.ndarray
    beta_mean: np.ndarray
    beta_sq: np.ndarray
    record: tuple[int, ...]

    def draws(self) -> Draws:
        """The kept draws as a one-chain record: Delta, sigma, s, w and the recorded groups'
        beta (``beta[draw, group, d]``)."""
        return one_chain(
            {"Delta": self.delta, "sigma": self.sigma, "s": self.s, "w": self.w, "beta": self.beta}
        )


def sample_gibbs(
    data: GroupedData,
    n_burn: int,
    n_keep: int,
    seed: np.random.SeedSequence,
    thin: int = 1,
    hyper: Hyper = R_DEFAULTS,
    record: tuple[int, ...] = (),
    fixed_sigma: float | None = None,
    fixed_s: float | None = None,
    fixed_w: np.ndarray | None = None,
) -> GibbsChain:
    """One chain: ``n_burn`` discarded sweeps, then ``n_keep`` kept draws, every ``thin``-th of
    ``n_keep * thin`` sweeps (beta's mean and second moment over the kept draws). ``record`` lists the groups
    whose beta draws are kept whole; ``fixed_sigma``/``fixed_s``/``fixed_w`` hold those at a
    value (with all three fixed, (beta, Delta) is a Gaussian with a closed-form posterior: the
    test of the sampler)."""
    if n_burn < 0 or n_keep < 1 or thin < 1:
        raise ValueError(
            f"need n_burn >= 0, n_keep >= 1, thin >= 1; got {n_burn}, {n_keep}, {thin}"
        )
    groups = np.asarray(record, dtype=np.int64)
    if groups.size and (groups.min() < 0 or groups.max() >= data.n_groups):
        raise ValueError(f"record must list groups in [0, {data.n_groups}), got {list(record)}")
    w_fixed = np.zeros(data.dim) if fixed_w is None else np.asarray(fixed_w, dtype=np.float64)
    draws = gibbs_chain(
        data.xtx, data.xty, data.yty, data.rows, hyper.array(), int(n_burn), int(n_keep), int(thin),
        kernel_seed(seed), groups, -1.0 if fixed_sigma is None else float(fixed_sigma),
        -1.0 if fixed_s is None else float(fixed_s), w_fixed,
    )  # fmt: skip
    return GibbsChain(*draws, record=tuple(int(g) for g in groups))
