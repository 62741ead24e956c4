import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from hierbn.metrics import (
    accuracy,
    cpt_hellinger,
    cpt_kl,
    cpt_mse,
    hellinger_literal,
    log_loss,
    roc_auc_ovr,
)


def test_binary_auc_matches_sklearn_with_ties() -> None:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    score = np.round(rng.random(200) + 0.3 * y, 1)
    proba = np.column_stack([1 - score, score])
    assert roc_auc_ovr(y, proba) == pytest.approx(roc_auc_score(y, score))


def test_multiclass_auc_skips_absent_classes() -> None:
    rng = np.random.default_rng(1)
    proba = rng.dirichlet(np.ones(4), size=60)
    y = rng.integers(0, 3, 60)  # class 3 absent from the test rows
    expected = np.mean([roc_auc_score(y == c, proba[:, c]) for c in range(3)])
    assert roc_auc_ovr(y, proba) == pytest.approx(expected)


def test_accuracy_and_log_loss() -> None:
    proba = np.array([[0.8, 0.2], [0.4, 0.6], [0.5, 0.5]])
    y = np.array([0, 0, 1])
    assert accuracy(y, proba) == pytest.approx(1 / 3)
    assert log_loss(y, proba) == pytest.approx(-np.mean(np.log([0.8, 0.4, 0.5])))


def test_cpt_distances() -> None:
    """CPTs are ``[y, x]``: KL and Hellinger are averaged over the rows y."""
    truth = np.array([[0.5, 0.5], [1.0, 0.0]])
    est = np.array([[0.25, 0.75], [0.5, 0.5]])
    assert cpt_mse(est, truth) == pytest.approx((0.0625 * 2 + 0.25 * 2) / 4)
    kl = (0.5 * np.log(0.5 / 0.25) + 0.5 * np.log(0.5 / 0.75) + np.log(1 / 0.5)) / 2
    assert cpt_kl(est, truth) == pytest.approx(kl)
    h_rows = [np.sqrt(np.sum((np.sqrt(est[y]) - np.sqrt(truth[y])) ** 2) / 2) for y in range(2)]
    assert cpt_hellinger(est, truth) == pytest.approx(np.mean(h_rows))
    assert hellinger_literal(est, truth) == pytest.approx(np.sqrt(sum(h**2 for h in h_rows)))
    assert cpt_hellinger(truth, truth) == 0 and cpt_kl(truth, truth) == 0
    # the column orientation of the same numbers is a different (wrong) answer
    assert cpt_hellinger(est.T, truth.T) != pytest.approx(np.mean(h_rows))


def test_cpt_kl_and_hellinger_average_over_the_rows_of_a_tall_table() -> None:
    """Three parent configurations (rows) of a binary child: the average has 3 terms."""
    truth = np.array([[0.5, 0.5], [1.0, 0.0], [0.2, 0.8]])
    est = np.full((3, 2), 0.5)
    kl = (0 + np.log(2) + 0.2 * np.log(0.4) + 0.8 * np.log(1.6)) / 3
    assert cpt_kl(est, truth) == pytest.approx(kl, rel=1e-12)
    hel = [
        0.0,
        np.sqrt((1 - np.sqrt(0.5)) ** 2 + 0.5) / np.sqrt(2),
        np.sqrt((np.sqrt(0.2) - np.sqrt(0.5)) ** 2 + (np.sqrt(0.8) - np.sqrt(0.5)) ** 2)
        / np.sqrt(2),
    ]
    assert cpt_hellinger(est, truth) == pytest.approx(np.mean(hel), rel=1e-12)
