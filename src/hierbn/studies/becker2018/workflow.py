"""The tables each becker2018 step reads and the config values each job reads (used by its
rule file)."""

from __future__ import annotations

from typing import Any

from hierbn.workflow import flat_paths, paths

RESULTS = "results/becker2018"
PREPARED = "resources/becker2018/turkiye.parquet"
STAN_MARKER = "resources/stan/hier_regression.json"
MERGED = ("posterior", "figure2", "class_beta", "gibbs_beta", "table3", "table4", "sensitivity",
          "cv", "synthetic")  # fmt: skip


def fit_config(section: dict[str, Any]) -> dict[str, Any]:
    """What a VB job reads."""
    return {"hyper": section["hyper"], "vb": section["vb"]}


def gibbs_config(section: dict[str, Any]) -> dict[str, Any]:
    return {"hyper": section["hyper"], "gibbs": section["gibbs"]}


def nuts_config(section: dict[str, Any]) -> dict[str, Any]:
    return {"hyper": section["hyper"], "nuts": {"settings": section["nuts"]["settings"]}}


def cv_config(section: dict[str, Any]) -> dict[str, Any]:
    """What a CV cell reads: the folds (not the number of repeats) and the VB settings."""
    return {"hyper": section["hyper"], "vb": section["vb"], "cv": {"folds": section["cv"]["folds"]}}


def timing_config(section: dict[str, Any]) -> dict[str, Any]:
    return {**fit_config(section), "timing": section["timing"]}


def sensitivity_config(section: dict[str, Any]) -> dict[str, Any]:
    return {"vb": section["vb"], "sensitivity": section["sensitivity"]}


def synthetic_config(section: dict[str, Any]) -> dict[str, Any]:
    return {**fit_config(section), "synthetic": {"gibbs": section["synthetic"]["gibbs"]}}


def claims_inputs(section: dict[str, Any]) -> dict[str, Any]:
    """The experiment tables the claims (and, merged, the report) read."""
    chains = range(section["gibbs"]["chains"])
    synthetic = section["synthetic"]
    return {
        "table2": f"{RESULTS}/table2.parquet",
        "vb": paths(RESULTS + "/vb/{variant}.parquet", variant=section["vb"]["variants"]),
        "gibbs": paths(RESULTS + "/gibbs/chain{chain}.parquet", chain=chains),
        "gibbs_beta": paths(RESULTS + "/gibbs/chain{chain}_beta.parquet", chain=chains),
        "nuts": [f"{RESULTS}/nuts.parquet"] if section["nuts"]["enabled"] else [],
        "lasso": f"{RESULTS}/lasso_rankings.parquet",
        "cv": paths(
            RESULTS + "/cv/r{repeat}f{fold}.parquet",
            repeat=range(section["cv"]["repeats"]),
            fold=range(section["cv"]["folds"]),
        ),
        "timing": f"{RESULTS}/timing.parquet",
        "sensitivity": f"{RESULTS}/sensitivity_fits.parquet",
        "synthetic": paths(
            RESULTS + "/synthetic/{scenario}_{rep}.parquet",
            scenario=synthetic["scenarios"],
            rep=range(synthetic["reps"]),
        ),
        "toy": f"{RESULTS}/toy.parquet",
    }


def run_scale(section: dict[str, Any]) -> dict[str, float]:
    """The run's value of every dimension of the paper's scale (``paper.SCALE``): the CV's
    folds (its repeats are more than the paper's one CV, not a reduction)."""
    return {"cv_folds": section["cv"]["folds"]}


def job_outputs(section: dict[str, Any]) -> list[str]:
    """The first output of every experiment job (a Gibbs chain's beta table is its second)."""
    inputs = {k: v for k, v in claims_inputs(section).items() if k != "gibbs_beta"}
    return flat_paths(inputs)


def report_inputs(section: dict[str, Any]) -> dict[str, Any]:
    """What the report notebook reads besides claims.json: the claims step's merged tables."""
    inputs = claims_inputs(section)
    return {
        **{name: f"{RESULTS}/{name}.parquet" for name in MERGED},
        **{name: inputs[name] for name in ("table2", "vb", "timing", "toy")},
        "data_check": f"{RESULTS}/data_check.json",
    }
