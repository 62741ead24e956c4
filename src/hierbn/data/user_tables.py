"""A user's own data file as a table of attributes, shared by the panel (``panel.datasets``)
and ``hierbn fit``: the readers by extension, the column types (a float column stays
float64 with NaN missing, anything else categorical with text levels) and the refusal of
identifier-like columns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from hierbn.data.convert import number_labels
from hierbn.data.readers import DataFormatError, read_arff, read_csv

USER_FORMATS = (".csv", ".tsv", ".arff")
CSV_MISSING = ("", "NA", "NaN")  # besides "?", which the readers treat as missing everywhere
# A categorical attribute of a user's file with more distinct values than this share of its rows
# (and at least IDENTIFIER_MIN of them) is an identifier, not a variable: a category per row
# makes every CPT of its family grow with the data (a 2,000-row file with one ran 427 s
# instead of 44 s in the panel, issue 26).
SHOWN_ROWS = 5  # row numbers named in an error about missing target values
IDENTIFIER_SHARE = 0.5
IDENTIFIER_MIN = 50
# A column of numbers with at most this many distinct values is categorical unless the user
# declares it numeric (issue 45): grades 1-4 are four states, not bins that merge 1 and 2 (or
# one bin, when the supervised cut finds no point). For a user's files (``few_values``), an
# ARFF's numeric attributes too; the registry's tables keep the types of their sources.
FEW_VALUES = 20
Kind = Literal["auto", "categorical", "numeric"]


@dataclass(frozen=True)
class ColumnTypes:
    """The types a user gives columns: ``categorical`` and ``numeric`` name columns (the rest
    are typed from their values); ``few_values``: a number column with at most
    :data:`FEW_VALUES` distinct values is categorical unless named ``numeric`` (a user's files);
    ``flags`` name the two lists in errors (``--categorical``,
    ``--numeric`` on the command line; ``categorical:``, ``numeric:`` in the panel's config)."""

    categorical: tuple[str, ...] = ()
    numeric: tuple[str, ...] = ()
    few_values: bool = False
    flags: tuple[str, str] = ("--categorical", "--numeric")

    def kind(self, column: str) -> Kind:
        if column in self.categorical:
            return "categorical"
        return "numeric" if column in self.numeric else "auto"

    def check(self, columns: Sequence[str], where: str, target: str | None) -> None:
        """Refuse a named column that is not in ``columns``, one named in both lists, and a
        numeric target (a class is categorical)."""
        for flag, names in zip(self.flags, (self.categorical, self.numeric), strict=True):
            unknown = [c for c in names if c not in columns]
            if unknown:
                raise DataFormatError(
                    f"{where}: {flag} names {unknown}, not columns of {list(columns)}"
                )
        both = sorted(set(self.categorical) & set(self.numeric))
        if both:
            raise DataFormatError(
                f"{where}: {both} named by both {self.flags[0]} and {self.flags[1]}"
            )
        if target is not None and target in self.numeric:
            raise DataFormatError(
                f"{where}: the target {target!r} is a class, so it cannot be {self.flags[1]}"
            )


UNTYPED = ColumnTypes()  # every column typed from its values, as the registry's tables are


def read_user_table(path: Path, threads: int = 1) -> pd.DataFrame:
    """The raw table of a user's file by its extension: ``.csv`` comma- and ``.tsv``
    tab-separated with a header row (read on up to ``threads`` threads), where an empty field,
    ``?``, ``NA`` and ``NaN`` are missing; ``.arff`` dense ARFF (``?`` missing). An unknown
    extension raises :class:`DataFormatError` naming the file."""
    suffix = path.suffix.lower()
    if suffix == ".arff":
        return read_arff(path)
    if suffix in (".csv", ".tsv"):
        sep = "," if suffix == ".csv" else "\t"
        return read_csv(path, sep=sep, na_values=CSV_MISSING, threads=threads)
    raise DataFormatError(
        f"{path}: unknown extension {path.suffix!r}; expected one of {', '.join(USER_FORMATS)}"
    )


def categorical_column(series: pd.Series) -> pd.Series:
    """``series`` as a categorical whose levels are text: parquet reads a categorical of numbers
    (or booleans) back as plain numbers."""
    if not isinstance(series.dtype, pd.CategoricalDtype):
        series = series.astype("category")
    levels = series.cat.categories
    if levels.dtype.kind == "b":
        return series.cat.rename_categories([str(v) for v in levels])
    if levels.dtype.kind in "iuf":
        return series.cat.rename_categories(number_labels(levels.to_numpy()))
    return series


def attribute_column(
    series: pd.Series, kind: Kind = "auto", few_values: bool = False, where: str = "data"
) -> pd.Series:
    """A column typed as the user says (``kind``), else from its values: a float column stays
    float64 (NaN = missing), except a 0/1 indicator, which is nominal (LUCAS0's columns are read
    as numbers; MDL could merge its two values into one bin), and, with ``few_values``, a
    column of at most :data:`FEW_VALUES` distinct numbers; any other becomes categorical (its
    numbers as their labels, "1", "2.5"). A column declared numeric whose values are not all
    numbers is refused naming the first that is not."""
    if kind == "categorical":
        return categorical_column(series)
    present = series.dropna()
    if kind == "numeric":
        if series.dtype.kind in "iuf":
            return series.astype(np.float64)
        number = pd.to_numeric(present.astype(str), errors="coerce")
        first = present[number.isna()].iloc[0]
        raise DataFormatError(
            f"{where}: column {series.name!r} is declared numeric but has {first!r}, not a number"
        )
    if series.dtype.kind == "f" and (present.empty or not present.isin((0.0, 1.0)).all()):
        if few_values and 0 < present.nunique() <= FEW_VALUES:
            return categorical_column(series)
        return series.astype(np.float64)  # all missing: numeric, every row the missing bin
    return categorical_column(series)


def refuse_identifiers(
    attributes: pd.DataFrame, where: str, declared_numeric: Sequence[str] = ()
) -> None:
    """Refuse an identifier, naming it and the ``drop`` that leaves it out: a categorical
    attribute with a distinct value for most rows, or a numeric one (not in
    ``declared_numeric``) with a different whole number in every row."""
    rows = len(attributes)
    for name in attributes.columns:
        column = attributes[name]
        if not isinstance(column.dtype, pd.CategoricalDtype):
            present = column.dropna()  # whole numbers, a different one in every row: row ids
            whole = bool((present == np.round(present)).all())
            if (
                name not in declared_numeric
                and rows >= IDENTIFIER_MIN
                and whole
                and present.nunique() == rows
            ):
                raise DataFormatError(
                    f"{where}: column {name!r} holds a different whole number in each of its "
                    f"{rows} rows, like an identifier; cut into bins it would mean nothing. "
                    f"Leave it out: drop: [{name!r}] in the panel's config, --drop {name} in "
                    "hierbn fit (or --numeric keeps it, for a measurement)"
                )
            continue  # numbers are discretised into a few bins
        distinct = int(column.nunique())
        if distinct >= IDENTIFIER_MIN and distinct > IDENTIFIER_SHARE * rows:
            raise DataFormatError(
                f"{where}: column {name!r} has {distinct} distinct values in {rows} rows, "
                "like an identifier; as a category it would make every table of its family "
                f"grow with the rows. Leave it out: drop: [{name!r}] in the panel's config, "
                f"--drop {name} in hierbn fit"
            )


def prepare_table(
    frame: pd.DataFrame,
    where: str,
    target: str | None,
    drop: Sequence[str] = (),
    subset: Callable[[pd.DataFrame], pd.DataFrame] | None = None,
    types: ColumnTypes = UNTYPED,
) -> pd.DataFrame:
    """``frame`` without the ``drop`` columns, the ``target`` (default: the last column) moved
    last as a categorical of the classes present, every other column as
    :func:`attribute_column` makes it. ``subset`` picks rows after the target is checked and
    before the columns are typed (the panel's seeded sample); ``types`` are the user's column
    types. An unknown ``drop``, target or typed column, a row without a target value or fewer
    than 2 classes raise :class:`DataFormatError` starting with ``where``."""
    unknown = [c for c in drop if c not in frame.columns]
    if unknown:
        raise DataFormatError(
            f"{where}: drop names {unknown}, not columns of {list(frame.columns)}"
        )
    frame = frame.drop(columns=list(drop)).reset_index(drop=True)
    names = list(frame.columns)
    target = names[-1] if target is None and names else target
    if target not in names:
        raise DataFormatError(f"{where}: target column {target!r} not found; columns are {names}")
    types.check(names, where, target)
    missing = np.flatnonzero(frame[target].isna().to_numpy())
    if missing.size:
        first = ", ".join(str(i + 1) for i in missing[:SHOWN_ROWS])
        raise DataFormatError(
            f"{where}: {missing.size} rows have no value of the target column {target!r} "
            f"(rows {first}{', ...' if missing.size > SHOWN_ROWS else ''}; "
            "row 1 = the first data row)"
        )
    if subset is not None:
        frame = subset(frame)
    table = pd.DataFrame(
        {
            c: attribute_column(frame[c], types.kind(c), types.few_values, where)
            for c in names
            if c != target
        }
    )
    table[target] = categorical_column(frame[target]).cat.remove_unused_categories()
    labels = [str(v) for v in table[target].cat.categories]
    if len(labels) < 2:
        raise DataFormatError(
            f"{where}: the target column {target!r} has {len(labels)} class(es) {labels}; "
            "a classifier needs at least 2"
        )
    return table


def table_check(table: pd.DataFrame) -> dict[str, Any]:
    """The data report's summary of a prepared table (class last): rows, attributes, classes,
    missing cells and the numeric/categorical split."""
    target = table.columns[-1]
    attributes = table.drop(columns=[target])
    labels = [str(v) for v in table[target].cat.categories]
    numeric = sum(attributes[c].dtype.kind == "f" for c in attributes.columns)
    return {
        "target": target,
        "rows": len(table),
        "attributes": attributes.shape[1],
        "classes": {"count": len(labels), "labels": labels},
        "missing_cells": int(attributes.isna().sum().sum()),
        "numeric_attributes": int(numeric),
        "categorical_attributes": int(attributes.shape[1] - numeric),
    }
