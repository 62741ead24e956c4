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
from hierbn.data.download import sha256_of, verify_sha256
from hierbn.data.readers import DataFormatError
from hierbn.data.user_tables import (
    UNTYPED,
    ColumnTypes,
    prepare_table,
    read_user_table,
    refuse_identifiers,
    table_check,
)
from hierbn.seeds import rng_for

PANEL_FORMATS = (".csv", ".arff")


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
    types: ColumnTypes = UNTYPED,
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The shared target handling of registry and user tables (see
    :func:`prepare_registry_table`); ``key`` is the config list naming the data set; ``drop``
    names columns to leave out (an identifier, say); ``types`` the user's column types."""
    where = f"{source} ({key} id {dataset!r})"

    def sample(frame: pd.DataFrame) -> pd.DataFrame:
        return _sampled(frame, rows, where, base_seed, dataset)

    table = prepare_table(frame, where, target, drop, None if rows is None else sample, types)
    return table, {"id": dataset, "source": source, **table_check(table)}


def one_state_columns(table: pd.DataFrame) -> list[str]:
    """The attributes (class last, not counted) with a single state: one value in every row,
    none missing."""
    return [c for c in table.columns[:-1] if table[c].nunique(dropna=False) <= 1]


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


def read_user_dataset(
    path: str | Path,
    dataset: str,
    target: str,
    sha256: str | None,
    drop: Sequence[str] = (),
    categorical: Sequence[str] = (),
    numeric: Sequence[str] = (),
    keep_constant: bool = False,
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The prepared table and check metadata of a user's file (``panel.datasets``).

    The format follows the extension: ``.csv`` is comma-separated with a header row (the
    readers' CSV: no other separator is sniffed) where an empty field, ``?``, ``NA`` and
    ``NaN`` are missing; ``.arff`` is a dense ARFF file (``?`` missing, nominal levels as
    declared). Columns named in ``categorical`` or ``numeric`` have that type; another column
    whose present values are all numbers is numeric (float64) when it has more than 20
    distinct values, categorical (its numbers as levels) when it has 20 or fewer, and any
    other column categorical; as for the registry's files, a column of numbers with a few
    stray words is refused naming the line. An attribute with one value in every row is left
    out (named in the check's ``one_state``) unless ``keep_constant``. The target is then
    handled as in :func:`prepare_registry_table` (no sampling). A missing file or an unknown
    extension raises :class:`ConfigError`; a ``sha256`` that differs from the file's
    :class:`ChecksumError` naming both digests; bad content, or an identifier-like column
    (:func:`refuse_identifiers`), :class:`DataFormatError` naming the file. The check adds the
    file's sha256 and path.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in PANEL_FORMATS:
        raise ConfigError(
            f"panel.datasets id {dataset!r}: {path} has an unknown extension {path.suffix!r}; "
            f"expected one of {', '.join(PANEL_FORMATS)}"
        )
    if not path.is_file():
        raise ConfigError(f"panel.datasets id {dataset!r}: file {path} does not exist")
    if sha256 is not None:
        verify_sha256(path, sha256.lower(), label=f"{path} (panel.datasets id {dataset!r})")
    frame = read_user_table(path)
    types = ColumnTypes(tuple(categorical), tuple(numeric), True, ("categorical:", "numeric:"))
    table, _ = _prepared(frame, dataset, str(path), "panel.datasets", target, None, 0, drop, types)
    refuse_identifiers(table.iloc[:, :-1], f"{path} (panel.datasets id {dataset!r})", numeric)
    one_state = [] if keep_constant else one_state_columns(table)
    table = table.drop(columns=one_state)
    check = {"id": dataset, "source": str(path), **table_check(table), "one_state": one_state}
    check["path"] = str(path)
    check["sha256"] = sha256.lower() if sha256 is not None else sha256_of(path)
    return table, check
