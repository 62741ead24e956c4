"""The tables each beal2006 step reads and the config values each job reads (used by its
rule file)."""

from __future__ import annotations

from typing import Any

from hierbn.workflow import paths

RESULTS = "results/beal2006"
COMMON = ("reading", "zero_floor")


def scores_config(section: dict[str, Any]) -> dict[str, Any]:
    """What a score job reads."""
    return {k: section[k] for k in (*COMMON, "restarts", "vb_from_cs", "exact_max_n")}


def ais_config(section: dict[str, Any]) -> dict[str, Any]:
    """What an AIS job reads."""
    return {
        **{k: section[k] for k in COMMON},
        **{k: section["ais"][k] for k in ("steps", "strength", "e_tau")},
    }


def claims_inputs(section: dict[str, Any]) -> dict[str, Any]:
    """The experiment tables the claims (and the report) read."""
    return {
        "scores": paths(RESULTS + "/scores/n{n}.parquet", n=section["sizes"]),
        "ais": paths(RESULTS + "/ais/n{n}.parquet", n=section["ais"]["sizes"]),
        "schedule": f"{RESULTS}/schedule.parquet",
    }


def run_scale(section: dict[str, Any]) -> dict[str, float]:
    """What the run made of each dimension of the paper's scale (``paper.SCALE``)."""
    return {
        "sizes": len(section["sizes"]),
        "draws": section["instances"],
        "ais_sizes": len(section["ais"]["sizes"]),
        "ais_runs": section["ais"]["runs"],
        "ais_steps": section["ais"]["steps"],
        "traces": section["schedule"]["traces"],
    }


def report_inputs(section: dict[str, Any]) -> dict[str, Any]:
    """What the report notebook reads besides claims.json."""
    return {
        **claims_inputs(section),
        "table2": f"{RESULTS}/table2.parquet",
        "table3": f"{RESULTS}/table3.parquet",
    }
