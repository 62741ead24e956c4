"""The panel's data sets, jobs and the config values each job reads (used by its rule file)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hierbn.studies.panel.protocol import cell_config, cv_cells
from hierbn.workflow import as_json, cv_job_tables, paths

RESULTS = "results/panel"
ANALYSIS = ("ranks", "friedman", "nemenyi", "wdl")


def dataset_entries(section: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """id -> entry of every registry and user data set; ids must be unique across both."""
    entries: dict[str, dict[str, Any]] = {}
    for key in ("registry", "datasets"):
        for entry in section[key]:
            if entry["id"] in entries:
                raise ValueError(f"config panel.{key}: data set id {entry['id']!r} is used twice")
            entries[entry["id"]] = entry
    if not entries:
        raise ValueError("config panel: no data sets (panel.registry and panel.datasets are empty)")
    curve = [d for d in section["learning_curve"]["datasets"] if d not in entries]
    if curve:
        raise ValueError(f"config panel.learning_curve.datasets: {curve} are not panel data sets")
    return entries


def source_parts(entry: dict[str, Any]) -> tuple[str, str]:
    """(study, id) of a registry entry's ``source``."""
    study, _, dataset = entry["source"].partition("/")
    return study, dataset


def prepare_input(entry: dict[str, Any]) -> str:
    """The file a prepare job reads: the registry's canonical parquet or the user's file."""
    if "source" in entry:
        study, dataset = source_parts(entry)
        return f"resources/datasets/{study}/{dataset}.parquet"
    return entry["path"]


def prepare_params(entry: dict[str, Any]) -> str:
    """What a prepare job reads of its entry (not the id, which is the job's wildcard)."""
    return as_json({k: v for k, v in entry.items() if k != "id"})


def run_scale(section: dict[str, Any]) -> dict[str, float]:
    """The run's value of every dimension of the panel's paper scale (``paper.SCALE``): the
    HDP and HiDDeN chain lengths and the CV rounds of the ``panel`` config section."""
    settings = section["settings"]
    return {
        "hdp_iterations": float(settings["hdp"]["iterations"]),
        "hidden_iterations": float(settings["hidden"]["iterations"]),
        "cv_rounds": float(section["cv"]["rounds"]),
    }


def analysis_config(section: dict[str, Any]) -> dict[str, Any]:
    """The estimators and structures the claims and tables compare."""
    return {k: section[k] for k in ("structures", "estimators", "learning_curve")}


def cv_config(section: dict[str, Any]) -> dict[str, Any]:
    """What a per-data-set or per-round CV job reads: structures, estimators, their settings,
    rounds."""
    return {
        "structures": section["structures"],
        "estimators": section["estimators"],
        "settings": section["settings"],
        "cv": {"rounds": section["cv"]["rounds"]},
    }


def curve_config(section: dict[str, Any]) -> dict[str, Any]:
    """What a learning-curve job reads."""
    curve = section["learning_curve"]
    return {
        "estimators": section["estimators"],
        "settings": section["settings"],
        "learning_curve": {k: curve[k] for k in ("sizes", "structures")},
    }


@dataclass(frozen=True)
class CellParams:
    """Params of a cell job: only the settings of its estimator."""

    section: dict[str, Any]

    def __call__(self, wildcards: Any) -> str:
        return as_json(cell_config(self.section, wildcards.estimator))


def cv_tables(section: dict[str, Any], datasets: list[str], rows: dict[str, int]) -> list[str]:
    """CV tables: per data set or per (data set, round) (:func:`cv_job_tables`; ``rows`` the
    registry's paper_rows of the registry data sets), or per (data set, round, fold, structure,
    estimator) under ``cv.jobs: cell``."""
    if section["cv"]["jobs"] != "cell":
        return cv_job_tables(RESULTS, section["cv"], datasets, rows)
    return [
        f"{RESULTS}/cv/{d}/r{r}f{f}/{s}/{e}.parquet"
        for d in datasets
        for r, f, s, e in cv_cells(cv_config(section))
    ]


def claims_inputs(
    section: dict[str, Any], datasets: list[str], rows: dict[str, int]
) -> dict[str, Any]:
    curve = section["learning_curve"]
    return {
        "cv": cv_tables(section, datasets, rows),
        "learning_curve": paths(
            RESULTS + "/learning_curve/{dataset}/run{run}.parquet",
            dataset=curve["datasets"],
            run=range(curve["runs"]),
        ),
    }


def report_inputs() -> dict[str, Any]:
    """What the notebook reads besides claims.json: the claims step's tables, the data report."""
    return {
        **{name: f"{RESULTS}/{name}.parquet" for name in ("cv", "learning_curve", *ANALYSIS)},
        "data_report": f"{RESULTS}/data_sets.tsv",
    }
