"""Numba kernels of the multinomial grouped lasso of :mod:`hierbn.structure_learning.group_lasso`
(dombowsky2025 decisions §4.2, §4.5 and A9; issue 46): the warm-started λ path by proximal
Newton iterations on a working set of groups.

The design is passed collapsed (:func:`collapse_rows`): ``R`` distinct rows of the standardised
``z`` with ``counts[r, k]``, the observations of row r in class k (``n = Σ counts``), each row
stored as ``base + deviation`` with ``base[j]`` the majority value of column j and the nonzero
deviations in CSR (``indptr``, ``indices``, ``values``): a dummy column deviates from its base
on its minority rows only. The objective is ``-(1/n) Σ_r Σ_k counts[r, k] log p_rk
+ λ Σ_j ‖B_j‖₂`` with ``p_r = softmax(b0 + z_r B)``, the sum over the observations regrouped by
distinct row.

One λ (:func:`_solve`): the working set is the groups already nonzero and those the sequential
strong rule keeps (``‖∇_j f‖₂ ≥ 2λ - λ_prev``, ``∇f`` at the warm start). Each outer iteration
builds the exact Hessian of the loss on the intercepts and the working groups,
``H_ab = Σ_r (n_r / n) z_ra z_rb (diag(p_r) - p_r p_rᵀ)`` (:func:`_hessian`), minimises the
quadratic model plus the penalty by cyclic block coordinate descent with covariance updates and
Anderson acceleration (:func:`_model_descent`; a block's step is the Gershgorin bound of its
diagonal ``K × K`` block, exact for two classes), and moves to the model's minimiser, halving
the step until the objective does not grow. A group outside the working set that breaks its KKT
condition ``‖∇_j f‖₂ ≤ λ`` joins it. The λ is solved when no group breaks it and the
proximal-gradient mapping of the objective at the iterate, with the step ``1/L`` of Böhning's
bound ``L = ½ σ_max([1, z])² / n`` (:func:`design_gram`), is at most ``tol`` in the ∞-norm
(:func:`_gradient_mapping`). Every update keeps ``Σ_k B_jk = 0`` and ``Σ_k b0_k`` (the
gradient's and the Hessian's class sums are 0): the minimum-norm solution.

Hand-written: no library offers this penalty with glmnet's path rules.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hierbn.array_copy import copy_into

TIE = 1e-12  # a group norm within this relative distance of its threshold is set to zero
MAX_SWEEPS = 100_000  # coordinate-descent sweeps on one quadratic model
MAX_HALVINGS = 40  # step halvings of one outer iteration
SLACK = 1e-13  # the objective may grow this much (relative) in a step: a sum over many rows rounds
MEMORY = 5  # sweeps between Anderson extrapolations


@njit(cache=True)
def _norm(v: np.ndarray) -> float:
    """Euclidean norm of a vector."""
    total = 0.0
    for x in v:
        total += x * x
    return math.sqrt(total)


@njit(cache=True)
def _penalty(coef: np.ndarray) -> float:
    """``Σ_j ‖B_j‖₂``."""
    total = 0.0
    for j in range(coef.shape[0]):
        total += _norm(coef[j])
    return total


@njit(cache=True)
def collapse_rows(
    z: np.ndarray, y_onehot: np.ndarray, order: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rows of ``z`` with their class counts, as the module docstring's collapsed
    design ``(base, indptr, indices, values, counts)``, given ``order``, a permutation of the
    rows that puts equal rows next to each other (a lexicographic sort); ``base[j]`` is the
    majority value of column j among the distinct rows when it has one (Boyer-Moore's vote; any
    value otherwise: the representation is exact whatever the base)."""
    n, m = z.shape
    first_row = np.empty(n, dtype=np.int64)  # an observation of each distinct row
    row_of = np.empty(n, dtype=np.int64)
    n_rows = 0
    for position in range(n):
        i = order[position]
        same = n_rows > 0
        for j in range(m):
            if not same:
                break
            same = z[i, j] == z[first_row[n_rows - 1], j]
        if not same:
            first_row[n_rows] = i
            n_rows += 1
        row_of[i] = n_rows - 1
    counts = np.zeros((n_rows, y_onehot.shape[1]))
    for i in range(n):
        for c in range(y_onehot.shape[1]):
            counts[row_of[i], c] += y_onehot[i, c]
    base = np.empty(m)
    for j in range(m):
        votes = 0
        for r in range(n_rows):
            value = z[first_row[r], j]
            if votes == 0:
                base[j] = value
            votes += 1 if value == base[j] else -1
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    for r in range(n_rows):
        indptr[r + 1] = indptr[r]
        for j in range(m):
            if z[first_row[r], j] != base[j]:
                indptr[r + 1] += 1
    indices = np.empty(indptr[n_rows], dtype=np.int64)
    values = np.empty(indptr[n_rows])
    for r in range(n_rows):
        idx = indptr[r]
        for j in range(m):
            if z[first_row[r], j] != base[j]:
                indices[idx] = j
                values[idx] = z[first_row[r], j] - base[j]
                idx += 1
    return base, indptr, indices, values, counts


@njit(cache=True)
def _row_pass(
    base: np.ndarray,
    indptr: np.ndarray,
    indices: np.ndarray,
    values: np.ndarray,
    counts: np.ndarray,
    b0: np.ndarray,
    coef: np.ndarray,
    prob: np.ndarray,
    grad0: np.ndarray,
    grad: np.ndarray,
) -> float:
    """At ``(b0, coef)``: the class probabilities ``prob[r]`` of each distinct row, the gradient
    of the mean loss (``grad0`` in the intercepts, ``grad[j]`` in group j) and the mean loss,
    returned. Only differences of linear predictors matter and a row's residuals ``n_r p_r -
    counts[r]`` sum to 0, so the rows are scanned for the first K - 1 classes against the last
    (which also needs no exponential: one per row for two classes)."""
    n_rows, k = counts.shape
    m = coef.shape[0]
    last = k - 1
    diff = np.empty((m, last))
    offset = np.empty(last)
    for c in range(last):
        offset[c] = b0[c] - b0[last]
        for j in range(m):
            diff[j, c] = coef[j, c] - coef[j, last]
            offset[c] += base[j] * diff[j, c]
    eta = np.empty(k)
    residual = np.empty(last)
    for c in range(k):
        grad0[c] = 0.0
        for j in range(m):
            grad[j, c] = 0.0
    loss = 0.0
    n = 0.0
    for r in range(n_rows):
        start, stop = indptr[r], indptr[r + 1]
        for c in range(last):
            eta[c] = offset[c]
        eta[last] = 0.0
        for idx in range(start, stop):
            j = indices[idx]
            for c in range(last):
                eta[c] += values[idx] * diff[j, c]
        top = last
        for c in range(last):
            if eta[c] > eta[top]:
                top = c
        total = 0.0
        for c in range(k):
            prob[r, c] = 1.0 if c == top else math.exp(eta[c] - eta[top])
            total += prob[r, c]
        log_total = eta[top] + math.log(total)
        weight = 0.0
        for c in range(k):
            prob[r, c] /= total
            weight += counts[r, c]
            loss += counts[r, c] * (log_total - eta[c])
        n += weight
        for c in range(last):
            residual[c] = weight * prob[r, c] - counts[r, c]
            grad0[c] += residual[c]
        for idx in range(start, stop):
            j = indices[idx]
            for c in range(last):
                grad[j, c] += values[idx] * residual[c]
    for c in range(last):
        grad0[c] /= n
        grad0[last] -= grad0[c]
        for j in range(m):
            grad[j, c] = grad[j, c] / n + base[j] * grad0[c]
            grad[j, last] -= grad[j, c]
    return loss / n


@njit(cache=True)
def _weighted_grams(
    base: np.ndarray,
    indptr: np.ndarray,
    indices: np.ndarray,
    values: np.ndarray,
    weights: np.ndarray,
    position: np.ndarray,
    members: np.ndarray,
    size: int,
    out: np.ndarray,
) -> None:
    """``out[a, b, e] = Σ_r weights[r, e] z_ra z_rb`` for ``a, b`` in 0..size: 0 the intercept
    (``z_r0 = 1``), ``a = position[j]`` the working column j (``members[a - 1] = j``;
    ``position[j] = -1`` off the working set). With ``z_ra = base_a + d_ra`` it is
    ``base_a base_b S + base_a T_b + base_b T_a + U_ab`` (``S = Σ_r w_r``,
    ``T_a = Σ_r w_r d_ra``, ``U_ab = Σ_r w_r d_ra d_rb``), summed over each row's nonzero
    deviations only."""
    n_rows, n_weights = weights.shape
    for a in range(size + 1):
        for b in range(size + 1):
            for e in range(n_weights):
                out[a, b, e] = 0.0
    row_position = np.empty(size, dtype=np.int64)
    row_value = np.empty(size)
    for r in range(n_rows):
        found = 0
        for idx in range(indptr[r], indptr[r + 1]):
            a = position[indices[idx]]
            if a > 0:
                row_position[found] = a
                row_value[found] = values[idx]
                found += 1
        for e in range(n_weights):
            out[0, 0, e] += weights[r, e]
        for u in range(found):
            a = row_position[u]
            for e in range(n_weights):
                out[0, a, e] += row_value[u] * weights[r, e]
            for v in range(u, found):
                product = row_value[u] * row_value[v]
                b = row_position[v]
                for e in range(n_weights):
                    out[a, b, e] += product * weights[r, e]
    for a in range(1, size + 1):
        base_a = base[members[a - 1]]
        for b in range(a, size + 1):
            base_b = base[members[b - 1]]
            for e in range(n_weights):
                out[a, b, e] += (
                    base_a * base_b * out[0, 0, e] + base_a * out[0, b, e] + base_b * out[0, a, e]
                )
    for a in range(1, size + 1):
        for e in range(n_weights):
            out[0, a, e] += base[members[a - 1]] * out[0, 0, e]
    for a in range(size + 1):
        for b in range(a + 1, size + 1):
            for e in range(n_weights):
                out[b, a, e] = out[a, b, e]


@njit(cache=True)
def _hessian(
    base: np.ndarray,
    indptr: np.ndarray,
    indices: np.ndarray,
    values: np.ndarray,
    counts: np.ndarray,
    prob: np.ndarray,
    position: np.ndarray,
    members: np.ndarray,
    size: int,
    weights: np.ndarray,
    grams: np.ndarray,
) -> None:
    """The loss's Hessian on the intercepts and the working groups,
    ``H_ab = Σ_r (n_r / n) z_ra z_rb (diag(p_r) - p_r p_rᵀ)`` (``K × K`` blocks, ``a, b`` as in
    :func:`_weighted_grams`), as ``grams[a, b, e]``, the gram of the weights
    ``(n_r / n) p_rc p_rd`` of the e-th class pair ``c < d``: ``-H_ab[c, d]``, and, the rows of
    ``diag(p) - p pᵀ`` summing to 0, ``H_ab[c, c] = Σ_{d ≠ c} grams[a, b, e(c, d)]``
    (:func:`_add_products`). ``weights`` is work space."""
    n_rows, k = counts.shape
    n = counts.sum()
    for r in range(n_rows):
        share = counts[r].sum() / n
        e = 0
        for c in range(k):
            for d in range(c + 1, k):
                weights[r, e] = share * prob[r, c] * prob[r, d]
                e += 1
    _weighted_grams(base, indptr, indices, values, weights, position, members, size, grams)


@njit(cache=True)
def _add_products(
    grams: np.ndarray, size: int, a: int, delta: np.ndarray, target: np.ndarray
) -> None:
    """``target[b] += H_ba delta`` for ``b`` in 0..size, with
    ``(H_ba delta)_c = Σ_{d ≠ c} grams[a, b, e(c, d)] (delta_c - delta_d)`` (:func:`_hessian`;
    the grams are symmetric in ``a, b``)."""
    k = delta.size
    e = 0
    for c in range(k):
        for d in range(c + 1, k):
            gap = delta[c] - delta[d]
            for b in range(size + 1):
                product = grams[a, b, e] * gap
                target[b, c] += product
                target[b, d] -= product
            e += 1


@njit(cache=True)
def _gershgorin(grams: np.ndarray, a: int, k: int) -> float:
    """Gershgorin's bound on the largest eigenvalue of ``H_aa``: its row c sums
    ``2 Σ_{d ≠ c} grams[a, a, e(c, d)]`` in absolute value (the grams of a diagonal block are
    nonnegative); exact for two classes, where ``H_aa = g [[1, -1], [-1, 1]]``."""
    rows = np.zeros(k)
    e = 0
    for c in range(k):
        for d in range(c + 1, k):
            rows[c] += 2.0 * grams[a, a, e]
            rows[d] += 2.0 * grams[a, a, e]
            e += 1
    return rows.max()


@njit(cache=True)
def design_gram(
    base: np.ndarray, indptr: np.ndarray, indices: np.ndarray, values: np.ndarray,
    counts: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """``AᵀA / n`` with ``A = [1, z]`` over every observation, from the collapsed design (the
    matrix of Böhning's bound ``L = ½ σ_max(A)² / n``, ``diag(p) - p pᵀ ≼ I / 2``)."""
    m = base.size
    n = counts.sum()
    shares = np.empty((counts.shape[0], 1))
    for r in range(counts.shape[0]):
        shares[r, 0] = counts[r].sum() / n
    gram = np.empty((m + 1, m + 1, 1))
    _weighted_grams(base, indptr, indices, values, shares, np.arange(1, m + 1), np.arange(m), m,
                    gram)  # fmt: skip
    return gram[:, :, 0].copy()


@njit(cache=True)
def _threshold(u: np.ndarray, threshold: float) -> None:
    """Group soft-thresholding of ``u`` in place: zero when ``‖u‖₂`` is within ``TIE``
    (relative) of ``threshold`` or below, so that λ = λ_max yields exact zeros despite
    rounding."""
    norm = _norm(u)
    scale = 1.0 - threshold / norm if norm > threshold * (1.0 + TIE) else 0.0
    for c in range(u.size):
        u[c] *= scale


@njit(cache=True)
def _model_gradient(
    grams: np.ndarray, size: int, gradient: np.ndarray, start: np.ndarray, x: np.ndarray
) -> np.ndarray:
    """The model's gradient ``g + H (x - start)`` over blocks 0..size."""
    out = gradient[: size + 1].copy()
    for a in range(size + 1):
        _add_products(grams, size, a, x[a] - start[a], out)
    return out


@njit(cache=True)
def _model_objective(
    size: int,
    gradient: np.ndarray,
    model_gradient: np.ndarray,
    lam: float,
    start: np.ndarray,
    x: np.ndarray,
) -> float:
    """``gᵀd + ½ dᵀ H d + lam Σ_{a ≥ 1} ‖x_a‖₂`` with ``d = x - start``, from the model's
    gradient ``g + H d`` at x."""
    total = 0.0
    for a in range(size + 1):
        for c in range(x.shape[1]):
            total += 0.5 * (x[a, c] - start[a, c]) * (gradient[a, c] + model_gradient[a, c])
        if a > 0:
            total += lam * _norm(x[a])
    return total


@njit(cache=True)
def _extrapolate(history: np.ndarray, size: int, out: np.ndarray) -> bool:
    """Anderson extrapolation of the iterates ``history[0..M]`` (each ``x[0..size]``) into
    ``out``: ``Σ_i c_i history[i + 1]`` with the weights ``c`` (summing to 1) that minimise
    ``‖Σ_i c_i (history[i + 1] - history[i])‖₂`` (the normal equations by Cholesky, ridged by
    1e-12 of their trace), the penalised blocks re-centred on ``Σ_k x_ak = 0`` (the model's
    smooth part ignores a block's class mean and the penalty prefers 0; large weights would let
    rounding drift); False when the differences vanish or the weights degenerate."""
    memory = history.shape[0] - 1
    k = history.shape[2]
    gram = np.zeros((memory, memory))
    for i in range(memory):
        for j in range(i + 1):
            total = 0.0
            for a in range(size + 1):
                for c in range(k):
                    total += (history[i + 1, a, c] - history[i, a, c]) * (
                        history[j + 1, a, c] - history[j, a, c]
                    )
            gram[i, j] = total
    ridge = 0.0
    for i in range(memory):
        ridge += 1e-12 * gram[i, i]
    if ridge == 0.0:
        return False
    for i in range(memory):  # Cholesky, lower triangle in place
        gram[i, i] += ridge
        for j in range(i + 1):
            total = gram[i, j]
            for q in range(j):
                total -= gram[i, q] * gram[j, q]
            if i == j:
                if total <= 0.0:
                    return False
                gram[i, i] = math.sqrt(total)
            else:
                gram[i, j] = total / gram[j, j]
    weights = np.ones(memory)
    for i in range(memory):  # solve L Lᵀ w = 1
        for q in range(i):
            weights[i] -= gram[i, q] * weights[q]
        weights[i] /= gram[i, i]
    for i in range(memory - 1, -1, -1):
        for q in range(i + 1, memory):
            weights[i] -= gram[q, i] * weights[q]
        weights[i] /= gram[i, i]
    total = weights.sum()
    if not math.isfinite(total) or total == 0.0:
        return False
    for a in range(size + 1):
        mean = 0.0
        for c in range(k):
            out[a, c] = 0.0
            for i in range(memory):
                out[a, c] += (weights[i] / total) * history[i + 1, a, c]
            mean += out[a, c] / k
        for c in range(k):
            out[a, c] -= mean if a > 0 else 0.0
    return True


@njit(cache=True)
def _model_descent(
    grams: np.ndarray,
    size: int,
    gradient: np.ndarray,
    lam: float,
    curvature: np.ndarray,
    start: np.ndarray,
    x: np.ndarray,
    tol: float,
) -> int:
    """Minimise ``gᵀ(x - start) + ½ (x - start)ᵀ H (x - start) + lam Σ_{a ≥ 1} ‖x_a‖₂`` over
    ``x[0..size]`` (block 0, the intercepts, unpenalised) by cyclic block coordinate descent from
    ``start``: block a moves to the prox step of its model gradient with step
    ``1 / curvature[a]`` (an upper bound on ``H_aa``; a block of zero curvature, a constant
    column, stays put), the model gradient ``g + H (x - start)`` kept current by covariance
    updates. Every ``MEMORY`` sweeps the last iterates are extrapolated (Anderson acceleration,
    Bertrand and Massias 2021), the extrapolation kept when it lowers the model objective. Stops
    after the first sweep moving no block by more than ``tol`` in ``curvature[a] ‖Δx_a‖_∞``;
    returns the sweeps."""
    k = x.shape[1]
    copy_into(start[: size + 1], x[: size + 1])
    model_gradient = gradient[: size + 1].copy()
    history = np.empty((MEMORY + 1, size + 1, k))
    copy_into(x[: size + 1], history[0])
    extrapolated = np.empty((size + 1, k))
    stored = 0
    u = np.empty(k)
    delta = np.empty(k)
    for sweep in range(1, MAX_SWEEPS + 1):
        change = 0.0
        for a in range(size + 1):
            if curvature[a] <= 0.0:
                continue
            for c in range(k):
                u[c] = x[a, c] - model_gradient[a, c] / curvature[a]
            if a > 0:
                _threshold(u, lam / curvature[a])
            biggest = 0.0
            for c in range(k):
                delta[c] = u[c] - x[a, c]
                biggest = max(biggest, abs(delta[c]))
            if biggest == 0.0:
                continue
            copy_into(u, x[a])
            _add_products(grams, size, a, delta, model_gradient)
            change = max(change, curvature[a] * biggest)
        if change <= tol:
            return sweep
        stored += 1
        copy_into(x[: size + 1], history[stored])
        if stored == MEMORY:
            if _extrapolate(history, size, extrapolated):
                trial_gradient = _model_gradient(grams, size, gradient, start, extrapolated)
                if _model_objective(
                    size, gradient, trial_gradient, lam, start, extrapolated
                ) < _model_objective(size, gradient, model_gradient, lam, start, x):
                    copy_into(extrapolated, x[: size + 1])
                    copy_into(trial_gradient, model_gradient)
            copy_into(x[: size + 1], history[0])
            stored = 0
    return MAX_SWEEPS


@njit(cache=True)
def _gradient_mapping(
    grad0: np.ndarray, grad: np.ndarray, coef: np.ndarray, lam: float, lipschitz: float
) -> float:
    """``L ‖w - prox_{λ/L}(w - ∇f(w) / L)‖_∞`` at ``w = (b0, coef)``: the proximal-gradient
    mapping of the objective with Böhning's step (0 exactly at the minimiser)."""
    worst = 0.0
    for c in range(grad0.size):
        worst = max(worst, abs(grad0[c]))
    u = np.empty(coef.shape[1])
    for j in range(coef.shape[0]):
        for c in range(u.size):
            u[c] = coef[j, c] - grad[j, c] / lipschitz
        _threshold(u, lam / lipschitz)
        for c in range(u.size):
            worst = max(worst, lipschitz * abs(coef[j, c] - u[c]))
    return worst


@njit(cache=True)
def _solve(
    base: np.ndarray,
    indptr: np.ndarray,
    indices: np.ndarray,
    values: np.ndarray,
    counts: np.ndarray,
    lam: float,
    previous_lam: float,
    b0: np.ndarray,
    coef: np.ndarray,
    prob: np.ndarray,
    grad0: np.ndarray,
    grad: np.ndarray,
    loss: float,
    lipschitz: float,
    tol: float,
    max_iter: int,
    weights: np.ndarray,
    grams: np.ndarray,
) -> tuple[int, int, int, float]:
    """Minimise the objective at ``lam`` from ``(b0, coef)`` in place (``prob``, ``grad0``,
    ``grad`` and ``loss``: the state there, kept current), ``previous_lam`` feeding the strong
    rule; ``weights`` and ``grams`` are work space (:func:`_hessian`). Returns ``(outer
    iterations, coordinate-descent sweeps, groups the KKT check added, loss)``; the outer count
    is -1 when ``max_iter`` outer iterations did not reach ``tol``."""
    m, k = coef.shape
    working = np.zeros(m, dtype=np.bool_)
    for j in range(m):
        norm = _norm(grad[j])
        working[j] = _norm(coef[j]) > 0.0 or (norm > 0.0 and norm >= 2.0 * lam - previous_lam)
    position = np.full(m, -1, dtype=np.int64)
    members = np.empty(m, dtype=np.int64)
    gradient = np.empty((m + 1, k))
    start = np.empty((m + 1, k))
    x = np.empty((m + 1, k))
    curvature = np.empty(m + 1)
    sweeps = 0
    added = 0
    for outer in range(max_iter + 1):
        violated = False
        for j in range(m):
            if not working[j] and _norm(grad[j]) > lam * (1.0 + TIE):
                working[j] = True
                violated = True
                added += 1
        residual = _gradient_mapping(grad0, grad, coef, lam, lipschitz)
        if residual <= tol and not violated:
            return outer, sweeps, added, loss
        if outer == max_iter:
            break
        size = np.int64(0)  # an int64 from the start: a literal 0 compiles the callees twice
        for j in range(m):
            if working[j]:
                members[size] = j
                size += 1
                position[j] = size
            else:
                position[j] = -1
        _hessian(base, indptr, indices, values, counts, prob, position, members, size, weights,
                 grams)  # fmt: skip
        copy_into(b0, start[0])
        copy_into(grad0, gradient[0])
        for a in range(1, size + 1):
            copy_into(coef[members[a - 1]], start[a])
            copy_into(grad[members[a - 1]], gradient[a])
        for a in range(size + 1):
            curvature[a] = _gershgorin(grams, a, k)
        inner_tol = 0.1 * max(tol, min(residual, residual * residual))
        sweeps += _model_descent(grams, size, gradient, lam, curvature, start, x, inner_tol)
        objective = loss + lam * _penalty(coef)
        step = 1.0
        for _ in range(MAX_HALVINGS):
            for c in range(k):
                b0[c] = start[0, c] + step * (x[0, c] - start[0, c])
            for a in range(1, size + 1):
                for c in range(k):
                    coef[members[a - 1], c] = start[a, c] + step * (x[a, c] - start[a, c])
            loss = _row_pass(base, indptr, indices, values, counts, b0, coef, prob, grad0, grad)
            if loss + lam * _penalty(coef) <= objective + SLACK * abs(objective):
                break
            step *= 0.5
    return -1, sweeps, added, loss


@njit(cache=True)
def grouped_path(
    base: np.ndarray,
    indptr: np.ndarray,
    indices: np.ndarray,
    values: np.ndarray,
    counts: np.ndarray,
    lambdas: np.ndarray,
    b0: np.ndarray,
    coef: np.ndarray,
    lipschitz: float,
    tol: float,
    max_iter: int,
    stop_after: int,
    dev_max: float,
    dev_change: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The fits at each λ of ``lambdas`` (decreasing), each warm-started from the last, the
    first from ``(b0, coef)`` (``lipschitz``: Böhning's bound, from :func:`design_gram`):
    ``(intercepts[l, k], coefs[l, j, k], deviance ratio[l], iterations[l] = (outer iterations,
    sweeps, groups the KKT check added))``, as many rows as λ fitted. From the
    ``stop_after``-th λ on (0: never) the path ends at the first whose deviance ratio exceeds
    ``dev_max`` or grows by less than ``dev_change`` (that λ kept), glmnet's early stop; it also
    ends at a λ where ``max_iter`` outer iterations did not reach ``tol`` (outer count -1)."""
    m, k = coef.shape
    b0 = b0.copy()
    coef = coef.copy()
    prob = np.empty(counts.shape)
    grad0 = np.empty(k)
    grad = np.empty((m, k))
    weights = np.empty((counts.shape[0], k * (k - 1) // 2))
    grams = np.empty((m + 1, m + 1, weights.shape[1]))
    n = counts.sum()
    null_deviance = 0.0
    for c in range(k):
        total = counts[:, c].sum()
        if total > 0:
            null_deviance -= 2.0 * total * math.log(total / n)
    loss = _row_pass(base, indptr, indices, values, counts, b0, coef, prob, grad0, grad)
    n_lambda = lambdas.size
    intercepts = np.empty((n_lambda, k))
    coefs = np.empty((n_lambda, m, k))
    ratios = np.empty(n_lambda)
    iterations = np.empty((n_lambda, 3), dtype=np.int64)
    fitted = 0
    for step in range(n_lambda):
        previous = lambdas[step - 1] if step > 0 else lambdas[0]
        outer, sweeps, added, loss = _solve(base, indptr, indices, values, counts, lambdas[step],
                                     previous, b0, coef, prob, grad0, grad, loss, lipschitz, tol,
                                     max_iter, weights, grams)  # fmt: skip
        copy_into(b0, intercepts[step])
        copy_into(coef, coefs[step])
        ratios[step] = 1.0 - 2.0 * n * loss / null_deviance
        iterations[step, 0] = outer
        iterations[step, 1] = sweeps
        iterations[step, 2] = added
        fitted = step + 1
        if outer < 0:
            break
        if 0 < stop_after <= fitted and (
            ratios[step] > dev_max or ratios[step] - ratios[step - 1] < dev_change
        ):
            break
    return intercepts[:fitted], coefs[:fitted], ratios[:fitted], iterations[:fitted]
