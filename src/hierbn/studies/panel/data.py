"""The panel's data sets as one prepared table each: a registry data set's canonical parquet
(``panel.registry``) or a user's own CSV or ARFF file (``panel.datasets``), the class column
last (categorical, >= 2 classes, none missing), every other column float (NaN = missing) or
categorical (code -1 = missing), plus the small check metadata the data report shows."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hierbn.config import ConfigError
from hierbn.data.convert import number_labels
from hierbn.data.download import sha256_of, verify_sha256
from hierbn.data.readers import DataFormatError, read_arff, read_csv
from hierbn.seeds import rng_for

USER_FORMATS = (".csv", ".arff")
CSV_MISSING = ("", "NA", "NaN")  # besides "?", which the readers treat as missing everywhere
SHOWN_ROWS = 5  # row numbers named in an error about missing class values
# A categorical attribute of a user's file with more distinct values than this share of its rows
# (and at least IDENTIFIER_MIN of them) is an identifier, not a variable: a category per row
# makes every CPT of its family grow with the data (a 2,000-row file with one ran 427 s
# instead of 44 s, issue 26).
IDENTIFIER_SHARE = 0.5
IDENTIFIER_MIN = 50


def _categorical(series: pd.Series) -> pd.Series:
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


def _attribute(series: pd.Series) -> pd.Series:
    """A float column stays float64 (NaN = missing), except a 0/1 indicator, which is nominal
    (LUCAS0's columns are read as numbers; MDL could merge its two values into one bin); any
    other becomes categorical."""
    present = series.dropna()
    if series.dtype.kind == "f" and (present.empty or not present.isin((0.0, 1.0)).all()):
        return series.astype(np.float64)  # all missing: numeric, every row the missing bin
    return _categorical(series)


def _sampled(
    frame: pd.DataFrame, rows: int, where: str, base_seed: int, dataset: str
) -> pd.DataFrame:
    """A seeded sample of ``rows`` rows without replacement, kept in the table's order."""
    if rows > len(frame):
        raise DataFormatError(f"{where} asks for rows: {rows}, but the table has {len(frame)}")
    chosen = rng_for("panel", "sample", dataset, base_seed=base_seed).choice(
        len(frame), rows, replace=False
    )
    return frame.iloc[np.sort(chosen)].reset_index(drop=True)


def _prepared(
    frame: pd.DataFrame,
    dataset: str,
    source: str,
    key: str,
    target: str | None,
    rows: int | None,
    base_seed: int,
    drop: Sequence[str] = (),
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The shared target handling of registry and user tables (see
    :func:`prepare_registry_table`); ``key`` is the config list naming the data set; ``drop``
    names columns to leave out (an identifier, say)."""
    where = f"{source} ({key} id {dataset!r})"
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
    missing = np.flatnonzero(frame[target].isna().to_numpy())
    if missing.size:
        first = ", ".join(str(i + 1) for i in missing[:SHOWN_ROWS])
        raise DataFormatError(
            f"{where}: {missing.size} rows have no value of the target column {target!r} "
            f"(rows {first}{', ...' if missing.size > SHOWN_ROWS else ''}; "
            "row 1 = the first data row)"
        )
    if rows is not None:
        frame = _sampled(frame, rows, where, base_seed, dataset)
    table = pd.DataFrame({c: _attribute(frame[c]) for c in names if c != target})
    table[target] = _categorical(frame[target]).cat.remove_unused_categories()
    labels = [str(v) for v in table[target].cat.categories]
    if len(labels) < 2:
        raise DataFormatError(
            f"{where}: the target column {target!r} has {len(labels)} class(es) {labels}; "
            "a classifier needs at least 2"
        )
    attributes = table.drop(columns=[target])
    numeric = sum(attributes[c].dtype.kind == "f" for c in attributes.columns)
    check = {
        "id": dataset,
        "source": source,
        "target": target,
        "rows": len(table),
        "attributes": attributes.shape[1],
        "classes": {"count": len(labels), "labels": labels},
        "missing_cells": int(attributes.isna().sum().sum()),
        "numeric_attributes": int(numeric),
        "categorical_attributes": int(attributes.shape[1] - numeric),
    }
    return table, check


def prepare_registry_table(
    frame: pd.DataFrame,
    dataset: str,
    source: str,
    target: str | None,
    rows: int | None,
    base_seed: int,
    drop: Sequence[str] = (),
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The prepared table and check metadata of a registry data set (``panel.registry``).

    ``frame`` is the canonical parquet of ``source`` (``<study>/<id>`` of the registry).
    ``target`` defaults to the last column; it is moved last and made categorical with only the
    classes present. Float columns stay float64; integer, boolean, text and categorical ones
    become categoricals (numeric levels as text, e.g. "0", "1"). ``rows`` draws a seeded
    sample without replacement (key ("panel", "sample", dataset)), kept in the table's order.
    A missing target column, a missing class value, fewer than 2 classes or more ``rows`` than
    the table holds raise :class:`DataFormatError` naming ``source`` and the data set.
    """
    return _prepared(frame, dataset, source, "panel.registry", target, rows, base_seed, drop)


def refuse_identifiers(attributes: pd.DataFrame, where: str) -> None:
    """Refuse a categorical attribute with a distinct value for most rows (an identifier),
    naming it, its number of distinct values and the ``drop`` that leaves it out."""
    rows = len(attributes)
    for name in attributes.columns:
        column = attributes[name]
        if not isinstance(column.dtype, pd.CategoricalDtype):
            continue  # numbers are discretised into a few bins
        distinct = int(column.nunique())
        if distinct >= IDENTIFIER_MIN and distinct > IDENTIFIER_SHARE * rows:
            raise DataFormatError(
                f"{where}: column {name!r} has {distinct} distinct values in {rows} rows, "
                "like an identifier; as a category it would make every table of its family "
                f"grow with the rows. Leave it out with drop: [{name!r}]"
            )


def read_user_dataset(
    path: str | Path,
    dataset: str,
    target: str,
    sha256: str | None,
    drop: Sequence[str] = (),
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The prepared table and check metadata of a user's file (``panel.datasets``).

    The format follows the extension: ``.csv`` is comma-separated with a header row (the
    readers' CSV: no other separator is sniffed) where an empty field, ``?``, ``NA`` and
    ``NaN`` are missing; ``.arff`` is a dense ARFF file (``?`` missing, nominal levels as
    declared). A column whose present values are all numbers is numeric (float64), any other
    categorical; as for the registry's files, a column of numbers with a few stray words is
    refused naming the line. The target is then handled as in :func:`prepare_registry_table`
    (no sampling). A missing file or an unknown extension raises :class:`ConfigError`; a
    ``sha256`` that differs from the file's :class:`ChecksumError` naming both digests; bad
    content, or an identifier-like column (:func:`refuse_identifiers`), :class:`DataFormatError`
    naming the file. The check adds the file's sha256 and path.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in USER_FORMATS:
        raise ConfigError(
            f"panel.datasets id {dataset!r}: {path} has an unknown extension {path.suffix!r}; "
            f"expected one of {', '.join(USER_FORMATS)}"
        )
    if not path.is_file():
        raise ConfigError(f"panel.datasets id {dataset!r}: file {path} does not exist")
    if sha256 is not None:
        verify_sha256(path, sha256.lower(), label=f"{path} (panel.datasets id {dataset!r})")
    frame = read_arff(path) if suffix == ".arff" else read_csv(path, na_values=CSV_MISSING)
    table, check = _prepared(frame, dataset, str(path), "panel.datasets", target, None, 0, drop)
    refuse_identifiers(table.iloc[:, :-1], f"{path} (panel.datasets id {dataset!r})")
    check["path"] = str(path)
    check["sha256"] = sha256.lower() if sha256 is not None else sha256_of(path)
    return table, check
