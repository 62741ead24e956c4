"""``hierbn cached``, ``cache verify``, ``cache compact``, ``cache status``, ``batches`` and
``batch-targets``: the result cache and the paper plan's batches."""

from __future__ import annotations

import argparse
import sys

from hierbn.studies import STUDIES


def cmd_cached(args: argparse.Namespace) -> None:
    """``hierbn cached … -- COMMAND``: one job through the result cache (none configured: the
    command runs as it is, in this process or in its place)."""
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
        if command[0] == "hierbn":  # in this process: a second interpreter costs each job 0.1 s
            from hierbn.cli import main

            sys.exit(main(command[1:]))
        os.execvp(command[0], command)
    sys.exit(cached_run(args.code, command, args.inputs, args.outputs, benchmark))


def cmd_cache_verify(args: argparse.Namespace) -> None:
    """``hierbn cache verify``: recompute sampled entries here and compare them with the cache."""
    import json
    import tempfile
    from pathlib import Path

    from hierbn.machine import numeric_platform, platform_differences
    from hierbn.result_cache import ENTRY_FILE, sample_entries, verify_entry

    try:
        chosen = sample_entries(Path(args.cache), args.sample, args.seed, args.step or ())
    except ValueError as error:
        raise SystemExit(f"hierbn cache verify: {error}") from None
    failed = 0
    here = numeric_platform()
    for folder in chosen:
        with tempfile.TemporaryDirectory(prefix="hierbn-verify-") as scratch:
            problems = verify_entry(folder, Path(scratch))
        failed += bool(problems)
        verdict = "identical" if not problems else "DIFFERS: " + "; ".join(problems)
        print(f"{folder.parent.name}/{folder.name}: {verdict}", flush=True)
        numerics = json.loads((folder / ENTRY_FILE).read_text()).get("numerics")
        if problems and (platform := platform_differences(numerics, here)):
            print("  computed on another numeric platform: " + "; ".join(platform), flush=True)
    print(f"{len(chosen) - failed} of {len(chosen)} entries recomputed identically (timing aside)")
    if failed:
        raise SystemExit(1)


def cmd_cache_compact(args: argparse.Namespace) -> None:
    """``hierbn cache compact``: re-encode entries stored as their jobs wrote them, in place."""
    from collections import defaultdict
    from pathlib import Path

    from hierbn.result_cache import compact_entry, entries

    cache = Path(args.cache)
    if not cache.is_dir():
        raise SystemExit(
            f"hierbn cache compact: {cache} is not a folder (expected the result cache)"
        )
    sizes: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for folder in entries(cache):
        try:
            before, after = compact_entry(folder)
        except (OSError, ValueError) as error:
            raise SystemExit(f"hierbn cache compact: {error}") from None
        step = sizes[folder.parent.name]
        step[0] += 1
        step[1] += before
        step[2] += after
    for name, (count, before, after) in sorted(sizes.items()):
        print(f"{name}: {count} entries, {before / 1e6:.2f} MB -> {after / 1e6:.2f} MB")
    total_before = sum(b for _, b, _ in sizes.values())
    total_after = sum(a for _, _, a in sizes.values())
    print(f"all: {total_before / 1e6:.1f} MB -> {total_after / 1e6:.1f} MB of outputs")


def cmd_cache_status(args: argparse.Namespace) -> None:
    """``hierbn cache status``: which of a plan's cached jobs the cache holds."""
    from pathlib import Path

    import yaml

    from hierbn.report import cache_status

    try:
        try:
            planned = cache_status.planned_cached_jobs(Path(args.plan).read_text(), tuple(STUDIES))
        except ValueError as error:
            raise ValueError(f"{args.plan}: {error}") from None
        held = cache_status.held_entries(Path(args.cache))
        batches = yaml.safe_load(Path(args.batches).read_text()) or {} if args.batches else {}
    except (OSError, ValueError) as error:
        raise SystemExit(f"hierbn cache status: {error}") from None
    jobs = cache_status.status(planned, held, batches)
    unused = cache_status.unused_entries(planned, held)
    print("\n".join(cache_status.report_lines(jobs, unused, args.missing)))


BATCHES_HEADER = """\
# The paper plan (config/paper.yaml) cut into batches for the result cache (README, "Paper
# scale without a cluster"): each batch is at most about --hours of wall time on --cores cores
# by the job-size estimate, heaviest first within a study. Run one with
#   snakemake --cores 2 $(hierbn batch-targets --batch NAME) \\
#       --configfile config/paper.yaml reproduction/cache-store.yaml
# and add its row to the progress table of reproduction/README.md. Made by `hierbn batches`.
"""


def cmd_batches(args: argparse.Namespace) -> None:
    """``hierbn batches``: the studies' cached jobs of the plan, packed into session batches."""
    from pathlib import Path

    import yaml

    from hierbn.io import write_with
    from hierbn.report import batches, job_scaling, jobsizes

    try:
        measured = jobsizes.measured_jobs([Path(d) for d in args.run_dir], tuple(STUDIES))
        scaling = job_scaling.read_scaling(Path(args.scaling)) if args.scaling else {}
        measured = job_scaling.scale_jobs(measured, scaling)
        planned = jobsizes.read_plan(Path(args.plan), tuple(STUDIES))
        costed = jobsizes.match_measured(planned, measured, frozenset(), frozenset(scaling))
        out = Path(args.out)
        plan = (yaml.safe_load(out.read_text()) or {}) if out.is_file() else {}
        for study in args.study:
            plan[study] = batches.plan_batches(costed, study, args.hours, args.cores)
            made = plan[study]
            print(f"{study}: {len(made)} batches, {sum(b['jobs'] for b in made)} jobs, "
                  f"{sum(b['core_hours'] for b in made):.1f} core-hours, "
                  f"{batches.wall_hours_total(made):.1f} h of wall time on {args.cores} cores")  # fmt: skip
    except (OSError, ValueError) as error:
        raise SystemExit(f"hierbn batches: {error}") from None
    write_with(out, lambda tmp: tmp.write_text(batches.batches_text(plan, BATCHES_HEADER)))


def cmd_batch_targets(args: argparse.Namespace) -> None:
    """``hierbn batch-targets``: one batch's targets, one per line (for snakemake's command)."""
    from pathlib import Path

    import yaml

    from hierbn.report.batches import batch_targets

    try:
        plan = yaml.safe_load(Path(args.batches).read_text()) or {}
        print("\n".join(batch_targets(plan, args.batch)))
    except (OSError, ValueError) as error:
        raise SystemExit(f"hierbn batch-targets: {error}") from None


def register(sub: argparse._SubParsersAction) -> None:
    """``hierbn cached`` (a rule's job through the result cache), ``cache verify``, and the
    paper plan's batches (``batches``, ``batch-targets``)."""
    p = sub.add_parser(
        "cached",
        help="run a job's command through the result cache ($HIERBN_RESULT_CACHE)",
    )
    p.add_argument("--code", required=True, help="the job's code key (hierbn.code_key)")
    p.add_argument("--inputs", nargs="*", default=[], help="the job's input files")
    p.add_argument("--outputs", nargs="+", required=True, help="the job's output files")
    p.add_argument("command_line", nargs=argparse.REMAINDER, help="-- the job's command")
    p.set_defaults(func=cmd_cached)

    cache = sub.add_parser(
        "cache", help="the result cache: verify, compact, status"
    ).add_subparsers(dest="cache_command", required=True)
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
    p = cache.add_parser(
        "compact", help="re-encode entries stored as their jobs wrote them (zstd), in place"
    )
    p.add_argument("--cache", default="reproduction/cache", help="the result cache folder")
    p.set_defaults(func=cmd_cache_compact)
    p = cache.add_parser(
        "status", help="which of a plan's cached jobs the cache holds, per study and batch"
    )
    p.add_argument("--plan", required=True, help="saved output of `snakemake -n -p --forceall …`")
    p.add_argument("--cache", default="reproduction/cache", help="the result cache folder")
    p.add_argument(
        "--batches", default="reproduction/batches.yaml", help="the batches ('' for none)"
    )
    p.add_argument("--missing", action="store_true", help="list every missing job's output")
    p.set_defaults(func=cmd_cache_status)

    p = sub.add_parser(
        "batches", help="cut the plan's cached jobs into batches of a session's length"
    )
    p.add_argument("--plan", required=True, help="saved output of `snakemake -n -p --forceall …`")
    p.add_argument("--run-dir", action="append", required=True, help="a measured run's folder")
    p.add_argument("--scaling", default=None, help="reproduction/paper-scaling.yaml")
    p.add_argument("--study", action="append", required=True, help="repeatable")
    p.add_argument("--hours", type=float, default=2.0, help="a batch's wall time at most")
    p.add_argument("--cores", type=int, default=2, help="the cores a batch runs on")
    p.add_argument(
        "--out", default="reproduction/batches.yaml", help="its studies' sections are replaced"
    )
    p.set_defaults(func=cmd_batches)

    p = sub.add_parser("batch-targets", help="print one batch's targets, one per line")
    p.add_argument("--batch", required=True, help="its name, e.g. petitjean2018-1")
    p.add_argument("--batches", default="reproduction/batches.yaml")
    p.set_defaults(func=cmd_batch_targets)
