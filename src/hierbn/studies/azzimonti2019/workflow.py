"""The tables each azzimonti2019 step reads, from the config (used by its rule file)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hierbn.data.registry import load_registry, study_datasets
from hierbn.workflow import paths

RESULTS = "results/azzimonti2019"
STAN_MARKER = "resources/stan/hier_md.json"
REGISTRY = Path(__file__).resolve().parents[4] / "config" / "datasets.tsv"


def needs_stan(section: dict[str, Any]) -> bool:
    """E1 runs a Stan method (NUTS or ADVI), so it needs the compiled model."""
    return bool({"nuts", "advi"} & set(section["e1"]["methods"]))


def e4_needs_stan(section: dict[str, Any]) -> bool:
    """E4 times a Stan method on Adult's CPTs."""
    e4 = section["e4"]
    return e4["enabled"] and bool({"nuts", "advi"} & set(e4["methods"]))


def e5_jobs(section: dict[str, Any]) -> list[str]:
    """One E5 table per (scenario (n, K), heterogeneity c, repetition), when E5 is enabled."""
    e5 = section["e5"]
    if not e5["enabled"]:
        return []
    too_many = [k for _, k in e5["scenarios"] if k > e5["users"]]
    if too_many:
        raise ValueError(
            f"azzimonti2019.e5.scenarios: K = {too_many} exceeds e5.users = {e5['users']}"
        )
    return [
        f"{RESULTS}/e5/n{n}_k{k}_c{c:g}_rep{rep}.parquet"
        for n, k in e5["scenarios"]
        for c in e5["c"]
        for rep in range(e5["reps"])
    ]


def claims_inputs(section: dict[str, Any], e2_datasets: list[str]) -> dict[str, Any]:
    """The experiment tables the claims (and the report) read."""
    return {
        "e1": paths(
            RESULTS + "/e1/x{n_x}_y{n_y}.parquet",
            n_x=section["e1"]["n_x"],
            n_y=section["e1"]["n_y"],
        ),
        "lemma1": f"{RESULTS}/lemma1.parquet",
        "e2": paths(RESULTS + "/e2/{dataset}.parquet", dataset=e2_datasets),
        "e3": [f"{RESULTS}/e3/adult.parquet"] if section["e3"]["enabled"] else [],
        "e4": [f"{RESULTS}/e4/adult.parquet"] if section["e4"]["enabled"] else [],
        "e5": e5_jobs(section),
    }


def report_inputs(section: dict[str, Any], e2_datasets: list[str]) -> dict[str, Any]:
    """What the report notebook reads besides claims.json."""
    return {
        **claims_inputs(section, e2_datasets),
        "data_report": f"{RESULTS}/data_report.tsv",
        "e2_summary": f"{RESULTS}/e2_summary.parquet",
        "e5_summary": f"{RESULTS}/e5_summary.parquet",
    }


def data_report_datasets(section: dict[str, Any], e2_datasets: list[str]) -> list[str]:
    """The data sets of the data report: E2's and, with E3 or E4, Adult."""
    adult = section["e3"]["enabled"] or section["e4"]["enabled"]
    return sorted(set(e2_datasets) | ({"adult"} if adult else set()))


def run_scale(
    section: dict[str, Any], e2_datasets: Sequence[str] | None = None
) -> dict[str, float]:
    """What the run makes of every dimension of the paper's scale (``paper.SCALE``): grids by
    their largest value, data sets and users by count, 0 for an experiment not run.
    ``e2_datasets`` are E2's resolved data sets (default: the config's list, or for "all" the
    registry's azzimonti2019 data sets in ``config/datasets.tsv``)."""
    e1, e2, e3, e4, e5 = (section[k] for k in ("e1", "e2", "e3", "e4", "e5"))
    if e2_datasets is None:
        e2_datasets = (
            [e.id for e in study_datasets(load_registry(REGISTRY), "azzimonti2019")]
            if e2["datasets"] == "all"
            else e2["datasets"]
        )
    rf = e4["rf_check"] if e4["enabled"] else None
    return {
        "e1_reps": e1["reps"],
        "e1_x_max": max(e1["n_x"]),
        "e1_y_max": max(e1["n_y"]),
        "e1_n_max": max(e1["n"]),
        "e2_datasets": len(e2_datasets),
        "e2_reps": e2["reps"],
        "e2_n_max": max(e2["n"]),
        "e3_reps": e3["reps"] if e3["enabled"] else 0,
        "e3_n_max": max(e3["n"]) if e3["enabled"] else 0,
        "adult_rf_n": rf["n"] if rf else 0,
        "e5_users": e5["users"] if e5["enabled"] else 0,
        "e5_reps": e5["reps"] if e5["enabled"] else 0,
        "e5_n_max": max(n for n, _ in e5["scenarios"]) if e5["enabled"] else 0,
    }
