"""Random forests through scikit-learn on the codes read as numbers, the extra column "RF,
scikit-learn on codes" beside the papers' own forests: R ``randomForest``'s defaults mapped
as in azzimonti2019 decisions §E5, Weka's as in petitjean2018 decision §1.9, and class
probabilities with one column per class of the problem (a class unseen in training gets
probability 0)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from hierbn.forest.weka import weka_default_features

if TYPE_CHECKING:  # scikit-learn is imported on use: it costs a second at start-up
    from sklearn.ensemble import RandomForestClassifier


def r_random_forest(seed: int) -> RandomForestClassifier:
    """R ``randomForest`` defaults: 500 unpruned gini trees on bootstrap samples, sqrt(#features)
    candidates per split, leaves of one row; one thread."""
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(
        n_estimators=500,
        max_features="sqrt",
        min_samples_leaf=1,
        max_depth=None,
        bootstrap=True,
        criterion="gini",
        random_state=seed,
        n_jobs=1,
    )


def weka_on_codes(seed: int, trees: int, n_attributes: int) -> RandomForestClassifier:
    """Weka's RandomForest defaults mapped onto scikit-learn's forest: ``trees`` unpruned
    entropy trees on bootstrap samples, int(log2(M)) + 1 candidates per split
    (:func:`hierbn.forest.weka.weka_default_features`), leaves of one row; one thread. Binary
    splits on the codes' order, where Weka splits a nominal attribute multiway."""
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(
        n_estimators=trees,
        max_features=weka_default_features(n_attributes),
        criterion="entropy",
        min_samples_leaf=1,
        random_state=seed,
        n_jobs=1,
    )


def forest_proba(
    forest: RandomForestClassifier,
    train_x: np.ndarray,
    train_y: np.ndarray,
    test_x: np.ndarray,
    n_classes: int,
) -> np.ndarray:
    """Fit ``forest`` and return test class probabilities (rows x ``n_classes``)."""
    forest.fit(train_x, train_y)
    proba = np.zeros((test_x.shape[0], n_classes))
    proba[:, forest.classes_.astype(int)] = forest.predict_proba(test_x)
    return proba
