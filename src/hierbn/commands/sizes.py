"""``hierbn runtime``, ``jobsizes`` and ``jobsizes-sample``: what jobs cost, measured and planned."""

from __future__ import annotations

import argparse

from hierbn.io import write_json
from hierbn.studies import STUDIES


def cmd_runtime(args: argparse.Namespace) -> None:
    from hierbn.report.runtime import summarise_benchmarks

    write_json(summarise_benchmarks(args.benchmarks), args.out)


def cmd_jobsizes(args: argparse.Namespace) -> None:
    """``hierbn jobsizes``: a missing or malformed run folder, plan or probes file is named."""
    if (args.profile_block or args.probes or args.scaling) and not args.plan:
        raise SystemExit(
            "--profile-block, --probes and --scaling need --plan: sizes come from planned jobs"
        )
    try:
        _jobsizes(args)
    except (OSError, ValueError) as error:
        raise SystemExit(f"hierbn jobsizes: {error}") from None


def _jobsizes(args: argparse.Namespace) -> None:
    from pathlib import Path

    import pandas as pd

    from hierbn.io import write_with
    from hierbn.report import job_scaling, jobsizes

    measured = jobsizes.measured_jobs([Path(d) for d in args.run_dir], tuple(STUDIES))
    scaling = job_scaling.read_scaling(Path(args.scaling)) if args.scaling else {}
    measured = job_scaling.scale_jobs(measured, scaling)
    summary: dict = {"run_dirs": args.run_dir, "scaling": args.scaling}
    with pd.option_context("display.width", 200, "display.max_rows", None):
        if not args.plan:
            sizes = jobsizes.per_rule(measured)
            print(sizes.round(2).to_string())
            summary["per_rule"] = sizes.reset_index().to_dict(orient="records")
        else:
            planned = jobsizes.read_plan(Path(args.plan), tuple(STUDIES))
            probes = (
                frozenset(Path(args.probes).read_text().split()) if args.probes else frozenset()
            )
            costed = jobsizes.match_measured(planned, measured, probes, frozenset(scaling))
            same_jobs = costed.dropna(subset=["seconds"])
            sizes = jobsizes.per_rule(same_jobs).join(
                jobsizes.profile_sizes(
                    jobsizes.per_rule(same_jobs),
                    args.time_margin,
                    args.memory_margin,
                    args.min_minutes,
                    args.min_mb,
                )
            )
            if args.profile_block:
                block = jobsizes.profile_block(sizes, args.time_margin, args.memory_margin)
                write_with(args.profile_block, lambda tmp: tmp.write_text(block))
            rules = jobsizes.rule_estimate(costed)
            studies = jobsizes.study_estimate(rules, jobsizes.local_rules(Path(args.snakefile)))
            print(
                sizes.round(2).to_string(),
                rules.round(3).to_string(),
                studies.round(2).to_string(),
                sep="\n\n",
            )
            summary |= {
                "plan": args.plan,
                "margins": {
                    "time": args.time_margin,
                    "memory": args.memory_margin,
                    "min_minutes": args.min_minutes,
                    "min_mb": args.min_mb,
                },
                "per_rule": sizes.reset_index().to_dict(orient="records"),
                "rules": rules.to_dict(orient="records"),
                "studies": studies.reset_index().to_dict(orient="records"),
            }
    write_json(summary, args.out)


def cmd_jobsizes_sample(args: argparse.Namespace) -> None:
    from pathlib import Path

    from hierbn.io import write_with
    from hierbn.report.jobsizes import read_plan, sample_jobs

    per_rule = {}
    for item in args.rule:
        rule, _, size = item.partition("=")
        if not size.isdigit():
            raise SystemExit(f"--rule {item!r}: expected RULE=COUNT, e.g. pj_cv_cell=30")
        per_rule[rule] = int(size)
    try:
        targets = sample_jobs(read_plan(Path(args.plan), tuple(STUDIES)), per_rule, args.seed)
    except (OSError, ValueError) as error:
        raise SystemExit(f"hierbn jobsizes-sample: {error}") from None
    write_with(args.out, lambda tmp: tmp.write_text("\n".join(targets) + "\n"))


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``runtime``, ``jobsizes`` (measured sizes, the planned run's estimate) and
    ``jobsizes-sample``."""
    p = sub.add_parser("runtime", help="a study's wall time from its jobs' benchmark files")
    p.add_argument("--benchmarks", nargs="+", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_runtime)

    p = sub.add_parser(
        "jobsizes",
        help="wall time and memory per rule of finished runs; with --plan, the planned run's estimate",
    )
    p.add_argument(
        "--run-dir",
        action="append",
        required=True,
        help="a measured run's folder (logs/, .snakemake/); repeatable",
    )
    p.add_argument(
        "--plan", default=None, help="saved output of `snakemake -n -p --forceall --configfile …`"
    )
    p.add_argument(
        "--probes", default=None, help="targets file of jobs measured for their size, not at random"
    )
    p.add_argument(
        "--time-margin", type=float, default=2.0, help="Slurm runtime = longest job x this"
    )
    p.add_argument(
        "--memory-margin", type=float, default=1.5, help="Slurm mem_mb = largest RSS x this"
    )
    p.add_argument(
        "--min-minutes", type=int, default=10, help="runtime floor (queueing, imports, JIT)"
    )
    p.add_argument("--min-mb", type=int, default=1000, help="mem_mb floor")
    p.add_argument(
        "--snakefile",
        default="Snakefile",
        help="its `localrules:` are not counted as cluster jobs (with --plan)",
    )
    p.add_argument(
        "--scaling",
        default=None,
        help="YAML: how a record run's jobs of each rule grow to the plan's config "
        "(reproduction/paper-scaling.yaml)",
    )
    p.add_argument(
        "--profile-block",
        default=None,
        help="write a profile `set-resources` block of these sizes here (overrides the rule files')",
    )
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_jobsizes)

    p = sub.add_parser(
        "jobsizes-sample",
        help="a random sample of a dry run's jobs per rule, as targets to measure",
    )
    p.add_argument("--plan", required=True, help="saved output of `snakemake -n -p --forceall …`")
    p.add_argument("--rule", action="append", required=True, help="RULE=COUNT; repeatable")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="one target (a job's first output) per line")
    p.set_defaults(func=cmd_jobsizes_sample)
