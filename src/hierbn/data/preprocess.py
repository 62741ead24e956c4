"""Imputation and integer coding of canonical data sets (azzimonti2019 §4 E2 preprocessing)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hierbn.data.discretise import apply_cuts, bin_labels, equal_frequency_cuts


def drop_empty_columns(frame: pd.DataFrame, keep: str) -> tuple[pd.DataFrame, list[str]]:
    """Drop the columns (other than ``keep``) that have no observed value in any row: nothing
    can impute them (azzimonti2019 decision: e.g. hypothyroid's TBG, anneal's 'm'); returns the
    frame and the names dropped."""
    empty = [c for c in frame.columns if c != keep and frame[c].isna().all()]
    return frame.drop(columns=empty), empty


def impute_median_mode(frame: pd.DataFrame) -> pd.DataFrame:
    """Median for numeric columns, mode (first most frequent level) for categorical ones."""
    out = frame.copy()
    for name in out.columns:
        col = out[name]
        if not col.isna().any():
            continue
        if col.dtype.kind == "f":
            if col.notna().any():
                out[name] = col.fillna(col.median())
            continue
        counts = col.value_counts(sort=False)
        if counts.sum() > 0:
            out[name] = col.fillna(counts.index[int(np.argmax(counts.to_numpy()))])
    return out


def discretise_equal_frequency(
    frame: pd.DataFrame, target: str, n_bins: int = 5
) -> tuple[pd.DataFrame, dict[str, list[float]]]:
    """Replace every numeric feature by equal-frequency bins (duplicate cut points merged).

    Returns the discretised frame (all categorical) and the cut points per variable.
    """
    out = frame.copy()
    cuts: dict[str, list[float]] = {}
    for name in out.columns:
        if name == target or out[name].dtype.kind != "f":
            continue
        values = out[name].to_numpy()
        edges = equal_frequency_cuts(values[~np.isnan(values)], n_bins)
        cuts[name] = edges.tolist()
        codes = apply_cuts(values, edges)
        out[name] = pd.Categorical.from_codes(
            np.where(np.isnan(values), -1, codes), categories=bin_labels(edges)
        )
    return out, cuts


@dataclass(frozen=True)
class CodedData:
    """Integer-coded data: ``codes[row, var]`` in ``[0, cards[var])``; class is the last column."""

    codes: np.ndarray
    names: tuple[str, ...]
    cards: tuple[int, ...]
    levels: tuple[tuple[str, ...], ...]
    class_index: int


def encode(frame: pd.DataFrame, target: str) -> CodedData:
    """Integer-code an all-categorical frame with no missing values; target moved last."""
    names = [c for c in frame.columns if c != target] + [target]
    columns = []
    cards = []
    levels = []
    for name in names:
        col = frame[name]
        if not isinstance(col.dtype, pd.CategoricalDtype):
            raise ValueError(
                f"column {name!r} is not categorical (dtype {col.dtype}); discretise it first"
            )
        codes = col.cat.codes.to_numpy()
        if (codes < 0).any():
            raise ValueError(
                f"column {name!r} has {(codes < 0).sum()} missing values; impute them first"
            )
        columns.append(codes.astype(np.int32))
        cards.append(max(len(col.cat.categories), 1))
        levels.append(tuple(str(c) for c in col.cat.categories))
    codes = np.ascontiguousarray(np.column_stack(columns), dtype=np.int32)
    return CodedData(codes, tuple(names), tuple(cards), tuple(levels), len(names) - 1)
