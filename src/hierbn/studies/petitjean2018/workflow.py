"""The tables each petitjean2018 step reads and the config values each job reads (used by
its rule file)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hierbn.studies.petitjean2018.protocol import cell_config, cv_methods
from hierbn.workflow import as_json, cv_job_tables, paths

RESULTS = "results/petitjean2018"
MERGED = ("table2", "table3", "iterations", "prior", "cv", "learning_curve", "timing")


def cv_config(section: dict[str, Any]) -> dict[str, Any]:
    """What a per-data-set or per-round CV job reads: the CV section but for how it is split
    into jobs."""
    return {k: v for k, v in section["cv"].items() if k not in ("jobs", "round_min_rows")}


def claims_config(section: dict[str, Any], registry: list[str]) -> dict[str, Any]:
    """What the claims step reads: the main HDP setting, the iteration x tying grid and the
    registry's petitjean2018 data sets (``registry``: the claims over the paper's data sets
    are not covered unless the CV ran every one of them)."""
    cv = section["cv"]
    return {
        "cv": {
            "hdp": {k: cv["hdp"][k] for k in ("tying", "iterations")},
            "iteration_study": cv.get("iteration_study"),
        },
        "registry": list(registry),
    }


def splice_config(section: dict[str, Any]) -> dict[str, Any]:
    """What the Splice job reads (everything but the switch)."""
    return {k: v for k, v in section["splice"].items() if k != "enabled"}


def splice_files(section: dict[str, Any], wildcards: Any = None) -> list[str]:
    """The four Splice files (an input function: they are only set when Splice is enabled)."""
    splice = section["splice"]
    return [
        splice[f"{part}_{kind}"] for part in ("train", "test") for kind in ("sequences", "labels")
    ]


def cv_tables(section: dict[str, Any], datasets: list[str], rows: dict[str, int]) -> list[str]:
    """CV result tables: per data set or per (data set, round) (:func:`cv_job_tables`; ``rows``
    the registry's paper_rows), or per (data set, round, fold, method) cell under ``cv.jobs:
    cell`` (a changed setting reruns only the cells that read it)."""
    cv = section["cv"]
    if cv["jobs"] != "cell":
        return cv_job_tables(RESULTS, cv, datasets, rows)
    return paths(
        RESULTS + "/cv/{dataset}/r{round}f{fold}/{method}.parquet",
        dataset=datasets,
        round=range(cv["rounds"]),
        fold=(0, 1),
        method=cv_methods(cv),
    )


@dataclass(frozen=True)
class CellParams:
    """Params of a CV cell job: only the values its method reads, so changing the forest size
    reruns the RF cells only and a new iteration count only its own cells."""

    cv: dict[str, Any]

    def __call__(self, wildcards: Any) -> str:
        return as_json(cell_config(self.cv, wildcards.method))


def claims_inputs(
    section: dict[str, Any],
    datasets: list[str],
    curve_datasets: list[str],
    timing_datasets: list[str],
    rows: dict[str, int],
) -> dict[str, Any]:
    """The experiment tables the claims read (the optional Splice run only when enabled);
    ``rows``: the registry's paper_rows of the CV data sets (how their CV is split into jobs)."""
    return {
        "cv": cv_tables(section, datasets, rows),
        "table1": f"{RESULTS}/table1.parquet",
        "learning_curve": paths(
            RESULTS + "/learning_curve/{dataset}/run{run}.parquet",
            dataset=curve_datasets,
            run=range(section["learning_curve"]["runs"]),
        ),
        "timing": paths(RESULTS + "/timing/{dataset}.parquet", dataset=timing_datasets),
        "splice": [f"{RESULTS}/splice.parquet"] if section["splice"]["enabled"] else [],
    }


def report_inputs(section: dict[str, Any]) -> dict[str, Any]:
    """What the report notebook reads besides claims.json: the claims step's merged tables."""
    return {
        **{name: f"{RESULTS}/{name}.parquet" for name in MERGED},
        "table1": f"{RESULTS}/table1.parquet",
        "splice": [f"{RESULTS}/splice.parquet"] if section["splice"]["enabled"] else [],
        "data_report": f"{RESULTS}/data_report.tsv",
    }


def run_scale(section: dict[str, Any], datasets: list[str] | None = None) -> dict[str, float]:
    """The run's value of every dimension of the paper's scale (``paper.SCALE``): ``datasets``
    are the CV's data-set ids (the section's list unless given: ``all`` needs them); the
    Splice dimensions are 0 when Splice is not enabled."""
    if datasets is None:
        if section["datasets"] == "all":
            raise ValueError("petitjean2018 run_scale: datasets 'all' needs the registry's ids")
        datasets = list(section["datasets"])
    cv, curves, splice = section["cv"], section["learning_curve"], section["splice"]
    enabled = bool(splice["enabled"])
    return {
        "hdp_iterations": cv["hdp"]["iterations"],
        "datasets": len(datasets),
        "cv_rounds": cv["rounds"],
        "rf_trees": cv["random_forest"]["trees"],
        "curve_iterations": curves["hdp"]["iterations"],
        "curve_runs": curves["runs"],
        "timing_iterations": max(section["timing"]["iterations"]),
        "splice_rows": splice["train_rows"] if enabled else 0,
        "splice_iterations": splice["iterations"] if enabled else 0,
    }
