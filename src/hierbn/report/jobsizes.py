"""Job sizes per rule from a finished run, and a paper-scale estimate from a dry run.

Every job writes ``logs/benchmarks/<first output>.tsv`` (wall seconds, max RSS); Snakemake
records the rule of every output in ``.snakemake/metadata/<urlsafe base64 of the path>``. The
two joined give one row per job. A dry run (``snakemake -n``) of another config lists its jobs
with their rule and outputs; each planned job is costed at the measured median of its rule.
The estimate is as good as the measured jobs resemble the planned ones: measure a run whose
jobs have the planned jobs' size (a "medium" config), not the smoke config, for a cluster plan.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pandas as pd

BENCHMARKS = Path("logs") / "benchmarks"
METADATA = Path(".snakemake") / "metadata"
STUDY_PATH = re.compile(
    r"^(?:results|resources|logs)/(?:datasets/|prepared/|benchmarks/results/)?([^/]+)/"
)


def study_of(output: str, studies: tuple[str, ...]) -> str:
    """The study an output belongs to (its folder under results/ or resources/), else 'shared'."""
    match = STUDY_PATH.match(output)
    return match.group(1) if match and match.group(1) in studies else "shared"


def rules_by_output(run_dir: Path) -> dict[str, str]:
    """Output path -> rule, from Snakemake's metadata records of the run in ``run_dir``."""
    rules = {}
    for record in (run_dir / METADATA).iterdir():
        name = record.name
        try:
            output = base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode()
            rules[output] = json.loads(record.read_text())["rule"]
        except (ValueError, KeyError, UnicodeDecodeError) as error:
            raise ValueError(f"{record}: not a Snakemake metadata record ({error})") from None
    return rules


def measured_jobs(run_dir: Path, studies: tuple[str, ...]) -> pd.DataFrame:
    """One row per benchmarked job: rule, study, output, seconds (mean of repeats), max RSS (MB)."""
    rules = rules_by_output(run_dir)
    rows = []
    for path in sorted((run_dir / BENCHMARKS).rglob("*.tsv")):
        output = str(path.relative_to(run_dir / BENCHMARKS))[: -len(".tsv")]
        if output not in rules:
            raise ValueError(f"{path}: Snakemake recorded no job writing {output!r}")
        table = pd.read_csv(path, sep="\t")
        rows.append(
            {
                "rule": rules[output],
                "study": study_of(output, studies),
                "output": output,
                "seconds": float(pd.to_numeric(table["s"], errors="coerce").mean()),
                "max_rss_mb": float(pd.to_numeric(table["max_rss"], errors="coerce").max()),
            }
        )
    return pd.DataFrame(rows, columns=["rule", "study", "output", "seconds", "max_rss_mb"])


def per_rule(jobs: pd.DataFrame) -> pd.DataFrame:
    """Jobs, median and max wall seconds and max RSS per rule."""
    grouped = jobs.groupby("rule")
    return pd.DataFrame(
        {
            "jobs": grouped.size(),
            "median_s": grouped["seconds"].median(),
            "max_s": grouped["seconds"].max(),
            "max_rss_mb": grouped["max_rss_mb"].max(),
        }
    )


def dry_run_jobs(dry_run: str) -> list[tuple[str, list[str]]]:
    """(rule, outputs) of every job a ``snakemake -n`` output lists (no outputs: ``rule all``)."""
    jobs: list[tuple[str, list[str]]] = []
    for line in dry_run.splitlines():
        if match := re.match(r"^(?:local)?rule (\w+):$", line):
            jobs.append((match.group(1), []))
        elif jobs and (match := re.match(r"^\s+output: (.*)$", line)):
            jobs[-1][1].extend(match.group(1).split(", "))
    return jobs


def planned_jobs(dry_run: str, studies: tuple[str, ...]) -> pd.DataFrame:
    """(rule, study) of every job a ``snakemake -n`` output lists."""
    rows = [
        {"rule": rule, "study": study_of(outputs[0], studies) if outputs else "shared"}
        for rule, outputs in dry_run_jobs(dry_run)
    ]
    return pd.DataFrame(rows, columns=["rule", "study"])


def estimate(planned: pd.DataFrame, sizes: pd.DataFrame) -> pd.DataFrame:
    """Per study: planned jobs, job-hours at each rule's measured median, the largest measured
    RSS among its rules, and the planned jobs whose rule was never measured."""
    costed = planned.join(sizes[["median_s", "max_rss_mb"]], on="rule")
    grouped = costed.groupby("study")
    return pd.DataFrame(
        {
            "jobs": grouped.size(),
            "job_hours": grouped["median_s"].sum() / 3600.0,
            "peak_rss_mb": grouped["max_rss_mb"].max(),
            "unmeasured_jobs": grouped["median_s"].apply(lambda s: int(s.isna().sum())),
        }
    )
