"""Checks at every public estimator and scoring entry point: bad input is refused with a
``ValueError`` naming the argument and the first bad index, never turned into a wrong number
(a NaN that becomes a uniform column, a negative "probability", a code read out of bounds).

The kernels behind these entry points run in Numba without bounds checks, which is why the
checks sit in front of them and not inside."""

from __future__ import annotations

from typing import Any

import numpy as np


def _where(name: str, array: np.ndarray, mask: np.ndarray) -> str:
    """``name[i, j] = value`` of the first True of ``mask``."""
    index = tuple(int(i) for i in np.argwhere(mask)[0])
    label = ", ".join(map(str, index))
    value = array[index]
    return f"{name}[{label}] = {value.item() if hasattr(value, 'item') else value!r}"


def _numeric(values: Any, name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.dtype == object or not (
        np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_
    ):
        raise ValueError(f"{name} must hold numbers, got dtype {array.dtype}")
    return array


def check_counts(
    counts: Any, name: str = "counts", *, integer: bool = False, min_rows: int = 1
) -> np.ndarray:
    """A count table ``counts[value, configuration]`` as float64: 2-d, at least ``min_rows``
    values and one column, finite, non-negative (and integer-valued when ``integer``)."""
    array = _numeric(counts, name)
    if array.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-d table [value, configuration], got shape {array.shape}"
        )
    if array.shape[0] < min_rows or array.shape[1] < 1:
        raise ValueError(
            f"{name} must have at least {min_rows} row(s) and 1 column, got shape {array.shape}"
        )
    table = array.astype(np.float64)
    if not np.all(np.isfinite(table)):
        raise ValueError(f"{name} must be finite: {_where(name, table, ~np.isfinite(table))}")
    if np.any(table < 0):
        raise ValueError(f"{name} must be non-negative: {_where(name, table, table < 0)}")
    if integer and np.any(table != np.round(table)):
        raise ValueError(
            f"{name} must be whole counts: {_where(name, table, table != np.round(table))}"
        )
    return table


def check_codes(
    codes: Any, cards: Any, name: str = "codes", *, allow_empty: bool = False
) -> np.ndarray:
    """Integer state codes ``codes[row, variable]`` with ``codes[:, j]`` in ``[0, cards[j])``
    as int64 (a 1-d array is one variable)."""
    card = np.asarray(cards, dtype=np.int64).reshape(-1)
    array = _numeric(codes, name)
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    if array.ndim != 2 or array.shape[1] != card.size:
        raise ValueError(
            f"{name} must be [row, variable] with {card.size} variable(s), got shape {array.shape}"
        )
    if np.any(card < 1):
        raise ValueError(f"cardinalities of {name} must be >= 1: {_where('cards', card, card < 1)}")
    if array.shape[0] == 0 and not allow_empty:
        raise ValueError(f"{name} has no rows")
    if np.issubdtype(array.dtype, np.integer) and (
        array.size == 0 or (array.min(axis=0).min() >= 0 and np.all(array.max(axis=0) < card))
    ):  # integer codes in range: nothing else to check
        return array.astype(np.int64)
    values = array.astype(np.float64)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} must be finite: {_where(name, values, ~np.isfinite(values))}")
    if np.any(values != np.round(values)):
        raise ValueError(
            f"{name} must be integer codes: {_where(name, values, values != np.round(values))}"
        )
    outside = (values < 0) | (values >= card[None, :])
    if np.any(outside):
        column = int(np.argwhere(outside)[0][1])
        raise ValueError(
            f"{name} must lie in [0, cardinality): {_where(name, array, outside)} "
            f"(cardinality {card[column]})"
        )
    return array.astype(np.int64)


def check_positive(value: float, name: str, *, allow_zero: bool = False) -> float:
    """A finite number > 0 (>= 0 with ``allow_zero``)."""
    number = float(value)
    if not np.isfinite(number) or number < 0 or (number == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
    return number


def check_family(
    child_values: Any, contexts: Any, radix: Any, n_values: int
) -> tuple[np.ndarray, np.ndarray]:
    """A CPT's data for a context tree: ``child_values`` codes in [0, n_values) and one row
    of ``contexts[row, conditioning variable]`` codes in [0, radix[j]) per value."""
    if int(n_values) != n_values or n_values < 1:
        raise ValueError(f"n_values must be an integer >= 1, got {n_values!r}")
    values = check_codes(child_values, [int(n_values)], "child_values")[:, 0]
    card = np.asarray(radix, dtype=np.int64).reshape(-1)
    matrix = np.asarray(contexts)
    if matrix.ndim == 1 and card.size == 1:
        matrix = matrix.reshape(-1, 1)
    if matrix.ndim != 2 or matrix.shape[0] != values.size:
        raise ValueError(
            f"contexts must be [row, variable] with one row per child value ({values.size}), "
            f"got shape {matrix.shape}"
        )
    return values, check_codes(matrix, card, "contexts")
