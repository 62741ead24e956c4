"""petitjean2018 in the tiny end-to-end run (CV in cell mode: one job per cell)."""

from __future__ import annotations

import copy
import json
import re

import pandas as pd
import pytest

from tests.e2e.harness import REPORTING, TinyRun, planned

pytestmark = pytest.mark.e2e


def test_petitjean2018_report_claims_and_cells(tiny_run: TinyRun) -> None:
    results = tiny_run.results / "petitjean2018"
    assert (results / "report.html").read_text().count("data:image/png") >= 5
    claims = {c["id"]: c for c in json.loads((results / "claims.json").read_text())["claims"]}
    assert len(claims) == 13 and all(c["statement"]["text"] for c in claims.values())
    # the tiny run has NB and SkDB only and times iris: Table 2 and §6.6 need more
    assert claims["H2"]["status"] == "not covered" and "kdb5" in claims["H2"]["note"]
    assert claims["H13"]["status"] == "not covered" and "adult" in claims["H13"]["note"]
    # SkDB and RF ran, but on 2 data sets: Table 3's claim needs every registry data set
    assert claims["H8"]["status"] == "not covered"
    assert "2 of the registry's" in claims["H8"]["note"] and "shuttle" in claims["H8"]["note"]
    cells = list((results / "cv" / "iris").rglob("*.parquet"))
    # 2 folds x: (nb, skdb) x {m, hdp}, nb single-20/50, level-20, and the two forests
    assert len(cells) == 2 * 9
    methods = set(pd.read_parquet(results / "cv.parquet").method)
    assert methods >= {"nb-hdp-single-20", "rf", "rf-sklearn"}
    for forest in ("rf", "rf-sklearn"):
        rf = pd.read_parquet(results / "cv" / "iris" / "r0f0" / f"{forest}.parquet")
        assert json.loads(rf["config"].iloc[0]) == {"cv": {"random_forest": {"trees": 10}}}
    table3 = pd.read_parquet(results / "table3.parquet")
    assert {"ours", "ours_rf_sklearn"} <= set(table3.columns)


def test_forest_size_reruns_only_the_random_forest_cells(tiny_run: TinyRun) -> None:
    config = copy.deepcopy(tiny_run.config)
    config["petitjean2018"]["cv"]["random_forest"]["trees"] += 1
    jobs = planned(tiny_run.work, config)
    assert set(jobs) == {"pj_cv_cell", "pj_claims"} | REPORTING
    cells = jobs["pj_cv_cell"]
    assert cells and all(c.endswith(("/rf.parquet", "/rf-sklearn.parquet")) for c in cells)
    datasets = len(config["petitjean2018"]["datasets"])
    assert len(cells) == datasets * config["petitjean2018"]["cv"]["rounds"] * 2 * 2


def test_round_jobs_are_planned_one_per_data_set_and_round(tiny_run: TinyRun) -> None:
    config = copy.deepcopy(tiny_run.config)
    config["petitjean2018"]["cv"]["jobs"] = "round"
    jobs = planned(tiny_run.work, config)
    datasets = config["petitjean2018"]["datasets"]
    assert sorted(jobs["pj_cv_round"]) == sorted(
        f"results/petitjean2018/cv/{d}/r{r}.parquet"
        for d in datasets
        for r in range(config["petitjean2018"]["cv"]["rounds"])
    )
    assert "pj_cv_cell" not in jobs


def test_an_iteration_study_value_reruns_only_iteration_study_cells(tiny_run: TinyRun) -> None:
    config = copy.deepcopy(tiny_run.config)
    config["petitjean2018"]["cv"]["iteration_study"]["iterations"] = [30]
    jobs = planned(tiny_run.work, config)
    assert set(jobs) == {"pj_cv_cell", "pj_claims"} | REPORTING
    assert all(re.search(r"-hdp-(single|level)-30\.parquet$", c) for c in jobs["pj_cv_cell"])


def test_enabled_splice_run_is_planned_as_a_claims_input(tiny_run: TinyRun) -> None:
    config = copy.deepcopy(tiny_run.config)
    splice = config["petitjean2018"]["splice"]
    for part in ("train", "test"):
        (tiny_run.work / f"{part}.seq").write_text("ACGT\nTTGA\n")
        (tiny_run.work / f"{part}.lab").write_text("1\n-1\n")
        splice.update({f"{part}_sequences": f"{part}.seq", f"{part}_labels": f"{part}.lab"})
    splice["enabled"] = True
    jobs = planned(tiny_run.work, config)
    assert jobs["pj_splice"] == ["results/petitjean2018/splice.parquet"]
    assert "pj_claims" in jobs and "pj_cv_cell" not in jobs
