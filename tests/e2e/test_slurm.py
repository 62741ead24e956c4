"""The Slurm profile end to end on a live single-node Slurm (``tests/cluster/slurm-up.sh``): the
tiny config of every study submitted through ``workflow/profiles/slurm`` (its two placeholders
filled), with one running job cancelled by ``scancel`` and the Snakemake process killed once
mid-run; the profile's retry and a plain rerun end with exactly the local run's results.

Skips, saying why, only where the test cluster cannot be brought up (not root, or this host
has a Slurm of its own)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TinyRun, assert_same_results, make_workdir

pytestmark = [pytest.mark.e2e, pytest.mark.slurm]
CLUSTER = REPO / "tests" / "cluster"
NOT_HERE = {
    77: "not root: cannot install or start the test Slurm",
    2: "this host has a Slurm of its own",
}
SUBMITTED = re.compile(r"submitted with SLURM jobid (\d+)")
MIDWAY = 25  # jobs finished when the Snakemake process is killed


@pytest.fixture(scope="module")
def slurm() -> Iterator[dict[str, str]]:
    """The test cluster's SLURM_* settings, up for this module and down after it."""
    up = subprocess.run(
        ["bash", str(CLUSTER / "slurm-up.sh")], capture_output=True, text=True, timeout=1200
    )
    if up.returncode in NOT_HERE:
        pytest.skip(f"no test Slurm: {NOT_HERE[up.returncode]} ({up.stderr.strip()[-300:]})")
    assert up.returncode == 0, up.stderr[-4000:]
    yield dict(line.split("=", 1) for line in up.stdout.splitlines() if "=" in line)
    subprocess.run(["bash", str(CLUSTER / "slurm-down.sh")], capture_output=True, timeout=300)


def filled_profile(folder: Path, account: str, partition: str) -> Path:
    """The shipped Slurm profile with its account and partition placeholders filled."""
    text = (REPO / "workflow" / "profiles" / "slurm" / "config.yaml").read_text()
    filled = text.replace('slurm_account: "CHANGE_ME"', f'slurm_account: "{account}"').replace(
        'slurm_partition: "CHANGE_ME"', f'slurm_partition: "{partition}"'
    )
    assert "CHANGE_ME" not in filled, "the profile's placeholders changed; update this test"
    folder.mkdir(parents=True)
    (folder / "config.yaml").write_text(filled)
    return folder


def squeue(state: str) -> list[str]:
    """Ids of this user's jobs in ``state`` (R running, PD pending)."""
    out = subprocess.run(
        ["squeue", "-h", "-t", state, "-o", "%i"], capture_output=True, text=True, check=True
    )
    return out.stdout.split()


def wait_for(condition: Callable[[], object], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.5)


def test_the_tiny_run_through_slurm_survives_a_cancel_and_a_kill(
    slurm: dict[str, str], tiny_run: TinyRun, tmp_path: Path, mirror: Path
) -> None:
    work = make_workdir(tmp_path / "slurm", mirror, tiny_run.config)
    profile = filled_profile(
        work / "slurm-profile", slurm["SLURM_ACCOUNT"], slurm["SLURM_PARTITION"]
    )
    command = ["snakemake", "--profile", str(profile), "--configfile", "tiny.yaml", "--latency-wait", "5",
               "--slurm-init-seconds-before-status-checks", "5"]  # fmt: skip
    first_log = work / "first.log"
    with first_log.open("w") as log:
        run = subprocess.Popen(
            command, cwd=work, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        wait_for(lambda: squeue("R") or run.poll() is not None, 600, "a running Slurm job")
        cancelled = squeue("R")[0]
        subprocess.run(["scancel", cancelled], check=True)
        wait_for(lambda: first_log.read_text().count("Finished job") >= MIDWAY or run.poll() is not None, 900,
                 f"{MIDWAY} finished jobs")  # fmt: skip
        os.killpg(run.pid, signal.SIGKILL)  # the submitting process dies; its Slurm jobs go on
        assert run.wait() == -signal.SIGKILL, "the run finished before it could be killed"
    wait_for(lambda: not squeue("R") and not squeue("PD"), 900, "the orphaned Slurm jobs to end")

    assert subprocess.run(["snakemake", "--unlock"], cwd=work, capture_output=True).returncode == 0
    again = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=1800)
    assert again.returncode == 0, again.stderr[-4000:]

    first = first_log.read_text()
    assert f"SLURM jobid {cancelled}" in first
    ids = SUBMITTED.findall(first) + SUBMITTED.findall(again.stdout + again.stderr)
    accounted = subprocess.run(["sacct", "-X", "-n", "-P", "-a", "--format=JobIdRaw,Account", "-j", ",".join(ids)],
                               capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert {line.split("|")[0] for line in accounted.split()} == set(ids)
    assert {line.split("|")[1] for line in accounted.split()} == {slurm["SLURM_ACCOUNT"]}
    assert_same_results(tiny_run.results, work / "results")
    for study in tiny_run.config:
        if isinstance(tiny_run.config[study], dict) and tiny_run.config[study].get("enabled"):
            assert (work / "results" / study / "report.html").stat().st_size > 10_000
    assert not [p for p in (work / "results").rglob("*") if ".tmp" in p.name]
