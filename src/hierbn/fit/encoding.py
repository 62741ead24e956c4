"""How ``hierbn fit`` turns a prepared table into integer codes, and new rows the same way.

The panel's handling, fitted once on the whole table instead of per CV fold: a numeric
column is cut into bins by the supervised MDL rule against the target
(petitjean2018 decision §4.2, as the panel does per training fold) or, without a target, at its tertiles
(bnlearn's ``discretize`` default: quantiles, 3 breaks); a bin is ``(lo, hi]``. A categorical
column keeps its levels in order. A missing value is its own state, ``missing``, in the
columns that have one (the panel gives every column that state, since a test fold may have
what its training fold lacks; a network to take away has only the states its data show).

Every node and state gets an *interchange name* of letters, digits and ``_`` only, which BIF
(pgmpy's reader, bnlearn's ``read.bif``) and XMLBIF (whose states pgmpy's writer would
otherwise rewrite) accept: ``<=50K`` becomes ``le_50K``, ``Never-married`` ``Never_married``;
in a bin's bounds a decimal point is ``p`` and a minus ``m``, so ``(2.5, 7]`` is
``gt2p5_le7`` and ``(-0.8, 0]`` ``gtm0p8_le0``. Each :class:`ColumnCoding` keeps the
original column name and levels, so new data in the file's own terms is encoded exactly.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from hierbn.data.discretise import apply_cuts, equal_frequency_cuts, mdl_cuts
from hierbn.data.user_tables import categorical_column

MISSING_STATE = "missing"
UNSUPERVISED_BINS = 3  # bnlearn's discretize(): method "quantile", breaks 3
_OPERATORS = (("<=", "le"), (">=", "ge"), ("!=", "ne"), ("<", "lt"), (">", "gt"), ("=", "eq"))
_UNSAFE = re.compile(r"[^A-Za-z0-9]+")  # a run of anything else, underscores included


def interchange_name(text: str) -> str:
    """``text`` with comparison operators spelt out (``<=`` -> ``le``) and every run of other
    characters outside ``[A-Za-z0-9]`` replaced by one ``_``, none at either end (never
    empty)."""
    for operator, word in _OPERATORS:
        text = text.replace(operator, f"_{word}_")
    return _UNSAFE.sub("_", text.strip()).strip("_") or "_"


def unique_names(texts: Iterable[str]) -> tuple[str, ...]:
    """:func:`interchange_name` of each text, a repeated name suffixed ``_2``, ``_3``, ..."""
    names: list[str] = []
    for text in texts:
        base = name = interchange_name(text)
        copy = 1
        while name in names:
            copy += 1
            name = f"{base}_{copy}"
        names.append(name)
    return tuple(names)


def _number(value: float) -> str:
    return f"{value:.6g}".replace("e+", "e").replace("-", "m").replace(".", "p")


def bin_states(cuts: Iterable[float]) -> list[str]:
    """The interchange names of the bins ``(-inf, c1], (c1, c2], ..., (ck, inf)``:
    ``le{c1}``, ``gt{c1}_le{c2}``, ..., ``gt{ck}`` (``all`` when there is no cut), a number
    with ``p`` for its point and ``m`` for its minus."""
    edges = [_number(c) for c in cuts]
    if not edges:
        return ["all"]
    middle = [f"gt{lo}_le{hi}" for lo, hi in itertools.pairwise(edges)]
    return [f"le{edges[0]}", *middle, f"gt{edges[-1]}"]


@dataclass(frozen=True)
class ColumnCoding:
    """One column's coding: its ``column`` name in the data and ``node`` name in the network,
    the ``levels`` of a categorical column or the ``cuts`` of a numeric one, whether it has
    the ``missing`` state (the last), and the interchange ``states`` in code order."""

    column: str
    node: str
    levels: tuple[str, ...] | None
    cuts: tuple[float, ...] | None
    missing: bool
    states: tuple[str, ...]

    @property
    def numeric(self) -> bool:
        return self.cuts is not None

    def encode(self, series: pd.Series, where: str) -> np.ndarray:
        """The codes of ``series`` (int64); a level this coding does not know, or a missing
        value in a column fitted without the ``missing`` state, is refused naming the column
        and the first such row (row 1 = the first data row)."""
        if self.cuts is not None:
            values = pd.to_numeric(series, errors="coerce").to_numpy(dtype=np.float64)
            bad = np.isnan(values) & series.notna().to_numpy()
            codes = apply_cuts(values, np.asarray(self.cuts))
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                raise ValueError(
                    f"{where}: column {self.column!r} is numeric, row {row + 1} has "
                    f"{series.iloc[row]!r}"
                )
        else:
            text = categorical_column(series).astype("string")  # numbers as the file's labels
            lookup = {level: code for code, level in enumerate(self.levels)}
            codes = text.map(lookup, na_action="ignore").to_numpy(dtype=np.float64, na_value=-1)
            unknown = (codes < 0) & text.notna().to_numpy()
            if unknown.any():
                row = int(np.flatnonzero(unknown)[0])
                raise ValueError(
                    f"{where}: column {self.column!r}, row {row + 1}: value "
                    f"{text.iloc[row]!r} is not one of the fitted levels {list(self.levels)}"
                )
            codes = codes.astype(np.int64)
        absent = codes < 0
        if absent.any():
            if not self.missing:
                row = int(np.flatnonzero(absent)[0])
                raise ValueError(
                    f"{where}: column {self.column!r}, row {row + 1} is missing, and the "
                    "network was fitted on data without missing values in that column"
                )
            codes = np.where(absent, len(self.states) - 1, codes)
        return codes


Bins = int | str | None  # "mdl", "tertiles", a number of equal-frequency bins, None: the default


def check_bins(bins: Bins, target: str | None) -> Bins:
    """``bins`` checked: ``"mdl"`` (needs a target), ``"tertiles"``, or an integer >= 2 (that
    many equal-frequency bins, bnlearn's ``discretize(method = "quantile", breaks = N)``);
    None: MDL with a target, tertiles without."""
    if bins is None or bins == "tertiles":
        return bins
    if bins == "mdl":
        if target is None:
            raise ValueError("--bins mdl cuts against the target: give --target, or --bins N")
        return bins
    if isinstance(bins, str) and bins.isdigit():
        bins = int(bins)
    if isinstance(bins, int) and not isinstance(bins, bool) and bins >= 2:
        return bins
    raise ValueError(f"--bins {bins!r}: expected mdl, tertiles or a number of bins >= 2")


def fit_coding(
    column: str, node: str, series: pd.Series, target: np.ndarray | None, bins: Bins = None
) -> ColumnCoding:
    """The coding of one prepared column (float64 numeric or categorical): MDL cuts against
    the ``target`` codes (``bins`` None or "mdl"), or equal-frequency cuts of the present
    values: tertiles (``bins`` "tertiles", or None without a target) or ``bins`` of them; a
    ``missing`` state when it has a missing value."""
    missing = bool(series.isna().any())
    if series.dtype.kind == "f":
        values = series.to_numpy()
        if target is None or bins not in (None, "mdl"):  # equal-frequency cuts
            count = UNSUPERVISED_BINS if bins in (None, "tertiles") else int(bins)
            cuts = equal_frequency_cuts(values[~np.isnan(values)], count)
        else:  # mdl_cuts ignores missing values
            cuts = mdl_cuts(values, target)
        levels, states = None, bin_states(cuts)
        cut_values: tuple[float, ...] | None = tuple(float(c) for c in cuts)
    else:
        levels = tuple(str(v) for v in series.cat.categories)
        states, cut_values = list(levels), None
    names = unique_names([*states, *([MISSING_STATE] if missing else [])])
    return ColumnCoding(column, node, levels, cut_values, missing, names)


def fit_codings(
    table: pd.DataFrame, target: str | None, bins: Bins = None
) -> tuple[ColumnCoding, ...]:
    """The coding of every column of a prepared table, in its order (node names made
    interchange-safe and distinct; ``bins`` as :func:`fit_coding`)."""
    nodes = unique_names(str(c) for c in table.columns)
    y = None if target is None else table[target].cat.codes.to_numpy()
    return tuple(
        fit_coding(str(c), node, table[c], None if c == target else y, bins)
        for c, node in zip(table.columns, nodes, strict=True)
    )


def encode_table(
    codings: tuple[ColumnCoding, ...], frame: pd.DataFrame, where: str, skip: str | None = None
) -> np.ndarray:
    """``codes[row, node]`` of ``frame`` under ``codings``; a column named ``skip`` (the
    target of a table to classify) may be absent and is coded 0. A missing column is refused
    naming it."""
    absent = [c.column for c in codings if c.column not in frame.columns and c.column != skip]
    if absent:
        raise ValueError(f"{where}: no column {absent}; columns are {list(frame.columns)}")
    columns = [
        np.zeros(len(frame), dtype=np.int64)
        if c.column not in frame.columns
        else c.encode(frame[c.column].reset_index(drop=True), where)
        for c in codings
    ]
    return np.ascontiguousarray(np.column_stack(columns), dtype=np.int32)
