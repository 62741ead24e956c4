"""One Snakemake run of every registered study at tiny scale, shared by the generic and the
per-study end-to-end tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import TinyRun, make_workdir, snakemake, tiny_config


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory: pytest.TempPathFactory, mirror: Path) -> TinyRun:
    work = make_workdir(tmp_path_factory.mktemp("e2e") / "run", mirror)
    run = snakemake(work, "--configfile", "tiny.yaml")
    assert run.returncode == 0, run.stderr[-4000:]
    return TinyRun(work, tiny_config(mirror), run)
