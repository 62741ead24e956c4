"""Neighbourhood selection by the multinomial grouped lasso with R glmnet's conventions
(the lasso competitor of dombowsky2025 decisions §4.2, §4.5 and A9): the behaviour of
``cv.glmnet(x, y, family = "multinomial", type.multinomial = "grouped", alpha = 1)`` with its
defaults (standardize = TRUE, 100 λ, 10 folds, deviance), read at ``lambda.1se``.

Conventions, each from glmnet:

- *Design* (:func:`dummy_design`): R's ``model.matrix(y ~ ., data)[, -1]`` on factors, i.e. the
  treatment-coded dummies of every candidate (first observed level dropped, the intercept column
  removed). Every column is standardised by its mean and population (1/n) standard deviation;
  a constant column stays zero and never enters (glmnet's ``ju = 0``).
- *Objective*: ``-(1/n) loglik(b0 + Z B) + λ Σ_j ‖B_j‖₂`` with ``B_j`` the K class coefficients of
  dummy column ``j`` and unpenalised intercepts ``b0``. glmnet's "grouped" groups the **class**
  coefficients of one column; it does not group the dummies of one factor
  (dombowsky2025 decision A9). The minimiser has ``Σ_k B_jk = 0`` (the likelihood ignores a common
  shift, the norm does not).
- *Solver* (:mod:`~hierbn.structure_learning.group_lasso_kernels`, hand-written: no library
  offers this penalty; issue 46): the whole warm-started path in one Numba call, on the distinct
  rows of the design with their class counts (:func:`collapse`), by proximal Newton iterations
  on a working set of groups (the nonzero ones, those the sequential strong rule keeps, and any
  that breaks its KKT condition ``‖∇_j f‖₂ ≤ λ``): the exact Hessian of the loss, the penalised
  quadratic model minimised by block coordinate descent with covariance updates and Anderson
  acceleration, the step halved until the objective does not grow. *Stopping rule* (``tol``,
  default 1e-7): a λ is solved when no group breaks its KKT condition and the proximal-gradient
  mapping at the iterate, ``L ‖w - prox_{λ/L}(w - ∇f(w) / L)‖_∞`` with Böhning's bound
  ``diag(p) - p pᵀ ≼ I/2`` giving ``L = ½ σ_max([1, Z])² / n``, is at most ``tol``. (The FISTA
  solver this replaced stopped on the same mapping at its extrapolated point; the Newton
  iterations usually end far below ``tol``.)
- *λ path*: ``λ_max = max_j ‖(1/n) Z_jᵀ (Y - ȳ)‖₂`` (the smallest λ with all groups zero), then
  100 values log-spaced to ``λ_max × ratio`` with ratio 1e-2 if n < columns, else 1e-4
  (``lambda.min.ratio``). A path stops early as glmnet's does when it makes its own λ sequence
  (from the 5th λ on, when the deviance ratio exceeds 0.999 or grows by less than 1e-5).
- *CV*: folds ``sample(rep(1:10, length = n))`` (a random permutation of balanced labels). Each
  fold's training rows get **their own** path (standardised afresh, their own ``λ_max``, the same
  ratio rule and length, early stopping included), as ``cv.glmnet`` does when it is given no
  ``lambda`` (its default, and the dombowsky2025 code's call). glmnet's help for that argument:
  "default is NULL, and glmnet chooses its own sequence. Note that this is done for the full
  model (master sequence), and separately for each fold. The fits are then alligned using the
  master sequence"; its NEWS for 2.0-1: "let each model use its own lambdas, then predict at
  original set" (earlier versions refitted the folds at the full-data λ). With the default
  ``alignment = "lambda"`` a fold is predicted at each full-data λ by ``predict(fit, newx,
  s = lambda)``, whose ``lambda.interp`` interpolates the coefficients (intercepts included)
  **linearly in λ**, not in log λ, between the two fold-path λ around it; a λ above the fold's
  ``λ_max`` gets the fold's first (all-zero) fit, one below its last λ its last fit
  (:func:`interpolate_path`). The held-out deviance is ``-2 log p_y`` with p clamped to
  [1e-5, 1 - 1e-5]; the curve is the mean over observations and its SE
  ``sqrt(Σ_f n_f (m_f - m)² / n / (F - 1))`` from the fold means ``m_f``; ``lambda.min`` is the
  largest λ at the minimum, ``lambda.1se`` the largest λ whose mean is at most the minimum plus
  its SE.

With two classes the fit is L1 logistic regression: the norm of ``(-γ/2, γ/2)`` is ``|γ|/√2``,
so the logistic coefficients ``γ = B_·2 - B_·1`` minimise ``-(1/n) loglik + (λ/√2) ‖γ‖₁``.

Reproducing the bugs of the authors' code (dombowsky2025 decision A9), for the ``emulate_code_bugs``
setting:

- (i) LUCAS Lung_cancer: the response was Allergy while the design was every variable but
  Lung_cancer. The caller reproduces it by passing ``target`` = Allergy with ``candidates`` =
  every column but Lung_cancer; :func:`select_neighbours` accepts a target among its own
  candidates for exactly this reason.
- (ii) METABRIC: "parents" were the variables named in the coefficient matrix's row names, i.e.
  every candidate with a dummy column: :func:`emulate_rowname_parents`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import softmax

from hierbn.structure_learning.group_lasso_kernels import collapse_rows, design_gram, grouped_path
from hierbn.validate import check_codes, check_positive

N_LAMBDA = 100
N_FOLDS = 10
PROB_CLAMP = 1e-5  # cv.glmnet's prob_min for the held-out deviance
DEV_MAX = 0.999  # glmnet.control()$devmax
DEV_CHANGE = 1e-5  # glmnet.control()$fdev
MIN_BEFORE_STOP = 5  # glmnet.control()$mnlam
MAX_OUTER = 1_000  # outer (proximal Newton) iterations at one λ


@dataclass(frozen=True)
class GroupedPath:
    """Fits along a λ path on the standardised design: ``intercepts[l, k]``,
    ``coefs[l, j, k]`` (dummy column j, class k) and the training deviance ratio
    ``1 - deviance / null deviance`` at each ``lambdas[l]``; ``iterations[l]``, when the path
    was fitted by :func:`fit_path`, the outer iterations, coordinate-descent sweeps and groups
    the KKT check added to the working set there."""

    lambdas: np.ndarray
    intercepts: np.ndarray
    coefs: np.ndarray
    dev_ratio: np.ndarray
    iterations: np.ndarray | None = None


@dataclass(frozen=True)
class FoldFit:
    """A CV fold's fit on its training rows: ``path`` on the fold's own λ sequence (in the
    fold's standardised design ``(x - centre) / scale``) and ``present[k]``, whether class k of
    the full response occurs in the training rows (the path's classes are those)."""

    path: GroupedPath
    centre: np.ndarray
    scale: np.ndarray
    present: np.ndarray


@dataclass(frozen=True)
class NeighbourSelection:
    """The grouped-lasso neighbourhood of ``target`` among ``candidates`` (column indices).

    ``selected`` are the candidates with a nonzero group at ``lambda_1se`` (``selected_min`` at
    ``lambda_min``); ``source[j]`` is the candidate behind dummy column j; ``cv_mean``/``cv_se``
    the CV deviance curve over ``lambdas``; ``n_active[l]`` the number of nonzero groups."""

    target: int
    candidates: tuple[int, ...]
    selected: tuple[int, ...]
    selected_min: tuple[int, ...]
    lambda_1se: float
    lambda_min: float
    lambdas: np.ndarray
    cv_mean: np.ndarray
    cv_se: np.ndarray
    n_active: np.ndarray
    source: np.ndarray


def dummy_design(codes: np.ndarray, columns: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Treatment-coded dummies of ``codes[:, c]`` for each c in ``columns`` (in that order):
    one 0/1 column per observed level but the first (smallest) one, as R's
    ``model.matrix(y ~ ., data)[, -1]`` gives for factors with their observed levels
    (dombowsky2025 decisions §4.2).
    Returns the (n, m) float matrix and ``source[j]``, the column of ``codes`` behind dummy j.
    A column with a single observed level gives no dummy."""
    blocks, source = [], []
    for c in columns:
        values = codes[:, c]
        for level in np.unique(values)[1:]:
            blocks.append(values == level)
            source.append(c)
    matrix = np.column_stack(blocks).astype(np.float64) if blocks else np.empty((len(codes), 0))
    return matrix, np.asarray(source, dtype=np.int64)


def standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(x - centre) / scale`` with the column means and population (1/n) standard deviations
    (glmnet's standardize = TRUE); a constant column gets scale 1, hence stays zero."""
    centre = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    return (x - centre) / scale, centre, scale


def one_hot(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """``Y[i, k] = 1`` when ``y[i] == classes[k]``."""
    return (y[:, None] == classes[None, :]).astype(np.float64)


def null_intercepts(y_onehot: np.ndarray) -> np.ndarray:
    """Centred log class proportions: the intercept-only fit (every class must occur)."""
    logp = np.log(y_onehot.mean(axis=0))
    return logp - logp.mean()


def lambda_path(
    z: np.ndarray, y_onehot: np.ndarray, n_lambda: int = N_LAMBDA, ratio: float | None = None
) -> np.ndarray:
    """glmnet's λ sequence for standardised ``z``: ``λ_max = max_j ‖(1/n) z_jᵀ (Y - ȳ)‖₂``
    down to ``λ_max × ratio`` in ``n_lambda`` log-spaced steps; ``ratio`` defaults to 1e-2 when
    n < number of columns, else 1e-4 (``lambda.min.ratio``)."""
    n, m = z.shape
    if ratio is None:
        ratio = 1e-2 if n < m else 1e-4
    residual = y_onehot - y_onehot.mean(axis=0)
    lam_max = float(np.sqrt(((z.T @ residual / n) ** 2).sum(axis=1)).max(initial=0.0))
    if lam_max <= 0:
        raise ValueError("z has no column correlated with the response: λ_max = 0")
    return lam_max * ratio ** (np.arange(n_lambda) / (n_lambda - 1))


@dataclass(frozen=True)
class CollapsedDesign:
    """The distinct rows of a design with ``counts[r, k]``, the observations of row r in class
    k; row r is ``base + deviation``, ``base[j]`` the majority value of column j among the
    distinct rows and the nonzero deviations in CSR (row r's columns
    ``indices[indptr[r]:indptr[r + 1]]`` with ``values``)."""

    base: np.ndarray
    indptr: np.ndarray
    indices: np.ndarray
    values: np.ndarray
    counts: np.ndarray


def collapse(z: np.ndarray, y_onehot: np.ndarray) -> CollapsedDesign:
    """``z`` and ``y_onehot`` regrouped by distinct row of ``z`` (the objective's sum over the
    observations is the same sum over the distinct rows weighted by their class counts), each
    row stored sparsely as its deviation from the columns' majority values: a dummy column
    deviates on its minority rows only (:func:`~hierbn.structure_learning.group_lasso_kernels.
    collapse_rows`)."""
    z = np.ascontiguousarray(z, dtype=np.float64)
    y_onehot = np.ascontiguousarray(y_onehot, dtype=np.float64)
    order = np.lexsort(z.T) if z.shape[1] else np.arange(len(z))  # equal rows side by side
    return CollapsedDesign(*collapse_rows(z, y_onehot, order))


def bohning_bound(design: CollapsedDesign) -> float:
    """Böhning's bound ``L = ½ σ_max([1, z])² / n`` on the curvature of the mean multinomial
    log-loss in ``[b0; B]`` (``diag(p) - p pᵀ ≼ I / 2``), from the collapsed design."""
    gram = design_gram(design.base, design.indptr, design.indices, design.values, design.counts)
    return 0.5 * float(np.linalg.eigvalsh(gram)[-1])


def _grouped_path(
    z: np.ndarray,
    y_onehot: np.ndarray,
    lambdas: np.ndarray,
    start: tuple[np.ndarray, np.ndarray],
    stop_after: int,
    tol: float,
    max_iter: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`~hierbn.structure_learning.group_lasso_kernels.grouped_path` on the collapsed
    design; raises RuntimeError when a λ needs more than ``max_iter`` outer iterations."""
    design = collapse(z, y_onehot)
    lambdas = np.ascontiguousarray(lambdas, dtype=np.float64)
    fits = grouped_path(design.base, design.indptr, design.indices, design.values, design.counts,
                        lambdas, np.ascontiguousarray(start[0], dtype=np.float64),
                        np.ascontiguousarray(start[1], dtype=np.float64), bohning_bound(design),
                        tol, max_iter, stop_after, DEV_MAX, DEV_CHANGE)  # fmt: skip
    outer = fits[3][-1, 0]
    if outer < 0:
        lam = lambdas[len(fits[3]) - 1]
        raise RuntimeError(f"no convergence in {max_iter} outer iterations at lambda = {lam:.3g}")
    return fits


def solve_grouped_multinomial(
    z: np.ndarray,
    y_onehot: np.ndarray,
    lam: float,
    start: tuple[np.ndarray, np.ndarray] | None = None,
    tol: float = 1e-7,
    max_iter: int = MAX_OUTER,
) -> tuple[np.ndarray, np.ndarray, int]:
    """Minimise ``-(1/n) Σ_i log softmax(b0 + z_i B)_{y_i} + lam Σ_j ‖B_j‖₂`` from
    ``start = (b0, B)`` (default: the intercept-only fit) by the proximal Newton iterations of
    :mod:`~hierbn.structure_learning.group_lasso_kernels`, until the proximal-gradient mapping
    with Böhning's step is at most ``tol`` (∞-norm). Returns ``(b0, B, outer iterations)``;
    raises RuntimeError when ``max_iter`` outer iterations do not reach the tolerance."""
    if start is None:
        start = (null_intercepts(y_onehot), np.zeros((z.shape[1], y_onehot.shape[1])))
    intercepts, coefs, _, iterations = _grouped_path(
        z, y_onehot, np.array([lam], dtype=np.float64), start, 0, tol, max_iter
    )
    return intercepts[0], coefs[0], int(iterations[0, 0])


def fit_path(
    z: np.ndarray, y_onehot: np.ndarray, lambdas: np.ndarray, stop_early: bool, tol: float = 1e-7
) -> GroupedPath:
    """Warm-started fits at each λ of ``lambdas`` (decreasing), each to the tolerance of
    :func:`solve_grouped_multinomial`, in one kernel call. With ``stop_early`` (glmnet's rule
    when it made the λ sequence itself, i.e. for the full data and for every CV fold) the path
    ends at the first λ from the 5th on whose deviance ratio exceeds 0.999 or grows by less than
    1e-5 over the previous one (that λ is kept)."""
    start = (null_intercepts(y_onehot), np.zeros((z.shape[1], y_onehot.shape[1])))
    stop_after = MIN_BEFORE_STOP if stop_early else 0
    intercepts, coefs, ratios, iterations = _grouped_path(
        z, y_onehot, lambdas, start, stop_after, tol, MAX_OUTER
    )
    return GroupedPath(
        lambdas=np.asarray(lambdas[: len(ratios)], dtype=np.float64),
        intercepts=intercepts,
        coefs=coefs,
        dev_ratio=ratios,
        iterations=iterations,
    )


def fold_ids(n: int, n_folds: int, rng: np.random.Generator) -> np.ndarray:
    """cv.glmnet's ``sample(rep(1:n_folds, length = n))`` (zero-based): balanced labels in a
    random order."""
    return rng.permutation(np.arange(n) % n_folds)


def fit_fold(x_train: np.ndarray, y_train: np.ndarray, n_lambda: int, tol: float) -> FoldFit:
    """glmnet on one fold's training rows with no ``lambda`` given: the rows standardised afresh,
    the fold's own λ sequence (:func:`lambda_path` on them, over the classes present in them) and
    the path stopped early as glmnet's is."""
    z, centre, scale = standardise(x_train)
    present = y_train.sum(axis=0) > 0
    y = y_train[:, present]
    path = fit_path(z, y, lambda_path(z, y, n_lambda), stop_early=True, tol=tol)
    return FoldFit(path=path, centre=centre, scale=scale, present=present)


def interpolate_path(path: GroupedPath, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The intercepts ``[i, k]`` and coefficients ``[i, j, k]`` of ``path`` at each ``s[i]`` as
    glmnet's ``predict(fit, s = ...)`` gives them (its ``lambda.interp``): ``s`` is clamped to
    the path's range [last λ, first λ]; between adjacent path values ``λ_a > s ≥ λ_b`` both are
    ``w fit_a + (1 - w) fit_b`` with ``w = (s - λ_b) / (λ_a - λ_b)``, linear in λ. A path of a
    single λ gives its fit everywhere."""
    lam = path.lambdas
    s = np.clip(np.asarray(s, dtype=np.float64), lam[-1], lam[0])
    if lam.size == 1:
        index = np.zeros(s.size, dtype=np.int64)
        return path.intercepts[index], path.coefs[index]
    # a: the last path index whose λ is >= s; b = a + 1 (a = last index when s is the last λ)
    a = np.minimum(np.searchsorted(-lam, -s, side="right") - 1, lam.size - 2)
    b = a + 1
    w = (s - lam[b]) / (lam[a] - lam[b])
    intercepts = w[:, None] * path.intercepts[a] + (1 - w)[:, None] * path.intercepts[b]
    coefs = w[:, None, None] * path.coefs[a] + (1 - w)[:, None, None] * path.coefs[b]
    return intercepts, coefs


def held_out_deviance(
    fold: FoldFit, x_test: np.ndarray, y_test: np.ndarray, lambdas: np.ndarray
) -> np.ndarray:
    """``dev[l, i] = -2 log p_{i, y_i}`` of the held-out rows under the fold's fit at the
    full-data ``lambdas[l]`` (:func:`interpolate_path`), p clamped to [1e-5, 1 - 1e-5] as
    cv.glmnet does; a class absent from the training rows gets probability 0 (then 1e-5)."""
    b0, coef = interpolate_path(fold.path, lambdas)
    eta = b0[:, None, :] + ((x_test - fold.centre) / fold.scale) @ coef
    prob = np.zeros((lambdas.size, len(x_test), fold.present.size))
    prob[:, :, fold.present] = softmax(eta, axis=2)
    prob = np.clip(prob, PROB_CLAMP, 1.0 - PROB_CLAMP)
    return -2.0 * np.sum(y_test[None] * np.log(prob), axis=2)


def cv_deviance(
    x: np.ndarray,
    y_onehot: np.ndarray,
    lambdas: np.ndarray,
    folds: np.ndarray,
    n_lambda: int = N_LAMBDA,
    tol: float = 1e-7,
) -> tuple[np.ndarray, np.ndarray]:
    """Mean held-out multinomial deviance at each full-data λ of ``lambdas`` and its standard
    error, cv.glmnet style: each fold is fitted on its own λ sequence of ``n_lambda`` values
    (:func:`fit_fold`) and predicted at ``lambdas`` by interpolation (:func:`held_out_deviance`);
    the mean is over observations, the SE ``sqrt(Σ_f n_f (m_f - m)² / n / (F - 1))`` over the
    fold means ``m_f``."""
    labels = np.unique(folds)
    fold_means = np.empty((labels.size, lambdas.size))
    sizes = np.empty(labels.size)
    for f, label in enumerate(labels):
        test = folds == label
        fold = fit_fold(x[~test], y_onehot[~test], n_lambda, tol)
        fold_means[f] = held_out_deviance(fold, x[test], y_onehot[test], lambdas).mean(axis=1)
        sizes[f] = test.sum()
    mean = sizes @ fold_means / sizes.sum()
    spread = sizes @ (fold_means - mean) ** 2 / sizes.sum()
    return mean, np.sqrt(spread / (labels.size - 1))


def one_se_rule(lambdas: np.ndarray, mean: np.ndarray, se: np.ndarray) -> tuple[int, int]:
    """Indices of ``lambda.min`` (the largest λ at the minimum mean) and ``lambda.1se`` (the
    largest λ with mean at most the minimum plus its SE), as cv.glmnet picks them."""
    at_min = np.flatnonzero(mean <= mean.min())
    i_min = int(at_min[np.argmax(lambdas[at_min])])
    within = np.flatnonzero(mean <= mean[i_min] + se[i_min])
    return i_min, int(within[np.argmax(lambdas[within])])


def _check_columns(
    codes: np.ndarray, target: int, candidates: Sequence[int]
) -> tuple[np.ndarray, tuple[int, ...]]:
    """Validated integer codes and candidate indices (a target among its own candidates is
    allowed: it reproduces bug (i) of dombowsky2025 decision A9)."""
    array = np.asarray(codes)
    if array.ndim != 2:
        raise ValueError(f"codes must be a 2-d array [row, variable], got shape {array.shape}")
    array = check_codes(array, np.maximum(array.max(axis=0), 0) + 1, "codes")
    p = array.shape[1]
    if not 0 <= int(target) < p:
        raise ValueError(f"target must be a column index in [0, {p}), got {target!r}")
    cand = tuple(int(c) for c in candidates)
    if not cand or len(set(cand)) != len(cand) or any(not 0 <= c < p for c in cand):
        raise ValueError(f"candidates must be distinct column indices in [0, {p}), got {cand}")
    return array, cand


def _active(coefs: np.ndarray) -> np.ndarray:
    """``active[l, j]``: dummy column j has a nonzero group at the l-th λ."""
    return np.any(coefs != 0, axis=2)


def select_neighbours(
    codes: np.ndarray,
    target: int,
    candidates: Sequence[int],
    seed: int | np.random.Generator | np.random.SeedSequence,
    n_folds: int = N_FOLDS,
    n_lambda: int = N_LAMBDA,
    tol: float = 1e-7,
) -> NeighbourSelection:
    """cv.glmnet's multinomial grouped lasso of ``codes[:, target]`` on the dummies of
    ``codes[:, candidates]`` (dombowsky2025 decisions §4.2, §4.5 and A9): the candidates with a
    nonzero coefficient at ``lambda.1se`` (and at ``lambda.min``), with the λ path and the CV curve.
    ``seed`` drives the fold assignment. The response must have at least two observed classes, each
    seen twice (glmnet refuses a class with 0 or 1 observation)."""
    array, cand = _check_columns(codes, target, candidates)
    if int(n_folds) != n_folds or not 3 <= n_folds <= len(array):
        raise ValueError(f"n_folds must be an integer in [3, {len(array)}], got {n_folds!r}")
    if int(n_lambda) != n_lambda or n_lambda < 2:
        raise ValueError(f"n_lambda must be an integer >= 2, got {n_lambda!r}")
    check_positive(tol, "tol")
    classes, counts = np.unique(array[:, target], return_counts=True)
    if classes.size < 2 or counts.min() < 2:
        raise ValueError(
            f"target column {target} needs >= 2 classes with >= 2 rows each, got counts {counts}"
        )
    x, source = dummy_design(array, cand)
    if x.shape[1] == 0:
        raise ValueError(f"candidates {cand} are all constant: the design has no column")
    y = one_hot(array[:, target], classes)
    z = standardise(x)[0]
    path = fit_path(z, y, lambda_path(z, y, n_lambda), stop_early=True, tol=tol)
    folds = fold_ids(len(array), n_folds, np.random.default_rng(seed))
    mean, se = cv_deviance(x, y, path.lambdas, folds, n_lambda, tol)
    i_min, i_1se = one_se_rule(path.lambdas, mean, se)
    active = _active(path.coefs)
    return NeighbourSelection(
        target=int(target),
        candidates=cand,
        selected=tuple(c for c in cand if active[i_1se, source == c].any()),
        selected_min=tuple(c for c in cand if active[i_min, source == c].any()),
        lambda_1se=float(path.lambdas[i_1se]),
        lambda_min=float(path.lambdas[i_min]),
        lambdas=path.lambdas,
        cv_mean=mean,
        cv_se=se,
        n_active=active.sum(axis=1),
        source=source,
    )


def emulate_rowname_parents(selection: NeighbourSelection) -> tuple[int, ...]:
    """**Reproduces a bug** of the authors' METABRIC code (bug (ii) of dombowsky2025 decision A9),
    for ``emulate_code_bugs``: "parents" read from the row names of the coefficient matrix, i.e.
    every candidate with at least one dummy column, whatever the coefficients. Not a selection
    rule."""
    return tuple(c for c in selection.candidates if np.any(selection.source == c))
