"""End-to-end with ``stan.backend: cmdstanpy`` (issue 25): the studies whose rules run Stan,
at tiny scale on the CmdStan built offline, give claims equal in status to the PyStan run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.harness import TinyRun, make_workdir, snakemake, tiny_config

pytestmark = [pytest.mark.e2e, pytest.mark.stan]

STAN_STUDIES = ("azzimonti2019", "becker2018", "dombowsky2025")


def _statuses(results: Path, study: str) -> dict[str, str]:
    claims = json.loads((results / study / "claims.json").read_text())["claims"]
    return {c["id"]: c["status"] for c in claims}


def test_the_stan_studies_through_cmdstanpy_reach_the_pystan_verdicts(
    tiny_run: TinyRun,
    cmdstanpy_backend: str,
    tmp_path: Path,
    mirror: Path,
) -> None:
    config = {**tiny_config(mirror), "stan": {"backend": cmdstanpy_backend}}
    work = make_workdir(tmp_path / "cmdstanpy", mirror, config)
    targets = [f"results/{study}/claims.json" for study in STAN_STUDIES]
    run = snakemake(work, "--configfile", "tiny.yaml", "--", *targets)
    assert run.returncode == 0, run.stderr[-4000:]
    compiled = [json.loads(p.read_text()) for p in (work / "resources" / "stan").glob("*.json")]
    assert compiled and {c["backend"] for c in compiled} == {"cmdstanpy"}
    for study in STAN_STUDIES:
        assert _statuses(work / "results", study) == _statuses(tiny_run.results, study), study
