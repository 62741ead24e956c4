"""End-to-end: Snakemake on a tiny config in a scratch copy of the workflow."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]


def _workdir(tmp_path: Path, mirror: Path) -> Path:
    work = tmp_path / "run"
    work.mkdir()
    shutil.copy(REPO / "Snakefile", work / "Snakefile")
    for folder in ("workflow", "config", "notebooks", "envs"):
        shutil.copytree(REPO / folder, work / folder)
    shutil.copytree(REPO / "src" / "hierbn" / "stan", work / "src" / "hierbn" / "stan")
    tiny = (REPO / "tests" / "e2e" / "tiny.yaml").read_text()
    (work / "tiny.yaml").write_text(
        tiny + f"data:\n  registry: config/datasets.tsv\n  mirrors: ['{mirror}']\n"
    )
    return work


def _snakemake(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["snakemake", "--cores", "2", *args], cwd=cwd, capture_output=True, text=True, timeout=1500
    )


TINY = ("--configfile", "tiny.yaml")


def test_tiny_workflow_end_to_end(tmp_path: Path, mirror: Path) -> None:
    work = _workdir(tmp_path, mirror)
    run = _snakemake(work, *TINY)
    assert run.returncode == 0, run.stderr[-4000:]
    results = work / "results" / "azzimonti2019"
    html = (results / "report.html").read_text()
    assert "Headline claims" in html and html.count("data:image/png") >= 5
    for name in ("figure3", "figure4", "figure7", "figure8", "figure9"):
        assert (results / "figures" / f"{name}.png").stat().st_size > 1000
        assert (results / "figures" / f"{name}.pdf").is_file()
    claims = json.loads((results / "claims.json").read_text())["claims"]
    assert [c["id"] for c in claims] == [f"H{i}" for i in range(1, 19)]
    by_id = {c["id"]: c for c in claims}
    assert by_id["H6"]["status"] == "pass" and by_id["H14"]["status"] == "not covered"
    e2 = pd.read_parquet(results / "e2" / "iris.parquet")
    assert set(e2.method) == {"bdeu1", "bdeu10", "hier"} and (e2.seed.notna()).all()
    beal = work / "results" / "beal2006"
    assert beal.joinpath("report.html").read_text().count("data:image/png") >= 5
    beal_claims = json.loads((beal / "claims.json").read_text())["claims"]
    assert [c["id"] for c in beal_claims] == [f"H{i}" for i in range(1, 13)]
    assert {c["id"]: c for c in beal_claims}["H5"]["ours"]["vb_from_cs_violations"] == 0
    pj = work / "results" / "petitjean2018"
    assert pj.joinpath("report.html").read_text().count("data:image/png") >= 5
    pj_claims = {c["id"]: c for c in json.loads((pj / "claims.json").read_text())["claims"]}
    assert len(pj_claims) == 13 and pj_claims["H13"]["status"] != "not covered"
    cells = list((pj / "cv" / "iris").rglob("*.parquet"))
    assert len(cells) == 2 * 8  # 2 folds x: (nb, skdb) x {m, hdp}, nb single-20/50, level-20, rf
    assert set(pd.read_parquet(pj / "cv.parquet").method) >= {"nb-hdp-single-20", "rf"}
    report = pd.read_csv(results / "data_report.tsv", sep="\t")
    assert set(report["id"]) == {"adult", "contact-lenses", "iris"}
    # Nothing left to do: a second run is a no-op, and no temporary files are left behind.
    again = _snakemake(work, *TINY, "-n")
    assert "Nothing to be done" in again.stdout + again.stderr
    assert not list(results.rglob("*.tmp*"))


def test_unknown_config_key_is_an_error(tmp_path: Path, mirror: Path) -> None:
    work = _workdir(tmp_path, mirror)
    (work / "tiny.yaml").write_text((work / "tiny.yaml").read_text() + "bogus_key: 1\n")
    run = _snakemake(work, *TINY, "-n")
    assert run.returncode != 0 and "bogus_key" in run.stdout + run.stderr


def test_paper_config_plans(repo: Path) -> None:
    run = _snakemake(repo, "-n", "--configfile", "config/paper.yaml", "--quiet", "rules")
    assert run.returncode == 0, run.stderr[-3000:]
    assert "azz_e1_cell" in run.stdout + run.stderr
    assert "pj_cv_cell" in run.stdout + run.stderr  # one job per (data set, round, fold, method)


@pytest.mark.parametrize(
    "profile", ["--workflow-profile=workflow/profiles/default", "--profile=workflow/profiles/slurm"]
)
def test_profiles_plan(repo: Path, profile: str) -> None:
    run = _snakemake(repo, "-n", profile)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "profile" in run.stdout + run.stderr
