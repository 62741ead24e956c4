"""Shared fixtures: the offline data mirror beside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MIRROR = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not (MIRROR / "MANIFEST.tsv").is_file():
        pytest.skip(f"the data mirror {MIRROR} is not present")
    return MIRROR


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO
