"""petitjean2018 in the tiny end-to-end run (CV in cell mode: one job per cell)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from tests.e2e.harness import TinyRun

pytestmark = pytest.mark.e2e


def test_petitjean2018_report_claims_and_cells(tiny_run: TinyRun) -> None:
    results = tiny_run.results / "petitjean2018"
    assert (results / "report.html").read_text().count("data:image/png") >= 5
    claims = {c["id"]: c for c in json.loads((results / "claims.json").read_text())["claims"]}
    assert len(claims) == 13 and claims["H13"]["status"] != "not covered"
    cells = list((results / "cv" / "iris").rglob("*.parquet"))
    assert len(cells) == 2 * 8  # 2 folds x: (nb, skdb) x {m, hdp}, nb single-20/50, level-20, rf
    assert set(pd.read_parquet(results / "cv.parquet").method) >= {"nb-hdp-single-20", "rf"}
    rf = pd.read_parquet(results / "cv" / "iris" / "r0f0" / "rf.parquet")
    assert json.loads(rf["config"].iloc[0]) == {"cv": {"random_forest": {"trees": 10}}}
