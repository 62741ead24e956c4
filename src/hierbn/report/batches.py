"""The paper plan cut into batches that each fit a working session, for the result cache.

A batch is a list of targets (first outputs of planned jobs that run through the result cache,
``hierbn cached``), run with ``snakemake <targets> --configfile config/paper.yaml
reproduction/cache-store.yaml``. Each job is costed as :mod:`hierbn.report.jobsizes` costs it
(its measurement, scaled to the paper's config where a record ran shorter chains; else the mean
of its rule's measured jobs). Jobs are packed heaviest first (first-fit decreasing) into
batches of at most ``hours`` of wall time on ``cores`` cores, reckoned as core-hours / cores; a
job longer than that is a batch of its own. The batches come out heaviest first, so a job
mis-sized by the estimate shows up in the first session.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd


def costed_cached_jobs(costed: pd.DataFrame, study: str) -> pd.DataFrame:
    """The study's planned jobs that run through the result cache, with their estimated
    core-seconds (``estimate``) and whether that estimate is the job's own measurement."""
    jobs = costed[(costed["study"] == study) & costed["cached"]].copy()
    if jobs.empty:
        raise ValueError(f"the plan has no job of {study!r} that runs through the result cache")
    core = jobs["seconds"] * jobs["threads"]
    rule_mean = core.groupby(jobs["rule"]).transform("mean")
    unmeasured_rules = sorted(set(jobs.loc[rule_mean.isna(), "rule"]))
    if unmeasured_rules:
        raise ValueError(
            f"{study}: no measured job of rules {unmeasured_rules}; measure one first "
            "(hierbn jobsizes-sample) so their batches can be sized"
        )
    jobs["measured"] = core.notna()
    jobs["estimate"] = core.fillna(rule_mean)
    return jobs.sort_values(["estimate", "output"], ascending=[False, True])


def pack(jobs: pd.DataFrame, capacity: float) -> list[list[int]]:
    """First-fit decreasing: row positions of ``jobs`` (sorted heaviest first) per batch, each
    batch's estimates summing to at most ``capacity`` unless one job alone exceeds it."""
    batches: list[list[int]] = []
    loads: list[float] = []
    for position, estimate in enumerate(jobs["estimate"].to_numpy()):
        for index, load in enumerate(loads):
            if load + estimate <= capacity:
                batches[index].append(position)
                loads[index] += estimate
                break
        else:
            batches.append([position])
            loads.append(estimate)
    return batches


def plan_batches(
    costed: pd.DataFrame, study: str, hours: float, cores: int
) -> list[dict[str, Any]]:
    """The study's batches, heaviest first: name, jobs, estimated core-hours and wall hours on
    ``cores`` cores (at least its longest job), how many estimates were measured, targets."""
    jobs = costed_cached_jobs(costed, study)
    rows = []
    for number, positions in enumerate(pack(jobs, hours * cores * 3600.0), start=1):
        batch = jobs.iloc[positions]
        core_hours = float(batch["estimate"].sum()) / 3600.0
        longest = float(batch["estimate"].max()) / 3600.0
        rows.append(
            {
                "name": f"{study}-{number}",
                "jobs": len(batch),
                "measured": int(batch["measured"].sum()),
                "core_hours": round(core_hours, 2),
                "wall_hours": round(max(core_hours / cores, longest), 2),
                "targets": sorted(batch["output"]),
            }
        )
    return rows


def batches_text(plan: dict[str, list[dict[str, Any]]], header: str) -> str:
    """``reproduction/batches.yaml``: the header comment, then the batches of each study."""
    import yaml

    body = yaml.safe_dump(plan, sort_keys=False, width=100)
    return header + body


def batch_targets(plan: dict[str, list[dict[str, Any]]], name: str) -> list[str]:
    """The targets of the batch ``name`` (``petitjean2018-1``)."""
    for batches in plan.values():
        for batch in batches:
            if batch["name"] == name:
                return list(batch["targets"])
    known = [b["name"] for batches in plan.values() for b in batches]
    raise ValueError(f"no batch {name!r}; the batches are {', '.join(known)}")


def wall_hours_total(batches: list[dict[str, Any]]) -> float:
    """The batches' estimated wall hours, summed (sessions of work, one batch after another)."""
    return math.fsum(b["wall_hours"] for b in batches)
