"""The panel's protocol and workflow inputs: identical folds for every model, a cell job equal
to its rows of the data-set job, learning-curve sizes, and the config checks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hierbn.cli import main
from hierbn.studies.panel.protocol import (
    cell_config,
    curve_sizes,
    cv_cells,
    run_cv,
    run_learning_curve,
)
from hierbn.studies.panel.workflow import CellParams, cv_tables, dataset_entries

CONFIG = {
    "structures": ["nb", "kdb2"],
    "estimators": ["laplace", "bdeu10", "hier", "hdp", "hidden"],
    "settings": {
        "hdp": {"iterations": 40, "tying": "level", "prior": [0.0, 0.0], "conc_every": 5},
        "hidden": {
            "iterations": 80,
            "burn": 10,
            "step_size": "fixed",
            "eps": 0.3,
            "b": 1.0,
            "rho_rule": "code",
        },
    },
    "cv": {"rounds": 2},
    "learning_curve": {"sizes": [20, 40, 500], "structures": ["nb"]},
}


def _frame(n: int = 90) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    x = rng.normal(size=n)
    colour = pd.Categorical(rng.choice(["r", "g", "b"], n))
    y = np.where(x + (colour == "r") + rng.normal(scale=0.7, size=n) > 0.4, "yes", "no")
    x[3] = np.nan
    return pd.DataFrame({"x": x, "colour": colour, "y": pd.Categorical(y)})


def test_every_model_sees_the_same_folds_and_a_cell_equals_its_rows() -> None:
    whole = run_cv(_frame(), "toy", CONFIG, base_seed=3)
    assert len(whole) == len(cv_cells(CONFIG)) * 6
    per_split = whole.groupby(["rep", "fold"]).n.nunique()
    assert (per_split == 1).all()  # one training size per split, whatever the model
    cell = run_cv(_frame(), "toy", CONFIG, base_seed=3, cells=[(1, 0, "kdb2", "hidden")])
    rows = whole[(whole.rep == 1) & (whole.fold == 0) & (whole.structure == "kdb2")]
    rows = rows[(rows.estimator == "hidden") & ~rows.metric.str.contains("seconds")]
    got = cell[~cell.metric.str.contains("seconds")]
    np.testing.assert_array_equal(got.value.to_numpy(), rows.value.to_numpy())
    assert got.seed.tolist() == rows.seed.tolist()
    other = run_cv(_frame(), "toy", CONFIG, base_seed=4, cells=[(1, 0, "kdb2", "hidden")])
    assert other.seed.iloc[0] != cell.seed.iloc[0]


def test_a_round_job_writes_exactly_the_rows_of_its_single_cell_jobs(tmp_path: Path) -> None:
    """``cv.jobs: round`` (issue 24), through the command line the rules call: one round's
    job has every row, seed and number of the round's (fold, structure, estimator) cell jobs,
    in their order; only ``config`` (a cell records its estimator's settings) and the
    measured seconds differ."""
    data = tmp_path / "toy.parquet"
    _frame().to_parquet(data)

    def job(name: str, config: dict, *cell: str) -> pd.DataFrame:
        out = tmp_path / f"{name}.parquet"
        argv = ["panel", "cv", "--data", str(data), "--dataset", "toy", "--seed", "3"]
        main([*argv, *cell, "--config", json.dumps(config), "--out", str(out)])
        return pd.read_parquet(out)

    def cell_args(r: int, f: int, s: str, e: str) -> list[str]:
        return ["--round", str(r), "--fold", str(f), "--structure", s, "--estimator", e]

    grouped = job("round", CONFIG, "--round", "1")
    cells = pd.concat(
        [
            job(f"{f}{s}{e}", cell_config(CONFIG, e), *cell_args(r, f, s, e))
            for r, f, s, e in cv_cells(CONFIG)
            if r == 1
        ],
        ignore_index=True,
    )
    assert set(grouped.rep) == {1} and len(grouped) == len(cells) > 0
    timed = cells.metric.str.contains("seconds")
    numbers = [c for c in cells.columns if c != "config"]
    described = [c for c in numbers if c != "value"]
    pd.testing.assert_frame_equal(grouped[~timed][numbers], cells[~timed][numbers])
    pd.testing.assert_frame_equal(grouped[timed][described], cells[timed][described])
    with pytest.raises(SystemExit, match="--round 2: no such round in 2x2 CV"):
        job("none", CONFIG, "--round", "2")


def test_metrics_are_in_range_and_the_splits_are_stratified() -> None:
    table = run_cv(_frame(), "toy", CONFIG, base_seed=0)
    values = table.pivot_table(index=["rep", "fold", "structure", "estimator"], columns="metric",
                               values="value")  # fmt: skip
    assert values.zero_one.between(0, 1).all() and values.auc.between(0, 1).all()
    assert (values.log_loss > 0).all() and values.rmse.between(0, 1).all()
    assert set(table.n) <= {44, 45, 46}  # each class halved: 90 rows in two folds


def test_learning_curve_sizes_run_up_to_the_whole_fold() -> None:
    assert curve_sizes([20, 40, 500], 45) == [20, 40, 45]
    table = run_learning_curve(_frame(), "toy", CONFIG, run=0, base_seed=0)
    assert sorted(table.n.unique()) == curve_sizes([20, 40, 500], int(table.n.max()))
    assert set(table.experiment) == {"learning_curve"} and set(table.structure) == {"nb"}
    assert table[table.metric == "log_loss"].groupby("n").size().eq(5).all()


def test_a_cell_job_reads_only_its_estimators_settings() -> None:
    assert cell_config(CONFIG, "hdp") == {"settings": {"hdp": CONFIG["settings"]["hdp"]}}
    assert cell_config(CONFIG, "bdeu10") == {"settings": {}}
    section = {**CONFIG, "cv": {"rounds": 2, "jobs": "cell"}}
    assert CellParams(section)(type("W", (), {"estimator": "laplace"})) == "'{\"settings\": {}}'"
    tables = cv_tables(section, ["a"], {})
    assert len(tables) == 2 * 2 * 2 * 5 and "results/panel/cv/a/r1f0/kdb2/hdp.parquet" in tables


def test_data_set_ids_are_unique_and_curves_name_panel_data_sets() -> None:
    section = {"registry": [{"id": "iris", "source": "petitjean2018/iris"}],
               "datasets": [{"id": "iris", "path": "x.csv", "target": "y"}],
               "learning_curve": {"datasets": []}}  # fmt: skip
    with pytest.raises(ValueError, match=r"panel\.datasets: data set id 'iris' is used twice"):
        dataset_entries(section)
    section["datasets"][0]["id"] = "mine"
    section["learning_curve"]["datasets"] = ["adult"]
    with pytest.raises(ValueError, match=r"\['adult'\] are not panel data sets"):
        dataset_entries(section)
