"""dombowsky2025 structure experiments on the real data (LUCAS §4.2, METABRIC §4.5) at short
chain lengths, and their claims: what every method selects, the Hamming distances, the bug
emulation of A9, and the claims' not-covered rules."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from hierbn.data.convert import build_dataset
from hierbn.data.registry import load_registry
from hierbn.studies.claims import NOT_COVERED
from hierbn.studies.dombowsky2025 import cli, workflow
from hierbn.studies.dombowsky2025.claims import Results, claim_c4, claim_c9
from hierbn.studies.dombowsky2025.lucas import code_lucas
from hierbn.studies.dombowsky2025.metabric import code_metabric
from hierbn.studies.dombowsky2025.paper import TABLE2
from hierbn.studies.dombowsky2025.structure import (
    COVARIATES,
    run_lucas_target,
    run_metabric_outcome,
)

REGISTRY = Path(__file__).resolve().parents[1] / "config" / "datasets.tsv"
CONFIG = {"prior": {"b": 1.0, "rho_rule": "code"}, "step_size": "paper",
          "lucas": {"iterations": 1500, "burn": 100, "alpha": 0.05,
                    "eps": {"Allergy": [0.65, 0.35], "Lung_cancer": [0.11, 0.15]},
                    "group_lasso": {"folds": 5, "lambdas": 30, "emulate_code_bugs": True}},
          "metabric": {"mode": "code", "chains": 2, "iterations": 1000, "burn": 100, "eps": {"TBS": [0.175, 0.25]},
                       "group_lasso": {"folds": 5, "lambdas": 30, "emulate_code_bugs": True}}}  # fmt: skip


def _converted(mirror: Path, dataset: str) -> pd.DataFrame:
    entry = load_registry(REGISTRY)[("dombowsky2025", dataset)]
    return build_dataset(entry, [mirror / p.file for p in entry.parts])


@pytest.fixture(scope="module")
def lucas_results(mirror) -> pd.DataFrame:
    table, _ = code_lucas(_converted(mirror, "lucas0"), "lucas0")
    frames = [run_lucas_target(table, t, CONFIG, 7)[0] for t in ("Allergy", "Lung_cancer")]
    return pd.concat(frames, ignore_index=True)


def _hamming(results: pd.DataFrame, target: str, method: str) -> float:
    rows = results[
        (results.node == target) & (results.method == method) & (results.metric == "hamming")
    ]
    return float(rows.value.iloc[0])


def test_lucas_gs_and_iamb_reproduce_table2_and_hidden_finds_the_blanket(lucas_results) -> None:
    for target in ("Allergy", "Lung_cancer"):
        for method in ("GS", "IAMB", "HiDDeN"):
            assert _hamming(lucas_results, target, method) == TABLE2[method][target], (
                target,
                method,
            )


def test_lucas_lasso_bug_selects_allergy_alone_for_lung_cancer(lucas_results) -> None:
    """A9 (i): Allergy passed as Lung_cancer's response selects Allergy only: Hamming 4."""
    rows = lucas_results[
        (lucas_results.method == "Group lasso ([code])") & (lucas_results.metric == "selected")
    ]
    chosen = rows[(rows.node == "Lung_cancer") & (rows.value == 1)].variable.tolist()
    assert (
        chosen == ["Allergy"]
        and _hamming(lucas_results, "Lung_cancer", "Group lasso ([code])") == 4
    )
    assert _hamming(lucas_results, "Lung_cancer", "Group lasso") < 4


def test_lucas_rows_cover_every_other_variable_once_per_method(lucas_results) -> None:
    selected = lucas_results[lucas_results.metric == "selected"]
    assert (selected.groupby(["node", "method"]).variable.nunique() == 11).all()
    probs = lucas_results[lucas_results.metric == "edge_probability"].value
    assert len(probs) == 22 and probs.between(0, 1).all()


def test_claims_c4_and_c9_are_not_covered_without_all_targets(lucas_results) -> None:
    assert claim_c4(Results(lucas_results))["status"] == NOT_COVERED
    assert claim_c9(Results(lucas_results))["status"] == NOT_COVERED


def test_metabric_outcome_methods_and_bug_emulation(mirror) -> None:
    patients, samples = (
        _converted(mirror, "metabric-patient"),
        _converted(mirror, "metabric-sample"),
    )
    codes = code_metabric(patients, samples, "code")[0]
    frame, trace = run_metabric_outcome(codes, "TBS", CONFIG, 3)
    selected = frame[frame.metric == "selected"]
    assert set(selected.variable) == set(COVARIATES)
    by_method = selected.groupby("method").value.sum()
    assert by_method["Group lasso ([code])"] == len(COVARIATES)  # A9 (ii): every candidate
    assert by_method["HC"] <= by_method["HiDDeN"] + 2 and by_method["TABU"] >= 1
    assert len(trace) > 0 and set(trace.node) == {"TBS"}


def test_every_summary_table_of_the_rule_is_written_by_the_claims_step() -> None:
    assert set(cli.SUMMARY_TABLES) == set(workflow.SUMMARIES) - {"traces"}
