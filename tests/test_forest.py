"""The random-forest competitor: R defaults and one probability column per class."""

from __future__ import annotations

import numpy as np

from hierbn.forest import forest_proba, r_random_forest


def test_r_defaults_are_mapped_as_the_spec_says() -> None:
    params = r_random_forest(3).get_params()
    assert params["n_estimators"] == 500 and params["max_features"] == "sqrt"
    assert params["criterion"] == "gini" and params["bootstrap"] and params["max_depth"] is None
    assert params["min_samples_leaf"] == 1 and params["random_state"] == 3


def test_a_class_unseen_in_training_gets_probability_zero() -> None:
    x = np.arange(20).reshape(10, 2) % 3
    forest = r_random_forest(0).set_params(n_estimators=5)
    proba = forest_proba(forest, x, np.array([0, 2] * 5), x, 3)
    assert proba.shape == (10, 3) and (proba[:, 1] == 0).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
