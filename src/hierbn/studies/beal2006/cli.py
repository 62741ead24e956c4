"""``hierbn beal2006 …``: the study's steps called by ``workflow/rules/beal2006.smk``."""

from __future__ import annotations

import argparse
import json

import pandas as pd

from hierbn.io import write_json, write_parquet
from hierbn.steps import config_json, experiment_args, limit_threads, read_tables, study_parser


def cmd_scores(args: argparse.Namespace) -> None:
    from hierbn.studies.beal2006.protocol import run_scores

    limit_threads(args.threads)
    instances = range(args.instances + 1)
    write_parquet(run_scores(instances, args.n, config_json(args), args.seed), args.out)


def cmd_ais(args: argparse.Namespace) -> None:
    from hierbn.studies.beal2006.protocol import run_ais

    limit_threads(args.threads)
    write_parquet(run_ais(args.n, range(args.runs), config_json(args), args.seed), args.out)


def cmd_schedule(args: argparse.Namespace) -> None:
    from hierbn.studies.beal2006.protocol import run_schedule_study

    limit_threads(args.threads)
    config = config_json(args)
    write_parquet(run_schedule_study(config["schedule"], config["ais"], args.seed), args.out)


def cmd_claims(args: argparse.Namespace) -> None:
    from hierbn.studies.beal2006.claims import Results, evaluate_claims
    from hierbn.studies.beal2006.tables import (
        table2,
        table3,
        timing_summary,
        wide_scores,
        with_ais,
    )

    scores = read_tables(args.scores)
    if scores is None:
        raise SystemExit("claims need the score tables (--scores)")
    ais = read_tables(args.ais)
    wide = with_ais(wide_scores(scores), ais)
    results = Results(wide, ais, read_tables(args.schedule), timing_summary(scores, ais))
    write_json({"study": "beal2006", "claims": evaluate_claims(results, args.scale)}, args.out)
    write_parquet(table2(wide), args.table2)
    write_parquet(table3(wide, ais) if ais is not None else pd.DataFrame(), args.table3)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``hierbn beal2006`` and its steps."""
    steps = study_parser(subparsers, "beal2006", "beal2006 experiments")
    p = steps.add_parser("scores", help="EM/VBEM scores of all structures at one n")
    p.add_argument(
        "--instances", type=int, required=True, help="instances 0 (the printed parameters) to K"
    )
    p.add_argument("--n", type=int, required=True)
    experiment_args(p)
    p.set_defaults(func=cmd_scores)

    p = steps.add_parser("ais", help="the AIS runs for all structures at one n")
    p.add_argument("--n", type=int, required=True)
    p.add_argument("--runs", type=int, required=True, help="runs 0 to R-1")
    experiment_args(p)
    p.set_defaults(func=cmd_ais)

    p = steps.add_parser("schedule", help="AIS schedule-length study (Fig. 6(a))")
    experiment_args(p)
    p.set_defaults(func=cmd_schedule)

    p = steps.add_parser("claims", help="Tables 2–3 and the headline claims")
    p.add_argument("--scores", nargs="+", required=True)
    p.add_argument("--ais", nargs="*", default=[])
    p.add_argument("--schedule", nargs="*", default=[])
    p.add_argument("--out", required=True)
    p.add_argument("--table2", required=True)
    p.add_argument("--table3", required=True)
    p.add_argument(
        "--scale",
        type=json.loads,
        default=None,
        help="the run's scale (workflow.run_scale) as JSON; none: the paper's",
    )
    p.set_defaults(func=cmd_claims)
