import numpy as np
import pytest

from hierbn.bn.counting import validate_codes
from hierbn.estimators.m_estimate import m_estimate_backoff, m_estimate_theta


def test_table1_m_estimates() -> None:
    """petitjean2018 Table 1, m = 1: (2 + 0.5)/3 = 0.833, 20.5/26 = 0.788, 4.5/14 = 0.321."""
    theta = m_estimate_theta(np.array([[2, 20, 4], [0, 5, 9]]), m=1.0)
    assert np.allclose(theta[0], [2.5 / 3, 20.5 / 26, 4.5 / 14])
    assert np.allclose(theta.sum(axis=0), 1.0)
    assert np.allclose(m_estimate_theta(np.array([[0], [0]]), 0.0), 0.5)


def _toy():
    # columns: x (child, 3 states), c (class, 2), p (parent, 2)
    rows = np.array([[0, 0, 0], [0, 0, 0], [1, 0, 1], [2, 1, 0], [2, 1, 1], [1, 1, 1]])
    return validate_codes(rows, np.array([3, 2, 2])), np.array([3, 2, 2])


def test_literal_backoff_uses_the_deepest_prefix_with_a_count() -> None:
    codes, cards = _toy()
    theta = m_estimate_backoff(codes, 0, (1, 2), cards, m=1.0)
    # config (c=0, p=0): counts x = [2, 0, 0] over 2 rows -> x=0 at full depth, x=1,2 back off to c=0
    assert theta[0, 0] == pytest.approx((2 + 1 / 3) / (2 + 1))
    assert theta[1, 0] == pytest.approx((1 + 1 / 3) / (3 + 1))  # count(x=1, c=0) = 1
    assert theta[2, 0] == pytest.approx((0 + 1 / 3) / (3 + 1))  # count(x=2, c=0) = 0 -> class level
    assert theta.shape == (3, 4)


def test_context_backoff_keeps_columns_normalised() -> None:
    codes, cards = _toy()
    theta = m_estimate_backoff(codes, 0, (1, 2), cards, m=0.2, rule="context")
    assert np.allclose(theta.sum(axis=0), 1.0)
    with pytest.raises(ValueError):
        m_estimate_backoff(codes, 0, (1, 2), cards, m=1.0, rule="other")


def test_m_zero_never_gives_zero_probability() -> None:
    codes, cards = _toy()
    theta = m_estimate_backoff(codes, 0, (1, 2), cards, m=0.0)
    assert np.all(theta > 0)
