import numpy as np
import pytest

from hierbn.bn.classifier import class_log_posterior
from hierbn.bn.context_models import class_log_posterior_from_models, fit_context_models
from hierbn.bn.counting import family_counts, validate_codes
from hierbn.bn.structures import kdb, naive_bayes
from hierbn.estimators.m_estimate import m_estimate_theta


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    c = rng.integers(0, 3, n)
    f0 = (c + (rng.random(n) < 0.3)) % 3
    f1 = (f0 + rng.integers(0, 2, n)) % 2
    cards = np.array([3, 2, 3])
    return validate_codes(np.column_stack([f0, f1, c]), cards), cards


def test_m_estimate_nb_matches_the_dense_classifier() -> None:
    """Without back-off effects (NB, m > 0, all contexts seen) both classifiers agree."""
    codes, cards = _data()
    structure = naive_bayes(["f0", "f1", "c"], list(cards), 2)
    prior, models = fit_context_models(structure, codes, "m", m=0.5, rule="context")
    cpts = [
        m_estimate_theta(family_counts(codes, i, structure.parents[i], cards), 0.5)
        for i in range(3)
    ]
    dense = class_log_posterior(structure, cpts, codes[:50])
    assert np.allclose(class_log_posterior_from_models(structure, prior, models, codes[:50]), dense)


def test_hdp_kdb_classifier_posteriors_are_normalised_and_informative() -> None:
    codes, cards = _data(600, 1)
    structure = kdb(codes, ["f0", "f1", "c"], list(cards), 2, k=1)
    prior, models = fit_context_models(structure, codes, "hdp", n_iter=300, seeds={0: 1, 1: 2})
    log_post = class_log_posterior_from_models(structure, prior, models, codes)
    assert np.allclose(np.exp(log_post).sum(axis=1), 1.0)
    assert np.mean(log_post.argmax(axis=1) == codes[:, 2]) > 0.5
    with pytest.raises(ValueError):
        fit_context_models(structure, codes, "other")
