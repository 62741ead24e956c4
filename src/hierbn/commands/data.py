"""``hierbn fetch``, ``convert`` and ``data-report``: the registry's raw files in, canonical
tables and their checks against the papers out."""

from __future__ import annotations

import argparse

from hierbn.io import read_json, write_json, write_parquet


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


def register(sub: argparse._SubParsersAction) -> None:
    """Add the data commands."""
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
