"""Table 4 of becker2018 (decisions 14 and 15): one (repeat, fold) cell of the repeated
10-fold CV, every model on identical folds, MSE of rounded and raw predictions; and the Table 3
rankings (VB by ARD precision and class intercepts, lasso by order of entry on its path)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from sklearn.model_selection import KFold

from hierbn.estimators.hier_regression import GroupedData, fit_vb
from hierbn.estimators.regression_baselines import (
    lasso_entry_order,
    mixed_model_predict,
    ols_predict,
    penalised_cv_predict,
)
from hierbn.seeds import int_seed
from hierbn.studies.becker2018.data import Design
from hierbn.studies.becker2018.paper import PREDICTORS
from hierbn.studies.becker2018.protocol import STUDY, hyper_of
from hierbn.studies.common import tidy

PRIMARY = ("ols", "lasso", "vb-faithful", "lme", "ridge")  # Table 4's five models
SENSITIVITY = ("ridge-noclass", "ols-noclass", "ols-nointercept", "lasso-1se", "vb-corrected",
               "vb-nointercept")  # fmt: skip
MODELS = (*PRIMARY, *SENSITIVITY)


def fold_rows(n_rows: int, repeat: int, fold: int, folds: int) -> tuple[np.ndarray, np.ndarray]:
    """Decision 14: KFold(folds, shuffle=True, random_state=repeat + 1), identical for every model."""
    splits = list(
        KFold(n_splits=folds, shuffle=True, random_state=repeat + 1).split(np.arange(n_rows))
    )
    return splits[fold]


def _vb(variant: str, intercept: bool, config: dict[str, Any]) -> Callable[..., dict[str, Any]]:
    def predict(train: Design, test: Design, seed: int) -> dict[str, Any]:
        x_train = train.with_intercept() if intercept else train.predictors
        x_test = test.with_intercept() if intercept else test.predictors
        data = GroupedData.from_arrays(x_train, train.response, train.groups, 13)
        fit = fit_vb(data, hyper_of(config), variant, config["vb"]["tol"], config["vb"]["max_iter"])
        mean, _, lower, upper = fit.predictive(x_test, test.groups)
        covered = (test.response >= lower) & (test.response <= upper)
        return {"prediction": mean, "coverage95": float(covered.mean()), "n_iter": fit.n_iter}

    return predict


def _penalised(kind: str, rule: str, with_class: bool) -> Callable[..., dict[str, Any]]:
    def predict(train: Design, test: Design, seed: int) -> dict[str, Any]:
        design = (
            (lambda d: np.column_stack([d.predictors, d.one_hot()]))
            if with_class
            else (lambda d: d.predictors)
        )
        prediction, lam = penalised_cv_predict(
            kind, design(train), train.response, design(test), seed, rule
        )
        return {"prediction": prediction, "lambda": lam}

    return predict


def _ols(design: Callable[[Design], np.ndarray]) -> Callable[..., dict[str, Any]]:
    def predict(train: Design, test: Design, seed: int) -> dict[str, Any]:
        return {"prediction": ols_predict(design(train), train.response, design(test))}

    return predict


def _lme(train: Design, test: Design, seed: int) -> dict[str, Any]:
    prediction = mixed_model_predict(train.predictors, train.response, train.classes,
                                     test.predictors, test.classes)  # fmt: skip
    return {"prediction": prediction}


def model_table(config: dict[str, Any]) -> dict[str, Callable[..., dict[str, Any]]]:
    """The models of Table 4 and its sensitivity rows (decision 15)."""
    return {
        "ols": _ols(Design.with_class_reference),
        "lasso": _penalised("lasso", "min", True),
        "vb-faithful": _vb("faithful", True, config),
        "lme": _lme,
        "ridge": _penalised("ridge", "min", True),
        "ridge-noclass": _penalised("ridge", "min", False),
        "ols-noclass": _ols(lambda d: np.column_stack([np.ones(len(d.response)), d.predictors])),
        "ols-nointercept": _ols(lambda d: d.predictors),
        "lasso-1se": _penalised("lasso", "1se", True),
        "vb-corrected": _vb("corrected", True, config),
        "vb-nointercept": _vb("faithful", False, config),
    }


def run_cv_cell(
    frame: pd.DataFrame, repeat: int, fold: int, config: dict[str, Any], base_seed: int
) -> pd.DataFrame:
    """Every model on one (repeat, fold) split: MSE of rint(prediction) (R's round, half to
    even) and of the raw prediction; VB also the 95% predictive coverage of the raw response."""
    cv = config["cv"]
    train_rows, test_rows = fold_rows(len(frame), repeat, fold, cv["folds"])
    train, test = Design.of(frame, train_rows), Design.of(frame, test_rows)
    records = []
    for name, model in model_table(config).items():
        seed = int_seed(STUDY, "cv", repeat, fold, name, base_seed=base_seed)
        result = model(train, test, seed)
        prediction = result.pop("prediction")
        metrics = {"mse_rounded": np.mean((np.rint(prediction) - test.response) ** 2),
                   "mse_raw": np.mean((prediction - test.response) ** 2), **result}  # fmt: skip
        records += [{"study": STUDY, "experiment": "cv", "dataset": "turkiye", "n": int(train_rows.size),
                     "rep": repeat, "fold": fold, "seed": seed, "method": name, "metric": k,
                     "value": float(v), "n_test": int(test_rows.size)} for k, v in metrics.items()]  # fmt: skip
    return tidy(records, {"cv": cv, "vb": config["vb"], "hyper": config["hyper"]})


def lasso_rankings(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 3's lasso columns: order of entry of the 30 predictors and the 13 class one-hots
    on the exact LARS-lasso path (primary) and glmnet's grid (sensitivity), decision 13."""
    design = Design.of(frame)
    x = np.column_stack([design.predictors, design.one_hot()])
    names = [*PREDICTORS, *(f"class {c}" for c in range(1, 14))]
    rows = []
    for method, exact in (("lasso-exact", True), ("lasso-grid", False)):
        order = [names[j] for j in lasso_entry_order(x, design.response, exact)]
        for kind, items in (("question", [n for n in order if not n.startswith("class")]),
                            ("class", [n for n in order if n.startswith("class")])):  # fmt: skip
            rows += [{"method": method, "kind": kind, "rank": r + 1, "item": item}
                     for r, item in enumerate(items)]  # fmt: skip
    return pd.DataFrame(rows)
