"""The tables each azzimonti2019 step reads, from the config (used by its rule file)."""

from __future__ import annotations

from typing import Any

from hierbn.workflow import paths

RESULTS = "results/azzimonti2019"
STAN_MARKER = "resources/stan/hier_md.json"


def needs_stan(section: dict[str, Any]) -> bool:
    """E1 runs a Stan method (NUTS or ADVI), so it needs the compiled model."""
    return bool({"nuts", "advi"} & set(section["e1"]["methods"]))


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
    }


def report_inputs(section: dict[str, Any], e2_datasets: list[str]) -> dict[str, Any]:
    """What the report notebook reads besides claims.json."""
    return {
        **claims_inputs(section, e2_datasets),
        "data_report": f"{RESULTS}/data_report.tsv",
        "e2_summary": f"{RESULTS}/e2_summary.parquet",
    }


def data_report_datasets(section: dict[str, Any], e2_datasets: list[str]) -> list[str]:
    """The data sets of the data report: E2's and, with E3, Adult."""
    return sorted(set(e2_datasets) | ({"adult"} if section["e3"]["enabled"] else set()))
