"""Exact HiDDeN posteriors of a binary node by 2-D grid integration (dombowsky2025 decisions §7,
claim 3):
the oracle the MALA-within-Gibbs chains are checked against, in the tests and in the study's
checks step.

For k = 2, p(t | n) ∝ Gamma(t_1; s, b) Gamma(t_2; s, b) f(n | t) with f the collapsed
likelihood eq. (7); the integral runs over log t on a trapezoid grid (density × t)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln, logsumexp

from hierbn.validate import check_counts, check_positive

GRID_POINTS = 600
LOG_T_RANGE = (-9.0, 5.0)  # t from 1.2e-4 to 148


@dataclass(frozen=True)
class GridPosterior:
    """Exact posterior summaries of one binary node."""

    mean_t: np.ndarray  # E[t_x | n], x = 0, 1
    predictive: np.ndarray  # [configuration, x]: E[(t_x + N_px) / (beta + N_p) | n], eq. (14)
    log_evidence: float  # log ∫ f(n | t) p(t) dt


def _grid() -> tuple[np.ndarray, np.ndarray]:
    """Grid points t and log trapezoid weights d(log t) · t."""
    u = np.linspace(*LOG_T_RANGE, GRID_POINTS)
    w = np.full(GRID_POINTS, u[1] - u[0])
    w[[0, -1]] *= 0.5
    return np.exp(u), np.log(w) + u


def _log_prior(t: np.ndarray, b: float, shape: float) -> np.ndarray:
    return shape * np.log(b) - gammaln(shape) + (shape - 1) * np.log(t) - b * t


def grid_posterior(table: np.ndarray, b: float = 1.0, shape: float = 1.0) -> GridPosterior:
    """Posterior of t = (t_1, t_2) given a table ``[configuration, x]`` with two columns."""
    n = check_counts(table, "table", integer=True)
    if n.shape[1] != 2:
        raise ValueError(f"grid integration needs a binary child, got {n.shape[1]} columns")
    b = check_positive(b, "b")
    t, log_w = _grid()
    t1, t2 = t[:, None, None], t[None, :, None]
    n_pa = n.sum(axis=1)
    beta = t1 + t2
    log_f = np.sum(gammaln(beta) - gammaln(n_pa + beta) + gammaln(n[:, 0] + t1) - gammaln(t1)
                   + gammaln(n[:, 1] + t2) - gammaln(t2), axis=-1)  # fmt: skip
    log_joint = (log_f + (_log_prior(t, b, shape) + log_w)[:, None]
                 + (_log_prior(t, b, shape) + log_w)[None, :])  # fmt: skip
    log_evidence = float(logsumexp(log_joint))
    weights = np.exp(log_joint - log_evidence)
    mean_t = np.array([np.sum(weights * t[:, None]), np.sum(weights * t[None, :])])
    shape3 = np.broadcast_shapes(t1.shape, t2.shape, n_pa.shape)
    numerators = [np.broadcast_to(t1 + n[:, 0], shape3), np.broadcast_to(t2 + n[:, 1], shape3)]
    cells = np.stack(numerators, axis=-1) / (beta + n_pa)[..., None]  # (grid, grid, cfg, x)
    predictive = np.einsum("ab,abpx->px", weights, cells)
    return GridPosterior(mean_t, predictive, log_evidence)


def posterior_draws(
    table: np.ndarray, size: int, rng: np.random.Generator, b: float = 1.0, shape: float = 1.0,
    points: int = 2000,
) -> np.ndarray:  # fmt: skip
    """``size`` draws of (t_1, t_2) from the exact posterior of a binary node: a grid cell by its
    probability, then uniform within the cell on the log scale (cells are 0.7% wide)."""
    n = check_counts(table, "table", integer=True)
    if n.shape[1] != 2:
        raise ValueError(f"grid draws need a binary child, got {n.shape[1]} columns")
    edges = np.linspace(*LOG_T_RANGE, points + 1)
    centre = np.exp(0.5 * (edges[1:] + edges[:-1]))
    log_mass = _log_prior(centre, b, shape) + np.log(np.diff(np.exp(edges)))
    t1, t2 = centre[:, None, None], centre[None, :, None]
    beta = t1 + t2
    log_f = np.sum(gammaln(beta) - gammaln(n.sum(axis=1) + beta) + gammaln(n[:, 0] + t1)
                   - gammaln(t1) + gammaln(n[:, 1] + t2) - gammaln(t2), axis=-1)  # fmt: skip
    log_w = (log_f + log_mass[:, None] + log_mass[None, :]).ravel()
    cells = rng.choice(log_w.size, size, p=np.exp(log_w - logsumexp(log_w)))
    low = np.column_stack([edges[cells // points], edges[cells % points]])
    return np.exp(low + rng.uniform(0.0, edges[1] - edges[0], (size, 2)))


def model_probabilities(
    tables: Sequence[np.ndarray], prior: Sequence[float] | None = None, b: float = 1.0,
    shape: float = 1.0,
) -> np.ndarray:  # fmt: skip
    """Pr(Pa_m | n) ∝ Pr(Pa_m) ∫ f(n | Pa_m, t) p(t) dt over candidate parent sets, each given
    by its table of the same binary child (Algorithm 3's target)."""
    evidence = np.array([grid_posterior(tab, b, shape).log_evidence for tab in tables])
    weights = np.full(len(tables), 1.0 / len(tables)) if prior is None else np.asarray(prior)
    with np.errstate(divide="ignore"):
        log_post = evidence + np.log(weights)
    return np.exp(log_post - logsumexp(log_post))
