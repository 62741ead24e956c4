"""``hierbn`` command-line entry points called by the Snakemake rules."""

from __future__ import annotations

import argparse
import sys

from hierbn.io import read_json, write_json, write_parquet
from hierbn.studies import STUDIES, study_module


# ---------------------------------------------------------------------- data
def cmd_fetch(args: argparse.Namespace) -> None:
    from hierbn.data.download import fetch, mirrors_from_environment, stall_from_environment
    from hierbn.data.registry import load_registry

    registry = load_registry(args.registry)
    matches = [p for e in registry.values() for p in e.parts if p.file == args.file]
    if not matches:
        raise SystemExit(f"{args.registry}: no registered file {args.file!r}")
    part = matches[0]
    mirrors = args.mirror or mirrors_from_environment()
    stall = args.stall_seconds or stall_from_environment()
    origin = fetch(part.file, part.source_url, part.sha256, args.out, mirrors, stall)
    print(f"{part.file}: verified sha256 {part.sha256} (from {origin})")


def cmd_convert(args: argparse.Namespace) -> None:
    from hierbn.data.convert import build_dataset, check_against_paper
    from hierbn.data.registry import load_registry

    registry = load_registry(args.registry)
    key = (args.study, args.dataset)
    if key not in registry:
        raise SystemExit(f"{args.registry}: no data set {args.dataset!r} for study {args.study!r}")
    entry = registry[key]
    data = build_dataset(entry, args.raw)
    report = check_against_paper(entry, data)
    write_parquet(data, args.out)
    write_json(report, args.check)


def cmd_data_report(args: argparse.Namespace) -> None:
    import pandas as pd

    rows = [read_json(p) for p in args.checks]
    table = pd.DataFrame(rows)
    table["deviations"] = table["deviations"].map("; ".join)
    table["files"] = table["files"].map(",".join)
    table = table.sort_values("paper_index")
    from hierbn.io import write_with

    write_with(args.out, lambda tmp: table.to_csv(tmp, sep="\t", index=False))


# ---------------------------------------------------------------------- stan
def cmd_stan_compile(args: argparse.Namespace) -> None:
    from hierbn.stan.runner import compile_model, resolve_backend

    backend = resolve_backend(args.backend)
    info = compile_model(args.model, backend, exe_dir=args.exe_dir)
    write_json(info, args.out)


def cmd_build_cmdstan(args: argparse.Namespace) -> None:
    from pathlib import Path

    from hierbn.stan.cmdstan_build import CmdStanBuildError, build_cmdstan

    try:
        home = build_cmdstan(
            Path(args.sources), Path(args.cache) if args.cache else None, jobs=args.jobs
        )
    except CmdStanBuildError as error:
        raise SystemExit(f"hierbn build-cmdstan: {error}") from None
    print(home)


def cmd_check_config(args: argparse.Namespace) -> None:
    from hierbn.config import ConfigError, check_config_files

    try:
        check_config_files(args.files, args.schemas, STUDIES)
    except ConfigError as error:
        raise SystemExit(str(error)) from None
    print(f"{' + '.join(args.files)}: valid")


# ------------------------------------------------------------------ scoreboard
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


def cmd_scoreboard(args: argparse.Namespace) -> None:
    import json

    from hierbn.io import write_with
    from hierbn.report.scoreboard import build_scoreboard, render_html

    board = build_scoreboard(
        args.studies, args.claims, args.runtime, args.reports, json.loads(args.run), args.html,
        args.records,
    )  # fmt: skip
    write_json(board, args.json)
    write_with(args.html, lambda tmp: tmp.write_text(render_html(board), encoding="utf-8"))


def cmd_record(args: argparse.Namespace) -> None:
    """``hierbn record``: one reproduction record per study from a finished run."""
    from pathlib import Path

    from hierbn.report.claims_table import counts_text
    from hierbn.report.record import make_record, record_path

    root = Path(args.root)
    try:
        board = read_json(args.scoreboard)
        for study in args.study:
            record = make_record(study, board, root, args.cores, args.scale, args.wall_seconds)
            path = record_path(root, study)
            path.parent.mkdir(exist_ok=True)
            write_json(record, path)
            print(f"{path}: {record['scale']} scale, {counts_text(record['counts'])}")
    except (OSError, ValueError, KeyError) as error:
        raise SystemExit(f"hierbn record: {error}") from None


def cmd_cached(args: argparse.Namespace) -> None:
    """``hierbn cached … -- COMMAND``: one job through the result cache (none configured: the
    command runs as it is, in this process's place)."""
    import os

    from hierbn.result_cache import FOLDER_VARIABLE, cached_run, receipt_of
    from hierbn.workflow import benchmark_of

    command = args.command_line[1:] if args.command_line[:1] == ["--"] else args.command_line
    if not command:
        raise SystemExit("hierbn cached: no command after --")
    benchmark = benchmark_of(args.outputs[0])
    if not os.environ.get(FOLDER_VARIABLE):
        receipt_of(benchmark).unlink(missing_ok=True)
        sys.stdout.flush()
        os.execvp(command[0], command)
    sys.exit(cached_run(args.code, command, args.inputs, args.outputs, benchmark))


def cmd_cache_verify(args: argparse.Namespace) -> None:
    """``hierbn cache verify``: recompute sampled entries here and compare them with the cache."""
    import tempfile
    from pathlib import Path

    from hierbn.result_cache import sample_entries, verify_entry

    try:
        chosen = sample_entries(Path(args.cache), args.sample, args.seed, args.step or ())
    except ValueError as error:
        raise SystemExit(f"hierbn cache verify: {error}") from None
    failed = 0
    for folder in chosen:
        with tempfile.TemporaryDirectory(prefix="hierbn-verify-") as scratch:
            problems = verify_entry(folder, Path(scratch))
        failed += bool(problems)
        verdict = "identical" if not problems else "DIFFERS: " + "; ".join(problems)
        print(f"{folder.parent.name}/{folder.name}: {verdict}", flush=True)
    print(f"{len(chosen) - failed} of {len(chosen)} entries recomputed identically (timing aside)")
    if failed:
        raise SystemExit(1)


def add_cache_commands(sub: argparse._SubParsersAction) -> None:
    """``hierbn cached`` (a rule's job through the result cache) and ``cache verify``."""
    p = sub.add_parser(
        "cached",
        help="run a job's command through the result cache ($HIERBN_RESULT_CACHE)",
    )
    p.add_argument("--code", required=True, help="the job's code key (hierbn.code_key)")
    p.add_argument("--inputs", nargs="*", default=[], help="the job's input files")
    p.add_argument("--outputs", nargs="+", required=True, help="the job's output files")
    p.add_argument("command_line", nargs=argparse.REMAINDER, help="-- the job's command")
    p.set_defaults(func=cmd_cached)

    cache = sub.add_parser("cache", help="the result cache: verify").add_subparsers(
        dest="cache_command", required=True
    )
    p = cache.add_parser(
        "verify",
        help="recompute K cached jobs chosen at random; compare with the cache, timing aside",
    )
    p.add_argument("--cache", default="reproduction/cache", help="the result cache folder")
    p.add_argument("--sample", type=int, required=True, help="how many entries (K)")
    p.add_argument("--seed", type=int, default=0, help="the draw of entries")
    p.add_argument(
        "--step",
        action="append",
        help="draw only from this step's entries (<study>-<step>, as the folders)",
    )
    p.set_defaults(func=cmd_cache_verify)


def add_jobsizes_commands(sub: argparse._SubParsersAction) -> None:
    """``hierbn jobsizes`` (measured sizes, the planned run's estimate) and ``jobsizes-sample``."""
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


def add_record_commands(sub: argparse._SubParsersAction) -> None:
    """``hierbn scoreboard`` (the run's page, with the committed records) and ``record``."""
    p = sub.add_parser("scoreboard", help="results/index.html and scoreboard.json")
    p.add_argument("--studies", nargs="+", required=True)
    p.add_argument("--claims", nargs="+", required=True, help="claims.json per study, in order")
    p.add_argument("--runtime", nargs="+", required=True, help="runtime.json per study")
    p.add_argument("--reports", nargs="+", required=True, help="report.html per study")
    p.add_argument("--run", required=True, help="JSON: config_files, config_hash, commit")
    p.add_argument(
        "--records", nargs="*", default=[], help="reproduction/<study>.json records to show"
    )
    p.add_argument("--html", required=True)
    p.add_argument("--json", required=True)
    p.set_defaults(func=cmd_scoreboard)

    p = sub.add_parser(
        "record",
        help="write reproduction/<study>.json: a finished run's verdicts, scale and cost",
    )
    p.add_argument("--scoreboard", default="results/scoreboard.json", help="the run's scoreboard")
    p.add_argument("--study", action="append", required=True, help="repeatable")
    p.add_argument("--cores", type=int, required=True, help="the cores the run used")
    p.add_argument("--scale", default=None, help="default: named from the config files")
    p.add_argument("--wall-seconds", type=float, default=None, help="the run's measured wall time")
    p.add_argument("--root", default=".", help="the checkout (its reproduction/ is written)")
    p.set_defaults(func=cmd_record)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line: the shared commands (data, Stan, scoreboard), ``hierbn fit`` and one
    command per registered study. With ``command``, only the group that owns it is registered:
    a job then imports only its own study's modules, not every study's and ``fit``'s, which
    would add about a second to each of a run's few-second jobs."""
    parser = argparse.ArgumentParser(prog="hierbn", description=__doc__, fromfile_prefix_chars="@")
    sub = parser.add_subparsers(dest="command", required=True)
    if command not in (*STUDIES, "fit"):
        add_shared_commands(sub)
        if command in sub.choices:
            return parser
        command = None  # help, or an unknown command: its error lists every command
    if command in (None, "fit"):
        from hierbn.fit import cli as fit_cli

        fit_cli.register(sub)
    for study in STUDIES:
        if command in (None, study):
            study_module(study, "cli").register(sub)
    return parser


def add_shared_commands(sub: argparse._SubParsersAction) -> None:
    """The commands every study's rules share: data, Stan, config, runtime, job sizes, records."""
    p = sub.add_parser(
        "fetch", help="place a registered raw file (mirror or download, sha256 checked)"
    )
    p.add_argument("--registry", required=True)
    p.add_argument("--file", required=True, help="the file's path as listed in the registry")
    p.add_argument(
        "--mirror",
        action="append",
        help="mirror folder laid out like shared/data (default: $HIERBN_MIRRORS, os.pathsep-separated)",
    )
    p.add_argument(
        "--stall-seconds",
        type=float,
        help="abandon a download that receives nothing for this long "
        "(default: $HIERBN_STALL_SECONDS, set from config data.stall_seconds, else 60)",
    )
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_fetch)

    p = sub.add_parser("convert", help="raw files -> canonical parquet + check against the paper")
    p.add_argument("--registry", required=True)
    p.add_argument("--study", required=True)
    p.add_argument("--dataset", required=True)
    p.add_argument("--raw", nargs="+", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--check", required=True)
    p.set_defaults(func=cmd_convert)

    p = sub.add_parser("data-report", help="collect data-set checks into one TSV")
    p.add_argument("--checks", nargs="+", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_data_report)

    p = sub.add_parser("stan-compile", help="compile a packaged Stan model once")
    p.add_argument("--model", required=True)
    p.add_argument("--backend", default="auto")
    p.add_argument("--exe-dir", default=None)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_stan_compile)

    p = sub.add_parser(
        "build-cmdstan",
        help="build CmdStan offline from its sources and httpstan; prints the CmdStan home",
    )
    p.add_argument("--sources", required=True, help="the CmdStan source tree (cmdstan-<version>)")
    p.add_argument("--cache", default=None, help="default: $XDG_CACHE_HOME/hierbn/cmdstan")
    p.add_argument("--jobs", type=int, default=2, help="make -j")
    p.set_defaults(func=cmd_build_cmdstan)

    p = sub.add_parser(
        "check-config", help="check config files (YAML syntax with file and line, then the schema)"
    )
    p.add_argument("files", nargs="+", help="the default config first, then overlays")
    p.add_argument("--schemas", default="workflow/schemas", help="the schema folder")
    p.set_defaults(func=cmd_check_config)

    p = sub.add_parser("runtime", help="a study's wall time from its jobs' benchmark files")
    p.add_argument("--benchmarks", nargs="+", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_runtime)

    add_jobsizes_commands(sub)
    add_record_commands(sub)
    add_cache_commands(sub)


def _command(argv: list[str]) -> str | None:
    """The command ``argv`` names (its first word that is not an option), or None for
    ``--help`` alone or an ``@file`` of arguments (then the whole parser is built)."""
    words = [word for word in argv if not word.startswith("-")]
    return words[0] if words and not words[0].startswith("@") else None


def _bad_input_errors() -> tuple[type[Exception], ...]:
    """The errors that name bad input (imported when one is raised: they pull in pandas)."""
    from hierbn.config import ConfigError
    from hierbn.data.download import ChecksumError
    from hierbn.data.readers import DataFormatError
    from hierbn.data.registry import RegistryError

    return ChecksumError, ConfigError, DataFormatError, RegistryError


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(_command(argv)).parse_args(argv)
    try:
        args.func(args)
    except _bad_input_errors() as error:
        # bad input, named by file and line or key: a message, not a traceback
        raise SystemExit(f"hierbn {args.command}: {error}") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
