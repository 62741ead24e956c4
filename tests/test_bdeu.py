"""Closed-form CPT estimates on count tables ``counts[y, x]`` (parent configurations in rows,
child values in columns)."""

import numpy as np
import pytest

from hierbn.estimators.bdeu import bdeu_theta, laplace_theta, ml_theta


def test_bdeu_closed_form() -> None:
    """Eq. (2) with alpha_x = iss/(|X||Y|): bnlearn bn.fit(method='bayes', iss=iss)."""
    counts = np.array([[3, 1, 0], [0, 0, 0]])  # |Y| = 2 rows, |X| = 3 columns
    theta = bdeu_theta(counts, iss=6.0)  # pseudo count 1 per cell, 3 per row
    assert np.allclose(theta[0], [4 / 7, 2 / 7, 1 / 7])
    assert np.allclose(theta[1], 1 / 3)  # empty row -> uniform


def test_bdeu_parentless_node() -> None:
    theta = bdeu_theta(np.array([[5, 1]]), iss=1.0)
    assert np.allclose(theta[0], [(5 + 0.5) / 7, (1 + 0.5) / 7])


def test_bdeu_on_observed_rows_with_n_configs_equals_the_dense_table() -> None:
    """A sparse table (observed rows only) with ``n_configs`` = |Y| gives the dense rows."""
    dense = np.array([[3, 1, 0], [0, 0, 0], [2, 2, 5], [0, 0, 0]])
    observed = dense[[0, 2]]
    np.testing.assert_allclose(
        bdeu_theta(observed, 2.0, n_configs=4), bdeu_theta(dense, 2.0)[[0, 2]], rtol=1e-14
    )
    assert not np.allclose(bdeu_theta(observed, 2.0), bdeu_theta(dense, 2.0)[[0, 2]])


def test_bdeu_tends_to_ml_and_rejects_bad_iss() -> None:
    counts = np.array([[300, 20], [100, 60]])
    assert np.allclose(bdeu_theta(counts, 1e-9), ml_theta(counts))
    assert np.allclose(ml_theta(counts)[0], [300 / 320, 20 / 320])
    with pytest.raises(ValueError):
        bdeu_theta(counts, 0.0)


def test_laplace_and_ml_fallback() -> None:
    assert np.allclose(laplace_theta(np.array([[2, 0]]))[0], [3 / 4, 1 / 4])
    fallback = np.array([[0.9, 0.1], [0.3, 0.7]])
    theta = ml_theta(np.array([[4, 4], [0, 0]]), fallback=fallback)
    assert np.allclose(theta[0], 0.5) and np.allclose(theta[1], [0.3, 0.7])
