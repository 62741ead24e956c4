"""Study plug-ins: one package per paper, each with its protocol (config -> tidy tables),
claims, report helpers and CLI steps. ``STUDIES`` is the one registration point: the CLI,
the Snakefile (rule files, rule all, report inputs, config schema) and the end-to-end test
discover the studies from it."""

from __future__ import annotations

import importlib
from types import ModuleType

STUDIES: tuple[str, ...] = (
    "azzimonti2019", "beal2006", "petitjean2018", "becker2018", "dombowsky2025", "panel"
)  # fmt: skip


def study_module(name: str, module: str = "") -> ModuleType:
    """``hierbn.studies.<name>`` of a registered study, or its sub-module ``module``."""
    if name not in STUDIES:
        raise ValueError(f"unknown study {name!r}; registered studies: {', '.join(STUDIES)}")
    return importlib.import_module(f"hierbn.studies.{name}" + (f".{module}" if module else ""))
