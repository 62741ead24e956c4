"""The result cache through Snakemake (issue 44): a run that stores its expensive jobs, then a
fresh run that takes them all from the cache and ends with the same tables and claims, counting
each restored job at its computing cost; turning the cache on or off plans no job; and
``hierbn cache verify`` recomputes sampled entries identically."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import assert_same_results, make_workdir, planned, snakemake, tiny_config

pytestmark = pytest.mark.e2e
STUDY = "beal2006"  # seconds of work at tiny scale, three cached rules


def _only(config: dict, study: str, cache: Path, store: bool) -> dict:
    others = {s: {**section, "enabled": False} for s, section in config.items()
              if isinstance(section, dict) and "enabled" in section and s != study}  # fmt: skip
    return {**config, **others, "result_cache": {"folder": str(cache), "store": store}}


def test_a_fresh_run_takes_every_cached_job_from_the_cache(tmp_path: Path, mirror: Path) -> None:
    tiny = tiny_config(mirror)
    cache = tmp_path / "cache"
    cache.mkdir()
    work = make_workdir(tmp_path / "store", mirror, _only(tiny, STUDY, cache, True))
    first = snakemake(work, "--configfile", "tiny.yaml")
    assert first.returncode == 0, first.stderr[-4000:]
    entries = sorted(cache.glob("*/*/job.json"))
    steps = {e.parent.parent.name for e in entries}
    assert steps == {"beal2006-scores", "beal2006-ais", "beal2006-schedule"}

    again = make_workdir(tmp_path / "restore", mirror, _only(tiny, STUDY, cache, False))
    second = snakemake(again, "--configfile", "tiny.yaml")
    assert second.returncode == 0, second.stderr[-4000:]
    logs = [p.read_text() for p in (again / "logs" / STUDY).rglob("*.log")]
    assert sum("restored " in log for log in logs) == len(entries)
    assert not any("computing" in log for log in logs)
    assert_same_results(work / "results", again / "results")
    runtime = json.loads((again / "results" / STUDY / "runtime.json").read_text())
    stored_seconds = sum(json.loads(e.read_text())["seconds"] for e in entries)
    assert runtime["restored_jobs"] == len(entries)
    assert runtime["seconds"] >= stored_seconds

    off = _only(tiny, STUDY, cache, False) | {"result_cache": {"folder": None, "store": False}}
    # the cache is no part of a job: only the page naming the run's config files is redone
    assert set(planned(again, off)) <= {"scoreboard", "all"}

    shutil.rmtree(again / "results" / STUDY / "scores")  # verify writes elsewhere, reads inputs
    verify = subprocess.run(
        ["hierbn", "cache", "verify", "--cache", str(cache), "--sample", "2", "--seed", "1"],
        cwd=again, capture_output=True, text=True,
    )  # fmt: skip
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "2 of 2 entries recomputed identically" in verify.stdout
