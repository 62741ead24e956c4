"""``hierbn dombowsky2025 …``: the study's steps called by ``workflow/rules/dombowsky2025.smk``."""

from __future__ import annotations

import argparse
import json

import pandas as pd

from hierbn.io import read_json, write_json, write_parquet
from hierbn.steps import config_json, experiment_args, limit_threads, read_tables, study_parser
from hierbn.studies.dombowsky2025.lucas import TARGETS

# the claims step's summary tables: name -> (table function name, experiment it summarises;
# None: always written)
SUMMARY_TABLES = {
    "table1": ("table1", "table1"), "table3": ("table3", "table3"), "table7": ("table7", "tables78"),
    "table8": ("table8", "tables78"), "diagnostics": ("sampler_diagnostics", None),
    "alarm_predictive": ("alarm_predictive", "alarm"), "alarm_ess": ("alarm_ess", "alarm"),
    "table10": ("alarm_structure_sets", "alarm_structure"),
    "table11": ("alarm_structure_edges", "alarm_structure"),
    "alarm_maps": ("alarm_structure_maps", "alarm_structure"),
    "table2": ("table2", "lucas"), "lucas_selections": ("lucas_selections", "lucas"),
    "table6": ("table6", "lucas"), "metabric_parents": ("metabric_parents", "metabric"),
    "metabric_diagnostics": ("metabric_diagnostics", "metabric"),
    "figure2": ("figure2", "checks"),  # from the checks step's rows, not the experiments'
}  # fmt: skip


def cmd_alarm_prepare(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.alarm import code_alarm

    table, check = code_alarm(pd.read_parquet(args.canonical), args.canonical)
    write_parquet(table, args.out)
    write_json(check, args.check)


def _write_pair(pair: tuple[pd.DataFrame, pd.DataFrame], args: argparse.Namespace) -> None:
    write_parquet(pair[0], args.out)
    write_parquet(pair[1], args.trace)


def _run_on_prepared(args: argparse.Namespace, run, units: list) -> None:
    """A real-data step: ``run(prepared table, unit, config, seed)`` -> (results, trace) of
    each unit (subsample, target or outcome; each seeded by its own key), stacked in the
    order given: one job runs every unit of an experiment, as each takes seconds."""
    limit_threads(args.threads)
    table, config = pd.read_parquet(args.prepared), config_json(args)
    results, traces = zip(*(run(table, unit, config, args.seed) for unit in units), strict=True)
    _write_pair((pd.concat(results, ignore_index=True), pd.concat(traces, ignore_index=True)), args)


def _reps(args: argparse.Namespace) -> range:
    if not 0 <= args.first < args.stop:
        raise SystemExit(f"--first {args.first} --stop {args.stop}: need 0 <= first < stop")
    return range(args.first, args.stop)


def cmd_table1(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.protocol import run_table1_block

    limit_threads(args.threads)
    _write_pair(run_table1_block(args.K, _reps(args), config_json(args), args.seed), args)


def cmd_table1_bayes(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.protocol import run_table1_bayes_block

    limit_threads(args.threads)
    table = run_table1_bayes_block(args.K, _reps(args), config_json(args), args.seed,
                                   read_json(args.stan))  # fmt: skip
    write_parquet(table, args.out)


def cmd_table3(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.protocol import run_table3_block

    limit_threads(args.threads)
    _write_pair(run_table3_block(args.k1, _reps(args), config_json(args), args.seed), args)


def cmd_tables78(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.protocol import run_tables78_block

    limit_threads(args.threads)
    pair = run_tables78_block(args.truth, args.n, _reps(args), config_json(args), args.seed)
    _write_pair(pair, args)


def cmd_alarm(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.alarm import run_alarm_subsample

    _run_on_prepared(args, run_alarm_subsample, args.subsample)


def cmd_alarm_structure(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.alarm import run_alarm_structure

    _run_on_prepared(args, run_alarm_structure, args.subsample)


def cmd_lucas_prepare(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.lucas import code_lucas

    table, check = code_lucas(pd.read_parquet(args.canonical), args.canonical)
    write_parquet(table, args.out)
    write_json(check, args.check)


def cmd_lucas(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.structure import run_lucas_target

    _run_on_prepared(args, run_lucas_target, args.target)


def cmd_metabric_prepare(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.metabric import code_metabric

    codes, record, report = code_metabric(pd.read_parquet(args.patients), pd.read_parquet(args.samples),
                                          args.mode, (args.patients, args.samples))  # fmt: skip
    write_parquet(codes.reset_index(), args.out)
    write_parquet(record, args.record)
    write_json(report, args.check)


def cmd_metabric(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.structure import run_metabric_outcome

    _run_on_prepared(args, run_metabric_outcome, args.outcome)


def cmd_checks(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025.checks import run_checks

    limit_threads(args.threads)
    write_parquet(run_checks(config_json(args), args.seed), args.out)


def cmd_claims(args: argparse.Namespace) -> None:
    from hierbn.studies.dombowsky2025 import tables
    from hierbn.studies.dombowsky2025.claims import Results, evaluate_claims

    results = read_tables(args.results)
    results = results if results is not None else pd.DataFrame(columns=["experiment", "metric"])
    checks = read_tables(args.checks)
    write_json({"study": "dombowsky2025",
                "claims": evaluate_claims(Results(results, checks), args.scale)}, args.out)  # fmt: skip
    for name, (function, experiment) in SUMMARY_TABLES.items():
        if experiment == "checks":
            write_parquet(getattr(tables, function)(checks), getattr(args, name))
            continue
        ran = experiment is None or (results.experiment == experiment).any()
        table = getattr(tables, function)(results) if ran else pd.DataFrame()
        write_parquet(table, getattr(args, name))
    traces = read_tables(args.traces)
    write_parquet(traces if traces is not None else pd.DataFrame(), args.all_traces)


def _prepare_steps(steps: argparse._SubParsersAction) -> None:
    """The steps that turn a registered data set into the study's coded table."""
    for name, func, helptext in (
        ("alarm-prepare", cmd_alarm_prepare, "the Table 9 columns of bnlearn::alarm, coded"),
        ("lucas-prepare", cmd_lucas_prepare, "LUCAS0 under the names of decisions §4.2, checked"),
    ):
        p = steps.add_parser(name, help=helptext)
        p.add_argument("--canonical", required=True)
        p.add_argument("--out", required=True)
        p.add_argument("--check", required=True)
        p.set_defaults(func=func)
    p = steps.add_parser(
        "metabric-prepare", help="the 12 METABRIC variables from cBioPortal (decisions A12 and A13)"
    )
    p.add_argument("--patients", required=True)
    p.add_argument("--samples", required=True)
    p.add_argument("--mode", required=True, choices=["code", "clean"])
    p.add_argument("--out", required=True)
    p.add_argument(
        "--record", required=True, help="every patient: kept, or dropped with its reason"
    )
    p.add_argument("--check", required=True)
    p.set_defaults(func=cmd_metabric_prepare)


def _block_steps(steps: argparse._SubParsersAction) -> None:
    """The simulation steps, one block of replicates each."""

    def block_step(name: str, func, helptext: str, trace: bool = True) -> argparse.ArgumentParser:
        p = steps.add_parser(name, help=helptext)
        p.add_argument("--first", type=int, required=True, help="first replicate of the block")
        p.add_argument("--stop", type=int, required=True, help="one past its last replicate")
        experiment_args(p)
        if trace:
            p.add_argument("--trace", required=True, help="log-posterior trace (output)")
        p.set_defaults(func=func)
        return p

    block_step("table1", cmd_table1, "Table 1: one block of data sets at one K").add_argument(
        "--K", type=int, required=True)  # fmt: skip
    p = block_step("table1-bayes", cmd_table1_bayes, "Table 1 logit Bayes (Stan)", trace=False)
    p.add_argument("--K", type=int, required=True)
    p.add_argument("--stan", required=True, help="compile marker JSON")
    block_step("table3", cmd_table3, "Table 3: one block of replications at one k1").add_argument(
        "--k1", type=int, required=True)  # fmt: skip
    p = block_step("tables78", cmd_tables78, "Tables 7-8: one block at one (truth, n)")
    p.add_argument("--truth", required=True, choices=["G1", "G2"])
    p.add_argument("--n", type=int, required=True)


def _data_steps(steps: argparse._SubParsersAction) -> None:
    """The real-data steps: one prepared table and one or more subsamples, targets or
    outcomes each."""
    for name, func, helptext, option, choices in (
        ("alarm", cmd_alarm, "App. F.2: ALARM parameters on subsamples", "--subsample", None),
        ("alarm-structure", cmd_alarm_structure, "App. F.3: ALARM parent sets on subsamples", "--subsample",
         None),
        ("lucas", cmd_lucas, "decisions §4.2: the Markov blankets of LUCAS targets, all methods", "--target",
         list(TARGETS)),
        ("metabric", cmd_metabric, "decisions §4.5: the parents of METABRIC outcomes, all methods", "--outcome",
         ["TBS", "CHT", "DFC"]),
    ):  # fmt: skip
        p = steps.add_parser(name, help=helptext)
        p.add_argument("--prepared", required=True)
        if option == "--subsample":
            p.add_argument(option, type=int, nargs="+", required=True,
                           help="subsample indices (0 = the headline subsample)")  # fmt: skip
        else:
            p.add_argument(option, nargs="+", required=True, choices=choices)
        p.add_argument("--trace", required=True)
        experiment_args(p)
        p.set_defaults(func=func)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``hierbn dombowsky2025`` and its steps."""
    steps = study_parser(subparsers, "dombowsky2025", "dombowsky2025 experiments")
    _prepare_steps(steps)
    _block_steps(steps)
    _data_steps(steps)

    p = steps.add_parser("checks", help="Theorem 2 grid and the sampler against grid integration")
    experiment_args(p)
    p.set_defaults(func=cmd_checks)

    p = steps.add_parser("claims", help="claims of decisions §7 and the report's summary tables")
    for name in ("results", "checks", "traces"):
        p.add_argument(f"--{name}", nargs="*", default=[])
    for name in ("out", *(s.replace("_", "-") for s in SUMMARY_TABLES), "all-traces"):
        p.add_argument(f"--{name}", required=True)
    p.add_argument("--scale", type=json.loads, default=None,
                   help="the run's scale (workflow.run_scale) as JSON; none: the paper's")  # fmt: skip
    p.set_defaults(func=cmd_claims)
