"""The estimator panel's protocol: every configured CPT estimator (:mod:`hierbn.cpts`) on every
configured BN classifier structure, on identical stratified 5x2 CV folds, with MDL cuts fitted
on each training fold and the missing value as its own category (the encoding of
petitjean2018 decision §4.2). Metrics per model: 0-1 loss, multi-class RMSE, log-loss,
one-vs-rest AUC, and the seconds of fitting the CPTs and of predicting. Learning curves: nested
training samples of one fold, test set the other fold."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pandas as pd

from hierbn.bn.classifier_structures import FoldData
from hierbn.cpts import fit_network, make_estimator
from hierbn.data.cv import encode_fold, two_fold_split
from hierbn.metrics import log_loss, rmse_multiclass, roc_auc_ovr, zero_one_loss
from hierbn.seeds import int_seed, rng_for, seed_sequence
from hierbn.studies.common import tidy

STUDY = "panel"
Cell = tuple[int, int, str, str]  # (round, fold, structure, estimator)


def cv_cells(config: dict[str, Any]) -> list[Cell]:
    """Every (round, fold, structure, estimator) of the CV config, in run order."""
    return [
        (r, f, s, e)
        for r in range(config["cv"]["rounds"])
        for f in (0, 1)
        for s in config["structures"]
        for e in config["estimators"]
    ]


def cell_config(config: dict[str, Any], estimator: str) -> dict[str, Any]:
    """What one cell job reads: the estimator's own settings only (so changing the HDP
    iterations reruns the HDP cells and nothing else)."""
    prefix = "bdeu" if estimator.startswith("bdeu") else estimator
    settings = config.get("settings", {})
    return {"settings": {prefix: settings[prefix]} if prefix in settings else {}}


def evaluate(
    fold: FoldData,
    structure: str,
    estimator: str,
    settings: dict[str, Any],
    seed: np.random.SeedSequence,
) -> dict[str, float]:
    """Fit ``estimator``'s CPTs for ``structure`` on the fold's training codes and score its
    test codes; ``seed`` is the samplers' random stream."""
    model, kept = fold.structure(structure)
    start = time.perf_counter()
    nodes = (*kept, model.class_index)
    fitted = fit_network(model, fold.train, make_estimator(estimator, settings), seed, nodes=nodes)
    fitted_at = time.perf_counter()
    proba = fitted.predict_proba(fold.test)
    predicted_at = time.perf_counter()
    y = fold.test[:, -1]
    return {
        "zero_one": zero_one_loss(y, proba),
        "rmse": rmse_multiclass(y, proba),
        "log_loss": log_loss(y, proba),
        "auc": roc_auc_ovr(y, proba),
        "fit_seconds": fitted_at - start,
        "predict_seconds": predicted_at - fitted_at,
    }


def _records(fold: FoldData, base: dict[str, Any], key: tuple, structure: str, estimator: str,
             settings: dict[str, Any], base_seed: int) -> list[dict[str, Any]]:  # fmt: skip
    cell_key = (*key, structure, estimator)
    seeds = seed_sequence(*cell_key, base_seed=base_seed)
    metrics = evaluate(fold, structure, estimator, settings, seeds)
    seed = int_seed(*cell_key, base_seed=base_seed)
    return [
        {**base, "seed": seed, "structure": structure, "estimator": estimator,
         "method": estimator, "metric": name, "value": float(value)}
        for name, value in metrics.items()
    ]  # fmt: skip


def run_cv(
    frame: pd.DataFrame,
    dataset: str,
    config: dict[str, Any],
    base_seed: int,
    cells: list[Cell] | None = None,
) -> pd.DataFrame:
    """The 5x2 CV of one prepared data set (class last): every cell of :func:`cv_cells`, or
    only ``cells``. A split depends on (data set, round) only, so every structure, estimator
    and job sees the same folds; a cell's rows do not depend on which other cells ran."""
    target = frame.columns[-1]
    y = frame[target].cat.codes.to_numpy()
    chosen = cv_cells(config) if cells is None else cells
    records: list[dict[str, Any]] = []
    for r, f in dict.fromkeys((r, f) for r, f, _, _ in chosen):
        train, test = two_fold_split(y, (STUDY, "cv", dataset, r), f, base_seed)
        fold = FoldData(*encode_fold(frame, target, train, test))
        base = {"study": STUDY, "experiment": "cv", "dataset": dataset, "n": int(train.size),
                "rep": r, "fold": f}  # fmt: skip
        for _, _, structure, estimator in (c for c in chosen if c[:2] == (r, f)):
            records += _records(fold, base, (STUDY, "cv", dataset, r, f), structure, estimator,
                                config.get("settings", {}), base_seed)  # fmt: skip
    return tidy(records, {"panel": config})


def curve_sizes(sizes: list[int], pool: int) -> list[int]:
    """The configured training sizes below the fold's size, then the whole fold."""
    return sorted({*(s for s in sizes if s < pool), pool})


def run_learning_curve(
    frame: pd.DataFrame, dataset: str, config: dict[str, Any], run: int, base_seed: int
) -> pd.DataFrame:
    """One run of the learning curves: the test set is fold 1 of CV round ``run``; training
    samples are nested prefixes of a random order of fold 0, from the smallest configured
    size to the whole fold, with MDL cuts refitted on every sample. Every configured estimator
    on the curve's structures."""
    target = frame.columns[-1]
    y = frame[target].cat.codes.to_numpy()
    train, test = two_fold_split(y, (STUDY, "cv", dataset, run), 0, base_seed)
    order = rng_for(STUDY, "learning_curve", dataset, run, base_seed=base_seed).permutation(train)
    curve = config["learning_curve"]
    records: list[dict[str, Any]] = []
    for size in curve_sizes(curve["sizes"], order.size):
        fold = FoldData(*encode_fold(frame, target, order[:size], test))
        base = {"study": STUDY, "experiment": "learning_curve", "dataset": dataset, "n": size,
                "rep": run, "fold": 0}  # fmt: skip
        key = (STUDY, "learning_curve", dataset, run, size)
        for structure in curve["structures"]:
            for estimator in config["estimators"]:
                records += _records(fold, base, key, structure, estimator,
                                    config.get("settings", {}), base_seed)  # fmt: skip
    return tidy(records, {"panel": config})
