"""Raw files -> one canonical data set (categoricals with declared levels, target last),
checked against the paper's rows/attributes/classes with deviations recorded, not hidden."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hierbn.data.download import verify_sha256
from hierbn.data.readers import DataFormatError, read_any
from hierbn.data.registry import DatasetEntry
from hierbn.seeds import rng_for


def _as_categorical(series: pd.Series) -> pd.Series:
    if isinstance(series.dtype, pd.CategoricalDtype) or series.dtype.kind in "iuf":
        return series
    return series.astype("category")


def build_dataset(entry: DatasetEntry, raw_paths: list[str | Path]) -> pd.DataFrame:
    """Read, concatenate and clean the parts of ``entry``; the target becomes the last column.
    Each raw file is first checked against the sha256 it is registered (and was fetched) under,
    so a file changed or truncated since is never read."""
    if len(raw_paths) != len(entry.parts):
        raise ValueError(f"{entry.id}: expected {len(entry.parts)} raw files, got {len(raw_paths)}")
    for path, part in zip(raw_paths, entry.parts, strict=True):
        verify_sha256(path, part.sha256, label=f"{path} (registered as {part.file})")
    frames = [
        read_any(path, part.format, part.columns, part.skip_rows, part.na_values)
        for path, part in zip(raw_paths, entry.parts, strict=True)
    ]
    names = list(frames[0].columns)
    for path, frame in zip(raw_paths, frames, strict=True):
        if list(frame.columns) != names:
            raise DataFormatError(
                f"{path}: columns {list(frame.columns)} differ from the first part's {names}"
            )
    if entry.target not in names:
        raise DataFormatError(
            f"{raw_paths[0]}: target column {entry.target!r} not found; columns are {names}"
        )
    absent = [c for c in entry.drop_columns if c not in names]
    if absent:
        raise DataFormatError(
            f"{raw_paths[0]}: drop_columns {absent} not found; columns are {names}"
        )
    if len(frames) == 1:
        data = frames[0]
    else:
        merged = {}
        for name in names:
            parts = [f[name] for f in frames]
            if all(p.dtype.kind == "f" for p in parts):
                merged[name] = pd.concat(parts, ignore_index=True)
            else:
                merged[name] = pd.concat([p.astype(object) for p in parts], ignore_index=True)
        data = pd.DataFrame(merged)
    data = data.drop(columns=list(entry.drop_columns))
    target = data.pop(entry.target)
    if entry.strip_suffix:
        target = target.astype(object).map(
            lambda v: v.rstrip(entry.strip_suffix) if isinstance(v, str) else v
        )
    data = pd.concat([data, target.rename(entry.target)], axis=1)
    for name in data.columns:
        data[name] = _as_categorical(data[name])
    if target.isna().any():
        data = data[data[entry.target].notna()].reset_index(drop=True)
    if entry.missing == "drop":
        data = data.dropna().reset_index(drop=True)
    if entry.subsample is not None and entry.subsample < len(data):
        rows = rng_for("subsample", entry.study, entry.id).choice(
            len(data), entry.subsample, replace=False
        )
        data = data.iloc[np.sort(rows)].reset_index(drop=True)
    if entry.regression:
        if data[entry.target].dtype.kind != "f":
            raise DataFormatError(
                f"{raw_paths[0]}: the regression target {entry.target!r} is not numeric"
            )
        return data  # numeric columns stay float64, the response included
    if entry.class_levels == "present":
        data[entry.target] = data[entry.target].cat.remove_unused_categories()
    target = data[entry.target]
    if not isinstance(target.dtype, pd.CategoricalDtype):
        target = target.astype("category")
    if target.cat.categories.dtype.kind in "iuf":
        target = target.cat.rename_categories(number_labels(target.cat.categories.to_numpy()))
    data[entry.target] = target
    return data


def number_labels(values: np.ndarray) -> list[str]:
    """Numeric class levels as text ("0", "1", "2.5"): parquet keeps a categorical of strings,
    while a categorical of numbers is read back as plain numbers."""
    values = values.astype(float)
    return [str(int(v)) if v == round(v) else str(v) for v in values]


def check_against_paper(
    entry: DatasetEntry, data: pd.DataFrame, raw_rows: int | None = None
) -> dict[str, Any]:
    """Compare rows, attributes and classes with the paper's table; list every deviation."""
    target = data[entry.target]
    found = {
        "rows": len(data),
        "attributes": data.shape[1] - 1,
        "classes": 0 if entry.regression else len(target.cat.categories),
    }
    report: dict[str, Any] = {
        "study": entry.study,
        "id": entry.id,
        "paper_index": entry.paper_index,
        "paper_name": entry.paper_name,
        "files": [p.file for p in entry.parts],
        "raw_rows": raw_rows,
        "classes_present": 0 if entry.regression else int(target.value_counts().gt(0).sum()),
        "missing_cells": int(data.drop(columns=[entry.target]).isna().sum().sum()),
        "numeric_attributes": int(
            sum(data[c].dtype.kind == "f" for c in data.columns if c != entry.target)
        ),
    }
    empty = [c for c in data.columns if c != entry.target and data[c].isna().all()]
    report["empty_columns"] = empty
    deviations = [f"columns with no observed value: {empty}"] if empty else []
    for key, paper_value in (
        ("rows", entry.paper_rows),
        ("attributes", entry.paper_attributes),
        ("classes", entry.paper_classes),
    ):
        report[key] = found[key]
        report[f"paper_{key}"] = paper_value
        if found[key] != paper_value:
            deviations.append(f"{key}: paper {paper_value}, ours {found[key]}")
    report["deviations"] = deviations
    return report
