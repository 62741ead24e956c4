"""End-to-end: the whole workflow at tiny scale (every registered study), the scoreboard, what
a config change reruns, and the configs and profiles that must plan."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from hierbn.studies import STUDIES, study_module
from tests.e2e.harness import TinyRun, make_workdir, planned, snakemake, write_config

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("study", STUDIES)
def test_every_registered_study_has_a_report_and_a_scoreboard_row(
    tiny_run: TinyRun, study: str
) -> None:
    html = (tiny_run.results / study / "report.html").read_text()
    claims = json.loads((tiny_run.results / study / "claims.json").read_text())["claims"]
    assert "Headline claims" in html and 'class="claims"' in html
    assert all(c["ours_text"] and c["paper_text"] for c in claims)
    # every claim quotes a statement registered in the study's paper.py (so checked against
    # the paper's text by test_paper_values) and says how its criterion deviates from it
    quotes = [c.quote.record() for c in study_module(study, "paper").PAPER.citations]
    unquoted = [c["id"] for c in claims if c["statement"] not in quotes]
    assert not unquoted, f"{study}: claims without a registered paper statement: {unquoted}"
    assert all(isinstance(c["deviation"], str) for c in claims)
    board = json.loads((tiny_run.results / "scoreboard.json").read_text())
    row = next(r for r in board["studies"] if r["study"] == study)
    assert sum(row["counts"].values()) == len(claims) == row["claims"]
    assert row["jobs"] > 0 and row["wall_seconds"] > 0 and len(row["config_hash"]) == 10
    assert row["config_files"] == ["config/config.yaml", "tiny.yaml"]
    on_board = [c["id"] for c in board["claims"] if c["study"] == study]
    assert on_board == [c["id"] for c in claims]


def test_scoreboard_page_lists_every_study_and_claim(tiny_run: TinyRun) -> None:
    page = (tiny_run.results / "index.html").read_text()
    board = json.loads((tiny_run.results / "scoreboard.json").read_text())
    assert [r["study"] for r in board["studies"]] == list(STUDIES)
    for study in STUDIES:
        assert f'href="{study}/report.html"' in page
    assert page.count('<span class="status"') == len(board["claims"])


def test_a_second_run_has_nothing_to_do_and_leaves_no_temporary_files(tiny_run: TinyRun) -> None:
    again = snakemake(tiny_run.work, "--configfile", "tiny.yaml", "-n")
    assert "Nothing to be done" in again.stdout + again.stderr
    assert not list(tiny_run.results.rglob("*.tmp*"))


def test_notebooks_read_declared_inputs_only() -> None:
    for study in STUDIES:
        source = (Path(__file__).parents[2] / "notebooks" / f"{study}.ipynb").read_text()
        assert "Report(inputs, figures_dir)" in source
        assert not re.search(r"glob|rglob|results_dir|\.exists\(", source), study


def test_unknown_config_key_is_an_error(tmp_path: Path, mirror: Path) -> None:
    work = make_workdir(tmp_path / "run", mirror)
    (work / "tiny.yaml").write_text((work / "tiny.yaml").read_text() + "bogus_key: 1\n")
    run = snakemake(work, "--configfile", "tiny.yaml", "-n")
    assert run.returncode != 0 and "bogus_key" in run.stdout + run.stderr


def test_paper_config_plans(repo: Path) -> None:
    run = snakemake(repo, "-n", "--configfile", "config/paper.yaml", "--quiet", "rules")
    assert run.returncode == 0, run.stderr[-3000:]
    assert "azz_e1_cell" in run.stdout + run.stderr
    # the larger data sets' CV runs one job per (data set, round), the smaller ones' one each
    assert "pj_cv_round" in run.stdout + run.stderr and "pj_cv_cell" not in run.stdout


@pytest.mark.parametrize(
    "profile", ["--workflow-profile=profiles/default", "--profile=workflow/profiles/slurm"]
)
def test_profiles_plan(repo: Path, profile: str) -> None:
    run = snakemake(repo, "-n", profile)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "profile" in run.stdout + run.stderr


def test_another_mirror_with_the_same_bytes_reruns_nothing(tiny_run: TinyRun) -> None:
    """The mirror list cannot change a result (the sha256 fixes the bytes): not a param."""
    config = copy.deepcopy(tiny_run.config)
    (tiny_run.work / "other-mirror").symlink_to(config["data"]["mirrors"][0])
    config["data"]["mirrors"] = ["other-mirror", "/nonexistent"]
    try:  # under the run's own config file name, which the scoreboard reports
        assert planned(tiny_run.work, config, name="tiny.yaml") == {}
    finally:
        write_config(tiny_run.work / "tiny.yaml", tiny_run.config)
