"""HiDDeN: hierarchical Dirichlet shrinkage of the CPTs of a discrete BN, sampled by
MALA-within-Gibbs (Dombowsky & Dunson 2025, Sec. 2.3 and 3; dombowsky2025 decisions §1.2,
§2.1 and §2.3).

pi_{j|Pa}(. | x_Pa) ~ Dir(t_j) for every parent configuration, t_j(x) ~ Gamma(rho_j/k_j, b_j)
(eq. 5, rate b_j). The samplers (Numba, :mod:`hierbn.estimators.hidden_kernels`) take sparse
parent–child tables (observed configurations only, :mod:`hierbn.bn.sparse_tables`):

* :func:`fit_fixed_parents` — Algorithm 1 with the parents known, vectorised over replicate
  data sets; returns the eq. (14) fitted values;
* :func:`sample_models` — Algorithm 1 + Algorithm 4 over candidate models (Algorithm 3 when
  one node varies);
* :func:`sample_edges` — Algorithm 1 + Algorithm 2 over a candidate set with Beta(c, d) edge
  indicators.

``step_size="auto"`` runs a Robbins–Monro pilot toward acceptance 0.574 and freezes the step sizes
for the production chain (dombowsky2025 decisions §2.2 and A2). Seeds are
``numpy.random.SeedSequence``\\ s, one per chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import digamma, gammaln, polygamma

from hierbn.draws import Draws, one_chain
from hierbn.estimators import hidden_kernels as kern
from hierbn.validate import check_counts, check_positive

RHO_RULES = ("code", "text")
INITS = ("exp1", "ones")
ORDERS = ("code", "structure")
STEP_SIZES = ("fixed", "auto")
PILOT_ITERATIONS = 2000


def gamma_shape(k: int, rho_rule: str) -> float:
    """Shape rho_j/k_j of the Gamma prior on t_j(x) (dombowsky2025 decision A1): ``code`` rho =
    k (shape 1, what every experiment of the paper ran), ``text`` rho = k + 1."""
    if rho_rule not in RHO_RULES:
        raise ValueError(f"rho_rule must be one of {RHO_RULES}, got {rho_rule!r}")
    return 1.0 if rho_rule == "code" else (k + 1.0) / k


# ------------------------------------------------------------------ closed forms (eqs. 9–11)
def log_h_derivatives(
    t: np.ndarray, counts: np.ndarray, log_u: np.ndarray, b: float, shape: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """log h_{j,x}(t) up to a constant (eq. 9), its first (eq. 10) and second (eq. 11)
    derivative at each ``t``, for the column ``counts[p]`` = n_{Pa,j}(p, x) and ``log_u[p]``
    over the non-empty parent configurations."""
    t = np.asarray(t, dtype=np.float64)[..., None]
    n = np.asarray(counts, dtype=np.float64)
    lu = np.asarray(log_u, dtype=np.float64)
    log_h = -b * t[..., 0] + (shape - 1) * np.log(t[..., 0])
    log_h = log_h + np.sum(gammaln(n + t) - gammaln(t) + t * lu, axis=-1)
    first = -b + (shape - 1) / t[..., 0] + np.sum(digamma(n + t) - digamma(t) + lu, axis=-1)
    second = (1 - shape) / t[..., 0] ** 2 + np.sum(polygamma(1, n + t) - polygamma(1, t), axis=-1)
    return log_h, first, second


def node_log_marginal(t: np.ndarray, table: np.ndarray) -> float:
    """log f(n_{j|Pa} | n_Pa, t_j), eq. (7), of a table ``[configuration, x]`` (dense or sparse:
    an empty configuration contributes 0)."""
    t = np.asarray(t, dtype=np.float64)
    n = check_counts(table, "table")
    beta = t.sum()
    n_pa = n.sum(axis=1)
    return float(np.sum(gammaln(beta) - gammaln(n_pa + beta)) + np.sum(gammaln(n + t) - gammaln(t)))


# ----------------------------------------------------------------------- table preparation
def _histogram(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct positive values and their multiplicities."""
    positive = values[values > 0]
    vals, mult = np.unique(positive, return_counts=True)
    return vals.astype(np.int64), mult.astype(np.float64)


@dataclass(frozen=True)
class PackedTables:
    """Tables in the kernels' histogram form, padded over a leading index set ``shape``:
    ``vals/mult[..., x, h]`` the positive counts of column x, ``pvals/pmult[..., h]`` of the
    parent counts, ``parent_counts[..., p]``, ``counts[..., p, x]``, and ``exceed[..., :nex]``
    the m_i of the Gamma way of drawing L (``nex`` 0 where one Beta per configuration is
    cheaper; see :func:`hidden_kernels.exceedances`)."""

    vals: np.ndarray
    mult: np.ndarray
    nh: np.ndarray
    parent_counts: np.ndarray
    pvals: np.ndarray
    pmult: np.ndarray
    nph: np.ndarray
    exceed: np.ndarray
    nex: np.ndarray
    counts: np.ndarray


def pack_tables(tables: np.ndarray | list, k: int) -> PackedTables:
    """Pack an (arbitrarily nested) list of tables ``[configuration, x]`` with ``k`` columns
    (fewer for a node with fewer values; padded with zero columns)."""
    flat, shape = _flatten(tables)
    # replicate chains often share one table object: summarise each distinct object once
    distinct = {id(t): check_counts(t, "table", integer=True).astype(np.int64) for t in flat}
    if any(t.shape[1] > k for t in distinct.values()):
        raise ValueError(f"a table has more than {k} child values")
    empty = _histogram(np.zeros(0))
    summary = {key: ([_histogram(t[:, x]) if x < t.shape[1] else empty for x in range(k)],
                     _histogram(t.sum(axis=1)), _exceedances(t.sum(axis=1)))
               for key, t in distinct.items()}  # fmt: skip
    checked = [distinct[id(t)] for t in flat]
    hists, phists, exceeds = zip(*(summary[id(t)] for t in flat), strict=True)
    n_h = max(1, max(len(v) for row in hists for v, _ in row))
    n_ph = max(1, max(len(v) for v, _ in phists))
    n_cfg = max(1, max(t.shape[0] for t in checked))
    n_ex = max(1, max(len(e) for e in exceeds))
    out = PackedTables(
        vals=np.zeros((len(flat), k, n_h), dtype=np.int64),
        mult=np.zeros((len(flat), k, n_h)),
        nh=np.zeros((len(flat), k), dtype=np.int64),
        parent_counts=np.zeros((len(flat), n_cfg), dtype=np.int64),
        pvals=np.zeros((len(flat), n_ph), dtype=np.int64),
        pmult=np.zeros((len(flat), n_ph)),
        nph=np.zeros(len(flat), dtype=np.int64),
        exceed=np.zeros((len(flat), n_ex), dtype=np.int64),
        nex=np.zeros(len(flat), dtype=np.int64),
        counts=np.zeros((len(flat), n_cfg, k), dtype=np.int64),
    )
    for i, table in enumerate(checked):
        for x, (v, m) in enumerate(hists[i]):
            out.vals[i, x, : len(v)], out.mult[i, x, : len(v)], out.nh[i, x] = v, m, len(v)
        v, m = phists[i]
        out.pvals[i, : len(v)], out.pmult[i, : len(v)], out.nph[i] = v, m, len(v)
        out.parent_counts[i, : table.shape[0]] = table.sum(axis=1)
        out.exceed[i, : len(exceeds[i])], out.nex[i] = exceeds[i], len(exceeds[i])
        out.counts[i, : table.shape[0], : table.shape[1]] = table
    return PackedTables(*(a.reshape(*shape, *a.shape[1:]) for a in _fields(out)))


def _exceedances(parent_counts: np.ndarray) -> np.ndarray:
    """m_i = #{p : N_p > i} for i < max N_p, or nothing when one Beta draw per configuration
    is cheaper (the kernels' rule)."""
    out = np.zeros(int(parent_counts.max(initial=0)) + 1, dtype=np.int64)
    size = kern.exceedances(parent_counts.astype(np.int64), out)
    return out[:size]


def _fields(packed: PackedTables) -> list[np.ndarray]:
    return [getattr(packed, f) for f in PackedTables.__dataclass_fields__]


def _flatten(tables: np.ndarray | list) -> tuple[list[np.ndarray], tuple[int, ...]]:
    """Leaves (2-d arrays) of a rectangular nested list, and the nesting shape."""
    if isinstance(tables, np.ndarray) and tables.ndim == 2:
        return [tables], ()
    if not len(tables):
        raise ValueError("no tables given")
    parts = [_flatten(t) for t in tables]
    shapes = {shape for _, shape in parts}
    if len(shapes) != 1:
        raise ValueError(f"tables are not nested rectangularly: inner shapes {sorted(shapes)}")
    return [leaf for leaves, _ in parts for leaf in leaves], (len(tables), *shapes.pop())


# --------------------------------------------------------------------------------- seeding
def child_seed(seq: np.random.SeedSequence, index: int) -> np.random.SeedSequence:
    """The ``index``-th child stream of ``seq`` without spawning (``spawn`` advances the
    parent's counter, so a second call with the same objects would draw other numbers)."""
    return np.random.SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, index))


def chain_seed(seq: np.random.SeedSequence) -> int:
    """The 32-bit seed of a chain's Numba generator."""
    return int(seq.generate_state(1, dtype=np.uint32)[0])


def initial_t(seq: np.random.SeedSequence, k: int, init: str) -> np.ndarray:
    """t^(0): Exp(1) draws (fixed-parent samplers, [code]) or ones (structure samplers),
    dombowsky2025 decision A4."""
    if init not in INITS:
        raise ValueError(f"init must be one of {INITS}, got {init!r}")
    if init == "ones":
        return np.ones(k)
    return np.random.default_rng(child_seed(seq, 0)).exponential(1.0, k)


def _step_array(eps: float | Sequence[float] | np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    steps = np.broadcast_to(np.asarray(eps, dtype=np.float64), shape).copy()
    if not np.all(np.isfinite(steps)) or np.any(steps <= 0):
        raise ValueError(f"step sizes must be finite and > 0, got {eps!r}")
    return steps


def _check_run(n_iter: int, burn: int, step_size: str) -> None:
    if step_size not in STEP_SIZES:
        raise ValueError(f"step_size must be one of {STEP_SIZES}, got {step_size!r}")
    if n_iter < 2 or not 0 <= burn < n_iter:
        raise ValueError(f"need n_iter >= 2 and 0 <= burn < n_iter, got {n_iter}, {burn}")


def update_count(n_iter: int, burn: int) -> int:
    """Updates after burn-in (draw 0 is the initial state): the acceptance denominator."""
    return n_iter - max(burn, 1)


# ------------------------------------------------------------------ Algorithm 1, fixed parents
@dataclass(frozen=True)
class FixedParentFit:
    """Replicate chains of one node with its parents known (index r = replicate)."""

    t: np.ndarray  # [R, n_iter, k]
    acceptance: np.ndarray  # [R, k], after burn-in
    predictive: np.ndarray  # [R, P, k]: eq. (14) posterior means per observed configuration
    log_posterior: np.ndarray  # [R, n_iter]
    step_sizes: np.ndarray  # [R, k]
    predictive_draws: np.ndarray  # [R, n_kept, P, k] (empty unless requested)
    burn: int = 0

    def draws(self, replicate: int = 0) -> Draws:
        """The kept draws (after burn-in) of one replicate as a one-chain draws record: ``t``,
        the eq. (14) ``predictive`` when kept, ``lp`` = the log-posterior; the per-coordinate
        acceptance rates and step sizes as attributes."""
        posterior = {"t": self.t[replicate, self.burn :]}
        if self.predictive_draws.size:
            posterior["predictive"] = self.predictive_draws[replicate]
        return one_chain(
            posterior,
            {"lp": self.log_posterior[replicate, self.burn :]},
            {
                "acceptance_rate": self.acceptance[replicate],
                "step_size": self.step_sizes[replicate],
            },
        )


def fit_fixed_parents(
    tables: Sequence[np.ndarray],
    eps: float | Sequence[float],
    seeds: Sequence[np.random.SeedSequence],
    *,
    n_iter: int,
    burn: int = 0,
    b: float = 1.0,
    rho_rule: str = "code",
    init: str = "exp1",
    order: str = "code",
    step_size: str = "fixed",
    keep_predictive_draws: bool = False,
    t0: np.ndarray | None = None,
) -> FixedParentFit:
    """Algorithm 1 on each replicate's table ``[configuration, x]`` (all with k columns).
    ``order="code"`` is [code]'s fixed-parent order (MALA with the previous u, then u; u^(0) ~
    U(0,1)); ``"structure"`` draws u first. Draw 0 is t^(0) (dombowsky2025 decision A3: burn-in 0
    averages it in): ``init`` draws it, or ``t0[r]`` gives each chain's (e.g. exact posterior draws,
    to check that the sampler leaves the posterior invariant)."""
    _check_run(n_iter, burn, step_size)
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    if len(seeds) != len(tables):
        raise ValueError(f"{len(tables)} tables but {len(seeds)} seeds")
    b = check_positive(b, "b")
    k = np.asarray(tables[0]).shape[1]
    packed = pack_tables(list(tables), k)
    shape = gamma_shape(k, rho_rule)
    steps = _step_array(eps, (len(tables), k))
    t0 = _initial_states(t0, (len(tables), k), [initial_t(s, k, init) for s in seeds])
    if step_size == "auto":
        pilot = [child_seed(s, 1) for s in seeds]
        steps = kern.fixed_chains(*_fixed_args(packed), t0, steps, b, shape, PILOT_ITERATIONS, 0,
                                  order == "code", True, _seeds(pilot), False)[4]  # fmt: skip
    t, acc, pred, logpost, steps, pred_draws = kern.fixed_chains(
        *_fixed_args(packed), t0, steps, b, shape, n_iter, burn, order == "code", False,
        _seeds(seeds), keep_predictive_draws,
    )  # fmt: skip
    return FixedParentFit(
        t, acc / update_count(n_iter, burn), pred, logpost, steps, pred_draws, int(burn)
    )


def _initial_states(given: np.ndarray | None, shape: tuple[int, ...], drawn: list) -> np.ndarray:
    if given is None:
        return np.stack(drawn)
    states = np.array(given, dtype=np.float64)
    if states.shape != shape or not np.all(np.isfinite(states)) or np.any(states <= 0):
        raise ValueError(f"t0 must be {shape} finite positive values, got shape {states.shape}")
    return states


def _fixed_args(p: PackedTables) -> tuple[np.ndarray, ...]:
    return (p.vals, p.mult, p.nh, p.parent_counts, p.pvals, p.pmult, p.nph, p.exceed, p.nex,
            p.counts)  # fmt: skip


def _seeds(seeds: Sequence[np.random.SeedSequence]) -> np.ndarray:
    return np.array([chain_seed(s) for s in seeds], dtype=np.int64)


# ------------------------------------------------------- Algorithms 3 and 4, candidate models
@dataclass(frozen=True)
class ModelFit:
    """Replicate chains over M candidate models with J varying nodes."""

    models: np.ndarray  # [R, n_iter] index of the visited model
    frequency: np.ndarray  # [R, M] visit frequency after burn-in ([code]'s estimate)
    rao_blackwell: np.ndarray  # [R, M] mean conditional probability (App. C.3 integral)
    acceptance: np.ndarray  # [R, J, k]
    log_posterior: np.ndarray  # [R, n_iter]
    t: np.ndarray  # [R, n_iter, J, k]
    step_sizes: np.ndarray  # [R, J, k]


def sample_models(
    tables: Sequence[Sequence[Sequence[np.ndarray]]],
    cards: Sequence[int],
    eps: float | np.ndarray,
    seeds: Sequence[np.random.SeedSequence],
    *,
    n_iter: int,
    burn: int,
    prior: Sequence[float] | None = None,
    b: float = 1.0,
    rho_rule: str = "code",
    init: str = "ones",
    step_size: str = "fixed",
    t0: np.ndarray | None = None,
    initial_models: Sequence[int] | None = None,
) -> ModelFit:
    """Algorithm 4 (Algorithm 3 when one node varies): ``tables[r][j][m]`` is replicate r's table of
    varying node j (``cards[j]`` values) under model m; ``prior`` the model probabilities (uniform
    by default; 0 excludes a model, e.g. a cyclic one). The initial model is drawn from the prior
    (dombowsky2025 decision A4) unless ``initial_models`` gives each chain's; ``t0`` ``[R, J, k]``
    overrides ``init``."""
    _check_run(n_iter, burn, step_size)
    if len(seeds) != len(tables):
        raise ValueError(f"{len(tables)} replicates but {len(seeds)} seeds")
    kj = np.asarray(cards, dtype=np.int64)
    kmax = int(kj.max())
    packed = pack_tables([list(map(list, rep)) for rep in tables], kmax)
    n_models = packed.vals.shape[2]
    log_prior = _log_prior(prior, n_models)
    shapes = np.array([gamma_shape(int(k), rho_rule) for k in kj])
    rate = np.full(kj.size, check_positive(b, "b"))
    steps = _step_array(eps, (len(tables), kj.size, kmax))
    drawn = [np.stack([np.pad(initial_t(child_seed(s, 10 + j), int(k), init), (0, kmax - k))
                       for j, k in enumerate(kj)]) for s in seeds]  # fmt: skip
    t0 = _initial_states(t0, (len(tables), kj.size, kmax), drawn)
    m0 = np.full(len(tables), -1, dtype=np.int64)
    if initial_models is not None:
        m0 = np.asarray(initial_models, dtype=np.int64)
        if m0.shape != (len(tables),) or m0.min() < 0 or m0.max() >= n_models:
            raise ValueError(f"initial_models must be {len(tables)} indices < {n_models}")
    args = (packed.vals, packed.mult, packed.nh, packed.parent_counts, packed.pvals,
            packed.pmult, packed.nph, packed.exceed, packed.nex, kj, log_prior)  # fmt: skip
    if step_size == "auto":
        pilot = [child_seed(s, 1) for s in seeds]
        steps = kern.model_chains(*args, t0, steps, rate, shapes, m0, PILOT_ITERATIONS, 0, True,
                                  _seeds(pilot))[5]  # fmt: skip
    models, rb, acc, logpost, t, steps = kern.model_chains(
        *args, t0, steps, rate, shapes, m0, n_iter, burn, False, _seeds(seeds)
    )
    kept = models[:, max(burn, 1) :]
    frequency = np.stack([np.bincount(row, minlength=n_models) for row in kept]) / kept.shape[1]
    return ModelFit(models, frequency, rb, acc / update_count(n_iter, burn), logpost, t, steps)


def _log_prior(prior: Sequence[float] | None, n_models: int) -> np.ndarray:
    weights = np.full(n_models, 1.0 / n_models) if prior is None else np.asarray(prior, float)
    if weights.shape != (n_models,) or np.any(weights < 0) or not weights.sum() > 0:
        raise ValueError(f"prior must be {n_models} non-negative weights, got {prior!r}")
    with np.errstate(divide="ignore"):
        return np.log(weights / weights.sum())


# --------------------------------------------------------------- Algorithm 2, edge indicators
@dataclass(frozen=True)
class EdgeFit:
    """One chain over the candidate parents of one node."""

    z: np.ndarray  # [n_iter, C] edge indicators (int8)
    acceptance: np.ndarray  # [k]
    log_posterior: np.ndarray  # [n_iter]
    t: np.ndarray  # [n_iter, k]
    step_sizes: np.ndarray  # [k]


def sample_edges(
    child: np.ndarray,
    candidates: np.ndarray,
    eps: float | Sequence[float],
    seed: np.random.SeedSequence,
    *,
    n_iter: int,
    burn: int,
    c: float = 1.0,
    d: float = 1.0,
    b: float = 1.0,
    rho_rule: str = "code",
    init: str = "ones",
    step_size: str = "fixed",
) -> EdgeFit:
    """Algorithm 2: ``child`` codes 0..k-1, ``candidates[row, j']`` codes of Ca(j) (any number
    of levels). z^(0) ~ Bernoulli(c/(c+d)) independently, t^(0) per ``init``
    (dombowsky2025 decision A4)."""
    _check_run(n_iter, burn, step_size)
    y = np.ascontiguousarray(child, dtype=np.int64)
    x_cand = np.ascontiguousarray(candidates, dtype=np.int64)
    if x_cand.ndim != 2 or x_cand.shape[0] != y.shape[0] or y.ndim != 1 or y.size == 0:
        raise ValueError(
            f"candidates must be [row, candidate] with {y.size} rows, got {x_cand.shape}"
        )
    if y.min() < 0 or (x_cand.size and x_cand.min() < 0):
        raise ValueError("codes must be non-negative integers")
    k = int(y.max()) + 1
    cards = x_cand.max(axis=0) + 1 if x_cand.size else np.zeros(0, dtype=np.int64)
    c, d = check_positive(c, "c"), check_positive(d, "d")
    shape = gamma_shape(k, rho_rule)
    steps = _step_array(eps, (k,))
    t0 = initial_t(seed, k, init)
    z0_rng = np.random.default_rng(child_seed(seed, 2))
    z0 = (z0_rng.random(cards.size) < c / (c + d)).astype(np.int8)
    args = (x_cand, cards.astype(np.int64), y, k, c, d)
    if step_size == "auto":
        pilot = child_seed(seed, 1)
        steps = kern.edge_chain(*args, t0.copy(), steps, b, shape, z0.copy(), PILOT_ITERATIONS, 0,
                                True, chain_seed(pilot))[4]  # fmt: skip
    z, acc, logpost, t, steps = kern.edge_chain(
        *args, t0.copy(), steps, b, shape, z0, n_iter, burn, False, chain_seed(seed)
    )
    return EdgeFit(z, acc / update_count(n_iter, burn), logpost, t, steps)
