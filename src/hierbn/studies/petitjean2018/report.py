"""Figures 4–8 of petitjean2018 (our versions) from the result tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from hierbn.report.plotting import new_figure
from hierbn.studies.petitjean2018.protocol import win_draw_loss


def _means(cv: pd.DataFrame, metric: str) -> pd.DataFrame:
    return cv[cv.metric == metric].groupby(["dataset", "method"])["value"].mean().unstack()


def _scatter(ax, x: pd.Series, y: pd.Series, xlabel: str, ylabel: str) -> None:
    ax.scatter(x, y, s=12)
    top = float(np.nanmax([x.max(), y.max()]))
    ax.plot([0, top], [0, top], color="black", lw=0.6)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)


def figure6(cv: pd.DataFrame) -> Figure:
    """(a) kDB-5 RMSE, HDP vs m-estimate, per data set; (b) kDB-5 vs kDB-x W - L (RMSE)."""
    fig, axes = new_figure(1, 2, width=4.2, height=3.6)
    rmse = _means(cv, "rmse")
    if {"kdb5-hdp", "kdb5-m"} <= set(rmse.columns):
        _scatter(
            axes[0, 0], rmse["kdb5-m"], rmse["kdb5-hdp"], "kDB-5 m-estimate RMSE", "kDB-5 HDP RMSE"
        )
    axes[0, 0].set_title("(a) below the diagonal: HDP better")
    for estimator in ("hdp", "m"):
        xs, balance = [], []
        for x, name in enumerate(("nb", "kdb1", "kdb2", "kdb3", "kdb4")):
            if {f"kdb5-{estimator}", f"{name}-{estimator}"} <= set(rmse.columns):
                w = win_draw_loss(cv, f"kdb5-{estimator}", f"{name}-{estimator}", "rmse")
                xs.append(x)
                balance.append(w["wins"] - w["losses"])
        axes[0, 1].plot(xs, balance, marker="o", label=estimator)
    axes[0, 1].axhline(0, color="black", lw=0.6)
    axes[0, 1].set_xlabel("x in kDB-5 vs kDB-x")
    axes[0, 1].set_ylabel("wins - losses")
    axes[0, 1].set_title("(b) kDB-5 vs kDB-x")
    axes[0, 1].legend(fontsize=7)
    fig.suptitle("Fig. 6")
    fig.tight_layout()
    return fig


def figure8(cv: pd.DataFrame) -> Figure:
    """0-1 loss of TAN and SkDB (HDP) against random forest, per data set."""
    zero_one = _means(cv, "zero_one")
    pairs = [m for m in ("tan-hdp", "skdb-hdp") if m in zero_one and "rf" in zero_one]
    fig, axes = new_figure(1, max(1, len(pairs)), width=3.8, height=3.6)
    for ax, method in zip(axes[0], pairs, strict=False):
        _scatter(ax, zero_one["rf"], zero_one[method], "RF 0-1 loss", f"{method} 0-1 loss")
    fig.suptitle("Fig. 8: below the diagonal the BNC is better")
    fig.tight_layout()
    return fig


def _balance_lines(ax, table: pd.DataFrame, label) -> None:
    for key, sub in table.groupby(["structure", "tying"]):
        sub = sub.sort_values("iterations")
        ax.plot(sub["iterations"], sub["wins"] - sub["losses"], marker="o", label=label(*key))
    ax.axhline(0, color="black", lw=0.6)
    ax.set_xscale("log")
    grid = sorted(table["iterations"].unique())
    ax.set_xticks(grid, [str(int(x)) for x in grid])
    ax.minorticks_off()
    ax.set_xlabel("iterations x")
    ax.legend(fontsize=7)


def figure4(iterations: pd.DataFrame) -> Figure:
    """Fig. 4: RMSE wins - losses of x iterations against the longest chain, per structure and
    tying (negative: the longer chain is better)."""
    fig, axes = new_figure(1, 1, width=5.0, height=3.6)
    table = iterations[iterations.figure == "fig4"]
    _balance_lines(axes[0, 0], table, lambda s, t: f"{s}-{t}")
    longest = int(iterations["iterations"].max()) if not iterations.empty else 0
    axes[0, 0].set_ylabel(f"wins - losses vs {longest} iterations")
    fig.suptitle("Fig. 4: fewer iterations vs the longest chain (RMSE)")
    fig.tight_layout()
    return fig


def figure5(iterations: pd.DataFrame) -> Figure:
    """Fig. 5: RMSE wins - losses of Single or SameParent tying against Level at each x
    (negative: Level is better)."""
    fig, axes = new_figure(1, 1, width=5.0, height=3.6)
    table = iterations[iterations.figure == "fig5"]
    _balance_lines(axes[0, 0], table, lambda s, t: f"{s}: {t} vs level")
    axes[0, 0].set_ylabel("wins - losses vs Level")
    fig.suptitle("Fig. 5: tying strategies against Level (RMSE)")
    fig.tight_layout()
    return fig


def figure7(curves: pd.DataFrame) -> Figure:
    """Fig. 7: mean test RMSE (+- standard error over runs) against the training size, one panel
    per data set and structure, HDP vs m-estimate."""
    panels = sorted(
        {(d, m.split("-")[0]) for d, m in zip(curves["dataset"], curves["method"], strict=True)}
    )
    fig, axes = new_figure(1, max(1, len(panels)), width=3.6, height=3.4)
    for ax, (dataset, structure) in zip(axes[0], panels, strict=False):
        for estimator in ("hdp", "m"):
            sub = curves[
                (curves.dataset == dataset) & (curves.method == f"{structure}-{estimator}")
            ]
            sub = sub.sort_values("n")
            ax.errorbar(sub["n"], sub["mean"], yerr=sub["sem"], marker="o", ms=3, label=estimator)
        ax.set_xscale("log")
        ax.set_xlabel("training size")
        ax.set_ylabel("RMSE")
        ax.set_title(f"{dataset}, {structure}")
        ax.legend(fontsize=7)
    fig.suptitle("Fig. 7: learning curves")
    fig.tight_layout()
    return fig
