"""beal2006 in the tiny end-to-end run."""

from __future__ import annotations

import json

import pytest

from tests.e2e.harness import TinyRun

pytestmark = pytest.mark.e2e


def test_beal2006_report_and_claims(tiny_run: TinyRun) -> None:
    results = tiny_run.results / "beal2006"
    assert (results / "report.html").read_text().count("data:image/png") >= 5
    claims = json.loads((results / "claims.json").read_text())["claims"]
    assert [c["id"] for c in claims] == [f"H{i}" for i in range(1, 13)]
    assert {c["id"]: c for c in claims}["H5"]["ours"]["vb_from_cs_violations"] == 0
