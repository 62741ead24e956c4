"""``hierbn fit``'s column types, bins, declared states and one-state columns (issue 45): a
small-integer column keeps its levels, --categorical / --numeric / --bins decide the rest, a
declared state exists unobserved (BDeu as pgmpy's BayesianEstimator with state_names, and a
pgmpy query with evidence on it), and a column left with one state is left out and named."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hierbn.data.readers import DataFormatError
from hierbn.fit import fit


def _grades(n: int = 200, seed: int = 1) -> pd.DataFrame:
    """grade 1-4 and a measurement with many values, both of which the class leans on."""
    rng = np.random.default_rng(seed)
    grade = rng.integers(1, 5, n).astype(float)
    size = rng.normal(size=n).round(4)
    label = np.where(grade + 2 * size + rng.normal(size=n) > 2.5, "pass", "fail")
    return pd.DataFrame({"grade": grade, "size": size, "label": label})


def test_a_small_integer_column_keeps_its_levels_unless_declared_numeric() -> None:
    frame = _grades()
    model = fit(frame, target="label", structure="nb", estimator="laplace")
    assert model.states("grade") == ("1", "2", "3", "4")  # not bins merging 1 and 2
    assert model.states("size")[0].startswith("le")  # 200 distinct values: cut by MDL
    numeric = fit(frame, target="label", structure="nb", estimator="laplace", numeric=["grade"])
    assert all(s.startswith(("le", "gt", "all")) for s in numeric.states("grade"))
    quartiles = fit(frame, target="label", structure="nb", numeric=["grade"], bins=4)
    assert len(quartiles.states("size")) == 4  # four equal-frequency bins
    tertiles = fit(frame, target="label", structure="nb", bins="tertiles")
    assert len(tertiles.states("size")) == 3
    ages = frame.assign(age=np.arange(len(frame)) % 25 + 20.0)  # 25 values: numeric by default
    assert fit(ages, target="label", structure="nb", keep_constant=True).states("age")[0] != "20"
    as_levels = fit(ages, target="label", structure="nb", categorical=["age"])
    assert as_levels.states("age")[:2] == ("20", "21") and len(as_levels.states("age")) == 25
    with pytest.raises(DataFormatError, match=r"'size' has 200 distinct values in 200 rows"):
        fit(frame, target="label", structure="nb", categorical=["size"])  # an identifier


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"numeric": ["grades"]}, r"--numeric names \['grades'\], not columns"),
        ({"categorical": ["size"], "numeric": ["size"]}, r"\['size'\] named by both"),
        ({"numeric": ["label"]}, r"the target 'label' is a class, so it cannot be --numeric"),
        ({"bins": "median"}, r"--bins 'median': expected mdl, tertiles or a number of bins >= 2"),
        ({"bins": 1}, r"--bins 1: expected"),
    ],
)
def test_bad_column_types_and_bins_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises((DataFormatError, ValueError), match=message):
        fit(_grades(), target="label", structure="nb", **kwargs)


def test_mdl_bins_need_a_target_and_a_word_is_not_numeric() -> None:
    frame = _grades().assign(colour=lambda f: np.where(f["size"] > 0, "red", "blue"))
    with pytest.raises(ValueError, match="--bins mdl cuts against the target"):
        fit(frame, edges=[("grade", "size")], bins="mdl")
    with pytest.raises(DataFormatError, match=r"'colour' is declared numeric but has '(red|blue)'"):
        fit(frame, target="label", structure="nb", numeric=["colour"])


def _asia(rows: int = 100, seed: int = 3):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.sampling import BayesianModelSampling
        from pgmpy.utils import get_example_model

        model = get_example_model("asia")
        data = BayesianModelSampling(model).forward_sample(
            size=rows, seed=seed, show_progress=False
        )
    states = {node: list(model.get_cpds(node).state_names[node]) for node in model.nodes()}
    return model, data, states


def test_declared_states_exist_unobserved_with_bdeus_prior_mass(tmp_path: Path) -> None:
    """100 rows of asia never show asia = yes. Declared, the state gets BDeu's prior mass
    exactly as pgmpy's BayesianEstimator(state_names=...) gives it, and pgmpy answers a query
    with that evidence from the written BIF."""
    from pgmpy.estimators import BayesianEstimator
    from pgmpy.inference import VariableElimination
    from pgmpy.readwrite import BIFReader

    truth, data, states = _asia()
    assert set(data["asia"]) == {"no"}
    edges = list(truth.edges())
    undeclared = fit(data, edges=[e for e in edges if "asia" not in e], estimator="bdeu1")
    assert "asia" in undeclared.one_state  # one observed value: left out, named
    model = fit(data, edges=edges, estimator="bdeu1", states=states)
    assert model.states("asia") == ("yes", "no")
    out = tmp_path / "asia.bif"
    model.write(out)
    network = BIFReader(str(out)).get_model()
    estimator = BayesianEstimator(network, data, state_names=states)
    for node in network.nodes():
        ours = network.get_cpds(node)
        theirs = estimator.estimate_cpd(node, prior_type="BDeu", equivalent_sample_size=1)
        if len(ours.variables) > 1:
            theirs.reorder_parents(ours.variables[1:])
        np.testing.assert_allclose(ours.get_values(), theirs.get_values(), rtol=0, atol=1e-12)
    posterior = VariableElimination(network).query(
        ["either"], evidence={"asia": "yes"}, show_progress=False
    )
    assert posterior.values.sum() == pytest.approx(1.0)


def test_declared_states_are_checked_against_the_data() -> None:
    _, data, states = _asia()
    bad = {**states, "smoke": ["yes"]}  # the data show "no" too
    with pytest.raises(DataFormatError, match=r"^states: data column 'smoke' has 'no', not among"):
        fit(data, edges=[("smoke", "lung")], states=bad)
    with pytest.raises(DataFormatError, match=r"states for 'smokes', not a column"):
        fit(data, edges=[("smoke", "lung")], states={"smokes": ["yes", "no"]})


def test_the_command_line_reads_states_and_column_types(tmp_path: Path) -> None:
    _, data, states = _asia()
    csv = tmp_path / "asia.csv"
    data.to_csv(csv, index=False)
    (tmp_path / "states.json").write_text(json.dumps(states))
    edges = tmp_path / "edges.txt"
    edges.write_text("asia -> tub\ntub -> either\nlung -> either\nsmoke -> lung\n")
    command = [sys.executable, "-m", "hierbn.cli", "fit", "--data", str(csv), "--edges", str(edges),
               "--estimator", "bdeu1", "--out", str(tmp_path / "asia.xml")]  # fmt: skip
    done = subprocess.run([*command, "--states", str(tmp_path / "states.json")],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "left out" not in done.stdout
    plain = subprocess.run(command, capture_output=True, text=True)
    assert (
        plain.returncode == 1 and "the edges name ['asia'], left out with one state" in plain.stderr
    )
    missing = subprocess.run([*command, "--states", str(tmp_path / "nope.yaml")],
                             capture_output=True, text=True)  # fmt: skip
    assert missing.stderr.strip().endswith("no such file") and "--states" in missing.stderr
