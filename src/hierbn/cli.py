"""``hierbn`` command-line entry points called by the Snakemake rules."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import pandas as pd

from hierbn.io import read_json, write_json, write_parquet


def _limit_threads(threads: int) -> None:
    """Keep numba and BLAS within the rule's ``threads`` so --cores N never oversubscribes."""
    import numba
    from threadpoolctl import threadpool_limits

    threadpool_limits(threads)
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))


def _read_tables(paths: list[str]) -> pd.DataFrame | None:
    frames = [pd.read_parquet(p) for p in paths if p]
    return pd.concat(frames, ignore_index=True) if frames else None


# ---------------------------------------------------------------------- data
def cmd_fetch(args: argparse.Namespace) -> None:
    from hierbn.data.download import fetch
    from hierbn.data.registry import load_registry

    registry = load_registry(args.registry)
    matches = [p for e in registry.values() for p in e.parts if p.file == args.file]
    if not matches:
        raise SystemExit(f"{args.registry}: no registered file {args.file!r}")
    part = matches[0]
    origin = fetch(part.file, part.source_url, part.sha256, args.out, args.mirror or [])
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


# ------------------------------------------------------------ azzimonti2019
def cmd_azz_e1(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019 import run_e1_cell

    _limit_threads(args.threads)
    config = json.loads(args.config)
    compiled = read_json(args.stan) if args.stan else None
    backend = compiled["backend"] if compiled else None
    write_parquet(run_e1_cell(args.n_x, args.n_y, config, backend, compiled, args.seed), args.out)


def cmd_azz_lemma1(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019 import run_lemma1

    config = json.loads(args.config)
    write_parquet(run_lemma1(config["settings"], config["draws"], args.seed), args.out)


def cmd_azz_prepare(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019 import prepare_dataset

    prepared, cuts = prepare_dataset(pd.read_parquet(args.canonical), args.n_bins)
    write_parquet(prepared, args.out)
    write_json({"n_bins": args.n_bins, "cuts": cuts}, args.cuts)


def cmd_azz_e2(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019 import run_e2_dataset

    _limit_threads(args.threads)
    table = run_e2_dataset(
        pd.read_parquet(args.prepared), args.dataset, json.loads(args.config), args.seed
    )
    write_parquet(table, args.out)


def cmd_azz_e3(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019 import run_e3_adult

    _limit_threads(args.threads)
    write_parquet(
        run_e3_adult(pd.read_parquet(args.prepared), json.loads(args.config), args.seed), args.out
    )


def cmd_azz_claims(args: argparse.Namespace) -> None:
    from hierbn.studies.azzimonti2019_claims import e2_summary, evaluate_claims

    e1 = _read_tables(args.e1)
    if e1 is None:
        raise SystemExit("claims need at least one E1 table (--e1)")
    e2 = _read_tables(args.e2)
    claims = evaluate_claims(e1, _read_tables(args.lemma1), e2, _read_tables(args.e3))
    payload: dict[str, Any] = {"study": "azzimonti2019", "claims": claims}
    write_json(payload, args.out)
    if args.e2_summary:
        summary = e2_summary(e2) if e2 is not None else pd.DataFrame()
        write_parquet(summary, args.e2_summary)


# ------------------------------------------------------------------ beal2006
def cmd_beal_scores(args: argparse.Namespace) -> None:
    from hierbn.studies.beal2006 import run_scores

    _limit_threads(args.threads)
    write_parquet(run_scores(args.instance, args.n, json.loads(args.config), args.seed), args.out)


def cmd_beal_ais(args: argparse.Namespace) -> None:
    from hierbn.studies.beal2006 import run_ais

    _limit_threads(args.threads)
    write_parquet(run_ais(args.n, args.run, json.loads(args.config), args.seed), args.out)


def cmd_beal_schedule(args: argparse.Namespace) -> None:
    from hierbn.studies.beal2006 import run_schedule_study

    _limit_threads(args.threads)
    config = json.loads(args.config)
    write_parquet(run_schedule_study(config["schedule"], config["ais"], args.seed), args.out)


def cmd_beal_claims(args: argparse.Namespace) -> None:
    from hierbn.studies.beal2006_claims import (
        evaluate_claims,
        table2,
        table3,
        wide_scores,
        with_ais,
    )

    scores = _read_tables(args.scores)
    if scores is None:
        raise SystemExit("claims need the score tables (--scores)")
    ais = _read_tables(args.ais)
    wide = with_ais(wide_scores(scores), ais)
    timing = None
    sec = scores[scores.method.isin(["em_seconds", "vb_seconds"]) & (scores.rep == 0)]
    if not sec.empty:
        n_pick = int(sec["n"].max()) if 480 not in set(sec["n"]) else 480
        per = sec[sec.n == n_pick].groupby("method")["value"].sum()
        timing = {
            "n": n_pick,
            "em_seconds": float(per["em_seconds"]),
            "vb_seconds": float(per["vb_seconds"]),
        }
        if ais is not None:
            ais_sec = ais[(ais.metric == "seconds") & (ais.n == n_pick)]
            if not ais_sec.empty:
                timing["ais_seconds"] = float(ais_sec.groupby("run")["value"].sum().mean())
    schedule = _read_tables(args.schedule)
    write_json(
        {"study": "beal2006", "claims": evaluate_claims(wide, ais, schedule, timing)}, args.out
    )
    write_parquet(table2(wide), args.table2)
    write_parquet(table3(wide, ais) if ais is not None else pd.DataFrame(), args.table3)


# ------------------------------------------------------------- petitjean2018
def cmd_pj_cv(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018 import run_cv

    _limit_threads(args.threads)
    cell = None
    if args.method is not None:
        if args.round is None or args.fold is None:
            raise SystemExit("--method needs --round and --fold (one CV cell)")
        cell = (args.round, args.fold, args.method)
    frame = pd.read_parquet(args.canonical)
    config = json.loads(args.config)
    write_parquet(run_cv(frame, args.dataset, config, args.seed, args.threads, cell), args.out)


def cmd_pj_learning_curve(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018 import run_learning_curve

    _limit_threads(args.threads)
    frame = pd.read_parquet(args.canonical)
    config = json.loads(args.config)
    table = run_learning_curve(frame, args.dataset, config, args.run, args.seed, args.threads)
    write_parquet(table, args.out)


def cmd_pj_splice(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018 import run_splice

    _limit_threads(args.threads)
    write_parquet(run_splice(json.loads(args.config), args.seed, args.threads), args.out)


def cmd_pj_timing(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018 import run_timing

    _limit_threads(1)
    frame = pd.read_parquet(args.canonical)
    write_parquet(run_timing(frame, args.dataset, json.loads(args.config), args.seed), args.out)


def cmd_pj_table1(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018 import run_table1

    write_parquet(run_table1(json.loads(args.config), args.seed), args.out)


def cmd_pj_claims(args: argparse.Namespace) -> None:
    from hierbn.studies.petitjean2018_claims import (
        evaluate_claims,
        iteration_table,
        prior_table,
        table2,
        table3,
    )

    cv = _read_tables(args.cv)
    if cv is None:
        raise SystemExit("claims need the cross-validation tables (--cv)")
    config = json.loads(args.config)
    table1 = _read_tables(args.table1)
    curves = _read_tables(args.learning_curve)
    timing = _read_tables(args.timing)
    splice = _read_tables(args.splice)
    claims = evaluate_claims(cv, table1, curves, timing, config, splice)
    write_json({"study": "petitjean2018", "claims": claims}, args.out)
    write_parquet(table2(cv), args.table2)
    write_parquet(table3(cv), args.table3)
    write_parquet(iteration_table(cv, config), args.iterations)
    write_parquet(prior_table(cv), args.prior)
    # the notebook reads these merged tables, however many jobs produced them
    write_parquet(cv, args.all_cv)
    write_parquet(curves if curves is not None else pd.DataFrame(), args.all_learning_curve)
    write_parquet(timing if timing is not None else pd.DataFrame(), args.all_timing)


def _experiment_args(parser: argparse.ArgumentParser, threads: bool = True) -> None:
    """The arguments every experiment step takes: its config JSON, base seed, threads, output."""
    parser.add_argument("--config", required=True, help="JSON of the study's config section")
    parser.add_argument("--seed", type=int, default=0)
    if threads:
        parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", required=True)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hierbn", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "fetch", help="place a registered raw file (mirror or download, sha256 checked)"
    )
    p.add_argument("--registry", required=True)
    p.add_argument("--file", required=True, help="the file's path as listed in the registry")
    p.add_argument("--mirror", action="append", help="mirror directory laid out like shared/data")
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

    azz = sub.add_parser("azzimonti2019", help="azzimonti2019 experiments").add_subparsers(
        dest="step", required=True
    )
    p = azz.add_parser("e1", help="one (|X|, |Y|) cell of the simulated-CPT grid")
    p.add_argument("--n-x", type=int, required=True)
    p.add_argument("--n-y", type=int, required=True)
    p.add_argument("--stan", default=None, help="compile marker JSON (omit to skip Stan methods)")
    _experiment_args(p)
    p.set_defaults(func=cmd_azz_e1)

    p = azz.add_parser("lemma1", help="Monte Carlo check of Lemma 1")
    _experiment_args(p, threads=False)
    p.set_defaults(func=cmd_azz_lemma1)

    p = azz.add_parser("prepare", help="impute + equal-frequency discretisation of one data set")
    p.add_argument("--canonical", required=True)
    p.add_argument("--n-bins", type=int, default=5)
    p.add_argument("--out", required=True)
    p.add_argument("--cuts", required=True)
    p.set_defaults(func=cmd_azz_prepare)

    for name, func, helptext in (
        ("e2", cmd_azz_e2, "TAN classification on one data set"),
        ("e3", cmd_azz_e3, "Adult per-CPT MSE"),
    ):
        p = azz.add_parser(name, help=helptext)
        p.add_argument("--prepared", required=True)
        if name == "e2":
            p.add_argument("--dataset", required=True)
        _experiment_args(p)
        p.set_defaults(func=func)

    p = azz.add_parser("claims", help="evaluate the headline claims and the E2 summary table")
    p.add_argument("--e1", nargs="*", default=[])
    p.add_argument("--lemma1", nargs="*", default=[])
    p.add_argument("--e2", nargs="*", default=[])
    p.add_argument("--e3", nargs="*", default=[])
    p.add_argument("--out", required=True)
    p.add_argument("--e2-summary", default=None)
    p.set_defaults(func=cmd_azz_claims)

    beal = sub.add_parser("beal2006", help="beal2006 experiments").add_subparsers(
        dest="step", required=True
    )
    p = beal.add_parser("scores", help="EM/VBEM scores of all structures for one (instance, n)")
    p.add_argument("--instance", type=int, required=True)
    p.add_argument("--n", type=int, required=True)
    for q in (p, ais := beal.add_parser("ais", help="one AIS run for all structures at one n"),
              sched := beal.add_parser("schedule", help="AIS schedule-length study (Fig. 6(a))")):  # fmt: skip
        _experiment_args(q)
    ais.add_argument("--n", type=int, required=True)
    ais.add_argument("--run", type=int, required=True)
    p.set_defaults(func=cmd_beal_scores)
    ais.set_defaults(func=cmd_beal_ais)
    sched.set_defaults(func=cmd_beal_schedule)
    p = beal.add_parser("claims", help="Tables 2–3 and the headline claims")
    p.add_argument("--scores", nargs="+", required=True)
    p.add_argument("--ais", nargs="*", default=[])
    p.add_argument("--schedule", nargs="*", default=[])
    p.add_argument("--out", required=True)
    p.add_argument("--table2", required=True)
    p.add_argument("--table3", required=True)
    p.set_defaults(func=cmd_beal_claims)

    pj = sub.add_parser("petitjean2018", help="petitjean2018 experiments").add_subparsers(
        dest="step", required=True
    )
    p = pj.add_parser("cv", help="5x2 CV of every configured classifier on one data set")
    p.add_argument("--canonical", required=True)
    p.add_argument("--dataset", required=True)
    p.add_argument("--round", type=int, help="with --fold and --method: one CV cell only")
    p.add_argument("--fold", type=int)
    p.add_argument("--method", help="e.g. tan-hdp, skdb-m, tan-hdp-single-5000, rf")
    _experiment_args(p)
    p.set_defaults(func=cmd_pj_cv)
    p = pj.add_parser("learning-curve", help="one run of the learning curves (Fig. 7)")
    p.add_argument("--canonical", required=True)
    p.add_argument("--dataset", required=True)
    p.add_argument("--run", type=int, required=True)
    _experiment_args(p)
    p.set_defaults(func=cmd_pj_learning_curve)
    p = pj.add_parser("timing", help="timings of section 6.6 on one core")
    p.add_argument("--canonical", required=True)
    p.add_argument("--dataset", required=True)
    _experiment_args(p, threads=False)
    p.set_defaults(func=cmd_pj_timing)
    p = pj.add_parser("splice", help="SkDB5 m vs HDP on the large splice data (down-sampled)")
    _experiment_args(p)
    p.set_defaults(func=cmd_pj_splice)
    table1 = pj.add_parser("table1", help="Table 1 worked example (HDP on two toy tables)")
    _experiment_args(table1, threads=False)
    table1.set_defaults(func=cmd_pj_table1)
    p = pj.add_parser("claims", help="Tables 2-3 and the headline claims")
    p.add_argument("--cv", nargs="+", required=True)
    p.add_argument("--table1", nargs="*", default=[])
    p.add_argument("--learning-curve", nargs="*", default=[])
    p.add_argument("--timing", nargs="*", default=[])
    p.add_argument("--splice", nargs="*", default=[])
    p.add_argument("--config", required=True, help="JSON of the petitjean2018 config section")
    p.add_argument("--out", required=True)
    p.add_argument("--table2", required=True)
    p.add_argument("--table3", required=True)
    p.add_argument("--iterations", required=True, help="Figs 4-5 W/D/L table (output)")
    p.add_argument("--prior", required=True, help="prior-sensitivity W/D/L table (output)")
    p.add_argument("--all-cv", required=True, help="all CV rows in one table (output)")
    p.add_argument("--all-learning-curve", required=True)
    p.add_argument("--all-timing", required=True)
    p.set_defaults(func=cmd_pj_claims)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    args.func(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
