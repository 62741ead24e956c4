"""The dataset registry ``config/datasets.tsv``.

One row per (study, dataset, part): a data set made of several files (Adult = adult.data +
adult.test) has one row per part, concatenated in part order. Columns:

study, id, part, paper_index, paper_name, file (path inside a mirror laid out like
``../shared/data``), source_url, sha256, format (arff|csv|tsv|rda), target, columns (names for a
header-less CSV), skip_rows, drop_columns (comma-separated), class_levels (declared|present),
missing (impute|drop|keep: what the study does with incomplete rows; only
drop removes them at conversion), subsample (seeded row subsample size), strip_suffix (characters to
strip from the end of target values), paper_rows, paper_attributes, paper_classes, task
(classification: the target becomes a categorical; regression: it stays numeric, and
paper_classes is 0), na_values (comma-separated tokens that mean "missing" in a csv/tsv file
besides ``?``, e.g. ``NA,null``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

REQUIRED_COLUMNS = (
    "study",
    "id",
    "part",
    "paper_index",
    "paper_name",
    "file",
    "source_url",
    "sha256",
    "format",
    "target",
    "columns",
    "skip_rows",
    "drop_columns",
    "class_levels",
    "missing",
    "subsample",
    "strip_suffix",
    "paper_rows",
    "paper_attributes",
    "paper_classes",
    "task",
    "na_values",
)
TASKS = ("classification", "regression")
FORMATS = ("arff", "csv", "tsv", "rda")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class RegistryError(ValueError):
    """The registry file is malformed; the message names the file, row and column."""


@dataclass(frozen=True)
class FileEntry:
    """One raw file of a data set."""

    file: str
    source_url: str
    sha256: str
    format: str
    columns: tuple[str, ...]
    skip_rows: int
    na_values: tuple[str, ...] = ()


@dataclass(frozen=True)
class DatasetEntry:
    """A registered data set of one study."""

    study: str
    id: str
    paper_index: int
    paper_name: str
    target: str
    parts: tuple[FileEntry, ...]
    drop_columns: tuple[str, ...]
    class_levels: str
    missing: str
    subsample: int | None
    strip_suffix: str
    paper_rows: int
    paper_attributes: int
    paper_classes: int
    task: str = "classification"

    @property
    def regression(self) -> bool:
        return self.task == "regression"


def _split(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(",") if v.strip()) if value else ()


def load_registry(path: str | Path) -> dict[tuple[str, str], DatasetEntry]:
    """Read and validate the registry; keys are (study, id)."""
    path = Path(path)
    try:
        table = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    except (OSError, pd.errors.ParserError) as exc:
        raise RegistryError(f"{path}: cannot read the registry: {exc}") from exc
    missing = [c for c in REQUIRED_COLUMNS if c not in table.columns]
    if missing:
        raise RegistryError(f"{path}: missing columns {missing}")
    grouped: dict[tuple[str, str], list[tuple[int, dict[str, str]]]] = {}
    for line, row in enumerate(table.to_dict("records"), start=2):
        _check_row(path, line, row)
        grouped.setdefault((row["study"], row["id"]), []).append((line, row))
    entries = {}
    for key, rows in grouped.items():
        rows.sort(key=lambda item: int(item[1]["part"]))
        first = rows[0][1]
        parts = tuple(
            FileEntry(
                file=r["file"],
                source_url=r["source_url"],
                sha256=r["sha256"],
                format=r["format"],
                columns=_split(r["columns"]),
                skip_rows=int(r["skip_rows"] or 0),
                na_values=_split(r["na_values"]),
            )
            for _, r in rows
        )
        entries[key] = DatasetEntry(
            study=key[0],
            id=key[1],
            paper_index=int(first["paper_index"]),
            paper_name=first["paper_name"],
            target=first["target"],
            parts=parts,
            drop_columns=_split(first["drop_columns"]),
            class_levels=first["class_levels"] or "declared",
            missing=first["missing"] or "impute",
            subsample=int(first["subsample"]) if first["subsample"] else None,
            strip_suffix=first["strip_suffix"],
            paper_rows=int(first["paper_rows"]),
            paper_attributes=int(first["paper_attributes"]),
            paper_classes=int(first["paper_classes"]),
            task=first["task"],
        )
    return entries


def _check_row(path: Path, line: int, row: dict[str, str]) -> None:
    where = f"{path}, line {line} ({row.get('study')}/{row.get('id')})"
    if row["format"] not in FORMATS:
        raise RegistryError(f"{where}: unknown format {row['format']!r}; expected one of {FORMATS}")
    if not _SHA256.match(row["sha256"]):
        raise RegistryError(
            f"{where}: sha256 must be 64 lowercase hex digits, got {row['sha256']!r}"
        )
    if not row["target"]:
        raise RegistryError(f"{where}: the target column is empty")
    for key in ("part", "paper_index", "paper_rows", "paper_attributes", "paper_classes"):
        if not row[key].isdigit():
            raise RegistryError(
                f"{where}: column {key!r} must be a non-negative integer, got {row[key]!r}"
            )
    if row["task"] not in TASKS:
        raise RegistryError(f"{where}: task must be one of {TASKS}, got {row['task']!r}")
    if row["class_levels"] not in ("", "declared", "present"):
        raise RegistryError(
            f"{where}: class_levels must be declared or present, got {row['class_levels']!r}"
        )
    if row["missing"] not in ("", "impute", "drop", "keep"):
        raise RegistryError(
            f"{where}: missing must be impute, drop or keep, got {row['missing']!r}"
        )
    if row["subsample"] and not row["subsample"].isdigit():
        raise RegistryError(f"{where}: subsample must be an integer, got {row['subsample']!r}")
    if row["skip_rows"] and not row["skip_rows"].isdigit():
        raise RegistryError(f"{where}: skip_rows must be an integer, got {row['skip_rows']!r}")


def study_datasets(registry: dict[tuple[str, str], DatasetEntry], study: str) -> list[DatasetEntry]:
    """The data sets of ``study`` in paper-table order."""
    return sorted((e for (s, _), e in registry.items() if s == study), key=lambda e: e.paper_index)
