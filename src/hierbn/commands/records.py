"""``hierbn scoreboard`` and ``record``: the run's page with the committed records, and a record
of a finished run."""

from __future__ import annotations

import argparse
from pathlib import Path

from hierbn.io import read_json, write_json


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
    from hierbn.report.claims_table import counts_text
    from hierbn.report.record import make_record, record_path

    root = Path(args.root)
    if args.restamp is not None:
        _restamp(args, root)
        return
    if args.cores is None:
        raise SystemExit("hierbn record: --cores is needed (the cores the run used)")
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


def _restamp(args: argparse.Namespace, root: Path) -> None:
    """``hierbn record --restamp REASON``: mark records current after a change that cannot move
    their verdicts, keeping the change and the reason in the record."""
    import datetime as dt

    from hierbn.report.record import read_record, record_path, restamp
    from hierbn.workflow import source_commit

    commit = source_commit(str(root))  # before the first record is rewritten
    try:
        for study in args.study:
            path = record_path(root, study)
            stamped = restamp(
                read_record(path, study), root, commit, args.restamp,
                dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
            )  # fmt: skip
            write_json(stamped, path)
            print(f"{path}: restamped ({'; '.join(stamped['restamps'][-1]['changes'])})")
    except (OSError, ValueError) as error:
        raise SystemExit(f"hierbn record: {error}") from None


def register(sub: argparse._SubParsersAction) -> None:
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
    p.add_argument("--cores", type=int, default=None, help="the cores the run used")
    p.add_argument("--scale", default=None, help="default: named from the config files")
    p.add_argument("--wall-seconds", type=float, default=None, help="the run's measured wall time")
    p.add_argument("--root", default=".", help="the checkout (its reproduction/ is written)")
    p.add_argument(
        "--restamp",
        metavar="REASON",
        default=None,
        help="mark the records current after a change that cannot move their verdicts (why)",
    )
    p.set_defaults(func=cmd_record)
