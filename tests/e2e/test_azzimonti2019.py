"""azzimonti2019 in the tiny end-to-end run."""

from __future__ import annotations

import copy
import json

import pandas as pd
import pytest

from tests.e2e.harness import REPORTING, TinyRun, planned

pytestmark = pytest.mark.e2e


def test_azzimonti2019_report_claims_and_tables(tiny_run: TinyRun) -> None:
    results = tiny_run.results / "azzimonti2019"
    assert (results / "report.html").read_text().count("data:image/png") >= 9
    for name in (
        "figure3",
        "figure4",
        "figure7",
        "figure8",
        "figure9",
        "e4_timing",
        "figure12",
        "figure13",
        "figure14",
    ):
        assert (results / "figures" / f"{name}.png").stat().st_size > 1000
        assert (results / "figures" / f"{name}.pdf").is_file()
    claims = json.loads((results / "claims.json").read_text())["claims"]
    assert [c["id"] for c in claims] == [f"H{i}" for i in range(1, 22)]
    assert all(c["statement"]["paper"] == "azzimonti2019" for c in claims)
    by_id = {c["id"]: c for c in claims}
    assert all(by_id[c]["status"] != "not covered" for c in ("H1", "H14", "H15"))
    assert by_id["H21"]["status"] == "reported, not judged"
    for cid in ("H2", "H6", "H16", "H18", "H19"):  # the paper's grids, scenarios, n did not run
        assert by_id[cid]["status"] == "not covered", cid
        assert by_id[cid]["note"].startswith("not covered at this scale: needs"), cid
    e2 = pd.read_parquet(results / "e2" / "iris.parquet")
    assert set(e2.method) == {"bdeu1", "bdeu10", "hier"} and (e2.seed.notna()).all()
    report = pd.read_csv(results / "data_report.tsv", sep="\t")
    assert set(report["id"]) == {"adult", "contact-lenses", "iris"}
    prepared = tiny_run.work / "resources" / "azzimonti2019" / "prepared"
    assert (prepared / "iris.parquet").is_file() and not (results / "prepared").exists()


def test_an_e2_value_reruns_only_e2_jobs(tiny_run: TinyRun) -> None:
    config = copy.deepcopy(tiny_run.config)
    config["azzimonti2019"]["e2"]["test_size"] += 1
    jobs = planned(tiny_run.work, config)
    assert set(jobs) == {"azz_e2_dataset", "azz_claims"} | REPORTING
    assert len(jobs["azz_e2_dataset"]) == len(config["azzimonti2019"]["e2"]["datasets"])


def test_an_e5_value_reruns_only_e5_jobs_and_more_reps_add_jobs(tiny_run: TinyRun) -> None:
    config = copy.deepcopy(tiny_run.config)
    config["azzimonti2019"]["e5"]["n_test"] += 1
    jobs = planned(tiny_run.work, config)
    assert set(jobs) == {"azz_e5_job", "azz_claims"} | REPORTING
    config = copy.deepcopy(tiny_run.config)
    config["azzimonti2019"]["e5"]["reps"] += 1
    assert len(planned(tiny_run.work, config)["azz_e5_job"]) == 1
