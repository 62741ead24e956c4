"""Job sizes per rule from finished runs, and an estimate of a planned run from a sample of its jobs.

Measured: every job writes ``logs/benchmarks/<first output>.tsv`` (wall seconds, max RSS), and
Snakemake records the rule and shell command of every output in
``.snakemake/metadata/<urlsafe base64 of the path>``.
Planned: a dry run (``snakemake -n --forceall -p``) lists every job's rule, outputs, threads and
shell command.

A planned job counts as measured when a run executed the same shell command for the same output.
A rule's params carry exactly the config values its job reads, so the same command is the same
job, and a smoke-scale measurement can never stand in for a paper-scale job.  The remaining
planned jobs of a rule are costed at the mean of its measured ones.  When those are a simple random
sample of the rule's planned jobs (``sample_jobs``), that mean is unbiased for the rule's total,
with standard error ``u * sd / sqrt(m)`` for ``u`` unmeasured and ``m`` sampled jobs.  A random
sample rarely catches a rule's largest job, which sets its Slurm limits, so a run can also measure
probes: jobs picked for their size, counted at their own cost and left out of the mean.  A rule
with no measured job is reported as unmeasured, never guessed.  A record run made with shorter
chains can stand for the plan's jobs of its outputs once scaled (:mod:`hierbn.report.job_scaling`).
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from hierbn.result_cache import is_cached, uncached

BENCHMARKS = Path("logs") / "benchmarks"
METADATA = Path(".snakemake") / "metadata"
STUDY_PATH = re.compile(
    r"^(?:results|resources|logs)/(?:datasets/|prepared/|benchmarks/results/)?([^/]+)/"
)


@dataclass(frozen=True)
class PlannedJob:
    """One job of a dry run: its rule, outputs (none for ``rule all``), threads and command."""

    rule: str
    outputs: tuple[str, ...] = ()
    threads: int = 1
    shell: str = ""


def local_rules(snakefile: Path) -> frozenset[str]:
    """The rules a Snakefile's ``localrules:`` block keeps on the submitting host."""
    block = re.search(r"^localrules:\n((?:    .*\n)+)", snakefile.read_text(), re.M)
    if not block:
        raise ValueError(f"{snakefile}: no `localrules:` block")
    return frozenset(name.strip(" ,") for name in block.group(1).split())


def study_of(output: str, studies: tuple[str, ...]) -> str:
    """The study an output belongs to (its folder under results/ or resources/), else 'shared'."""
    match = STUDY_PATH.match(output)
    return match.group(1) if match and match.group(1) in studies else "shared"


def job_records(run_dir: Path) -> dict[str, dict]:
    """Output path -> Snakemake's metadata record (rule, shellcmd, ...) of the run in ``run_dir``."""
    if not (run_dir / METADATA).is_dir():
        raise ValueError(
            f"{run_dir}: no {METADATA} here; expected the folder a Snakemake run ran in"
        )
    records = {}
    for record in (run_dir / METADATA).iterdir():
        name = record.name
        try:
            output = base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode()
            records[output] = json.loads(record.read_text())
            if "rule" not in records[output]:
                raise KeyError("rule")
        except (ValueError, KeyError, UnicodeDecodeError) as error:
            raise ValueError(f"{record}: not a Snakemake metadata record ({error})") from None
    return records


def measured_jobs(run_dirs: Sequence[Path], studies: tuple[str, ...]) -> pd.DataFrame:
    """One row per benchmarked job of every run: rule, study, output, shell command, seconds (mean
    of repeats), max RSS (MB) and the run's folder."""
    rows = []
    for run_dir in run_dirs:
        records = job_records(run_dir)
        for path in sorted((run_dir / BENCHMARKS).rglob("*.tsv")):
            output = str(path.relative_to(run_dir / BENCHMARKS))[: -len(".tsv")]
            if output not in records:
                raise ValueError(f"{path}: Snakemake recorded no job writing {output!r}")
            table = pd.read_csv(path, sep="\t")
            rows.append(
                {
                    "rule": records[output]["rule"],
                    "study": study_of(output, studies),
                    "output": output,
                    "shell": uncached(records[output].get("shellcmd") or ""),
                    "seconds": float(pd.to_numeric(table["s"], errors="coerce").mean()),
                    "max_rss_mb": float(pd.to_numeric(table["max_rss"], errors="coerce").max()),
                    "run_dir": str(run_dir),
                }
            )
    columns = ["rule", "study", "output", "shell", "seconds", "max_rss_mb", "run_dir"]
    return pd.DataFrame(rows, columns=columns)


def per_rule(jobs: pd.DataFrame) -> pd.DataFrame:
    """Jobs, mean, median and max wall seconds and max RSS per rule."""
    grouped = jobs.groupby("rule")
    return pd.DataFrame(
        {
            "jobs": grouped.size(),
            "mean_s": grouped["seconds"].mean(),
            "median_s": grouped["seconds"].median(),
            "max_s": grouped["seconds"].max(),
            "max_rss_mb": grouped["max_rss_mb"].max(),
        }
    )


def profile_sizes(
    sizes: pd.DataFrame, time_margin: float, memory_margin: float, min_minutes: int, min_mb: int
) -> pd.DataFrame:
    """Slurm ``runtime`` (minutes) and ``mem_mb`` per rule: the largest measured job times the
    margin, rounded up (to a minute, to 100 MB), and at least the floors."""
    minutes = np.ceil(sizes["max_s"] * time_margin / 60.0).clip(lower=min_minutes)
    megabytes = (np.ceil(sizes["max_rss_mb"] * memory_margin / 100.0) * 100).clip(lower=min_mb)
    return pd.DataFrame({"runtime": minutes.astype(int), "mem_mb": megabytes.astype(int)})


def profile_block(sizes: pd.DataFrame, time_margin: float, memory_margin: float) -> str:
    """``set-resources`` entries of a Snakemake profile, one per rule of ``sizes`` (columns jobs,
    max_s, max_rss_mb, runtime, mem_mb), each value with the measurement behind it."""
    lines = ["set-resources:"]
    for rule, row in sizes.iterrows():
        jobs = f"{int(row['jobs'])} measured job{'s' if row['jobs'] > 1 else ''}"
        lines += [
            f"  {rule}:",
            f"    runtime: {int(row['runtime'])} # min; longest of {jobs} {row['max_s']:,.0f} s x {time_margin:g}",
            f"    mem_mb: {int(row['mem_mb'])} # largest RSS {row['max_rss_mb']:,.0f} MB x {memory_margin:g}",
        ]
    return "\n".join(lines) + "\n"


def dry_run_jobs(dry_run: str) -> list[PlannedJob]:
    """Every job a ``snakemake -n`` output lists, in order (with ``-p`` also its shell command)."""
    jobs: list[PlannedJob] = []
    fields: dict = {}

    def close() -> None:
        if fields:
            jobs.append(PlannedJob(**fields))

    for line in dry_run.splitlines():
        if match := re.match(r"^(?:local)?rule (\w+):$", line):
            close()
            fields = {"rule": match.group(1)}
        elif not fields:
            continue
        elif match := re.match(r"^\s+output: (.*)$", line):
            fields["outputs"] = tuple(match.group(1).split(", "))
        elif match := re.match(r"^\s+threads: (\d+)$", line):
            fields["threads"] = int(match.group(1))
        elif line.startswith("Shell command: "):
            fields["shell"] = line[len("Shell command: ") :]
    close()
    return jobs


def planned_jobs(dry_run: str, studies: tuple[str, ...]) -> pd.DataFrame:
    """Rule, study, first output, threads and shell command of every job a dry run lists."""
    rows = [
        {
            "rule": job.rule,
            "study": study_of(job.outputs[0], studies) if job.outputs else "shared",
            "output": job.outputs[0] if job.outputs else "",
            "threads": job.threads,
            "shell": uncached(job.shell),
            "cached": is_cached(job.shell),
        }
        for job in dry_run_jobs(dry_run)
    ]
    return pd.DataFrame(rows, columns=["rule", "study", "output", "threads", "shell", "cached"])


def read_plan(path: Path, studies: tuple[str, ...]) -> pd.DataFrame:
    """``planned_jobs`` of a saved dry run, refused when it lists no job or no shell command."""
    planned = planned_jobs(path.read_text(), studies)
    if planned.empty:
        raise ValueError(
            f"{path}: lists no job; expected the output of `snakemake -n -p --forceall`"
        )
    if not planned["shell"].str.len().any():
        raise ValueError(
            f"{path}: lists no shell command; make the dry run with -p (--printshellcmds)"
        )
    return planned


def sample_jobs(planned: pd.DataFrame, per_rule: dict[str, int], seed: int) -> list[str]:
    """First outputs of a simple random sample (without replacement) of ``per_rule[rule]`` planned
    jobs of each named rule (all of them when it has fewer), for a measuring run to target."""
    unknown = sorted(set(per_rule) - set(planned["rule"]))
    if unknown:
        raise ValueError(f"the plan has no job of rule(s) {unknown}")
    rng = np.random.default_rng(np.random.SeedSequence([seed, 14]))
    targets: list[str] = []
    for rule, size in sorted(per_rule.items()):
        outputs = planned.loc[planned["rule"] == rule, "output"].to_numpy()
        chosen = rng.choice(len(outputs), size=min(size, len(outputs)), replace=False)
        targets.extend(outputs[np.sort(chosen)])
    return targets


def match_measured(
    planned: pd.DataFrame,
    measured: pd.DataFrame,
    probes: frozenset[str] = frozenset(),
    scaled_rules: frozenset[str] = frozenset(),
) -> pd.DataFrame:
    """The planned jobs with the seconds and RSS of a measured job with the same output and the
    same shell command (NaN where none ran; the longest where several runs did), and whether the
    job was a probe (chosen for its size, not at random). A job of ``scaled_rules`` matches on
    its output alone: its measurement was scaled to the plan's config
    (:func:`hierbn.report.job_scaling.scale_jobs`)."""

    def longest(jobs: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
        return jobs.groupby(keys).agg(seconds=("seconds", "max"), max_rss_mb=("max_rss_mb", "max"))

    scaled = planned["rule"].isin(list(scaled_rules))
    same_command = planned[~scaled].join(
        longest(measured, ["output", "shell"]), on=["output", "shell"]
    )
    same_output = planned[scaled].join(
        longest(measured[measured["rule"].isin(list(scaled_rules))], ["output"]), on="output"
    )
    costed = pd.concat([same_command, same_output]).loc[planned.index]
    return costed.assign(probe=costed["output"].isin(probes))


def rule_estimate(costed: pd.DataFrame) -> pd.DataFrame:
    """Per rule: planned, measured and sampled jobs, estimated core-hours with its standard error,
    and the longest job and largest RSS measured.

    Two strata: the measured jobs count at their own cost; the unmeasured ones at the mean of the
    measured jobs that were not probes (a probe is picked for its size, so it would bias the mean;
    a rule measured only by probes extrapolates from them, flagged by ``sampled`` = 0).
    """
    rows = []
    for (study, rule), jobs in costed.groupby(["study", "rule"]):
        core_seconds = jobs["seconds"] * jobs["threads"]
        measured = core_seconds.dropna()
        sampled = core_seconds[~jobs["probe"]].dropna()
        basis = sampled if len(sampled) else measured
        m, unmeasured = len(basis), int(core_seconds.isna().sum())
        spread = float(basis.std(ddof=1)) if m > 1 else math.nan
        rows.append(
            {
                "study": study,
                "rule": rule,
                "jobs": len(jobs),
                "measured": len(measured),
                "sampled": len(sampled),
                "core_hours": (measured.sum() + unmeasured * basis.mean()) / 3600.0
                if m
                else math.nan,
                "se_core_hours": (unmeasured * spread / math.sqrt(m)) / 3600.0
                if unmeasured and m
                else 0.0,
                "max_job_hours": float(jobs["seconds"].max()) / 3600.0 if m else math.nan,
                "peak_rss_mb": float(jobs["max_rss_mb"].max()) if m else math.nan,
            }
        )
    return pd.DataFrame(rows)


def study_estimate(rules: pd.DataFrame, local: frozenset[str] = frozenset()) -> pd.DataFrame:
    """Per study: jobs, those a cluster runs (not in ``local``, nor ``all``), measured jobs,
    core-hours of the rules with a measurement and its standard error (rules independent;
    unknown if one rule extrapolates from a single job), peak RSS, and the jobs of rules nobody
    measured."""
    rows = []
    for study, group in rules.groupby("study"):
        costed = group[group["measured"] > 0]
        submitted = ~group["rule"].isin([*local, "all"])
        rows.append(
            {
                "study": study,
                "jobs": int(group["jobs"].sum()),
                "cluster_jobs": int(group.loc[submitted, "jobs"].sum()),
                "measured": int(group["measured"].sum()),
                "core_hours": float(costed["core_hours"].sum()),
                # NaN when a rule extrapolates from a single sampled job (no spread to go by)
                "se_core_hours": float(np.sqrt((costed["se_core_hours"] ** 2).sum(skipna=False))),
                "longest_job_hours": float(costed["max_job_hours"].max())
                if len(costed)
                else math.nan,
                "peak_rss_mb": float(costed["peak_rss_mb"].max()) if len(costed) else math.nan,
                "unmeasured_jobs": int(group.loc[group["measured"] == 0, "jobs"].sum()),
                "unmeasured_rules": ", ".join(sorted(group.loc[group["measured"] == 0, "rule"])),
            }
        )
    return pd.DataFrame(rows).set_index("study")
