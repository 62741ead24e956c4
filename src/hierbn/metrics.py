"""Evaluation metrics: classification (accuracy, one-vs-rest AUC, log-loss) and CPT distances.

CPT distances follow azzimonti2019 decisions §4 (its simulation study E1): MSE is eq. (15); KL
is the column average of KL(truth || estimate); Hellinger is the column average of the
per-column distance (azzimonti2019 decision A7), with the paper's literal formula available as
``hellinger_literal``.
"""

from __future__ import annotations

import numpy as np


def accuracy(y_true: np.ndarray, proba: np.ndarray) -> float:
    """Fraction of rows whose argmax class equals the true class."""
    return float(np.mean(np.argmax(proba, axis=1) == np.asarray(y_true)))


def zero_one_loss(y: np.ndarray, proba: np.ndarray) -> float:
    """Error rate of the argmax (ties to the lowest class index)."""
    return float(np.mean(np.argmax(proba, axis=1) != y))


def rmse_multiclass(y: np.ndarray, proba: np.ndarray) -> float:
    """sqrt( mean_i (1/|Y|) sum_y (P(y|x_i) - [y = y_i])^2 ) (petitjean2018 decision §4.4)."""
    truth = np.zeros_like(proba)
    truth[np.arange(y.size), y] = 1.0
    return float(np.sqrt(np.mean(np.mean((proba - truth) ** 2, axis=1))))


def binary_auc(positive: np.ndarray, score: np.ndarray) -> float:
    """P(score of a random positive > score of a random negative), ties counted 1/2."""
    pos = np.asarray(positive, dtype=bool)
    n_pos = int(pos.sum())
    n_neg = pos.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    from scipy.stats import rankdata  # on use: scipy.stats costs ~0.5 s at start-up

    ranks = rankdata(score)
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def roc_auc_ovr(y_true: np.ndarray, proba: np.ndarray) -> float:
    """Unweighted mean of one-vs-rest AUC over classes, skipping classes with no positive
    or no negative test row (azzimonti2019 decision §E2). Binary: the usual AUC."""
    y = np.asarray(y_true)
    n_classes = proba.shape[1]
    if n_classes == 2:
        return binary_auc(y == 1, proba[:, 1])
    values = [binary_auc(y == c, proba[:, c]) for c in range(n_classes)]
    finite = [v for v in values if np.isfinite(v)]
    return float(np.mean(finite)) if finite else float("nan")


def log_loss(y_true: np.ndarray, proba: np.ndarray, eps: float = 1e-15) -> float:
    """Mean negative log-probability of the true class (clipped at ``eps``)."""
    picked = proba[np.arange(proba.shape[0]), np.asarray(y_true)]
    return float(-np.mean(np.log(np.clip(picked, eps, 1.0))))


def cpt_mse(estimate: np.ndarray, truth: np.ndarray) -> float:
    """Eq. (15): mean squared difference over all |X||Y| entries."""
    return float(np.mean((np.asarray(estimate) - np.asarray(truth)) ** 2))


def cpt_kl(estimate: np.ndarray, truth: np.ndarray) -> float:
    """(1/|Y|) sum_y KL(truth_y || estimate_y) of CPTs ``[y, x]``; zero-probability truth
    entries contribute 0."""
    p = np.asarray(truth, dtype=np.float64)
    q = np.asarray(estimate, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * (np.log(p) - np.log(q)), 0.0)
    return float(terms.sum(axis=1).mean())


def cpt_hellinger(estimate: np.ndarray, truth: np.ndarray) -> float:
    """Average over rows y of CPTs ``[y, x]`` of (1/sqrt 2) ||sqrt(estimate_y) - sqrt(truth_y)||_2
    (azzimonti2019 decision A7)."""
    diff = np.sqrt(np.asarray(estimate)) - np.sqrt(np.asarray(truth))
    return float(np.mean(np.sqrt((diff**2).sum(axis=1)) / np.sqrt(2.0)))


def hellinger_literal(estimate: np.ndarray, truth: np.ndarray) -> float:
    """The paper's printed formula: (1/sqrt 2) sqrt(sum_{x,y} (sqrt est - sqrt truth)^2)."""
    diff = np.sqrt(np.asarray(estimate)) - np.sqrt(np.asarray(truth))
    return float(np.sqrt((diff**2).sum()) / np.sqrt(2.0))


def cpt_distances(estimate: np.ndarray, truth: np.ndarray) -> dict[str, float]:
    """All CPT distances of E1 (azzimonti2019 decision §E1) keyed by metric name."""
    return {
        "mse": cpt_mse(estimate, truth),
        "kl": cpt_kl(estimate, truth),
        "hellinger": cpt_hellinger(estimate, truth),
        "hellinger_literal": hellinger_literal(estimate, truth),
    }
