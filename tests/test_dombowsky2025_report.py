"""The dombowsky2025 report's structure-learning views and figures (ALARM Tables 10-11, LUCAS
Tables 2 and 6 and Figure 3, METABRIC Figures 5-6 and its data report, the trace plots) on small
constructed frames, and the notebook's inputs: declared ones only, never a directory listing."""

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection
from matplotlib.patches import FancyArrowPatch

from hierbn.studies.dombowsky2025 import report as views
from hierbn.studies.dombowsky2025.lucas import TARGETS, true_blankets
from hierbn.studies.dombowsky2025.structure import COVARIATES, OUTCOMES
from hierbn.studies.dombowsky2025.workflow import report_inputs

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "dombowsky2025.ipynb"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ------------------------------------------------------------------------------ ALARM F.3
def test_table10_view_indexes_by_node_and_set_and_marks_small_and_unprinted() -> None:
    table = pd.DataFrame({"node": ["HIST", "HIST"], "parent_set": ["{LVF}", "{HYP}"],
                          "probability": [0.9996, 0.0004], "probability_rb": [0.9995, 0.0],
                          "mean_over_subsamples": [0.85, 0.15], "paper": [0.825, np.nan]})  # fmt: skip
    view = views.table10_view(table)
    assert view.index.names == ["node", "parent set"]
    assert view.loc[("HIST", "{HYP}")].tolist() == ["<0.001", "0.000", "0.150", "—"]
    assert view.loc[("HIST", "{LVF}"), "visit frequency"] == "1.000"


def test_table11_view_orders_edges_as_the_paper_by_parent_then_node() -> None:
    table = pd.DataFrame({"parent": ["HYP", "LVF", "HIST", "LVF"], "node": ["HIST", "LVV", "STKV", "HIST"],
                          "probability": [0.14, 1.0, 0.1, 1.0], "mean_over_subsamples": 0.5,
                          "min_over_subsamples": 0.1, "max_over_subsamples": 0.9,
                          "paper": [0.0, 1.0, np.nan, 1.0]})  # fmt: skip
    view = views.table11_view(table)
    assert list(view.index) == ["LVF → HIST", "LVF → LVV", "HYP → HIST", "HIST → STKV"]
    assert view.loc["HYP → HIST", "paper"] == "0.000"
    assert view.loc["HIST → STKV", "paper"] == "—"


def test_alarm_maps_view_counts_subsamples_whose_map_is_the_truth() -> None:
    maps = pd.DataFrame({"node": ["HIST", "STKV"], "map_is_truth": [1.0, 20 / 21],
                         "subsamples": [21, 21], "headline_map": ["{LVF}", "{LVF,HYP}"],
                         "truth": ["{LVF}", "{LVF,HYP}"]})  # fmt: skip
    view = views.alarm_maps_view(maps)
    assert view["subsamples whose MAP is the truth"].tolist() == [
        "21 of 21 (100%)",
        "20 of 21 (95%)",
    ]
    assert list(view.index) == [0, 1]  # shown with show_text_table, which hides it


# ------------------------------------------------------------------------------ LUCAS
def _table2() -> pd.DataFrame:
    """Two methods on three targets, given out of Table 2's order."""
    targets = ["Lung_cancer", "Smoking", "Genetics"]
    rows = [
        {"node": t, "method": "HiDDeN", "hamming": h, "paper": p}
        for t, h, p in zip(targets, [1.0, 2.0, 0.0], [0.0, 2.0, 0.0], strict=True)
    ]
    rows += [
        {"node": t, "method": "Group lasso", "hamming": h, "paper": np.nan}
        for t, h in zip(targets, [0.0, 3.0, 1.0], strict=True)
    ]
    rows += [
        {"node": t, "method": "Group lasso ([code])", "hamming": h, "paper": p}
        for t, h, p in zip(targets, [4.0, 1.0, 2.0], [4.0, np.nan, 2.0], strict=True)
    ]
    return pd.DataFrame(rows)


def test_table2_view_orders_targets_as_table2_and_totals_each_column() -> None:
    view = views.table2_view(_table2())
    assert list(view.index) == ["Smoking", "Genetics", "Lung_cancer", "Total"]
    assert list(view.columns) == ["HiDDeN (MAP)", "Group lasso (corrected)", "Group lasso ([code])"]
    assert view["HiDDeN (MAP)"].tolist() == ["2 (2)", "0 (0)", "1 (0)", "3 (2)"]
    # the corrected lasso has no printed value; [code]'s total is the paper's only if it printed all
    assert view["Group lasso (corrected)"].tolist() == ["3", "1", "0", "4"]
    assert view.loc["Total", "Group lasso ([code])"] == "7"


def _diagnostics() -> pd.DataFrame:
    """Smoking and Lung_cancer, given out of Table 2's order."""
    return pd.DataFrame({
        "node": ["Smoking", "Lung_cancer"],
        "eps": [np.array([0.3, 0.3]), np.array([0.11, 0.2])],
        "acceptance": [np.array([0.5461, 0.522]), np.array([0.543, 0.556])],
        "logpost_ess": [2709.4, 1782.8],
        "paper_eps": [np.array([0.3, 0.3]), np.array([0.11, 0.15])],
        "paper_acceptance": [np.array([0.554, 0.534]), None],
        "paper_ess": [1311.484, np.nan],
    }).iloc[::-1]  # fmt: skip


def test_table6_view_orders_targets_and_names_differing_paper_step_sizes() -> None:
    view = views.table6_view(_diagnostics())
    assert view.index.name == "target" and list(view.index) == ["Smoking", "Lung_cancer"]
    assert view["ε"].tolist() == ["0.3 / 0.3", "0.11 / 0.2 (paper 0.11 / 0.15)"]
    assert view["acceptance, ours (paper)"].tolist() == [
        "0.546 / 0.522 (0.554 / 0.534)",
        "0.543 / 0.556",
    ]
    assert view["log-posterior ESS, ours (paper)"].tolist() == ["2,709 (1,311)", "1,783"]


def _selections() -> tuple[pd.DataFrame, dict[str, int]]:
    """LUCAS selections over all variables per target: HiDDeN's MAP is the truth minus its
    first variable plus Born_an_Even_Day; the number of blanket variables (truth | selected)."""
    truth = true_blankets()
    variables = sorted({v for b in truth.values() for v in b} | {"Born_an_Even_Day"})
    rows, drawn = [], {}
    for target in TARGETS:
        missed = sorted(truth[target])[0]
        selected = (truth[target] - {missed}) | {"Born_an_Even_Day"}
        drawn[target] = len(truth[target] | selected)
        rows += [{"node": target, "variable": v, "HiDDeN": float(v in selected),
                  "edge_probability": 0.9 if v in selected else 0.1, "in_truth": v in truth[target]}
                 for v in variables if v != target]  # fmt: skip
    return pd.DataFrame(rows), drawn


def test_figure3_has_six_panels_with_one_edge_per_blanket_variable() -> None:
    selections, drawn = _selections()
    fig = views.figure3(selections)
    assert len(fig.axes) == 6
    for ax, target in zip(fig.axes, TARGETS, strict=True):
        lines = [c for c in ax.collections if isinstance(c, LineCollection)]
        assert sum(len(c.get_segments()) for c in lines) == drawn[target], target
        assert ax.get_title().startswith(target.replace("_", " "))
        assert "(Hamming 2)" in ax.get_title()  # one missed, one extra


# ------------------------------------------------------------------------------ METABRIC
def _parents() -> pd.DataFrame:
    """Every candidate of each outcome; HiDDeN selects COH for all and TSI for TBS, HC only
    TSI -> TBS, the lasso every candidate."""
    rows = []
    for outcome in reversed(OUTCOMES):  # out of order on purpose
        for v in reversed([*COVARIATES, *OUTCOMES[: OUTCOMES.index(outcome)]]):
            hidden = v == "COH" or (v, outcome) == ("TSI", "TBS")
            rows.append({"node": outcome, "variable": v, "HiDDeN": float(hidden),
                         "HC": float((v, outcome) == ("TSI", "TBS")), "TABU": 0.0,
                         "Group lasso": 1.0, "edge_probability": 0.98 if hidden else 0.3,
                         "paper_mpm": v == "COH",
                         "paper_probability": 0.548 if (v, outcome) == ("IMS", "CHT") else np.nan})  # fmt: skip
    return pd.DataFrame(rows)


def test_metabric_parents_view_orders_outcomes_and_candidates_and_ticks_selections() -> None:
    view = views.metabric_parents_view(_parents())
    assert view.index.names == ["outcome", "candidate"]
    assert list(dict.fromkeys(view.index.get_level_values("outcome"))) == list(OUTCOMES)
    assert list(view.loc["DFC"].index) == [*COVARIATES, "TBS", "CHT"]
    assert list(view.columns) == ["HiDDeN Pr(edge)", "HiDDeN MPM", "paper's MPM", "HC", "TABU",
                                  "group lasso (corrected)"]  # fmt: skip
    assert view.loc[("TBS", "TSI")].tolist() == ["0.980", "✓", "", "✓", "", "✓"]
    assert view.loc[("CHT", "IMS"), "HiDDeN Pr(edge)"] == "0.300 (paper 0.548)"


def test_metabric_edges_and_dag_figures_draw_exactly_the_selected_edges() -> None:
    parents = _parents()
    edges = views.metabric_edges(parents, "HiDDeN")
    assert edges == [("TSI", "TBS"), ("COH", "TBS"), ("COH", "CHT"), ("COH", "DFC")]
    fig = views.figure5(parents)
    arrows = [p for p in fig.axes[0].patches if isinstance(p, FancyArrowPatch)]
    assert len(arrows) == len(edges)
    fig = views.figure5_competitors(parents)
    assert [ax.get_title() for ax in fig.axes] == ["HC", "TABU", "group lasso (corrected)"]
    counts = [sum(isinstance(p, FancyArrowPatch) for p in ax.patches) for ax in fig.axes]
    assert counts == [1, 0, 9 + 10 + 11]  # the lasso: every candidate of every outcome


def test_figure6_greys_out_non_candidates() -> None:
    fig = views.figure6(_parents())
    grid = fig.axes[0].images[0].get_array()
    assert grid.shape == (len(COVARIATES) + 2, 3)
    assert grid.mask[len(COVARIATES), 0] and grid.mask[-1, :2].all()  # TBS -> TBS, CHT -> TBS/CHT
    assert not grid.mask[-1, 2]


def test_metabric_data_report_views() -> None:
    check = {"mode": "code", "patients": 2509, "n": 1933, "paper_n": 1867, "dropped": 576,
             "drop_reasons": {"no patient attributes": 529, "tumour size missing": 47},
             "levels": {"PTL": {"": 97, "Left": 957}, "INC": {"1": 1139, "10": 2}},
             "column_map": {"PTL": "patient:LATERALITY", "INC": "patient:INTCLUST"}}  # fmt: skip
    assert "n = **1,933** patients (the paper: 1,867; +66)" in views.metabric_summary_text(check)
    drops = views.metabric_drops_view(check)
    assert drops.patients.tolist() == ["529", "47"]
    levels = views.metabric_levels_view(check)
    assert levels["levels, ours (Table 4)"].tolist() == ["2 (2)", "2 (10)"]
    assert levels["level: count"].tolist() == ["(empty): 97, Left: 957", "1: 1,139, 10: 2"]


# ------------------------------------------------------------------------------ traces
def test_trace_figure_draws_chains_without_replicates_in_one_strip_per_node() -> None:
    iterations = np.arange(0, 100, 5)
    table1 = pd.DataFrame({"experiment": "table1", "K": 2.0, "rep": [0.0] * 20 + [1.0] * 20,
                           "iteration": np.tile(iterations, 2), "log_posterior": -70.0})  # fmt: skip
    lucas = pd.DataFrame({"experiment": "lucas", "node": np.repeat(["Smoking", "Genetics", "Allergy"], 20),
                          "rep": np.nan, "iteration": np.tile(iterations, 3),
                          "log_posterior": np.tile(-400.0 - iterations / 100, 3)})  # fmt: skip
    fig = views.trace_figure(pd.concat([table1, lucas], ignore_index=True))
    assert len(fig.axes) == 1 + 3
    assert len(fig.axes[0].lines[0].get_xdata()) == 20  # table1: the first replicate only
    assert [len(ax.lines[0].get_xdata()) for ax in fig.axes[1:]] == [20, 20, 20]
    assert [ax.texts[0].get_text() for ax in fig.axes[1:]] == ["Smoking", "Genetics", "Allergy"]


# ------------------------------------------------------------------------------ notebook
def _notebook_code() -> str:
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def test_notebook_reads_only_declared_inputs_and_never_lists_a_directory() -> None:
    code = _notebook_code()
    assert not re.search(r"\bglob\b|listdir|iterdir|os\.walk|scandir", code)
    used = set(re.findall(r"""report\.(?:table|paths)\(\s*["']([^"']+)["']\s*\)""", code))
    used |= set(re.findall(r"""["']([^"']+)["']\s+in\s+report\.inputs""", code))
    section = {"alarm": {"enabled": True}, "lucas": {"enabled": True},
               "metabric": {"enabled": True, "mode": "code"}}  # fmt: skip
    declared = {"claims", *report_inputs(section)}
    assert {"table10", "table2", "lucas_selections", "metabric_parents", "metabric_check"} <= used
    assert used <= declared, used - declared


def test_notebook_tests_for_the_checks_declared_only_for_enabled_experiments() -> None:
    code = _notebook_code()
    disabled = {"alarm": {"enabled": False}, "lucas": {"enabled": False},
                "metabric": {"enabled": False, "mode": "code"}}  # fmt: skip
    for name in ("lucas_check", "metabric_check"):
        assert name not in report_inputs(disabled)
        assert re.search(rf"""if ["']{name}["'] in report\.inputs:""", code), name
