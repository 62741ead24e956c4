"""Random forests through scikit-learn on the codes read as numbers: R ``randomForest``'s
defaults mapped as in azzimonti2019 decisions §E5, and class probabilities with one
column per class of the problem (a class unseen in training gets probability 0)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

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
