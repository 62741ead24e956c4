"""``hierbn petitjean2018 …``: the study's steps called by ``workflow/rules/petitjean2018.smk``."""

from __future__ import annotations

import argparse
import json

import pandas as pd

from hierbn.io import write_json, write_parquet
from hierbn.steps import config_json, experiment_args, limit_threads, read_tables, study_parser


def cmd_cv(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018.protocol import run_cv, run_cv_cell

    limit_threads(args.threads)
    frame = pd.read_parquet(args.canonical)
    config = config_json(args)
    cell = (args.round, args.fold, args.method)
    if cell == (None, None, None):
        table = run_cv(frame, args.dataset, config, args.seed, args.threads)
    elif cell[1:] == (None, None):
        if not 0 <= args.round < config["rounds"]:
            raise SystemExit(f"--round {args.round}: no such round in {config['rounds']}x2 CV")
        table = run_cv(frame, args.dataset, config, args.seed, args.threads, [args.round])
    elif None in cell:
        raise SystemExit("one CV cell needs all of --round, --fold and --method")
    else:
        table = run_cv_cell(frame, args.dataset, cell, config, args.seed, args.threads)
    write_parquet(table, args.out)


def cmd_learning_curve(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018.protocol import run_learning_curve

    limit_threads(args.threads)
    frame = pd.read_parquet(args.canonical)
    table = run_learning_curve(
        frame, args.dataset, config_json(args), args.run, args.seed, args.threads
    )
    write_parquet(table, args.out)


def cmd_splice(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018.protocol import run_splice

    limit_threads(args.threads)
    write_parquet(run_splice(config_json(args), args.seed, args.threads), args.out)


def cmd_timing(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018.protocol import run_timing

    limit_threads(1)
    frame = pd.read_parquet(args.canonical)
    write_parquet(run_timing(frame, args.dataset, config_json(args), args.seed), args.out)


def cmd_table1(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018.protocol import run_table1

    write_parquet(run_table1(config_json(args), args.seed), args.out)


def cmd_claims(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018.claims import Results, evaluate_claims
    from hierbn.studies.petitjean2018.tables import prior_table

    cv = read_tables(args.cv)
    if cv is None:
        raise SystemExit("claims need the cross-validation tables (--cv)")
    config = config_json(args)
    curves, timing = read_tables(args.learning_curve), read_tables(args.timing)
    results = Results(
        cv, config, read_tables(args.table1), curves, timing, read_tables(args.splice)
    )
    claims = evaluate_claims(results, args.scale)
    write_json({"study": "petitjean2018", "claims": claims}, args.out)
    write_parquet(results.table2, args.table2)
    write_parquet(results.table3, args.table3)
    write_parquet(results.iterations, args.iterations)
    write_parquet(prior_table(cv), args.prior)
    # the report reads these merged tables, however many jobs produced them
    write_parquet(cv, args.all_cv)
    write_parquet(curves if curves is not None else pd.DataFrame(), args.all_learning_curve)
    write_parquet(timing if timing is not None else pd.DataFrame(), args.all_timing)


def _add_data_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--canonical", required=True, help="canonical parquet of the data set")
    parser.add_argument("--dataset", required=True)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``hierbn petitjean2018`` and its steps."""
    steps = study_parser(subparsers, "petitjean2018", "petitjean2018 experiments")
    p = steps.add_parser("cv", help="5x2 CV of every configured classifier on one data set")
    _add_data_arguments(p)
    p.add_argument(
        "--round",
        type=int,
        help="one round (both folds, every method); with --fold and --method: one cell",
    )
    p.add_argument("--fold", type=int)
    p.add_argument("--method", help="e.g. tan-hdp, skdb-m, tan-hdp-single-5000, rf")
    experiment_args(p)
    p.set_defaults(func=cmd_cv)

    p = steps.add_parser("learning-curve", help="one run of the learning curves (Fig. 7)")
    _add_data_arguments(p)
    p.add_argument("--run", type=int, required=True)
    experiment_args(p)
    p.set_defaults(func=cmd_learning_curve)

    p = steps.add_parser("timing", help="timings of section 6.6 on one core")
    _add_data_arguments(p)
    experiment_args(p, threads=False)
    p.set_defaults(func=cmd_timing)

    p = steps.add_parser("splice", help="SkDB5 m vs HDP on the large splice data (down-sampled)")
    experiment_args(p)
    p.set_defaults(func=cmd_splice)

    p = steps.add_parser("table1", help="Table 1 worked example (HDP on two toy tables)")
    experiment_args(p, threads=False)
    p.set_defaults(func=cmd_table1)

    p = steps.add_parser("claims", help="Tables 2-3, the merged tables and the headline claims")
    p.add_argument("--cv", nargs="+", required=True)
    for name in ("table1", "learning-curve", "timing", "splice"):
        p.add_argument(f"--{name}", nargs="*", default=[])
    p.add_argument("--config", required=True, help="JSON of the config values the claims read")
    p.add_argument(
        "--scale",
        type=json.loads,
        required=True,
        help="JSON of the run's value of every dimension of the paper's scale (run_scale)",
    )
    p.add_argument("--out", required=True)
    for name, helptext in (
        ("table2", "Table 2 W/D/L"),
        ("table3", "Table 3 W/D/L"),
        ("iterations", "Figs 4-5 W/D/L table"),
        ("prior", "prior-sensitivity W/D/L table"),
        ("all-cv", "all CV rows in one table"),
        ("all-learning-curve", "all learning-curve rows in one table"),
        ("all-timing", "all timing rows in one table"),
    ):
        p.add_argument(f"--{name}", required=True, help=f"{helptext} (output)")
    p.set_defaults(func=cmd_claims)
