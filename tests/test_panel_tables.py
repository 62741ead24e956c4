"""The panel's analysis tables, figures and notebook on hand-made CV tables: ranks with
ties, the Friedman statistic by hand, the Nemenyi CD against Demšar (2006) Table 5(a), W/D/L
with the sign test, metric directions; the claims are tested in test_panel_claims.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs
from scipy.stats import binomtest, chi2, f

from hierbn.io import write_json, write_parquet
from hierbn.studies.panel import paper as P
from hierbn.studies.panel import report as figs
from hierbn.studies.panel.claims import evaluate_claims
from hierbn.studies.panel.tables import (
    analysis_tables,
    critical_difference,
    curve_ends,
    dataset_means,
    friedman_nemenyi,
    learning_curve_table,
    mean_ranks,
    nemenyi_matrix,
    orientation,
    per_dataset_table,
    rank_table,
    wdl_matrix,
    win_draw_loss,
)

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "panel.ipynb"
ESTIMATORS = ["laplace", "bdeu1", "bdeu10", "m", "hier", "hdp", "hidden"]
STRUCTURES = ["nb", "tan", "kdb1", "kdb2", "kdb3", "skdb"]
METRICS = ["zero_one", "rmse", "log_loss", "auc", "fit_seconds", "predict_seconds"]


def _cv(values: dict[tuple[str, str], float], structure: str = "tan", metric: str = "log_loss"):
    """Two CV splits per (dataset, estimator) whose mean is the given value (dyadic offsets,
    so the means are exact)."""
    rows = [
        {"dataset": d, "structure": structure, "estimator": e, "metric": metric, "rep": 0,
         "fold": fold, "value": v + (0.0625 if fold else -0.0625)}
        for (d, e), v in values.items()
        for fold in (0, 1)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def _table(matrix: list[list[float]], estimators: list[str], **kw) -> pd.DataFrame:
    """A CV table from a data sets x estimators matrix of CV means."""
    values = {
        (f"d{i}", e): v
        for i, row in enumerate(matrix)
        for e, v in zip(estimators, row, strict=True)
    }
    return _cv(values, **kw)


def _panel(
    quality: dict[str, float],
    structures: list[str],
    n_datasets: int = 6,
    metrics: tuple[str, ...] = ("log_loss", "rmse", "zero_one", "fit_seconds", "predict_seconds"),
    seed: int = 0,
) -> pd.DataFrame:
    """Every structure x estimator x metric on ``n_datasets``: estimator e has the value
    quality[e] + data-set noise far smaller than the gaps between estimators."""
    rng = np.random.default_rng(seed)
    frames = []
    for structure in structures:
        for metric in metrics:
            matrix = [
                [quality[e] + 0.001 * rng.random() for e in quality] for _ in range(n_datasets)
            ]
            frames.append(_table(matrix, list(quality), structure=structure, metric=metric))
    return pd.concat(frames, ignore_index=True)


# ------------------------------------------------------------------------------ ranks
RANK_MATRIX = [[0.125, 0.25, 0.375], [0.25, 0.25, 0.125], [0.375, 0.125, 0.25]]


def test_dataset_means_average_the_splits() -> None:
    means = dataset_means(_table(RANK_MATRIX, ["a", "b", "c"]))
    assert len(means) == 9
    assert means.set_index(["dataset", "estimator"]).loc[("d1", "c"), "value"] == 0.125


def test_mean_ranks_with_ties_get_average_ranks() -> None:
    ranks = mean_ranks(_table(RANK_MATRIX, ["a", "b", "c"])).set_index("estimator")
    # d0: a1 b2 c3; d1: c1, a and b tie at 2.5; d2: b1 c2 a3
    assert ranks["mean_rank"].to_dict() == pytest.approx({"a": 6.5 / 3, "b": 5.5 / 3, "c": 2.0})
    assert set(ranks["n_datasets"]) == {3}
    assert ranks["mean_rank"].sum() == pytest.approx(6.0)  # k(k+1)/2


def test_auc_is_ranked_higher_is_better() -> None:
    assert orientation("auc") == -1.0 and orientation("log_loss") == 1.0
    ranks = mean_ranks(_table(RANK_MATRIX, ["a", "b", "c"], metric="auc"))
    assert ranks.set_index("estimator")["mean_rank"].to_dict() == pytest.approx(
        {"a": 4 - 6.5 / 3, "b": 4 - 5.5 / 3, "c": 2.0}
    )
    with pytest.raises(ValueError, match="accuracy"):
        orientation("accuracy")


def test_data_sets_missing_an_estimator_are_left_out_of_the_ranks() -> None:
    cv = _table(RANK_MATRIX, ["a", "b", "c"])
    cv = cv[~((cv.dataset == "d2") & (cv.estimator == "a"))]
    ranks = mean_ranks(cv).set_index("estimator")
    assert set(ranks["n_datasets"]) == {2}
    assert ranks.loc["a", "mean_rank"] == pytest.approx((1 + 2.5) / 2)


# ------------------------------------------------------------------------ Friedman, CD
def test_friedman_statistic_equals_demsar_formula_without_ties() -> None:
    rng = np.random.default_rng(3)
    n, k = 7, 4
    matrix = rng.permutation(np.arange(n * k)).reshape(n, k) / 64  # distinct: no ties
    row, _ = friedman_nemenyi(_table(matrix.tolist(), list("abcd")), "tan", "log_loss")
    r = np.argsort(np.argsort(matrix, axis=1), axis=1).mean(axis=0) + 1  # mean ranks
    chi2_f = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
    f_f = (n - 1) * chi2_f / (n * (k - 1) - chi2_f)
    assert row["statistic"] == pytest.approx(chi2_f)
    assert row["p_value"] == pytest.approx(chi2.sf(chi2_f, k - 1))
    assert row["iman_davenport"] == pytest.approx(f_f)
    assert row["iman_davenport_p"] == pytest.approx(f.sf(f_f, k - 1, (k - 1) * (n - 1)))
    assert (row["k"], row["n_datasets"]) == (k, n)


def test_friedman_is_nan_with_too_few_estimators_or_data_sets() -> None:
    two = friedman_nemenyi(_table([[0.125, 0.25]] * 4, ["a", "b"]), "tan", "log_loss")[0]
    one_set = friedman_nemenyi(_table([[0.125, 0.25, 0.375]], list("abc")), "tan", "log_loss")
    assert math.isnan(two["statistic"]) and math.isnan(two["p_value"])
    assert math.isnan(one_set[0]["p_value"]) and math.isnan(one_set[0]["cd"])
    assert one_set[1].empty


@pytest.mark.parametrize(
    ("k", "q"),  # Demšar (2006) Table 5(a): q_0.05 of the Nemenyi test
    [(2, 1.960), (3, 2.343), (4, 2.569), (5, 2.728), (6, 2.850), (7, 2.949), (10, 3.164)],
)
def test_critical_difference_matches_demsar_table(k: int, q: float) -> None:
    n = 10
    assert critical_difference(k, n) == pytest.approx(
        q * math.sqrt(k * (k + 1) / (6 * n)), abs=2e-3
    )


def test_critical_difference_for_four_estimators_on_ten_data_sets() -> None:
    assert critical_difference(4, 10) == pytest.approx(1.483, abs=1e-3)


def test_nemenyi_long_table_is_scikit_posthocs_matrix() -> None:
    rng = np.random.default_rng(5)
    matrix = rng.random((10, 4))
    matrix[:, 0] -= 1  # a is always best
    row, pairs = friedman_nemenyi(_table(matrix.tolist(), list("abcd")), "tan", "log_loss")
    assert len(pairs) == 6 and list(pairs.columns) == ["structure", "metric", "a", "b", "p_value"]
    expected = scikit_posthocs.posthoc_nemenyi_friedman(
        dataset_means(_table(matrix.tolist(), list("abcd")))
        .pivot(index="dataset", columns="estimator", values="value")
        .to_numpy()
    )
    square = nemenyi_matrix(pairs, "tan", "log_loss")
    assert np.allclose(square.to_numpy(), expected.to_numpy())
    assert row["cd"] == pytest.approx(1.483, abs=1e-3)
    assert pairs.set_index(["a", "b"]).loc[("a", "d"), "p_value"] < 0.05


# ----------------------------------------------------------------------------- W/D/L
WDL_MATRIX = [[0.1, 0.2]] * 6 + [[0.30001, 0.3]] + [[0.5, 0.4]]  # a better 6x, 1 draw, 1 worse


def test_win_draw_loss_counts_and_sign_test() -> None:
    record = win_draw_loss(_table(WDL_MATRIX, ["a", "b"])).iloc[0]
    assert (record.a, record.b) == ("a", "b")
    assert (record.wins, record.draws, record.losses, record.n_datasets) == (6, 1, 1, 8)
    assert record.p_value == pytest.approx(binomtest(6, 7, 0.5).pvalue)
    assert record.p_value == pytest.approx(2 * (1 + 7) / 2**7)


def test_win_draw_loss_turns_with_the_metric_direction_and_pair_order() -> None:
    auc = win_draw_loss(_table(WDL_MATRIX, ["a", "b"], metric="auc")).iloc[0]
    assert (auc.wins, auc.draws, auc.losses) == (1, 1, 6)
    swapped = win_draw_loss(_table(WDL_MATRIX, ["a", "b"]), pairs=[("b", "a"), ("b", "x")])
    assert len(swapped) == 1
    assert (swapped.iloc[0].wins, swapped.iloc[0].losses) == (1, 6)


def test_win_draw_loss_matrix_reads_row_against_column() -> None:
    wdl = win_draw_loss(_table(WDL_MATRIX * 2, ["a", "b"]))  # 12-2-2: p = 0.013
    matrix = wdl_matrix(wdl, wdl.structure.iloc[0], "log_loss")
    assert (matrix.loc["a", "b"], matrix.loc["b", "a"]) == ("12-2-2*", "2-2-12*")
    assert matrix.loc["a", "a"] == ""


def test_win_draw_loss_covers_every_pair_structure_and_metric() -> None:
    cv = _panel({e: i / 10 for i, e in enumerate(ESTIMATORS)}, ["nb", "tan"], n_datasets=3)
    table = win_draw_loss(cv)
    assert len(table) == 2 * 5 * 21
    assert (table.wins == 3).all()  # the first of each pair is better everywhere


# ------------------------------------------------------------------- report tables
def test_per_dataset_table_names_the_best_with_ties() -> None:
    table = per_dataset_table(_table(RANK_MATRIX, ["a", "b", "c"]), "tan", "log_loss")
    assert list(table["best"]) == ["a", "c", "b"]
    tied = per_dataset_table(_table(RANK_MATRIX, ["a", "b", "c"], metric="auc"), "tan", "auc")
    assert list(tied["best"]) == ["c", "a, b", "a"]
    assert table.loc["d0", "b"] == 0.25


def test_rank_table_keeps_the_tables_order_and_curve_ends_the_end_sizes() -> None:
    ranks = mean_ranks(_panel(GOOD, ["tan", "nb"]))
    table = rank_table(ranks, "log_loss")
    sub = ranks[ranks.metric == "log_loss"]
    assert list(table.index) == ["tan", "nb"]
    assert list(table.columns) == list(pd.unique(sub.estimator))  # best first here
    nb = sub[sub.structure == "nb"].set_index("estimator").mean_rank
    assert table.loc["nb"].tolist() == nb[table.columns].tolist()
    curves = pd.concat(
        [_cv({("adult", "hdp"): v}).assign(n=n) for n, v in ((50, 0.9), (200, 0.7), (800, 0.3))]
    )
    ends = curve_ends(learning_curve_table(curves), "log_loss")
    assert [i[-1] for i in ends.index] == [50, 800] and ends["hdp"].tolist() == [0.9, 0.3]


def test_learning_curve_table_averages_runs_and_folds() -> None:
    curves = _cv({("adult", "hdp"): 0.5}).assign(n=100)
    points = learning_curve_table(curves)
    assert len(points) == 1
    assert points.iloc[0]["mean"] == 0.5 and points.iloc[0]["splits"] == 2
    assert points.iloc[0]["sem"] == pytest.approx(0.0625)
    assert learning_curve_table(curves.iloc[:0]).empty


def test_analysis_tables_are_tidy_and_handle_an_empty_table() -> None:
    cv = _panel({e: i / 10 for i, e in enumerate(ESTIMATORS)}, ["tan"], n_datasets=4)
    tables = analysis_tables(cv)
    assert set(tables) == {"ranks", "friedman", "nemenyi", "wdl"}
    assert len(tables["ranks"]) == 5 * 7 and len(tables["nemenyi"]) == 5 * 21
    empty = analysis_tables(cv.iloc[:0])
    assert all(t.empty and len(t.columns) for t in empty.values())


# ------------------------------------------------------------------- shared inputs
GOOD = {"hidden": 0.1, "hdp": 0.2, "hier": 0.3, "m": 0.4, "bdeu10": 0.5, "bdeu1": 0.6,
        "laplace": 0.7}  # fmt: skip
CONFIG = {"structures": STRUCTURES, "estimators": ESTIMATORS}
PAPER_RUN = {d.key: d.paper for d in P.SCALE}  # a run at the paper scale


def _curves(quality: dict[str, float]) -> pd.DataFrame:
    frames = [
        _panel(quality, ["nb", "tan"], n_datasets=1, metrics=("log_loss",), seed=n).assign(
            n=n, dataset=dataset
        )
        for n in (50, 500)
        for dataset in ("adult", "car")
    ]
    return pd.concat(frames, ignore_index=True)


# -------------------------------------------------------------------------- figures
def test_figures_have_a_panel_per_structure_data_set_and_estimator() -> None:
    cv = _panel(GOOD, ["nb", "tan", "kdb2"])
    tables = analysis_tables(cv)
    cd = figs.cd_diagrams(tables["ranks"], tables["friedman"], tables["nemenyi"])
    titles = [ax.get_title().split(",")[0] for ax in cd.axes]  # rows: structures; columns: metrics
    assert titles == ["nb: log-loss", "nb: 0-1 loss", "tan: log-loss", "tan: 0-1 loss",
                      "kdb2: log-loss", "kdb2: 0-1 loss"]  # fmt: skip
    assert all(len(ax.texts) >= 7 for ax in cd.axes)  # a label per estimator
    points = learning_curve_table(_curves(GOOD))
    curves = figs.learning_curves(points, "log_loss")
    assert len(curves.axes) == 2 * 2  # data sets x structures
    assert len(curves.legends) == 1
    assert all(ax.get_xscale() == "log" and len(ax.lines) >= 7 for ax in curves.axes)
    time = figs.time_vs_loss(cv, "zero_one")
    assert [ax.get_title() for ax in time.axes] == ["nb", "tan", "kdb2"]
    assert all(ax.get_xscale() == "log" and len(ax.collections) == 7 for ax in time.axes)
    heat = figs.rank_heatmap(tables["ranks"], "log_loss")
    assert heat.axes[0].images[0].get_array().shape == (3, 7)


def test_figures_survive_empty_tables() -> None:
    empty = analysis_tables(_panel(GOOD, ["tan"]).iloc[:0])
    assert len(figs.cd_diagrams(empty["ranks"], empty["friedman"], empty["nemenyi"]).axes) == 2
    assert len(figs.learning_curves(learning_curve_table(pd.DataFrame()), "log_loss").axes) == 1


# ------------------------------------------------------------------------- notebook
def _code_cells() -> list[str]:
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    assert all("id" in c for c in cells)
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def test_notebook_reads_only_declared_inputs() -> None:
    code = "\n".join(_code_cells())
    assert "glob" not in NOTEBOOK.read_text()
    assert "fit(" not in code
    used = set(pd.Series([code]).str.extractall(r"""report\.table\(\s*["']([^"']+)["']""")[0])
    assert used == {"cv", "learning_curve", "ranks", "friedman", "nemenyi", "wdl"}


@pytest.mark.parametrize("with_curves", [True, False])
def test_notebook_runs_on_synthetic_inputs(tmp_path: Path, with_curves: bool) -> None:
    cv = _panel(GOOD, ["nb", "tan"], n_datasets=3, metrics=tuple(METRICS))
    curves = _curves(GOOD) if with_curves else pd.DataFrame(columns=[*cv.columns, "n"])
    inputs = {"cv": tmp_path / "cv.parquet", "learning_curve": tmp_path / "lc.parquet"}
    write_parquet(cv, inputs["cv"])
    write_parquet(curves, inputs["learning_curve"])
    for name, table in analysis_tables(cv).items():
        inputs[name] = tmp_path / f"{name}.parquet"
        write_parquet(table, inputs[name])
    inputs["claims"] = tmp_path / "claims.json"
    write_json(
        {"study": "panel", "claims": evaluate_claims(cv, curves, CONFIG, PAPER_RUN)},
        inputs["claims"],
    )
    inputs["data_report"] = tmp_path / "data_report.tsv"
    pd.DataFrame({"id": ["d0", "d1", "d2"], "rows": [10, 20, 30]}).to_csv(
        inputs["data_report"], sep="\t", index=False
    )
    namespace = {"inputs": {k: str(v) for k, v in inputs.items()}, "figures_dir": tmp_path}
    for code in _code_cells()[1:]:
        exec(code, namespace)
    figures = {p.stem for p in tmp_path.glob("*.png")}
    assert {"cd_diagrams", "time_log_loss", "ranks_log_loss"} <= figures
    assert ("learning_curve_log_loss" in figures) == with_curves
