"""A record run's jobs scaled to the jobs of a longer run (issue 24's paper-scale estimate).

A study's record run (``reproduction/``) can run the paper plan's jobs with shorter chains or
fewer draws: the same jobs, the same outputs, other config values in their commands. A scaling
file (YAML) says, per rule, how such a measured job's seconds grow at the planned scale::

    beal_scores:
      job: 10.6          # the whole job's seconds x 10.6 (106 instances where it ran 10)
    pj_cv_round:
      rows:              # timed rows of the job's first output, a tidy parquet
        - where: {metric: ^seconds$, method: -hdp$}   # every named column matches (re.search)
          factor: 50     # the job grows by (50 - 1) x the row's value

A row takes the first entry whose ``where`` it matches; rows no entry matches are kept as they
were measured. A scaled job then stands for the planned job with the same output, whatever its
command, at ``seconds * job + sum (factor - 1) * value``; its RSS is kept (chain length and
the number of draws done one after another do not change a job's memory).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml


@dataclass(frozen=True)
class RowScaling:
    """Rows of a job's output whose values are seconds that grow ``factor`` times."""

    where: tuple[tuple[str, re.Pattern[str]], ...]
    factor: float

    def matches(self, frame: pd.DataFrame) -> pd.Series:
        """Which rows of ``frame`` every pattern matches; a column the frame lacks is an error
        (a misspelt column would otherwise scale nothing, silently)."""
        missing = [column for column, _ in self.where if column not in frame.columns]
        if missing:
            raise KeyError(f"no column {missing} to match (it has {list(frame.columns)})")
        selected = pd.Series(True, index=frame.index)
        for column, pattern in self.where:
            selected &= frame[column].map(
                lambda value, pattern=pattern: pattern.search(str(value)) is not None
            )
        return selected


@dataclass(frozen=True)
class RuleScaling:
    """How one rule's measured job grows: the whole job and timed rows of its output."""

    job: float = 1.0
    rows: tuple[RowScaling, ...] = ()


def _factor(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f"{where}: expected a positive number, got {value!r}")
    return float(value)


def _row_scaling(entry: object, where: str) -> RowScaling:
    if not isinstance(entry, dict) or set(entry) != {"where", "factor"}:
        raise ValueError(f"{where}: expected a mapping with keys 'where' and 'factor'")
    patterns = entry["where"]
    if not isinstance(patterns, dict) or not patterns:
        raise ValueError(f"{where}.where: expected a mapping of column: regular expression")
    compiled = []
    for column, pattern in patterns.items():
        try:
            compiled.append((str(column), re.compile(str(pattern))))
        except re.error as error:
            raise ValueError(
                f"{where}.where.{column}: not a regular expression ({error})"
            ) from None
    return RowScaling(tuple(compiled), _factor(entry["factor"], f"{where}.factor"))


def read_scaling(path: Path) -> dict[str, RuleScaling]:
    """Rule -> its scaling, from the YAML file at ``path``; a malformed entry is named."""
    try:
        document = yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        raise ValueError(f"{path}: not YAML ({error})") from None
    if not isinstance(document, dict) or not document:
        raise ValueError(f"{path}: expected a mapping of rule: scaling")
    scaling = {}
    for rule, entry in document.items():
        where = f"{path}: {rule}"
        if not isinstance(entry, dict) or not entry or set(entry) - {"job", "rows"}:
            raise ValueError(f"{where}: expected a mapping with 'job' and/or 'rows'")
        rows = entry.get("rows", [])
        if not isinstance(rows, list):
            raise ValueError(f"{where}.rows: expected a list")
        scaling[str(rule)] = RuleScaling(
            job=_factor(entry.get("job", 1.0), f"{where}.job"),
            rows=tuple(_row_scaling(row, f"{where}.rows[{i}]") for i, row in enumerate(rows)),
        )
    return scaling


def extra_seconds(frame: pd.DataFrame, rows: tuple[RowScaling, ...]) -> float:
    """Sum over the rows of ``frame`` of (factor - 1) x value, each row under the first entry
    of ``rows`` it matches."""
    taken = pd.Series(False, index=frame.index)
    extra = 0.0
    for entry in rows:
        selected = entry.matches(frame) & ~taken
        extra += (entry.factor - 1.0) * float(pd.to_numeric(frame.loc[selected, "value"]).sum())
        taken |= selected
    return extra


def scale_jobs(measured: pd.DataFrame, scaling: dict[str, RuleScaling]) -> pd.DataFrame:
    """The measured jobs (``jobsizes.measured_jobs``) with the seconds of every job of a scaled
    rule grown as its rule says, read from the job's output in its run folder, and ``scaled``
    marking them."""
    seconds = measured["seconds"].to_numpy(copy=True)
    scaled = measured["rule"].isin(list(scaling)).to_numpy()
    for i in scaled.nonzero()[0]:
        job = measured.iloc[i]
        rule = scaling[job["rule"]]
        seconds[i] *= rule.job
        if rule.rows:
            output = Path(job["run_dir"]) / job["output"]
            if output.suffix != ".parquet" or not output.is_file():
                raise ValueError(
                    f"{output}: rule {job['rule']} scales timed rows, which need the job's "
                    "first output as a parquet file"
                )
            try:
                seconds[i] += extra_seconds(pd.read_parquet(output), rule.rows)
            except KeyError as error:
                raise ValueError(f"{output}: rule {job['rule']}: {error.args[0]}") from None
    return measured.assign(seconds=seconds, scaled=scaled)
