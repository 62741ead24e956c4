import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hierbn.estimators.hier_exact import exact_posterior_theta
from hierbn.estimators.hier_vi import MAX_OUTER, OUTER_TOL, fit_hier_vi
from hierbn.estimators.hier_vi_kernels import (
    _psi_sums,
    fit_core,
    kappa_gradient_hessian,
    kappa_tau_objective,
    lower_bound,
    tau_gradient_hessian,
)

SPEC_TABLE = np.array([[3, 1, 0], [0, 4, 1], [1, 0, 2]])  # [y, x]: the spec's n[x, y] transposed


def test_spec_worked_example() -> None:
    """Spec §8: VI s*kappa ~ (1.0046, 1.0815, 0.9140), tau ~ 19.96."""
    result = fit_hier_vi(SPEC_TABLE)
    assert np.allclose(result.alpha_mean, [1.0046, 1.0815, 0.9140], atol=2e-4)
    assert result.tau == pytest.approx(19.96, abs=0.02)
    assert result.converged
    assert result.theta.shape == (3, 3) and np.allclose(result.theta.sum(axis=1), 1.0)
    # eq. (8) row by row: theta[y, x] = (n_yx + s kappa_x) / (n_y + s)
    expected = (SPEC_TABLE + 3 * result.kappa[None, :]) / (SPEC_TABLE.sum(axis=1)[:, None] + 3)
    np.testing.assert_allclose(result.theta, expected, rtol=1e-12)


def test_the_table_is_rows_by_parent_configuration() -> None:
    """A tall table (|Y| = 5 rows, |X| = 2 columns) is fitted as five binary distributions;
    the kernel's own [x, y] table is the transpose."""
    counts = np.array([[4, 0], [3, 1], [0, 2], [5, 5], [1, 0]])
    result = fit_hier_vi(counts)
    assert result.theta.shape == (5, 2) and result.kappa.shape == (2,)
    kappa, tau, _, _, _ = fit_core(
        np.ascontiguousarray(counts.T, dtype=np.float64), 2.0, np.ones(2), MAX_OUTER, OUTER_TOL
    )
    np.testing.assert_allclose(result.kappa, kappa, rtol=1e-12)
    assert result.tau == pytest.approx(tau, rel=1e-12)


def _setup(seed: int, n_x: int = 4, n_y: int = 3):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 9, size=(n_x, n_y)).astype(float)
    kappa = rng.dirichlet(np.ones(n_x) * 3)
    tau = float(rng.uniform(2, 50))
    s = float(n_x)
    alpha0 = np.ones(n_x)
    nu = counts + s * kappa[:, None]
    spsi, _ = _psi_sums(nu)
    return counts, kappa, tau, s, alpha0, nu, spsi


@pytest.mark.parametrize("seed", range(5))
def test_tau_derivatives_match_finite_differences(seed: int) -> None:
    counts, kappa, tau, s, alpha0, _nu, spsi = _setup(seed)
    n_y = counts.shape[1]
    grad, hess = tau_gradient_hessian(kappa, tau, s, alpha0, n_y)
    h = 1e-5 * tau
    f = lambda t: kappa_tau_objective(kappa, t, s, alpha0, n_y, spsi)  # noqa: E731
    g = lambda t: tau_gradient_hessian(kappa, t, s, alpha0, n_y)[0]  # noqa: E731
    assert grad == pytest.approx((f(tau + h) - f(tau - h)) / (2 * h), rel=1e-5, abs=1e-8)
    assert hess == pytest.approx((g(tau + h) - g(tau - h)) / (2 * h), rel=1e-4, abs=1e-8)


@pytest.mark.parametrize("seed", range(5))
def test_kappa_gradient_matches_directional_derivative(seed: int) -> None:
    """The dropped x-independent terms cancel along directions that keep sum(kappa) = 1."""
    counts, kappa, tau, s, alpha0, _nu, spsi = _setup(seed)
    n_y = counts.shape[1]
    grad, hess = kappa_gradient_hessian(kappa, tau, s, alpha0, n_y, spsi)
    rng = np.random.default_rng(100 + seed)
    direction = rng.normal(size=kappa.size)
    direction -= direction.mean()
    eps = 1e-6
    f = lambda k: kappa_tau_objective(k, tau, s, alpha0, n_y, spsi)  # noqa: E731
    numeric = (f(kappa + eps * direction) - f(kappa - eps * direction)) / (2 * eps)
    assert float(grad @ direction) == pytest.approx(numeric, rel=1e-5, abs=1e-7)
    # Diagonal Hessian: the second directional derivative equals sum_x h_x d_x^2.
    second = (f(kappa + eps * direction) - 2 * f(kappa) + f(kappa - eps * direction)) / eps**2
    assert float(hess @ direction**2) == pytest.approx(second, rel=1e-3, abs=1e-4)


@pytest.mark.parametrize("seed", range(3))
def test_bound_minus_kappa_tau_part_is_constant(seed: int) -> None:
    counts, kappa, _tau, s, alpha0, nu, spsi = _setup(seed)
    n_y = counts.shape[1]
    diffs = []
    rng = np.random.default_rng(seed)
    for _ in range(4):
        k = rng.dirichlet(np.ones(kappa.size))
        t = float(rng.uniform(1, 80))
        diffs.append(
            lower_bound(counts, nu, k, t, s, alpha0)
            - kappa_tau_objective(k, t, s, alpha0, n_y, spsi)
        )
    assert np.ptp(diffs) < 1e-9 * max(1.0, abs(diffs[0]))


@settings(max_examples=40, deadline=None)
@given(
    arrays(np.int64, st.tuples(st.integers(2, 6), st.integers(2, 5)), elements=st.integers(0, 12)),
)
def test_vi_monotone_and_close_to_exact(counts: np.ndarray) -> None:
    result = fit_hier_vi(counts)
    steps = np.diff(result.elbo_trace)
    assert np.all(steps >= -1e-8 * np.abs(result.elbo_trace[1:]))
    assert result.converged and np.all(np.isfinite(result.theta))
    assert result.theta.shape == counts.shape and np.allclose(result.theta.sum(axis=1), 1.0)
    assert np.all(result.theta > 0)
    exact = exact_posterior_theta(counts)
    assert np.mean((result.theta - exact) ** 2) < 2e-3


def test_vi_accuracy_against_exact_on_e1_like_tables() -> None:
    """Spec §3.1: MSE(VI, exact) is ~1e-6 on average on tables like E1's."""
    rng = np.random.default_rng(7)
    errors = []
    for _ in range(30):
        n_x, n_y = int(rng.integers(2, 7)), int(rng.integers(2, 7))
        alpha = n_x * rng.dirichlet(np.ones(n_x))
        theta = np.array([rng.dirichlet(alpha) for _ in range(n_y)])  # [y, x]
        counts = rng.multinomial(np.bincount(rng.integers(0, n_y, 80), minlength=n_y), theta)
        errors.append(np.mean((fit_hier_vi(counts).theta - exact_posterior_theta(counts)) ** 2))
    assert np.mean(errors) < 2e-5


def test_unobserved_rows_get_kappa() -> None:
    counts = np.array([[5, 1, 0], [0, 0, 0]])
    result = fit_hier_vi(counts)
    assert np.allclose(result.theta[1], result.kappa)


@pytest.mark.parametrize(
    "bad",
    [
        np.array([1, 2, 3]),
        np.array([[1, -1], [2, 2]]),
        np.array([[np.nan, 1], [1, 1]]),
        np.ones((0, 4)),
    ],
)
def test_invalid_counts_raise(bad: np.ndarray) -> None:
    with pytest.raises(ValueError, match="counts"):
        fit_hier_vi(bad)


def test_one_child_state_is_a_constant_variable() -> None:
    result = fit_hier_vi(np.ones((4, 1)))  # four parent configurations, one child value
    assert np.array_equal(result.theta, np.ones((4, 1))) and result.converged
