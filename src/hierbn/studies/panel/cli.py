"""``hierbn panel …``: the estimator panel's steps called by ``workflow/rules/panel.smk``."""

from __future__ import annotations

import argparse
import json

import pandas as pd

from hierbn.io import read_json, write_json, write_parquet, write_with
from hierbn.steps import config_json, experiment_args, limit_threads, read_tables, study_parser


def cmd_prepare(args: argparse.Namespace) -> None:
    from hierbn.studies.panel.data import prepare_registry_table, read_user_dataset

    entry = config_json(args)
    if "source" in entry:
        table, check = prepare_registry_table(
            pd.read_parquet(args.input), args.dataset, entry["source"], entry.get("target"),
            entry.get("rows"), args.seed, entry.get("drop", ()),
        )  # fmt: skip
    else:
        table, check = read_user_dataset(
            args.input, args.dataset, entry["target"], entry.get("sha256"), entry.get("drop", ()),
            entry.get("categorical", ()), entry.get("numeric", ()), entry.get("keep_constant", False),
        )  # fmt: skip
    write_parquet(table, args.out)
    write_json(check, args.check)


def cmd_data_report(args: argparse.Namespace) -> None:
    checks = [read_json(p) for p in args.checks]
    table = pd.DataFrame(
        {
            "data set": c["id"],
            "source": c["source"],
            "rows": c["rows"],
            "attributes": c["attributes"],
            "numeric": c["numeric_attributes"],
            "classes": c["classes"]["count"],
            "missing cells": c["missing_cells"],
            "left out (one state)": ", ".join(c.get("one_state", [])),
            "sha256": c.get("sha256", ""),
        }
        for c in checks
    )
    write_with(args.out, lambda tmp: table.to_csv(tmp, sep="\t", index=False))


def cmd_cv(args: argparse.Namespace) -> None:
    from hierbn.studies.panel.protocol import cv_cells, run_cv

    limit_threads(args.threads)
    frame = pd.read_parquet(args.data)
    cell = (args.round, args.fold, args.structure, args.estimator)
    config = config_json(args)
    if cell == (None,) * 4:
        table = run_cv(frame, args.dataset, config, args.seed)
    elif cell[1:] == (None,) * 3:
        if not 0 <= args.round < config["cv"]["rounds"]:
            raise SystemExit(
                f"--round {args.round}: no such round in {config['cv']['rounds']}x2 CV"
            )
        cells = [c for c in cv_cells(config) if c[0] == args.round]
        table = run_cv(frame, args.dataset, config, args.seed, cells=cells)
    elif None in cell:
        raise SystemExit("one CV cell needs all of --round, --fold, --structure and --estimator")
    else:
        if args.fold not in (0, 1) or args.round < 0:
            raise SystemExit(f"no split round {args.round}, fold {args.fold} in 5x2 CV")
        config = {**config, "structures": [args.structure], "estimators": [args.estimator]}
        table = run_cv(frame, args.dataset, config, args.seed, cells=[cell])
    write_parquet(table, args.out)


def cmd_learning_curve(args: argparse.Namespace) -> None:
    from hierbn.studies.panel.protocol import run_learning_curve

    limit_threads(args.threads)
    frame = pd.read_parquet(args.data)
    write_parquet(
        run_learning_curve(frame, args.dataset, config_json(args), args.run, args.seed), args.out
    )


def cmd_claims(args: argparse.Namespace) -> None:
    from hierbn.studies.panel.claims import evaluate_claims
    from hierbn.studies.panel.tables import analysis_tables

    cv = read_tables(args.cv)
    if cv is None:
        raise SystemExit("claims need the cross-validation tables (--cv)")
    curves = read_tables(args.learning_curve)
    curves = curves if curves is not None else pd.DataFrame(columns=cv.columns)
    config = config_json(args)
    write_json(
        {"study": "panel", "claims": evaluate_claims(cv, curves, config, args.scale)}, args.out
    )
    for name, table in analysis_tables(cv).items():
        write_parquet(table, getattr(args, name))
    write_parquet(cv, args.all_cv)
    write_parquet(curves, args.all_learning_curve)


def _data_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="prepared parquet of the data set")
    parser.add_argument("--dataset", required=True)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``hierbn panel`` and its steps."""
    steps = study_parser(subparsers, "panel", "the estimator panel")
    p = steps.add_parser(
        "prepare", help="a registry table or a user's CSV/ARFF -> prepared parquet"
    )
    p.add_argument("--input", required=True, help="canonical parquet or the user's file")
    p.add_argument("--dataset", required=True)
    p.add_argument("--check", required=True, help="JSON metadata for the data report")
    experiment_args(p, threads=False)
    p.set_defaults(func=cmd_prepare)

    p = steps.add_parser("data-report", help="the prepared data sets in one table")
    p.add_argument("--checks", nargs="+", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_data_report)

    p = steps.add_parser("cv", help="5x2 CV of every structure x estimator on one data set")
    _data_arguments(p)
    p.add_argument(
        "--round",
        type=int,
        help="one round (both folds, every cell); with --fold, --structure, --estimator: one cell",
    )
    p.add_argument("--fold", type=int)
    p.add_argument("--structure")
    p.add_argument("--estimator")
    experiment_args(p)
    p.set_defaults(func=cmd_cv)

    p = steps.add_parser("learning-curve", help="one run of the learning curves")
    _data_arguments(p)
    p.add_argument("--run", type=int, required=True)
    experiment_args(p)
    p.set_defaults(func=cmd_learning_curve)

    p = steps.add_parser("claims", help="merged tables, ranks and tests, the claims")
    p.add_argument("--cv", nargs="+", required=True)
    p.add_argument("--learning-curve", nargs="*", default=[])
    p.add_argument("--config", required=True)
    p.add_argument(
        "--scale",
        type=json.loads,
        required=True,
        help="JSON: the run's value of every dimension of the paper scale (workflow.run_scale)",
    )
    p.add_argument("--out", required=True)
    for name in ("ranks", "friedman", "nemenyi", "wdl", "all-cv", "all-learning-curve"):
        p.add_argument(f"--{name}", required=True)
    p.set_defaults(func=cmd_claims)
