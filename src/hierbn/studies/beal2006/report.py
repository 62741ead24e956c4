"""Figures 2–6 of beal2006 (our versions) from the result tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from hierbn.report.plotting import new_figure
from hierbn.scoring.ais import schedule
from hierbn.studies.beal2006.paper import FIG2_SIZES
from hierbn.studies.beal2006.tables import CORRECTED, experiment_b, kl_to_ais, true_ranks

FIG2_METHODS = ("MAP", "BIC", "BICp", "CS", "VB", "AIS")
COLORS = {
    "BIC": "tab:blue",
    "BICp": "tab:cyan",
    "CS": "tab:green",
    "VB": "tab:red",
    "AIS": "black",
    "MAP": "tab:gray",
}


def figure2(wide: pd.DataFrame) -> Figure:
    """All structure scores against d(m), rows n (the paper's seven sizes that were run),
    columns methods; o = true structure, x = top-scoring structure."""
    inst0 = wide[wide.rep == 0]
    run = sorted(inst0["n"].unique())
    sizes = [n for n in FIG2_SIZES if n in run] or run
    methods = [m for m in FIG2_METHODS if m in inst0]
    fig, axes = new_figure(len(sizes), len(methods), width=2.2, height=1.9)
    for r, n in enumerate(sizes):
        g = inst0[inst0.n == n]
        for c, m in enumerate(methods):
            ax = axes[r, c]
            ax.scatter(g["d"], g[m], s=6, color="0.5")
            t = g[g.is_true]
            ax.scatter(t["d"], t[m], s=40, facecolors="none", edgecolors="tab:red", label="true")
            best = g.loc[g[m].idxmax()]
            ax.scatter([best["d"]], [best[m]], marker="x", s=40, color="black", label="top")
            if r == 0:
                ax.set_title(m)
            if c == 0:
                ax.set_ylabel(f"n = {n}")
            if r == len(sizes) - 1:
                ax.set_xlabel("d(m)")
    fig.suptitle("Fig. 2: scores of all 136 structures against the number of parameters")
    fig.tight_layout()
    return fig


def figure3(wide: pd.DataFrame) -> Figure:
    """(a) rank of T vs n, (b) score gap vs n, (c) KL(P_AIS || P_method) vs n."""
    methods = [m for m in (*CORRECTED, "AIS") if m in wide]
    ranks = true_ranks(wide[wide.rep == 0], methods)
    fig, axes = new_figure(1, 3, width=4.0, height=3.0)
    for m in methods:
        r = ranks[ranks.method == m]
        axes[0, 0].plot(r["n"], r["rank"], marker="o", color=COLORS[m], label=m)
        axes[0, 1].plot(r["n"], r["gap"], marker="o", color=COLORS[m], label=m)
    kl = kl_to_ais(wide, list(CORRECTED))
    for m in CORRECTED:
        k = kl[kl.method == m] if not kl.empty else kl
        if not k.empty:
            axes[0, 2].plot(k["n"], k["kl"], marker="o", color=COLORS[m], label=m)
    for ax, title in zip(
        axes[0],
        ("(a) rank of true structure", "(b) score(T) - max score", "(c) KL from AIS posterior"),
        strict=True,
    ):
        ax.set_xscale("log")
        ax.set_xlabel("n")
        ax.set_title(title)
    axes[0, 0].invert_yaxis()
    axes[0, 0].legend(fontsize=7)
    fig.suptitle("Fig. 3: Experiment A")
    fig.tight_layout()
    return fig


def _experiment_b_panels(wide: pd.DataFrame, panels: list[tuple[str, str]], title: str) -> Figure:
    b = experiment_b(wide)
    fig, axes = new_figure(1, len(panels), width=3.4, height=2.8)
    for ax, (col, label) in zip(axes[0], panels, strict=True):
        for m in CORRECTED:
            s = b[b.method == m]
            ax.plot(s["n"], s[col], marker="o", color=COLORS[m], label=m)
        ax.set_xscale("log")
        ax.set_title(label)
        ax.set_xlabel("n")
        if "rank" in col:
            ax.invert_yaxis()
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(f"{title} ({int(b['instances'].max())} parameter draws)")
    fig.tight_layout()
    return fig


def figure4(wide: pd.DataFrame) -> Figure:
    """Experiment B: (a) median and (b) best rank of the true structure against n."""
    panels = [("median_rank", "(a) median rank"), ("best_rank", "(b) best rank")]
    return _experiment_b_panels(wide, panels, "Fig. 4: Experiment B")


def figure5(wide: pd.DataFrame) -> Figure:
    """Experiment B: (a) success rate, (b) mean P(T | y), (c) fraction with P(T | y) > 1/136."""
    panels = [("success", "(a) success rate"), ("mean_p_true", "(b) mean P(T | y)"),
              ("frac_above_uniform", "(c) P(T | y) > 1/136")]  # fmt: skip
    return _experiment_b_panels(wide, panels, "Fig. 5: Experiment B")


def figure6(ais: pd.DataFrame, sched: pd.DataFrame, wide: pd.DataFrame) -> Figure:
    """(a) ln AIS vs K at n = 480 with VB* and BIC* lines; (b) acceptance vs n; (c) per quarter; (d) tau(k)."""
    fig, axes = new_figure(1, 4, width=3.4, height=2.9)
    ax = axes[0, 0]
    for (start, _trace), g in sched.groupby(["start", "rep"]):
        ax.plot(g["steps"], g["value"], color="tab:red" if start == "true" else "0.5", lw=1)
    n = int(sched["n"].iloc[0])
    t = wide[(wide.rep == 0) & (wide.n == n) & wide.is_true]
    if len(t):
        ax.axhline(float(t["VB*"].iloc[0]), color="black", label="VB*")
        ax.axhline(float(t["BIC*"].iloc[0]), color="black", ls="--", label="BIC*")
    ax.set_xscale("log")
    ax.set_xlabel("K")
    ax.set_title(f"(a) ln AIS, n = {n}")
    ax.legend(fontsize=7)
    acc = ais[ais.metric == "acceptance"].groupby("n")["value"].agg(["mean", "std"])
    axes[0, 1].errorbar(acc.index, acc["mean"], yerr=acc["std"], marker="o")
    axes[0, 1].set_xscale("log")
    axes[0, 1].set_title("(b) MH acceptance")
    quarters = (
        ais[ais.metric.str.startswith("acceptance_q")]
        .groupby(["n", "metric"])["value"]
        .mean()
        .unstack()
    )
    for q in quarters.columns:
        axes[0, 2].plot(quarters.index, quarters[q], marker="o", label=q[-2:])
    axes[0, 2].set_xscale("log")
    axes[0, 2].set_title("(c) acceptance per quarter")
    axes[0, 2].legend(fontsize=7)
    x = np.linspace(0, 1, 201)
    for e in (0.01, 0.05, 0.2, 1, 10, 100):
        axes[0, 3].plot(x, schedule(200, e), label=f"e = {e}")
    axes[0, 3].set_title("(d) tau(k) vs k/K")
    axes[0, 3].legend(fontsize=6)
    for ax in axes[0, 1:3]:
        ax.set_xlabel("n")
    fig.suptitle("Fig. 6: AIS analysis")
    fig.tight_layout()
    return fig
