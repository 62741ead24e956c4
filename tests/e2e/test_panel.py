"""The estimator panel in the tiny end-to-end run, with a user's own CSV (written by
tests/e2e/tiny/panel.py: the class in the middle, a missing value in a numeric and in a
nominal column)."""

from __future__ import annotations

import copy
import hashlib
import json

import pandas as pd
import pytest

from tests.e2e.harness import REPORTING, TinyRun, comparable_table, planned, snakemake

USER_CSV = "user/mine.csv"  # written by tests/e2e/tiny/panel.py

pytestmark = pytest.mark.e2e


def test_panel_runs_the_users_csv_through_the_whole_protocol(tiny_run: TinyRun) -> None:
    results = tiny_run.results / "panel"
    prepared = pd.read_parquet(tiny_run.work / "resources" / "panel" / "mine.parquet")
    assert list(prepared.columns) == ["size", "colour", "label"]  # the class moved last
    assert prepared["size"].isna().sum() == 1 and (prepared["colour"].cat.codes == -1).sum() == 1
    report = pd.read_csv(results / "data_sets.tsv", sep="\t").set_index("data set")
    digest = hashlib.sha256((tiny_run.work / USER_CSV).read_bytes()).hexdigest()
    assert report.loc["mine", "sha256"] == digest and report.loc["mine", "missing cells"] == 2
    cv = pd.read_parquet(results / "cv.parquet")
    panel = tiny_run.config["panel"]
    mine = cv[cv.dataset == "mine"]
    splits = 2 * panel["cv"]["rounds"]
    models = len(panel["structures"]) * len(panel["estimators"])
    assert len(mine) == splits * models * 6  # 0-1, RMSE, log-loss, AUC, fit and predict seconds
    assert set(mine.estimator) == set(panel["estimators"]) and mine.value.notna().all()
    log_loss = mine[mine.metric == "log_loss"].value
    assert (log_loss > 0).all() and (log_loss < 5).all()


def test_panel_report_claims_and_tests(tiny_run: TinyRun) -> None:
    results = tiny_run.results / "panel"
    html = (results / "report.html").read_text()
    assert html.count("data:image/png") >= 3 and "mine" in html
    claims = json.loads((results / "claims.json").read_text())["claims"]
    assert [c["id"] for c in claims] == ["P1", "P2", "P3", "P4", "P5"]
    ranks = pd.read_parquet(results / "ranks.parquet")
    assert set(ranks.estimator) == set(tiny_run.config["panel"]["estimators"])
    assert not pd.read_parquet(results / "wdl.parquet").empty


def test_a_cell_job_gives_the_rows_of_the_data_set_job(tiny_run: TinyRun) -> None:
    cell = "results/panel/cv/mine/r0f1/tan/hidden.parquet"
    run = snakemake(tiny_run.work, "--configfile", "tiny.yaml", "--", cell)
    assert run.returncode == 0, run.stderr[-3000:]
    got = pd.read_parquet(tiny_run.work / cell).drop(columns="config")
    (tiny_run.work / cell).unlink()  # the shared run's results stay those of its config
    whole = pd.read_parquet(tiny_run.results / "panel" / "cv" / "mine.parquet")
    rows = whole[(whole.rep == 0) & (whole.fold == 1) & (whole.structure == "tan")]
    rows = rows[rows.estimator == "hidden"].drop(columns="config")
    pd.testing.assert_frame_equal(
        comparable_table(got), comparable_table(rows.reset_index(drop=True))
    )


def test_panel_config_changes_rerun_only_what_they_affect(tiny_run: TinyRun) -> None:
    config = copy.deepcopy(tiny_run.config)
    config["panel"]["datasets"][0]["target"] = "colour"
    jobs = planned(tiny_run.work, config)
    assert jobs["panel_prepare"] == [
        "resources/panel/mine.parquet",
        "resources/panel/mine.check.json",
    ]
    config = copy.deepcopy(tiny_run.config)
    config["panel"]["cv"]["jobs"] = "cell"
    config["panel"]["settings"]["hdp"]["iterations"] += 1
    jobs = planned(tiny_run.work, config)
    assert set(jobs) == {"panel_cv_cell", "panel_learning_curve", "panel_claims"} | REPORTING
    datasets = 1 + len(config["panel"]["registry"])
    structures, estimators = len(config["panel"]["structures"]), len(config["panel"]["estimators"])
    assert len(jobs["panel_cv_cell"]) == datasets * 2 * structures * estimators
    config["panel"]["cv"]["jobs"] = "round"
    jobs = planned(tiny_run.work, config)
    assert len(jobs["panel_cv_round"]) == datasets * config["panel"]["cv"]["rounds"]
    assert "panel_cv_cell" not in jobs and "panel_prepare" not in jobs
    config["panel"]["cv"]["jobs"] = "dataset"
    jobs = planned(tiny_run.work, config)
    assert jobs["panel_cv"] and "panel_prepare" not in jobs
