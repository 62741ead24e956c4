"""``hierbn azzimonti2019 …``: the study's steps called by ``workflow/rules/azzimonti2019.smk``."""

from __future__ import annotations

import argparse
import json

import pandas as pd

from hierbn.io import read_json, write_json, write_parquet
from hierbn.steps import config_json, experiment_args, limit_threads, read_tables, study_parser


def cmd_e1(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019.protocol import run_e1_cell

    limit_threads(args.threads)
    compiled = read_json(args.stan) if args.stan else None
    backend = compiled["backend"] if compiled else None
    table = run_e1_cell(args.n_x, args.n_y, config_json(args), backend, compiled, args.seed)
    write_parquet(table, args.out)


def cmd_lemma1(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019.protocol import run_lemma1

    config = config_json(args)
    write_parquet(run_lemma1(config["settings"], config["draws"], args.seed), args.out)


def cmd_prepare(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019.protocol import prepare_dataset

    prepared, cuts, dropped = prepare_dataset(pd.read_parquet(args.canonical), args.n_bins)
    write_parquet(prepared, args.out)
    write_json({"n_bins": args.n_bins, "cuts": cuts, "dropped_empty_columns": dropped}, args.cuts)


def cmd_e2(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019.protocol import run_e2_dataset

    limit_threads(args.threads)
    prepared = pd.read_parquet(args.prepared)
    write_parquet(run_e2_dataset(prepared, args.dataset, config_json(args), args.seed), args.out)


def cmd_e3(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019.protocol import run_e3_adult

    limit_threads(args.threads)
    prepared = pd.read_parquet(args.prepared)
    write_parquet(run_e3_adult(prepared, config_json(args), args.seed), args.out)


def cmd_e4(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019.timing import run_e4_adult

    limit_threads(args.threads)
    compiled = read_json(args.stan) if args.stan else None
    backend = compiled["backend"] if compiled else None
    prepared = pd.read_parquet(args.prepared)
    write_parquet(run_e4_adult(prepared, config_json(args), backend, compiled, args.seed), args.out)


def cmd_e5(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019.multidomain import run_e5_job

    limit_threads(args.threads)
    table = run_e5_job(args.n, args.users, args.c, args.rep, config_json(args), args.seed)
    write_parquet(table, args.out)


def cmd_claims(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019.claims import Results, evaluate_claims
    from hierbn.studies.azzimonti2019.tables import e2_summary, e5_summary

    e1 = read_tables(args.e1)
    if e1 is None:
        raise SystemExit("claims need at least one E1 table (--e1)")
    results = Results(
        e1,
        *(read_tables(paths) for paths in (args.lemma1, args.e2, args.e3, args.e4, args.e5)),
        registry=tuple(args.registry),
    )
    claims = evaluate_claims(results, args.scale)
    write_json({"study": "azzimonti2019", "claims": claims}, args.out)
    for frame, summarise, out in (
        (results.e2, e2_summary, args.e2_summary),
        (results.e5, e5_summary, args.e5_summary),
    ):
        write_parquet(summarise(frame) if frame is not None else pd.DataFrame(), out)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``hierbn azzimonti2019`` and its steps."""
    steps = study_parser(subparsers, "azzimonti2019", "azzimonti2019 experiments")
    p = steps.add_parser("e1", help="one (|X|, |Y|) cell of the simulated-CPT grid")
    p.add_argument("--n-x", type=int, required=True)
    p.add_argument("--n-y", type=int, required=True)
    p.add_argument("--stan", default=None, help="compile marker JSON (omit to skip Stan methods)")
    experiment_args(p)
    p.set_defaults(func=cmd_e1)

    p = steps.add_parser("lemma1", help="Monte Carlo check of Lemma 1")
    experiment_args(p, threads=False)
    p.set_defaults(func=cmd_lemma1)

    p = steps.add_parser("prepare", help="impute + equal-frequency discretisation of one data set")
    p.add_argument("--canonical", required=True)
    p.add_argument("--n-bins", type=int, default=5)
    p.add_argument("--out", required=True)
    p.add_argument("--cuts", required=True)
    p.set_defaults(func=cmd_prepare)

    p = steps.add_parser("e2", help="TAN classification on one data set")
    p.add_argument("--prepared", required=True)
    p.add_argument("--dataset", required=True)
    experiment_args(p)
    p.set_defaults(func=cmd_e2)

    p = steps.add_parser("e3", help="Adult per-CPT MSE")
    p.add_argument("--prepared", required=True)
    experiment_args(p)
    p.set_defaults(func=cmd_e3)

    p = steps.add_parser("e4", help="Adult computing time per CPT: VI, Stan ADVI, capped NUTS")
    p.add_argument("--prepared", required=True)
    p.add_argument("--stan", default=None, help="compile marker JSON (omit to skip Stan methods)")
    experiment_args(p)
    p.set_defaults(func=cmd_e4)

    p = steps.add_parser("e5", help="multi-domain classification, one (scenario, c, repetition)")
    p.add_argument("--n", type=int, required=True, help="training records per user")
    p.add_argument("--users", type=int, required=True, help="number of users K")
    p.add_argument("--c", type=float, required=True, help="heterogeneity of the users")
    p.add_argument("--rep", type=int, required=True)
    experiment_args(p)
    p.set_defaults(func=cmd_e5)

    p = steps.add_parser("claims", help="evaluate the headline claims and the E2 summary table")
    p.add_argument("--e1", nargs="*", default=[])
    p.add_argument("--lemma1", nargs="*", default=[])
    p.add_argument("--e2", nargs="*", default=[])
    p.add_argument("--e3", nargs="*", default=[])
    p.add_argument("--e4", nargs="*", default=[])
    p.add_argument("--e5", nargs="*", default=[])
    p.add_argument(
        "--registry",
        nargs="*",
        default=[],
        help="the registry's azzimonti2019 E2 data sets (the E2 claims' population)",
    )
    p.add_argument(
        "--scale",
        type=json.loads,
        default=None,
        help="the run's scale (JSON: workflow.run_scale; omit: the paper's scale)",
    )
    p.add_argument("--out", required=True)
    p.add_argument("--e2-summary", required=True)
    p.add_argument("--e5-summary", required=True)
    p.set_defaults(func=cmd_claims)
