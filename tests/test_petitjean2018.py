import numpy as np
import pandas as pd
import pytest

from hierbn.studies.petitjean2018 import (
    cv_splits,
    encode_fold,
    rmse_multiclass,
    sign_test,
    win_draw_loss,
    zero_one_loss,
)
from hierbn.studies.petitjean2018_claims import evaluate_claims


def test_stratified_5x2_folds_partition_the_data() -> None:
    y = np.repeat([0, 1, 2], [50, 30, 21])
    splits = cv_splits(y, "toy", 5, base_seed=0)
    assert len(splits) == 10
    for r in range(5):
        (_, _, tr0, te0), (_, _, _, te1) = splits[2 * r], splits[2 * r + 1]
        assert np.array_equal(np.sort(np.concatenate([te0, te1])), np.arange(y.size))
        assert np.array_equal(tr0, te1)
        assert abs(np.mean(y[te0] == 0) - 50 / 101) < 0.02  # stratified
    assert not np.array_equal(splits[0][3], splits[2][3])  # a fresh split per round
    assert np.array_equal(cv_splits(y, "toy", 5, 0)[4][3], splits[4][3])  # reproducible


def test_fold_encoding_fits_cuts_on_training_rows_and_keeps_missing() -> None:
    frame = pd.DataFrame(
        {
            "a": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0, np.nan, 100.0],
            "b": pd.Categorical(["x", "y", None, "x", "y", "x", "y", "x"]),
            "class": pd.Categorical(list("ppp" + "qqq" + "pq")),
        }
    )
    train, test = np.arange(6), np.array([6, 7])
    tr, te, names, cards = encode_fold(frame, "class", train, test)
    assert names == ["a", "b", "class"] and cards == [
        3,
        3,
        2,
    ]  # 2 MDL bins + missing; 2 levels + missing
    assert tr[:, 0].tolist() == [0, 0, 0, 1, 1, 1] and te[:, 0].tolist() == [2, 1]
    assert tr[2, 1] == 2  # the missing category


def test_metrics_and_sign_test() -> None:
    proba = np.array([[0.7, 0.3], [0.4, 0.6]])
    y = np.array([0, 0])
    assert zero_one_loss(y, proba) == 0.5
    assert rmse_multiclass(y, proba) == pytest.approx(
        np.sqrt(np.mean([(0.09 + 0.09) / 2, (0.36 + 0.36) / 2]))
    )
    assert sign_test(6, 0) == pytest.approx(0.03125) and sign_test(0, 0) == 1.0


def _cv(values: dict[str, list[float]]) -> pd.DataFrame:
    rows = []
    for method, per_dataset in values.items():
        for d, v in enumerate(per_dataset):
            rows.append({"dataset": f"d{d}", "method": method, "metric": "rmse", "value": v})
    return pd.DataFrame(rows)


def test_win_draw_loss_rounds_before_comparing() -> None:
    cv = _cv({"a": [0.1, 0.2, 0.30001, 0.5], "b": [0.2, 0.1, 0.3, 0.6]})
    w = win_draw_loss(cv, "a", "b", "rmse")
    assert (w["wins"], w["draws"], w["losses"]) == (2, 1, 1)


def test_claims_without_experiments_are_not_covered() -> None:
    claims = evaluate_claims(_cv({"nb-hdp": [0.1, 0.1], "nb-m": [0.2, 0.2]}), None)
    by_id = {c["id"]: c for c in claims}
    assert [c["id"] for c in claims] == [f"H{i}" for i in range(1, 14)]
    assert by_id["H1"]["status"] == "not covered" and by_id["H2"]["status"] == "pass"
