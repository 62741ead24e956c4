"""Cross-validation splits and fold encodings shared by the classifier studies: stratified
two-fold splits (one round of 5x2 CV) and integer codes with MDL cuts fitted on the training
rows and the missing value as its own category (petitjean2018 decisions §4.2 and §4.3)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from hierbn.bn.counting import validate_codes
from hierbn.data.discretise import apply_cuts, mdl_cuts
from hierbn.seeds import KeyPart, rng_for


def stratified_two_fold(y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Fold label (0/1) per row: each class's rows are shuffled and alternated between folds."""
    fold = np.empty(y.size, dtype=np.int64)
    start = 0
    for c in np.unique(y):
        rows = rng.permutation(np.flatnonzero(y == c))
        fold[rows] = (np.arange(rows.size) + start) % 2
        start += rows.size
    return fold


def two_fold_split(
    y: np.ndarray, key: tuple[KeyPart, ...], fold: int, base_seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """(train rows, test rows) of fold ``fold`` of the stratified two-fold split drawn from the
    stream ``key`` (one CV round): every method and job given the same key sees the same split."""
    labels = stratified_two_fold(y, rng_for(*key, base_seed=base_seed))
    return np.flatnonzero(labels != fold), np.flatnonzero(labels == fold)


def encode_fold(
    frame: pd.DataFrame, target: str, train: np.ndarray, test: np.ndarray
) -> tuple[np.ndarray, np.ndarray, list[str], list[int]]:
    """Integer codes for a fold: numeric columns by MDL cuts fitted on the training rows
    (petitjean2018 decision §4.2), every attribute with an extra 'missing' category, the class
    last. Returns (train codes, test codes, names, cardinalities)."""
    y_all = frame[target].cat.codes.to_numpy()
    names, cards, columns = [], [], []
    for name in frame.columns:
        if name == target:
            continue
        col = frame[name]
        if col.dtype.kind == "f":
            values = col.to_numpy()
            cuts = mdl_cuts(values[train], y_all[train])
            codes = apply_cuts(values, cuts)
            n_states = cuts.size + 1
        else:
            codes = col.cat.codes.to_numpy().astype(np.int64)
            n_states = len(col.cat.categories)
        codes = np.where(codes < 0, n_states, codes)  # missing is its own value
        names.append(name)
        cards.append(n_states + 1)
        columns.append(codes)
    names.append(target)
    cards.append(len(frame[target].cat.categories))
    columns.append(y_all)
    data = validate_codes(np.column_stack(columns), np.asarray(cards))
    return data[train], data[test], names, cards
