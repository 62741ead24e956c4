import numpy as np
import pytest

from hierbn.estimators.bdeu import bdeu_theta, laplace_theta, ml_theta


def test_bdeu_closed_form() -> None:
    """Eq. (2) with alpha_x = iss/(|X||Y|): bnlearn bn.fit(method='bayes', iss=iss)."""
    counts = np.array([[3, 0], [1, 0], [0, 0]])
    theta = bdeu_theta(counts, iss=6.0)  # |X| = 3, |Y| = 2: pseudo count 1 per cell, 3 per column
    assert np.allclose(theta[:, 0], [4 / 7, 2 / 7, 1 / 7])
    assert np.allclose(theta[:, 1], 1 / 3)  # empty column -> uniform


def test_bdeu_parentless_node() -> None:
    theta = bdeu_theta(np.array([[5], [1]]), iss=1.0)
    assert np.allclose(theta[:, 0], [(5 + 0.5) / 7, (1 + 0.5) / 7])


def test_bdeu_tends_to_ml_and_rejects_bad_iss() -> None:
    counts = np.array([[300, 20], [100, 60]])
    assert np.allclose(bdeu_theta(counts, 1e-9), ml_theta(counts))
    with pytest.raises(ValueError):
        bdeu_theta(counts, 0.0)


def test_laplace_and_ml_fallback() -> None:
    assert np.allclose(laplace_theta(np.array([[2], [0]]))[:, 0], [3 / 4, 1 / 4])
    fallback = np.array([[0.9, 0.3], [0.1, 0.7]])
    theta = ml_theta(np.array([[4, 0], [4, 0]]), fallback=fallback)
    assert np.allclose(theta[:, 0], 0.5) and np.allclose(theta[:, 1], [0.3, 0.7])
