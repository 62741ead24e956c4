"""Helpers shared by the study protocols: tidy rows and train/test splits."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

RESULT_COLUMNS = ("study", "experiment", "dataset", "n", "rep", "seed", "method", "metric", "value")


def tidy(records: list[dict[str, Any]], config: dict[str, Any]) -> pd.DataFrame:
    """Records -> a long table with the core columns first and the producing config attached."""
    frame = pd.DataFrame.from_records(records)
    for column in RESULT_COLUMNS:
        if column not in frame.columns:
            frame[column] = pd.NA
    ordered = list(RESULT_COLUMNS) + [c for c in frame.columns if c not in RESULT_COLUMNS]
    frame = frame[ordered]
    frame["config"] = json.dumps(config, sort_keys=True)
    return frame


def metric_records(
    base: dict[str, Any], method: str, metrics: dict[str, float]
) -> list[dict[str, Any]]:
    """One record per metric of ``method`` sharing the cell description ``base``."""
    return [
        {**base, "method": method, "metric": name, "value": float(value)}
        for name, value in metrics.items()
    ]


def train_test_split(
    rng: np.random.Generator, n_rows: int, n_train: int, test_size: int
) -> tuple[np.ndarray, np.ndarray]:
    """n_train rows without replacement, then up to ``test_size`` of the remaining rows."""
    if n_train >= n_rows:
        raise ValueError(f"cannot draw {n_train} training rows from {n_rows}")
    perm = rng.permutation(n_rows)
    train = perm[:n_train]
    rest = perm[n_train:]
    test = rest if rest.size <= test_size else rng.choice(rest, test_size, replace=False)
    return np.sort(train), np.sort(test)
