"""The Turkiye student evaluation data of becker2018 (decisions §3.1): the check of the canonical
table against the recorded shape, marginals, column sums and the SHA-256 of its int8 matrix, and
the designs the models use (raw predictors, class groups, one-hot or reference class columns)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from hierbn.data.readers import DataFormatError
from hierbn.studies.becker2018.paper import PREDICTORS, QUESTIONS

COLUMNS = ("instr", "class", "nb.repeat", "attendance", "difficulty", *QUESTIONS)
N_CLASSES = 13
EXPECTED = {
    "shape": [5820, 33],
    "column_sums": [14466, 42348, 7066, 9752, 16200, 17052, 17890, 18500, 17940, 18076, 18085,
                    17846, 17704, 18426, 17988, 18530, 17667, 18873, 19153, 19132, 18447, 19779,
                    18755, 18983, 19121, 19249, 19308, 18635, 18431, 19279, 18753, 18361, 19253],
    "difficulty": {1: 1620, 2: 549, 3: 1774, 4: 1225, 5: 652},
    "attendance": {0: 1902, 1: 1028, 2: 792, 3: 1252, 4: 846},
    "nb.repeat": {1: 4909, 2: 576, 3: 335},
    "class_sizes": [303, 140, 904, 187, 656, 558, 187, 500, 571, 448, 484, 41, 841],
    "sha256_int8": "77c90673aa959a51af16f4fd9e520bc922810247dca91ec99cf04c98b06ff479",
}  # fmt: skip


def _found(frame: pd.DataFrame) -> dict[str, Any]:
    matrix = frame[list(COLUMNS)].to_numpy()
    counts = {c: {int(k): int(v) for k, v in frame[c].value_counts().sort_index().items()}
              for c in ("difficulty", "attendance", "nb.repeat")}  # fmt: skip
    return {
        "shape": list(matrix.shape),
        "column_sums": [int(v) for v in matrix.sum(axis=0)],
        **counts,
        "class_sizes": [int(v) for v in np.bincount(frame["class"].astype(int), minlength=14)[1:]],
        "sha256_int8": hashlib.sha256(
            np.ascontiguousarray(matrix.astype(np.int8)).tobytes()
        ).hexdigest(),
    }


def _difference(key: str, expected: Any, found: Any) -> str:
    if key == "column_sums" and len(found) == len(expected):
        cells = [
            f"{c} {e} vs {f}" for c, e, f in zip(COLUMNS, expected, found, strict=True) if e != f
        ]
        return "column sums (expected vs found): " + ", ".join(cells)
    return f"{key}: expected {expected}, found {found}"


def check_turkiye(frame: pd.DataFrame, source: str) -> dict[str, Any]:
    """Check the canonical Turkiye table (columns by position, decisions §3.1) and return what was
    found; a mismatch raises a :class:`DataFormatError` naming ``source`` and each difference."""
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise DataFormatError(f"{source}: columns {missing} are missing; expected {list(COLUMNS)}")
    values = frame[list(COLUMNS)].to_numpy(dtype=float)
    if not np.all(np.isfinite(values)) or np.any(values != np.round(values)):
        raise DataFormatError(f"{source}: every value must be an integer code (no missing values)")
    found = _found(frame)
    differences = [_difference(key, EXPECTED[key], found[key])
                   for key in EXPECTED if found[key] != EXPECTED[key]]  # fmt: skip
    if differences:
        raise DataFormatError(
            f"{source} is not the Turkiye data of decisions §3.1: " + "; ".join(differences)
        )
    return found


@dataclass(frozen=True)
class Design:
    """The rows of the data (all, or a subset) as model inputs."""

    predictors: np.ndarray  # (rows, 30) raw codes, spec order
    response: np.ndarray  # difficulty
    classes: np.ndarray  # class codes 1..13

    @classmethod
    def of(cls, frame: pd.DataFrame, rows: np.ndarray | None = None) -> Design:
        part = frame if rows is None else frame.iloc[rows]
        return cls(
            part[list(PREDICTORS)].to_numpy(dtype=float),
            part["difficulty"].to_numpy(dtype=float),
            part["class"].to_numpy().astype(np.int64),
        )

    @property
    def groups(self) -> np.ndarray:
        """Group codes 0..12 of the hierarchical model."""
        return self.classes - 1

    def with_intercept(self) -> np.ndarray:
        """Raw predictors plus a trailing ones column: the VB design (decision 1)."""
        return np.column_stack([self.predictors, np.ones(len(self.response))])

    def one_hot(self) -> np.ndarray:
        """The 13 class indicators (all levels; lasso and ridge, decision 15)."""
        return (self.classes[:, None] == np.arange(1, N_CLASSES + 1)[None, :]).astype(float)

    def with_class_reference(self) -> np.ndarray:
        """Intercept, predictors and 12 reference-coded class indicators (OLS, decision 15)."""
        return np.column_stack(
            [np.ones(len(self.response)), self.predictors, self.one_hot()[:, 1:]]
        )
