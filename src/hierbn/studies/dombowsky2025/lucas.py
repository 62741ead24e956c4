"""LUCAS0 (Sec. 5.2 of dombowsky2025; decisions §4.2 and §5): the 2,000 x 12 binary training set
with the English names and column order of decisions §4.2, the true DAG (12 edges, Born an
Even Day isolated), the true Markov blankets derived from it (Table 5) and the six targets of
Table 2."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

# decisions §4.2: the column order of the CSV, in our English names
COLUMNS = ("Smoking", "Yellow_Fingers", "Anxiety", "Peer_Pressure", "Genetics",
           "Attention_Disorder", "Born_an_Even_Day", "Car_Accident", "Fatigue", "Allergy",
           "Coughing", "Lung_cancer")  # fmt: skip
# the mirrored copy (vicbeldo98/causaInf) has Spanish headers, one per English name, same order
SPANISH = dict(zip(("Fumar", "Dedos_Amarillos", "Ansiedad", "Presion_Grupo", "Genetica",
                    "Deficit_Atencion", "Nacido_Dia_Par", "Accidente_Coche", "Fatiga", "Alergia",
                    "Toser", "Cancer_Pulmon"), COLUMNS, strict=True))  # fmt: skip
# decisions §4.2: the true DAG as (parent, child)
EDGES = (("Anxiety", "Smoking"), ("Peer_Pressure", "Smoking"), ("Smoking", "Yellow_Fingers"),
         ("Smoking", "Lung_cancer"), ("Genetics", "Lung_cancer"),
         ("Genetics", "Attention_Disorder"), ("Lung_cancer", "Coughing"), ("Allergy", "Coughing"),
         ("Lung_cancer", "Fatigue"), ("Coughing", "Fatigue"), ("Fatigue", "Car_Accident"),
         ("Attention_Disorder", "Car_Accident"))  # fmt: skip
# Table 2: the six targets, in the table's row order
TARGETS = ("Smoking", "Genetics", "Fatigue", "Coughing", "Allergy", "Lung_cancer")
ROWS = 2000


def markov_blanket(edges: Iterable[tuple[str, str]], node: str) -> frozenset[str]:
    """Parents, children and the children's other parents of ``node`` in a DAG (decisions §3.3)."""
    edges = tuple(edges)
    parents = {a for a, b in edges if b == node}
    children = {b for a, b in edges if a == node}
    spouses = {a for a, b in edges if b in children and a != node}
    return frozenset(parents | children | spouses)


def true_blankets(targets: Iterable[str] = TARGETS) -> dict[str, frozenset[str]]:
    """The true Markov blanket of each target, derived from :data:`EDGES`."""
    return {t: markov_blanket(EDGES, t) for t in targets}


def _binary_column(values: pd.Series, name: str, source: str) -> np.ndarray:
    """A 0/1 column as int64 (numbers, or number labels of a categorical); anything else is an
    error naming the file, the column and the first bad row."""
    numbers = pd.to_numeric(values.astype(str), errors="coerce")  # a missing value is "nan"
    bad = ~numbers.isin((0, 1))
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(
            f"{source}: column {name!r} must be 0/1; row {row + 1} (data row) has "
            f"{str(values.iloc[row])!r} ({int(bad.sum())} such rows)"
        )
    return numbers.to_numpy().astype(np.int64)


def code_lucas(frame: pd.DataFrame, source: str) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The twelve LUCAS0 columns under the names and in the order of decisions §4.2, as 0/1
    int64, and a check (rows, whether the file's order was that one, the share of 1s per column).

    Spanish headers are renamed through :data:`SPANISH`; English ones are taken as they are. The
    shape must be (2000, 12) and every value 0 or 1 (decisions §5: assert shape and binary values).
    """
    renamed = frame.rename(columns=SPANISH)
    missing = [c for c in COLUMNS if c not in renamed.columns]
    if missing:
        raise ValueError(
            f"{source}: LUCAS columns {missing} not found (Spanish {sorted(SPANISH)} or English "
            f"names); the file has {list(frame.columns)}"
        )
    extra = [c for c in renamed.columns if c not in COLUMNS]
    if extra or renamed.shape != (ROWS, len(COLUMNS)):
        raise ValueError(
            f"{source}: expected {ROWS} rows x {len(COLUMNS)} columns (LUCAS0 train), found "
            f"{frame.shape[0]} x {frame.shape[1]}"
            + (f"; unexpected columns {extra}" if extra else "")
        )
    table = pd.DataFrame({c: _binary_column(renamed[c], c, source) for c in COLUMNS})
    check = {"source": source, "rows": len(table),
             "order_matches_spec": list(renamed.columns) == list(COLUMNS),
             "mean": {c: float(table[c].mean()) for c in COLUMNS}}  # fmt: skip
    return table, check
