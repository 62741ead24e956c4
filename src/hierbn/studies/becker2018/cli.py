"""``hierbn becker2018 …``: the study's steps called by ``workflow/rules/becker2018.smk``."""

from __future__ import annotations

import argparse
import json

import pandas as pd

from hierbn.io import read_json, write_json, write_parquet
from hierbn.steps import config_json, experiment_args, limit_threads, read_tables, study_parser


def cmd_prepare(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.data import COLUMNS, check_turkiye

    frame = pd.read_parquet(args.canonical)
    found = check_turkiye(frame, args.canonical)
    write_parquet(frame[list(COLUMNS)], args.out)
    write_json({"source": args.canonical, **found}, args.check)


def _frame(args: argparse.Namespace) -> pd.DataFrame:
    return pd.read_parquet(args.prepared)


def cmd_table2(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.protocol import run_table2

    write_parquet(run_table2(_frame(args)), args.out)


def cmd_vb(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.protocol import run_vb

    limit_threads(args.threads)
    write_parquet(run_vb(_frame(args), args.variant, config_json(args)), args.out)


def cmd_gibbs(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.protocol import run_gibbs_chain

    limit_threads(args.threads)
    draws, beta = run_gibbs_chain(_frame(args), args.chain, config_json(args), args.seed)
    write_parquet(draws, args.out)
    write_parquet(beta, args.beta)


def cmd_nuts(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.protocol import run_nuts

    limit_threads(args.threads)
    write_parquet(
        run_nuts(_frame(args), config_json(args), read_json(args.stan), args.seed), args.out
    )


def cmd_lasso(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.cv import lasso_rankings

    limit_threads(args.threads)
    write_parquet(lasso_rankings(_frame(args)), args.out)


def cmd_cv(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.cv import run_cv_cell

    limit_threads(args.threads)
    table = run_cv_cell(_frame(args), args.repeat, args.fold, config_json(args), args.seed)
    write_parquet(table, args.out)


def cmd_timing(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.protocol import run_timing

    limit_threads(1)  # decision 17: one thread
    write_parquet(run_timing(_frame(args), config_json(args), args.seed), args.out)


def cmd_sensitivity(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.protocol import run_sensitivity

    limit_threads(args.threads)
    write_parquet(run_sensitivity(_frame(args), config_json(args)), args.out)


def cmd_synthetic(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.protocol import run_synthetic

    limit_threads(args.threads)
    write_parquet(run_synthetic(args.scenario, args.rep, config_json(args), args.seed), args.out)


def cmd_toy(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.protocol import run_toy

    limit_threads(args.threads)
    write_parquet(run_toy(config_json(args), args.seed), args.out)


def cmd_claims(args: argparse.Namespace) -> None:
    from hierbn.studies.becker2018.claims import Results, evaluate_claims
    from hierbn.studies.becker2018.report import class_beta_table
    from hierbn.studies.becker2018.tables import (
        draw_summary,
        figure2_table,
        paper_rankings,
        pooled_beta,
        sensitivity_table,
        table4,
        vb_rankings,
    )

    vb = read_tables(args.vb)
    draws = read_tables(args.gibbs)
    gibbs = draw_summary(draws, "gibbs")
    nuts_draws = read_tables(args.nuts)
    nuts = draw_summary(nuts_draws, "nuts") if nuts_draws is not None else None
    rankings = pd.concat([*(vb_rankings(vb, m) for m in sorted(vb.method.unique())),
                          read_tables(args.lasso), paper_rankings()], ignore_index=True)  # fmt: skip
    cv = read_tables(args.cv)
    results = Results(read_tables(args.table2), vb, gibbs, rankings, cv, read_tables(args.timing),
                      read_tables(args.synthetic), read_tables(args.toy))  # fmt: skip
    write_json({"study": "becker2018", "claims": evaluate_claims(results, args.scale)}, args.out)
    summaries = pd.concat([gibbs, nuts] if nuts is not None else [gibbs], ignore_index=True)
    write_parquet(summaries, args.posterior)
    write_parquet(figure2_table(vb, gibbs, nuts), args.figure2)
    classes = sorted({int(c.split(",")[0][5:]) for c in draws.columns if c.startswith("beta[")})
    write_parquet(class_beta_table(vb, gibbs, classes), args.class_beta)
    write_parquet(pooled_beta(read_tables(args.gibbs_beta)), args.gibbs_beta_summary)
    write_parquet(rankings, args.table3)
    write_parquet(table4(cv), args.table4)
    write_parquet(sensitivity_table(read_tables(args.sensitivity), vb), args.sensitivity_summary)
    write_parquet(cv, args.all_cv)
    write_parquet(
        results.synthetic if results.synthetic is not None else pd.DataFrame(), args.all_synthetic
    )


def _prepared(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--prepared", required=True, help="the checked Turkiye table (parquet)")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``hierbn becker2018`` and its steps."""
    steps = study_parser(subparsers, "becker2018", "becker2018 experiments")
    p = steps.add_parser("prepare", help="check the canonical Turkiye data against decisions §3.1")
    p.add_argument("--canonical", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--check", required=True)
    p.set_defaults(func=cmd_prepare)

    for name, func, helptext, threads in (
        ("table2", cmd_table2, "Table 2: OLS without intercept", None),
        ("lasso", cmd_lasso, "Table 3 lasso rankings (exact path and glmnet grid)", True),
        ("timing", cmd_timing, "VB vs Gibbs wall-clock (one thread, medians)", False),
        ("sensitivity", cmd_sensitivity, "VB under other hyper-parameters", True),
    ):
        p = steps.add_parser(name, help=helptext)
        _prepared(p)
        if threads is None:
            p.add_argument("--out", required=True)
        else:
            experiment_args(p, threads=threads)
        p.set_defaults(func=func)

    p = steps.add_parser("vb", help="the full-data VB fit of one variant")
    _prepared(p)
    p.add_argument("--variant", required=True, choices=["faithful", "corrected"])
    experiment_args(p)
    p.set_defaults(func=cmd_vb)

    p = steps.add_parser("gibbs", help="one Gibbs chain on the full data")
    _prepared(p)
    p.add_argument("--chain", type=int, required=True)
    p.add_argument("--beta", required=True, help="every class's beta mean and SD (output)")
    experiment_args(p)
    p.set_defaults(func=cmd_gibbs)

    p = steps.add_parser("nuts", help="Stan NUTS on the same model (not in the paper)")
    _prepared(p)
    p.add_argument("--stan", required=True, help="compile marker JSON")
    experiment_args(p)
    p.set_defaults(func=cmd_nuts)

    p = steps.add_parser("cv", help="one (repeat, fold) cell of Table 4")
    _prepared(p)
    p.add_argument("--repeat", type=int, required=True)
    p.add_argument("--fold", type=int, required=True)
    experiment_args(p)
    p.set_defaults(func=cmd_cv)

    p = steps.add_parser("synthetic", help="one synthetic data set (decisions §4)")
    p.add_argument("--scenario", required=True, choices=["dense", "sparse"])
    p.add_argument("--rep", type=int, required=True)
    experiment_args(p)
    p.set_defaults(func=cmd_synthetic)

    p = steps.add_parser("toy", help="the R repository's toy test")
    experiment_args(p)
    p.set_defaults(func=cmd_toy)

    p = steps.add_parser("claims", help="claims C1-C12 and the report's merged tables")
    for name in ("table2", "vb", "gibbs", "gibbs-beta", "nuts", "lasso", "cv", "timing",
                 "sensitivity", "synthetic", "toy"):  # fmt: skip
        p.add_argument(f"--{name}", nargs="*", default=[])
    for name in ("out", "posterior", "figure2", "class-beta", "gibbs-beta-summary", "table3",
                 "table4", "sensitivity-summary", "all-cv", "all-synthetic"):  # fmt: skip
        p.add_argument(f"--{name}", required=True)
    p.add_argument("--scale", type=json.loads, default=None,
                   help="the run's scale (workflow.run_scale) as JSON; none: the paper's")  # fmt: skip
    p.set_defaults(func=cmd_claims)
