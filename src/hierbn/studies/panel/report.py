"""Figures of the panel report from its analysis tables: critical-difference diagrams (Demšar
2006 §3.2.2, Fig. 1, drawn by :func:`scikit_posthocs.critical_difference_diagram`), mean-rank
heat tables, learning curves and time against loss."""

from __future__ import annotations

import numpy as np
import pandas as pd
import scikit_posthocs
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from hierbn.report.plotting import new_figure
from hierbn.studies.panel.tables import dataset_means, nemenyi_matrix, rank_table

LABELS = {
    "log_loss": "log-loss",
    "zero_one": "0-1 loss",
    "rmse": "RMSE",
    "auc": "AUC",
    "fit_seconds": "fit seconds",
    "predict_seconds": "predict seconds",
}


def _label(metric: str) -> str:
    return LABELS.get(metric, metric)


COLORS = {"laplace": "C0", "bdeu1": "C1", "bdeu10": "C2", "m": "C3", "hier": "C4", "hdp": "C5",
          "hidden": "C6"}  # fmt: skip


def _colors(estimators: list[str]) -> dict[str, str]:
    """The colour of each estimator: the same in every figure; others get C7, C8, ..."""
    others = [e for e in dict.fromkeys(estimators) if e not in COLORS]
    return {**COLORS, **{e: f"C{(7 + i) % 10}" for i, e in enumerate(others)}}


def _empty(ax: Axes, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes)
    ax.set_axis_off()


def cd_diagrams(
    ranks: pd.DataFrame,
    friedman: pd.DataFrame,
    nemenyi: pd.DataFrame,
    metrics: tuple[str, ...] = ("log_loss", "zero_one"),
) -> Figure:
    """Critical-difference diagrams, a row per structure and a column per metric: estimators at
    their mean rank (1 = best) and bars joining those the Nemenyi test does not separate at
    alpha 0.05; each title gives the number of data sets, the Friedman p-value and the CD."""
    sub = ranks[ranks["metric"].isin(metrics)]
    structures = list(dict.fromkeys(sub["structure"]))
    fig, axes = new_figure(max(1, len(structures)), len(metrics), width=6.5, height=2.4)
    if not structures:
        _empty(axes[0, 0], "no ranks")
    colors = _colors(list(sub["estimator"]))
    for row, structure in enumerate(structures):
        for col, metric in enumerate(metrics):
            _cd_panel(axes[row, col], sub, friedman, nemenyi, structure, metric, colors)
    fig.tight_layout()
    return fig


def _cd_panel(ax: Axes, ranks: pd.DataFrame, friedman: pd.DataFrame, nemenyi: pd.DataFrame,
              structure: str, metric: str, colors: dict[str, str]) -> None:  # fmt: skip
    series = ranks[(ranks["structure"] == structure) & (ranks["metric"] == metric)]
    series = series.set_index("estimator")["mean_rank"]
    matrix = nemenyi_matrix(nemenyi, structure, metric)
    tests = friedman[(friedman["structure"] == structure) & (friedman["metric"] == metric)]
    n = int(tests["n_datasets"].iloc[0]) if len(tests) else 0
    if len(series) < 2 or n < 2 or set(matrix.index) != set(series.index):
        _empty(ax, f"{structure}, {_label(metric)}: not enough data sets or estimators")
        return
    scikit_posthocs.critical_difference_diagram(
        series, matrix, ax=ax, label_props={"fontsize": 8}, color_palette=colors
    )
    test = tests.iloc[0]
    ax.set_title(
        f"{structure}: {_label(metric)}, N = {n}, Friedman p = {test['p_value']:.2g}, "
        f"CD = {test['cd']:.2f}",
        fontsize=9,
    )


def rank_heatmap(ranks: pd.DataFrame, metric: str) -> Figure:
    """Structures x estimators of the mean rank for ``metric``, the value in each cell."""
    table = rank_table(ranks, metric)
    fig, axes = new_figure(1, 1, width=0.8 * max(table.shape[1], 4), height=0.5 * len(table) + 1.2)
    ax = axes[0, 0]
    if table.empty:
        _empty(ax, f"no {_label(metric)} ranks")
        return fig
    image = ax.imshow(table.to_numpy(dtype=float), cmap="RdYlGn_r", aspect="auto")
    for (i, j), value in np.ndenumerate(table.to_numpy(dtype=float)):
        ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(table.shape[1]), table.columns)
    ax.set_yticks(range(table.shape[0]), table.index)
    ax.set_title(f"mean rank in {_label(metric)} (1 = best)")
    fig.colorbar(image, ax=ax)
    fig.tight_layout()
    return fig


def learning_curves(points: pd.DataFrame, metric: str = "log_loss") -> Figure:
    """Mean test ``metric`` (+- standard error over splits) against the training size, log x
    axis: a row per data set, a panel per structure, a line per estimator, one legend.
    ``points`` is :func:`hierbn.studies.panel.tables.learning_curve_table`."""
    sub = points[points["metric"] == metric]
    structures = list(dict.fromkeys(sub["structure"]))
    datasets = list(dict.fromkeys(sub["dataset"]))
    colors = _colors(list(sub["estimator"]))
    fig, axes = new_figure(max(1, len(datasets)), max(1, len(structures)), width=4.0, height=3.2)
    if sub.empty:
        _empty(axes[0, 0], f"no {_label(metric)} learning curves")
    for row, dataset in enumerate(datasets):
        for col, structure in enumerate(structures):
            ax = axes[row, col]
            panel = sub[(sub["structure"] == structure) & (sub["dataset"] == dataset)]
            for estimator, line in panel.groupby("estimator", sort=False):
                line = line.sort_values("n")
                ax.errorbar(
                    line["n"], line["mean"], yerr=line["sem"], marker="o", ms=3,
                    color=colors[estimator], label=estimator,
                )  # fmt: skip
            ax.set_xscale("log")
            sizes = sorted(panel["n"].unique())
            ax.set_xticks(sizes, [str(int(n)) for n in sizes], fontsize=7, rotation=45)
            ax.minorticks_off()
            ax.set_xlabel("training size")
            ax.set_ylabel(_label(metric))
            ax.set_title(f"{dataset}, {structure}", fontsize=9)
    if not sub.empty:
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="upper center", ncol=len(labels), fontsize=8,
                   bbox_to_anchor=(0.5, 1.0))  # fmt: skip
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.35 / fig.get_figheight()))
    return fig


def time_vs_loss(cv: pd.DataFrame, metric: str = "log_loss") -> Figure:
    """Per structure, each estimator at its seconds (fit + predict) against ``metric``, both the
    mean over data sets of the CV means; log x axis."""
    means = dataset_means(cv)
    seconds = means[means["metric"].isin(["fit_seconds", "predict_seconds"])]
    seconds = seconds.groupby(["structure", "estimator", "dataset"], sort=False)["value"].sum()
    loss = means[means["metric"] == metric].set_index(["structure", "estimator", "dataset"])
    both = pd.DataFrame({"seconds": seconds, "loss": loss["value"]}).dropna()
    both = both.groupby(level=["structure", "estimator"], sort=False).mean().reset_index()
    structures = list(dict.fromkeys(both["structure"]))
    colors = _colors(list(means["estimator"]))
    cols = min(3, max(1, len(structures)))
    fig, axes = new_figure(-(-max(1, len(structures)) // cols), cols, width=4.3, height=3.4)
    if both.empty:
        _empty(axes[0, 0], f"no timings with {_label(metric)}")
    for ax in axes.flat[len(structures) :]:
        ax.set_axis_off()
    for ax, structure in zip(axes.flat, structures, strict=False):
        for point in both[both["structure"] == structure].itertuples():
            ax.scatter(point.seconds, point.loss, color=colors[point.estimator], s=18)
            ax.annotate(point.estimator, (point.seconds, point.loss), fontsize=8,
                        xytext=(3, 3), textcoords="offset points")  # fmt: skip
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("fit + predict seconds")
        ax.set_ylabel(_label(metric))
        ax.set_title(structure, fontsize=9)
    fig.tight_layout()
    return fig
