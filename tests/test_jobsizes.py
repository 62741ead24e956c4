"""Job sizes per rule from benchmark files and Snakemake's metadata; the planned-run estimate."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pandas as pd
import pytest

from hierbn.report.jobsizes import estimate, measured_jobs, per_rule, planned_jobs, study_of

STUDIES = ("azzimonti2019", "beal2006")


def _job(run: Path, output: str, rule: str, seconds: list[float], rss: float) -> None:
    name = base64.urlsafe_b64encode(output.encode()).decode()
    (run / ".snakemake" / "metadata").mkdir(parents=True, exist_ok=True)
    (run / ".snakemake" / "metadata" / name).write_text(json.dumps({"rule": rule}))
    bench = run / "logs" / "benchmarks" / f"{output}.tsv"
    bench.parent.mkdir(parents=True, exist_ok=True)
    rows = "".join(f"{s}\t0:00:0{int(s)}\t{rss}\n" for s in seconds)
    bench.write_text("s\th:m:s\tmax_rss\n" + rows)


def test_jobs_are_joined_with_their_rule_and_summarised(tmp_path: Path) -> None:
    _job(tmp_path, "results/azzimonti2019/e1/x2_y2.parquet", "azz_e1_cell", [2.0, 4.0], 100.0)
    _job(tmp_path, "results/azzimonti2019/e1/x2_y8.parquet", "azz_e1_cell", [9.0], 300.0)
    _job(tmp_path, "resources/datasets/beal2006/data.parquet", "convert_dataset", [1.0], 50.0)
    jobs = measured_jobs(tmp_path, STUDIES)
    assert sorted(jobs.study) == ["azzimonti2019", "azzimonti2019", "beal2006"]
    sizes = per_rule(jobs)
    assert sizes.loc["azz_e1_cell"].tolist() == [
        2,
        6.0,
        9.0,
        300.0,
    ]  # jobs, median of (3, 9), max, RSS
    dry_run = "rule azz_e1_cell:\n    output: results/azzimonti2019/e1/x4_y4.parquet\n" * 3
    dry_run += "localrule fetch_raw:\n    output: resources/raw/x.csv, resources/raw/y.csv\n"
    dry_run += "localrule all:\n    input: results/index.html\n"  # a job with no output line
    planned = planned_jobs(dry_run, STUDIES)
    assert planned.values.tolist() == [["azz_e1_cell", "azzimonti2019"]] * 3 + [
        ["fetch_raw", "shared"],
        ["all", "shared"],
    ]
    costed = estimate(planned, sizes)
    assert costed.loc["azzimonti2019", "job_hours"] == pytest.approx(3 * 6.0 / 3600)
    assert costed.loc["shared", "unmeasured_jobs"] == 2 and pd.isna(
        costed.loc["shared", "peak_rss_mb"]
    )


def test_a_benchmark_without_a_recorded_job_is_named(tmp_path: Path) -> None:
    _job(tmp_path, "results/azzimonti2019/a.parquet", "r", [1.0], 1.0)
    (tmp_path / "logs" / "benchmarks" / "stray.tsv").write_text("s\tmax_rss\n1\t1\n")
    with pytest.raises(ValueError, match=r"stray\.tsv: Snakemake recorded no job writing 'stray'"):
        measured_jobs(tmp_path, STUDIES)


def test_outputs_outside_a_study_folder_are_shared() -> None:
    assert study_of("results/index.html", STUDIES) == "shared"
    assert study_of("logs/benchmarks/results/beal2006/x.tsv", STUDIES) == "beal2006"
