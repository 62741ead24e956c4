"""The tiny pipeline on a busy machine (issue 43): with twice as many busy processes as cores
running beside it, the README's command finishes with exactly the tables and claims of the
quiet run, wall-clock values aside. Slowness is never failure: no step may have a time limit
that a loaded machine trips."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.harness import TinyRun, assert_same_results, make_workdir, snakemake

pytestmark = pytest.mark.e2e
SPIN = "while True: pass"


@pytest.fixture()
def busy_machine() -> Iterator[int]:
    """Two spinning processes per core, stopped when the test ends."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True)
        for _ in range(2 * multiprocessing.cpu_count())
    ]
    try:
        yield len(spinners)
    finally:
        for spinner in spinners:
            os.killpg(spinner.pid, signal.SIGKILL)
            spinner.wait()


def test_the_tiny_pipeline_on_a_busy_machine_gives_the_quiet_runs_results(
    tiny_run: TinyRun, tmp_path: Path, mirror: Path, busy_machine: int
) -> None:
    work = make_workdir(tmp_path / "busy", mirror, tiny_run.config)
    run = snakemake(work, "--configfile", "tiny.yaml")
    assert run.returncode == 0, run.stderr[-4000:]
    assert_same_results(tiny_run.results, work / "results")
