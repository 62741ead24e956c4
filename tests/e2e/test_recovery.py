"""A run killed mid-way (SIGKILL to its process group, as a lost node or kill -9 would) resumes
with the README's command after Snakemake's own unlock, and ends with exactly the results of
an uninterrupted run; a second identical run agrees with the first but for wall-clock values."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.harness import TinyRun, assert_same_results, make_workdir, snakemake

pytestmark = pytest.mark.e2e
MIDWAY = 12  # result tables written when the run is killed


def test_a_killed_run_resumes_to_the_results_of_an_uninterrupted_one(
    tiny_run: TinyRun, tmp_path: Path, mirror: Path
) -> None:
    work = make_workdir(tmp_path / "killed", mirror, tiny_run.config)
    run = subprocess.Popen(
        ["snakemake", "--cores", "2", "--configfile", "tiny.yaml"],
        cwd=work,
        start_new_session=True,  # its own process group: the kill reaches every job
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 600
    while run.poll() is None and time.monotonic() < deadline:
        if len(list((work / "results").rglob("*.parquet"))) >= MIDWAY:
            break
        time.sleep(0.2)
    os.killpg(run.pid, signal.SIGKILL)
    assert run.wait() == -signal.SIGKILL, "the run finished before it could be killed"
    assert not (work / "results" / "index.html").exists()

    assert snakemake(work, "--unlock").returncode == 0  # the one step Snakemake requires
    again = snakemake(work, "--configfile", "tiny.yaml")  # the README's command
    assert again.returncode == 0, again.stderr[-4000:]
    assert_same_results(tiny_run.results, work / "results")
    assert not [p for p in (work / "results").rglob("*") if ".tmp" in p.name]
