import json

import numpy as np
import pandas as pd
import pytest

from hierbn.data.cv import encode_fold
from hierbn.metrics import rmse_multiclass, zero_one_loss
from hierbn.stats_tests import sign_test
from hierbn.studies import claims as C
from hierbn.studies.petitjean2018 import paper as P
from hierbn.studies.petitjean2018.claims import Results, evaluate_claims
from hierbn.studies.petitjean2018.protocol import (
    Method,
    cell_config,
    cv_methods,
    cv_splits,
    run_cv,
    run_cv_cell,
    run_learning_curve,
    win_draw_loss,
)
from hierbn.studies.petitjean2018.tables import iteration_table

CV_CONFIG = {
    "rounds": 2,
    "structures": ["nb", "tan", "skdb"],
    "backoff": "literal",
    "hdp": {"iterations": 60, "tying": "level", "prior": [0.0, 0.0], "conc_every": 5},
    "iteration_study": {"structures": ["tan"], "tyings": ["single", "level"], "iterations": [20]},
    "prior_sensitivity": {"structures": ["skdb"], "prior": [2.0, 1.0]},
    "random_forest": {"trees": 5},
}


def test_stratified_5x2_folds_partition_the_data() -> None:
    y = np.repeat([0, 1, 2], [50, 30, 21])
    splits = cv_splits(y, "toy", range(5), base_seed=0)
    assert len(splits) == 10
    for r in range(5):
        (_, _, tr0, te0), (_, _, _, te1) = splits[2 * r], splits[2 * r + 1]
        assert np.array_equal(np.sort(np.concatenate([te0, te1])), np.arange(y.size))
        assert np.array_equal(tr0, te1)
        assert abs(np.mean(y[te0] == 0) - 50 / 101) < 0.02  # stratified
    assert not np.array_equal(splits[0][3], splits[2][3])  # a fresh split per round
    assert np.array_equal(cv_splits(y, "toy", range(5), 0)[4][3], splits[4][3])  # reproducible


def test_fold_encoding_fits_cuts_on_training_rows_and_keeps_missing() -> None:
    frame = pd.DataFrame(
        {
            "a": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0, np.nan, 100.0],
            "b": pd.Categorical(["x", "y", None, "x", "y", "x", "y", "x"]),
            "class": pd.Categorical(list("ppp" + "qqq" + "pq")),
        }
    )
    train, test = np.arange(6), np.array([6, 7])
    tr, te, names, cards = encode_fold(frame, "class", train, test)
    assert names == ["a", "b", "class"] and cards == [
        3,
        3,
        2,
    ]  # 2 MDL bins + missing; 2 levels + missing
    assert tr[:, 0].tolist() == [0, 0, 0, 1, 1, 1] and te[:, 0].tolist() == [2, 1]
    assert tr[2, 1] == 2  # the missing category


def test_metrics_and_sign_test() -> None:
    proba = np.array([[0.7, 0.3], [0.4, 0.6]])
    y = np.array([0, 0])
    assert zero_one_loss(y, proba) == 0.5
    assert rmse_multiclass(y, proba) == pytest.approx(
        np.sqrt(np.mean([(0.09 + 0.09) / 2, (0.36 + 0.36) / 2]))
    )
    assert sign_test(6, 0) == pytest.approx(0.03125) and sign_test(0, 0) == 1.0


def _cv(values: dict[str, list[float]]) -> pd.DataFrame:
    rows = []
    for method, per_dataset in values.items():
        for d, v in enumerate(per_dataset):
            rows.append({"dataset": f"d{d}", "method": method, "metric": "rmse", "value": v})
    return pd.DataFrame(rows)


def test_win_draw_loss_rounds_before_comparing() -> None:
    cv = _cv({"a": [0.1, 0.2, 0.30001, 0.5], "b": [0.2, 0.1, 0.3, 0.6]})
    w = win_draw_loss(cv, "a", "b", "rmse")
    assert (w["wins"], w["draws"], w["losses"]) == (2, 1, 1)


def test_claims_without_experiments_are_not_covered() -> None:
    """NB alone is not Table 2: H2 needs all 8 BNCs and names the 7 that did not run."""
    cv = _cv({"nb-hdp": [0.1, 0.1], "nb-m": [0.2, 0.2]})
    config = {"cv": {**CV_CONFIG, "iteration_study": None}, "registry": ["d0", "d1"]}
    run = {d.key: d.paper for d in P.SCALE} | {"hdp_iterations": 1000, "datasets": 2}
    claims = evaluate_claims(Results(cv, config), run)
    by_id = {c["id"]: c for c in claims}
    assert [c["id"] for c in claims] == [f"H{i}" for i in range(1, 14)]
    assert {c["status"] for c in claims} == {"not covered"}
    assert "tan, kdb1, kdb2, kdb3, kdb4, kdb5, skdb" in by_id["H2"]["note"]
    assert by_id["H1"]["scale"] == "paper" and by_id["H13"]["scale"] == "paper"
    assert by_id["H2"]["scale"] == (
        "HDP chains of 1,000 of the paper's 50,000 iterations; 2 of the paper's 68 data sets"
    )
    assert {c["cause"] for c in claims} == {C.REDUCED_SCALE} and all(c["evidence"] for c in claims)


def test_method_names_round_trip_and_the_main_hdp_run_is_not_repeated() -> None:
    names = cv_methods(CV_CONFIG)
    assert names == [
        "nb-m",
        "nb-hdp",
        "tan-m",
        "tan-hdp",
        "skdb-m",
        "skdb-hdp",
        "tan-hdp-single-20",
        "tan-hdp-single-60",
        "tan-hdp-level-20",
        "skdb-hdp-prior",
        "rf",
        "rf-sklearn",
    ]
    assert all(Method.parse(n).name == n for n in names)
    with pytest.raises(ValueError, match="unknown method"):
        Method.parse("tan-hdp-level")


def _toy_frame(n: int = 120) -> pd.DataFrame:
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, n)
    a = y + rng.normal(0, 0.7, n)
    b = (y + (rng.random(n) < 0.3)) % 3
    return pd.DataFrame(
        {
            "a": a,
            "b": pd.Categorical.from_codes(b, ["u", "v", "w"]),
            "c": pd.Categorical.from_codes((b + rng.integers(0, 2, n)) % 3, ["p", "q", "r"]),
            "class": pd.Categorical.from_codes(y, ["neg", "pos"]),
        }
    )


def test_a_cv_cell_job_gives_the_rows_of_the_whole_data_set_job() -> None:
    """Splitting the CV into (round, fold, method) jobs must not change any number, for every
    method: a cell job gets only ``cell_config`` (a paper-scale prior-sensitivity cell once
    failed reading the main prior it is not given)."""
    frame = _toy_frame()
    whole = run_cv(frame, "toy", CV_CONFIG, base_seed=3)
    assert set(whole["method"]) == set(cv_methods(CV_CONFIG))
    assert len(whole.groupby(["rep", "fold"])) == 4
    columns = ["metric", "value", "seed"]
    for method in cv_methods(CV_CONFIG):
        cell = run_cv_cell(
            frame, "toy", (1, 0, method), cell_config(CV_CONFIG, method), base_seed=3
        )
        same = whole[(whole.rep == 1) & (whole.fold == 0) & (whole.method == method)]
        pd.testing.assert_frame_equal(
            cell[~cell.metric.str.endswith("seconds")][columns].reset_index(drop=True),
            same[~same.metric.str.endswith("seconds")][columns].reset_index(drop=True),
        )
    with pytest.raises(ValueError, match="unknown method"):
        cell_config(CV_CONFIG, "kdb9-hdp")


def test_a_round_job_writes_exactly_the_rows_of_its_single_cell_jobs() -> None:
    """``cv.jobs: round`` (issue 24) groups both folds of every method in one process: every
    row, seed and number equals the single (round, fold, method) jobs' rows, in their order;
    only the ``config`` column differs (a cell records the values its method reads) and the
    measured seconds."""
    frame = _toy_frame()
    grouped = run_cv(frame, "toy", CV_CONFIG, base_seed=3, rounds=[1])
    cells = pd.concat(
        [
            run_cv_cell(frame, "toy", (1, f, m), cell_config(CV_CONFIG, m), base_seed=3)
            for f in (0, 1)
            for m in cv_methods(CV_CONFIG)
        ],
        ignore_index=True,
    )
    assert set(grouped.rep) == {1} and len(grouped) == len(cells) > 0
    numbers = [c for c in cells.columns if c != "config"]
    timed = cells.metric.str.endswith("seconds")  # a cell's and its HDP chains' seconds
    pd.testing.assert_frame_equal(grouped[~timed][numbers], cells[~timed][numbers])
    described = [c for c in numbers if c != "value"]
    pd.testing.assert_frame_equal(grouped[timed][described], cells[timed][described])
    with pytest.raises(ValueError, match="no round"):
        run_cv(frame, "toy", CV_CONFIG, base_seed=3, rounds=[2])


def test_an_hdp_cells_sampling_seconds_are_part_of_its_seconds() -> None:
    """Every HDP cell records the seconds its chains sampled (what grows with the iterations,
    for ``hierbn jobsizes --scaling``), positive and below the cell's seconds; no other does."""
    cv = run_cv(_toy_frame(), "toy", CV_CONFIG, base_seed=3, rounds=[0])
    wide = cv.pivot_table(index=["fold", "method"], columns="metric", values="value")
    hdp = wide.index.get_level_values("method").str.contains("-hdp")
    assert hdp.any() and (~hdp).any()
    assert (wide.loc[hdp, "sampling_seconds"] > 0).all()
    assert (wide.loc[hdp, "sampling_seconds"] < wide.loc[hdp, "seconds"]).all()
    assert wide.loc[~hdp, "sampling_seconds"].isna().all()


def test_a_round_outside_the_cv_is_refused_on_the_command_line(tmp_path) -> None:
    from hierbn.cli import main

    data = tmp_path / "toy.parquet"
    _toy_frame().to_parquet(data)
    argv = ["petitjean2018", "cv", "--canonical", str(data), "--dataset", "toy", "--round", "2"]
    with pytest.raises(SystemExit, match="--round 2: no such round in 2x2 CV"):
        main([*argv, "--config", json.dumps(CV_CONFIG), "--out", str(tmp_path / "out.parquet")])
    assert not (tmp_path / "out.parquet").exists()


def test_iteration_table_compares_with_the_longest_chain_and_with_level() -> None:
    config = {"cv": CV_CONFIG}
    cv = _cv(
        {
            "tan-hdp": [0.10, 0.10, 0.10],  # level at 60 (the main run)
            "tan-hdp-level-20": [0.20, 0.20, 0.05],
            "tan-hdp-single-20": [0.30, 0.30, 0.30],
            "tan-hdp-single-60": [0.05, 0.05, 0.20],
        }
    )
    table = iteration_table(cv, config).set_index(["figure", "tying", "iterations"])
    fig4 = table.loc[("fig4", "level", 20)]
    assert (fig4["a"], fig4["b"], fig4["wins"], fig4["losses"]) == (
        "tan-hdp-level-20",
        "tan-hdp",
        1,
        2,
    )
    fig5 = table.loc[("fig5", "single", 60)]
    assert (fig5["b"], fig5["wins"], fig5["losses"]) == ("tan-hdp", 2, 1)
    assert ("fig4", "level", 60) not in table.index  # the longest chain is the reference


def test_learning_curve_uses_nested_training_samples_and_a_fixed_test_third() -> None:
    frame = _toy_frame(150)
    config = {
        "sizes": [20, 60, 500],
        "structures": ["nb"],
        "backoff": "literal",
        "hdp": {"iterations": 30, "tying": "level", "prior": [0.0, 0.0], "conc_every": 5},
    }
    curve = run_learning_curve(frame, "toy", config, run=0, base_seed=1)
    assert sorted(curve["n"].unique()) == [20, 60]  # 500 exceeds the 100-row pool
    assert set(curve["method"]) == {"nb-m", "nb-hdp"}
    rmse = curve[curve.metric == "rmse"]
    assert rmse["value"].between(0, 1).all() and len(rmse) == 4
