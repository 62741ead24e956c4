"""The jobs of dombowsky2025 and the config values each reads (used by its rule file).

The simulations run one job per (experiment, setting, replicate block), so a cluster spreads
them; a job's config holds its setting's step sizes and its block's replicate range, so adding
replicates or changing another setting's step sizes reruns none of the existing jobs. Each
real-data experiment (ALARM parameters, ALARM parent sets, LUCAS, METABRIC) is one job over all
its subsamples, targets or outcomes: each of those takes seconds even at the paper's scale
(21 ALARM subsamples at most 6 s each), so one job per unit spent more time starting Python than
sampling (README, Decisions)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hierbn.workflow import flat_paths, paths

RESULTS = "results/dombowsky2025"
PREPARED = "resources/dombowsky2025/alarm.parquet"
LUCAS = "resources/dombowsky2025/lucas.parquet"
METABRIC = "resources/dombowsky2025/metabric_{mode}.parquet"
STAN_MARKER = "resources/stan/logit_glm.json"
SUMMARIES = ("table1", "table3", "table7", "table8", "diagnostics", "alarm_predictive",
             "alarm_ess", "table10", "table11", "alarm_maps", "table2", "lucas_selections", "table6",
             "metabric_parents", "metabric_diagnostics", "figure2", "traces")  # fmt: skip  # fmt: skip


def summary_arguments() -> str:
    """The claims step's summary-table options, e.g. ``--alarm-ess {output.alarm_ess}`` (the
    combined traces are ``--all-traces``)."""
    names = [n for n in SUMMARIES if n != "traces"]
    return " ".join(f"--{n.replace('_', '-')} {{output.{n}}}" for n in names)


def blocks(total: int, size: int) -> list[tuple[int, int]]:
    """(first, stop) of each block of ``size`` replicates out of ``total``."""
    return [(first, min(first + size, total)) for first in range(0, total, size)]


def block_range(total: int, size: int, block: int | str) -> tuple[int, int]:
    """The replicate range of block ``block`` (a wildcard string in the rules)."""
    ranges = blocks(total, size)
    index = int(block)
    if not 0 <= index < len(ranges):
        raise ValueError(f"block {block} is outside {total} replicates in blocks of {size}")
    return ranges[index]


def reps_argument(total: int, size: int) -> Callable[[Any], str]:
    """The ``--first/--stop`` arguments of a job's replicate block: a params function of the
    rule's ``block`` wildcard."""
    return lambda wildcards: "--first {} --stop {}".format(
        *block_range(total, size, wildcards.block)
    )


def _hidden(section: dict[str, Any]) -> dict[str, Any]:
    return {"prior": section["prior"], "step_size": section["step_size"]}


def table1_config(section: dict[str, Any]) -> dict[str, Any]:
    t = section["table1"]
    return {**_hidden(section),
            "table1": {k: t[k] for k in ("n", "iterations", "burn", "inits", "eps")}}  # fmt: skip


def table1_bayes_config(section: dict[str, Any]) -> dict[str, Any]:
    t = section["table1"]
    return {"table1": {"n": t["n"], "logit_bayes": t["logit_bayes"]["settings"]}}


def table3_config(section: dict[str, Any], k1: int | str) -> dict[str, Any]:
    t = section["table3"]
    return {**_hidden(section), "table3": {"n": t["n"], "iterations": t["iterations"],
            "burn": t["burn"], "eps": t["eps"][str(k1)]}}  # fmt: skip


def tables78_config(section: dict[str, Any], truth: str) -> dict[str, Any]:
    t = section["tables78"]
    return {**_hidden(section), "tables78": {"iterations": t["iterations"], "burn": t["burn"],
            "init": t["init"], "eps": t["eps"][truth]}}  # fmt: skip


def alarm_config(section: dict[str, Any]) -> dict[str, Any]:
    a = section["alarm"]
    return {
        **_hidden(section),
        "alarm": {k: a[k] for k in ("n", "iterations", "burn", "init", "eps")},
    }


def alarm_structure_config(section: dict[str, Any]) -> dict[str, Any]:
    a = section["alarm"]
    return {**_hidden(section), "alarm": {"n": a["n"], "eps": {k: a["eps"][k] for k in ("HIST", "LVV", "STKV")}},
            "alarm_structure": {k: section["alarm_structure"][k] for k in ("iterations", "burn")}}  # fmt: skip


def _units_config(section: dict[str, Any], name: str, units: str) -> dict[str, Any]:
    """The config of a real-data experiment's one job: its settings and the step sizes of the
    units it runs (its ``units`` are the command's arguments)."""
    part = section[name]
    settings = {k: v for k, v in part.items() if k not in ("enabled", "eps", units)}
    return {**_hidden(section), name: {**settings, "eps": {u: part["eps"][u] for u in part[units]}}}


def lucas_config(section: dict[str, Any]) -> dict[str, Any]:
    return _units_config(section, "lucas", "targets")


def metabric_config(section: dict[str, Any]) -> dict[str, Any]:
    return _units_config(section, "metabric", "outcomes")


def subsamples(section: dict[str, Any]) -> str:
    """ALARM's subsample indices as the command's arguments: ``0 1 … subsamples-1``."""
    return " ".join(str(i) for i in range(section["alarm"]["subsamples"]))


def checks_config(section: dict[str, Any]) -> dict[str, Any]:
    c = section["checks"]
    keys = ("chains", "iterations", "burn", "eps", "cases", "invariance_draws", "invariance_sweeps")
    return {"checks": {k: c[k] for k in keys}}


def _block_paths(template: str, total: int, size: int, **settings: Any) -> list[str]:
    return paths(template, **settings, block=range(len(blocks(total, size))))


def check_section(section: dict[str, Any]) -> None:
    """What the schema cannot say: every k1 of Table 3, LUCAS target and METABRIC outcome run
    has its step sizes."""
    missing = [k for k in section["table3"]["k1"] if str(k) not in section["table3"]["eps"]]
    if missing:
        raise ValueError(f"config dombowsky2025.table3.eps has no step sizes for k1 = {missing}")
    for name, key in (("lucas", "targets"), ("metabric", "outcomes")):
        missing = [v for v in section[name][key] if v not in section[name]["eps"]]
        if missing:
            raise ValueError(
                f"config dombowsky2025.{name}.eps has no step sizes for {key} {missing}"
            )


def claims_inputs(section: dict[str, Any]) -> dict[str, Any]:
    """Every experiment table the claims read, per enabled experiment."""
    check_section(section)
    t1, t3, t78 = section["table1"], section["table3"], section["tables78"]
    results: list[str] = []
    traced: list[str] = []  # results of jobs that also write a trace
    if t1["enabled"]:
        traced += _block_paths(RESULTS + "/table1/K{K}_b{block}.parquet", t1["datasets"],
                               t1["block"], K=t1["K"])  # fmt: skip
        if t1["logit_bayes"]["enabled"]:
            results += _block_paths(RESULTS + "/table1_bayes/K{K}_b{block}.parquet",
                                    t1["logit_bayes"]["datasets"], t1["block"], K=t1["K"])  # fmt: skip
    if t3["enabled"]:
        traced += _block_paths(RESULTS + "/table3/k1_{k1}_b{block}.parquet", t3["reps"],
                               t3["block"], k1=t3["k1"])  # fmt: skip
    if t78["enabled"]:
        traced += _block_paths(RESULTS + "/tables78/{truth}_n{n}_b{block}.parquet",
                               t78["datasets"], t78["block"], truth=t78["truths"], n=t78["n"])  # fmt: skip
    for experiment in ("alarm", "alarm_structure", "lucas"):
        if section[experiment]["enabled"]:
            traced.append(f"{RESULTS}/{experiment}.parquet")
    if section["metabric"]["enabled"]:
        traced.append(f"{RESULTS}/metabric_{section['metabric']['mode']}.parquet")
    traces = [p.replace(".parquet", "_trace.parquet") for p in traced]
    checks = [f"{RESULTS}/checks.parquet"] if section["checks"]["enabled"] else []
    return {"results": traced + results, "traces": traces, "checks": checks}


def job_outputs(section: dict[str, Any]) -> list[str]:
    """The first output of every experiment job (a trace is a job's second output)."""
    inputs = claims_inputs(section)
    return flat_paths({k: v for k, v in inputs.items() if k != "traces"})


def report_inputs(section: dict[str, Any]) -> dict[str, Any]:
    """What the report notebook reads besides claims.json: the claims step's summaries."""
    inputs = {name: f"{RESULTS}/{name}.parquet" for name in SUMMARIES}
    if section["alarm"]["enabled"]:
        inputs["alarm_check"] = f"{RESULTS}/alarm_check.json"
    if section["lucas"]["enabled"]:
        inputs["lucas_check"] = f"{RESULTS}/lucas_check.json"
    if section["metabric"]["enabled"]:
        inputs["metabric_check"] = f"{RESULTS}/metabric_{section['metabric']['mode']}_check.json"
    return inputs


def run_scale(section: dict[str, Any]) -> dict[str, float]:
    """The run's value of every dimension of the paper's scale (``paper.SCALE``); an
    experiment that is not enabled made none of it (0)."""

    def enabled(part: dict[str, Any], value: Any) -> float:
        return float(value) if part.get("enabled", True) else 0.0

    t1, bayes = section["table1"], section["table1"]["logit_bayes"]
    return {
        "lucas_iterations": enabled(section["lucas"], section["lucas"]["iterations"]),
        "metabric_iterations": enabled(section["metabric"], section["metabric"]["iterations"]),
        "alarm_iterations": enabled(section["alarm"], section["alarm"]["iterations"]),
        "table1_datasets": enabled(t1, t1["datasets"]),
        "logit_bayes_datasets": enabled(t1, enabled(bayes, bayes["datasets"])),
        "table3_reps": enabled(section["table3"], section["table3"]["reps"]),
        "tables78_datasets": enabled(section["tables78"], section["tables78"]["datasets"]),
    }
