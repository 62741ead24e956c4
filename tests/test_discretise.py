import numpy as np
import pandas as pd
import pytest

from hierbn.data.discretise import (
    MDLDiscretiser,
    apply_cuts,
    bin_labels,
    equal_frequency_cuts,
    mdl_cuts,
)
from hierbn.data.preprocess import discretise_equal_frequency, encode, impute_median_mode
from hierbn.data.readers import read_arff


def test_mdl_on_iris_matches_weka(mirror) -> None:
    """Textbook example: Weka's supervised Discretize (Fayyad–Irani MDL) on iris."""
    iris = read_arff(mirror / "renatopp/arff-datasets/classification/iris.arff")
    y = iris["class"].cat.codes.to_numpy()
    expected = {
        "sepallength": [5.55, 6.15],
        "sepalwidth": [2.95, 3.35],
        "petallength": [2.45, 4.75],
        "petalwidth": [0.8, 1.75],
    }
    for name, cuts in expected.items():
        assert np.allclose(mdl_cuts(iris[name].to_numpy(), y), cuts)


def test_mdl_rejects_noise_and_splits_clean_separation() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=400)
    assert mdl_cuts(x, rng.integers(0, 2, 400)).size == 0
    assert np.allclose(mdl_cuts(np.arange(20.0), (np.arange(20) >= 10).astype(int)), [9.5])


def test_mdl_discretiser_uses_training_cuts_only() -> None:
    train = np.array([[1.0], [2.0], [3.0], [10.0], [11.0], [12.0]] * 5)
    classes = np.array([0, 0, 0, 1, 1, 1] * 5)
    disc = MDLDiscretiser().fit(train, classes)
    assert np.allclose(disc.cuts_[0], [6.5])
    assert disc.transform(np.array([[6.0], [7.0], [np.nan]])).ravel().tolist() == [0, 1, -1]
    with pytest.raises(RuntimeError):
        MDLDiscretiser().transform(train)


def test_equal_frequency_merges_duplicate_cut_points() -> None:
    values = np.array([0.0] * 90 + list(range(1, 11)))
    cuts = equal_frequency_cuts(values, 5)
    assert cuts.tolist() == [0.0]
    assert np.bincount(apply_cuts(values, cuts)).tolist() == [90, 10]
    assert equal_frequency_cuts(np.arange(1.0, 11.0), 5).tolist() == pytest.approx(
        [2.8, 4.6, 6.4, 8.2]
    )
    assert bin_labels(np.array([1.0])) == ["(-inf,1]", "(1,inf)"]


def test_impute_then_discretise_then_encode() -> None:
    frame = pd.DataFrame(
        {
            "a": [1.0, np.nan, 3.0, 4.0, 100.0],
            "b": pd.Categorical(["x", None, "y", "x", "x"], categories=["x", "y", "z"]),
            "class": pd.Categorical(["p", "q", "p", "q", "p"]),
        }
    )
    imputed = impute_median_mode(frame)
    assert imputed["a"][1] == 3.5 and imputed["b"][1] == "x"
    disc, cuts = discretise_equal_frequency(imputed, "class", n_bins=2)
    data = encode(disc, "class")
    assert data.cards == (2, 3, 2)  # declared level "z" kept
    assert data.codes[:, 0].tolist() == [0, 0, 0, 1, 1]
    assert data.class_index == 2 and cuts["a"] == [3.5]
    with pytest.raises(ValueError, match="missing"):
        encode(frame.assign(a=pd.Categorical(["u", None, "u", "u", "u"])), "class")
