"""becker2018 in the tiny end-to-end run."""

from __future__ import annotations

import copy
import json

import pandas as pd
import pytest

from tests.e2e.harness import REPORTING, TinyRun, planned

pytestmark = pytest.mark.e2e


def test_becker2018_report_claims_and_tables(tiny_run: TinyRun) -> None:
    results = tiny_run.results / "becker2018"
    html = (results / "report.html").read_text()
    assert html.count("data:image/png") >= 2 and "Table 4" in html
    claims = {c["id"]: c for c in json.loads((results / "claims.json").read_text())["claims"]}
    assert list(claims) == [f"C{i}" for i in range(1, 13)]
    for cid in ("C1", "C2", "C3", "C4", "C10", "C12"):  # exact at any scale
        assert claims[cid]["status"] == "pass", (cid, claims[cid]["ours_text"])
    assert claims["C7"]["status"] == "not covered"  # no 6000-sweep timing at tiny scale
    table4 = pd.read_parquet(results / "table4.parquet").set_index("method")
    assert set(table4.index) >= {"ols", "lasso", "vb-faithful", "lme", "ridge", "ridge-noclass"}
    assert (table4["folds"] == 3).all()
    posterior = pd.read_parquet(results / "posterior.parquet")
    assert set(posterior.method) == {"gibbs", "nuts"} and posterior["rhat"].notna().any()


def test_a_gibbs_setting_reruns_only_the_gibbs_chains(tiny_run: TinyRun) -> None:
    config = copy.deepcopy(tiny_run.config)
    config["becker2018"]["gibbs"]["draws"] += 10
    jobs = planned(tiny_run.work, config)
    assert set(jobs) == {"bk_gibbs", "bk_claims"} | REPORTING
    assert len(jobs["bk_gibbs"]) == 2 * config["becker2018"]["gibbs"]["chains"]
