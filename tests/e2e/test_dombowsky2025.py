"""dombowsky2025 in the tiny end-to-end run."""

from __future__ import annotations

import copy
import json

import pandas as pd
import pytest

from tests.e2e.harness import REPORTING, TinyRun, planned

pytestmark = pytest.mark.e2e


def test_dombowsky2025_report_claims_and_tables(tiny_run: TinyRun) -> None:
    results = tiny_run.results / "dombowsky2025"
    html = (results / "report.html").read_text()
    assert html.count("data:image/png") >= 2 and "Figure 10" in html and "Table 8" in html
    claims = {c["id"]: c for c in json.loads((results / "claims.json").read_text())["claims"]}
    assert list(claims) == [f"C{i}" for i in range(1, 11)]
    assert claims["C2"]["status"] == "pass", claims["C2"]["ours_text"]  # exact at any scale
    # two of six LUCAS targets, two of four k1, two of >= 20 ALARM subsamples, cBioPortal data
    for cid in ("C4", "C5", "C7", "C9"):
        assert claims[cid]["status"] == "not covered", claims[cid]["note"]
    table2 = pd.read_parquet(results / "table2.parquet")
    assert set(table2.node) == {"Allergy", "Lung_cancer"}
    bug = table2[(table2.node == "Lung_cancer") & (table2.method == "Group lasso ([code])")]
    assert bug.hamming.tolist() == [4.0]  # A9 (i): Allergy as the response selects Allergy alone
    parents = pd.read_parquet(results / "metabric_parents.parquet")
    assert set(parents.node) == {"TBS", "DFC"} and "Group lasso ([code])" not in parents
    assert len(parents[parents.node == "DFC"]) == 11  # nine covariates, TBS and CHT
    table1 = pd.read_parquet(results / "table1.parquet")
    methods = {"HiDDeN", "HiDDeN, t(0) = 1", "Logit MLE", "Logit GAM", "Logit Bayes", "MLE", "DM"}
    assert set(table1.method) == methods
    assert (table1[table1.method == "HiDDeN"].datasets == 4).all()  # two blocks of two
    assert (table1[table1.method == "Logit Bayes"].datasets == 2).all()
    figure10 = pd.read_parquet(results / "alarm_predictive.parquet")
    sums = figure10.groupby(["node", "parents"]).predictive.sum()
    assert len(sums) == 2 + 4 + 4 + 3 + 3 and sums.sub(1).abs().max() < 1e-9
    assert (figure10.subsamples == 2).all()


def test_a_step_size_reruns_only_its_setting(tiny_run: TinyRun) -> None:
    config = copy.deepcopy(tiny_run.config)
    config["dombowsky2025"]["tables78"]["eps"]["G2"] = [0.12, 0.12]
    jobs = planned(tiny_run.work, config)
    assert set(jobs) == {"dd_tables78", "dd_claims"} | REPORTING
    assert sorted(jobs["dd_tables78"]) == [
        "results/dombowsky2025/tables78/G2_n50_b0.parquet",
        "results/dombowsky2025/tables78/G2_n50_b0_trace.parquet",
    ]


def test_more_data_sets_add_blocks_without_rerunning_the_old_ones(tiny_run: TinyRun) -> None:
    config = copy.deepcopy(tiny_run.config)
    config["dombowsky2025"]["table1"]["datasets"] = 6
    jobs = planned(tiny_run.work, config)
    assert set(jobs) == {"dd_table1", "dd_claims"} | REPORTING
    first_outputs = sorted(p for p in jobs["dd_table1"] if not p.endswith("_trace.parquet"))
    assert first_outputs == [
        "results/dombowsky2025/table1/K10_b2.parquet",
        "results/dombowsky2025/table1/K2_b2.parquet",
    ]
