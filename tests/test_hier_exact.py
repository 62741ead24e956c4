import numpy as np
import pytest
from scipy.integrate import quad

from hierbn.estimators.hier_exact import (
    exact_alpha_moments,
    exact_posterior_theta,
    rising_factorial_coefficients,
)
from hierbn.studies.azzimonti2019.protocol import prior_column_correlation, run_lemma1


def test_spec_worked_example() -> None:
    """Spec §8: exact E[alpha] = (1.00481, 1.07711, 0.91807)."""
    spec = np.array([[3, 0, 1], [1, 4, 0], [0, 1, 2]])  # the spec's n[x, y]
    mean, _ = exact_alpha_moments(spec.T)  # counts[y, x]
    assert np.allclose(mean, [1.00481, 1.07711, 0.91807], atol=1e-5)


def test_rising_factorial_is_stirling_first_kind() -> None:
    assert rising_factorial_coefficients(4) == (0, 6, 11, 6, 1)  # t(t+1)(t+2)(t+3)


@pytest.mark.parametrize("seed", range(4))
def test_two_state_case_matches_numerical_integration(seed: int) -> None:
    """|X| = 2: alpha_1 = a in [0, s]; density ∝ prod_y rising(a, n_1y) rising(s-a, n_2y)."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 6, size=(2, 3)).T  # [y, x]: three configurations, |X| = 2
    s = 2

    def rising(t: float, m: int) -> float:
        return float(np.prod(t + np.arange(m))) if m else 1.0

    def density(a: float) -> float:
        return float(np.prod([rising(a, c1) * rising(s - a, c2) for c1, c2 in counts]))

    z = quad(density, 0, s)[0]
    m1 = quad(lambda a: a * density(a), 0, s)[0] / z
    m2 = quad(lambda a: a * a * density(a), 0, s)[0] / z
    mean, second = exact_alpha_moments(counts, second=True)
    assert mean[0] == pytest.approx(m1, rel=1e-8)
    assert second[0, 0] == pytest.approx(m2, rel=1e-8)
    assert mean.sum() == pytest.approx(s)


def test_posterior_theta_rows_sum_to_one_and_follow_eq8() -> None:
    counts = np.array([[2, 0, 4, 1], [0, 0, 0, 0], [7, 1, 0, 0]])  # [y, x], an empty row
    theta = exact_posterior_theta(counts)
    assert theta.shape == (3, 4) and np.allclose(theta.sum(axis=1), 1.0)
    assert np.all(theta > 0)
    mean, _ = exact_alpha_moments(counts)
    assert mean.shape == (4,) and mean.sum() == pytest.approx(4.0)
    np.testing.assert_allclose(theta[1], mean / 4, rtol=1e-12)  # no counts: E[alpha] / s
    np.testing.assert_allclose(theta[2], (counts[2] + mean) / (8 + 4), rtol=1e-12)


def test_non_integer_prior_is_rejected() -> None:
    with pytest.raises(ValueError, match="integer s"):
        exact_alpha_moments(np.ones((2, 2), dtype=int), s=2.5)


def test_lemma1_monte_carlo_matches_appendix_not_printed_eq6() -> None:
    """Lemma 1: Cor = (s+1)/(s+s0+1) (App. A.1), not s/(s+s0+1) as eq. (6) prints."""
    table = run_lemma1([[2, 2.0], [4, 10.0]], draws=20000, base_seed=3)
    for row in table.itertuples():
        assert abs(row.value - prior_column_correlation(row.s, row.n_x)) < 0.02
        assert abs(row.value - row.formula_eq6_printed) > 0.05
