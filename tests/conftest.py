"""Shared fixtures: the offline data mirror and the CmdStan sources beside the repository."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MIRROR = REPO.parent / "shared" / "data"
CMDSTAN_SOURCES = REPO.parent / "shared" / "cmdstan" / "cmdstan-2.35.0"


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not (MIRROR / "MANIFEST.tsv").is_file():
        pytest.skip(f"the data mirror {MIRROR} is not present")
    return MIRROR


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def cmdstan_home() -> Path:
    """CmdStan built offline from ``../shared/cmdstan`` and httpstan (issue 25), once per
    machine (cached outside the repository; the first build takes 5-10 minutes on 2 cores).
    Skipped, with the reason, only when the sources are not beside the repository; a build
    that fails fails the tests that need it."""
    if not (CMDSTAN_SOURCES / "makefile").is_file():
        pytest.skip(f"CmdStan sources not found at {CMDSTAN_SOURCES}: cmdstanpy tests not run")
    from hierbn.stan.cmdstan_build import build_cmdstan

    return build_cmdstan(CMDSTAN_SOURCES, jobs=2)


@pytest.fixture
def cmdstanpy_backend(cmdstan_home: Path) -> Iterator[str]:
    """The cmdstanpy backend on the offline CmdStan for one test (``CMDSTAN`` is restored
    afterwards, so ``stan.backend: auto`` elsewhere keeps seeing this machine's own setup)."""
    before = os.environ.get("CMDSTAN")
    os.environ["CMDSTAN"] = str(cmdstan_home)
    try:
        yield "cmdstanpy"
    finally:
        if before is None:
            os.environ.pop("CMDSTAN", None)
        else:
            os.environ["CMDSTAN"] = before
