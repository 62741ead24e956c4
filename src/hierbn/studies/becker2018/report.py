"""Figures of the becker2018 report: Figure 2 (Delta by VB +- 1.96 SD vs the Gibbs 2.5–97.5%
interval, the intercept in its own panel) and the class-level beta panel of decision 10."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from hierbn.report.plotting import new_figure
from hierbn.studies.becker2018.paper import PREDICTORS

COLORS = {
    "vb-faithful": "#d62728",
    "vb-corrected": "#ff7f0e",
    "gibbs": "#1f77b4",
    "nuts": "#2ca02c",
}
LABELS = {"vb-faithful": "VB (faithful) ±1.96 SD", "vb-corrected": "VB (corrected) ±1.96 SD",
          "gibbs": "Gibbs 2.5–97.5%", "nuts": "Stan NUTS 2.5–97.5% (not in the paper)"}  # fmt: skip


def _dodged(ax, table: pd.DataFrame, terms: list[str], zero_line: bool = True) -> None:
    methods = [m for m in COLORS if m in set(table.method)]
    width = 0.8 / max(len(methods), 1)
    for k, method in enumerate(methods):
        sub = table[table.method == method].set_index("term").reindex(terms)
        x = np.arange(len(terms)) + (k - (len(methods) - 1) / 2) * width
        ax.errorbar(x, sub["mean"], yerr=[sub["mean"] - sub["lower"], sub["upper"] - sub["mean"]],
                    fmt="o", ms=3, lw=1, color=COLORS[method], label=LABELS[method])  # fmt: skip
    ax.set_xticks(np.arange(len(terms)))
    ax.set_xticklabels(terms, rotation=90, fontsize=7)
    if zero_line:
        ax.axhline(0, color="grey", lw=0.5)


def figure2(table: pd.DataFrame) -> Figure:
    """Population weights Delta: VB vs Gibbs (and NUTS) point estimates and 95% intervals."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4), gridspec_kw={"width_ratios": [14, 1]})
    _dodged(left, table, list(PREDICTORS))
    _dodged(right, table, ["intercept"], zero_line=False)
    left.set_ylabel("Delta_d")
    left.legend(fontsize=7, ncol=2, loc="upper right")
    fig.suptitle(
        "Fig. 2: population weights, VB vs Gibbs (intercept on its own scale)", fontsize=10
    )
    fig.tight_layout()
    return fig


def class_beta_table(vb: pd.DataFrame, gibbs: pd.DataFrame, classes: list[int]) -> pd.DataFrame:
    """beta_i of the given classes: VB (both variants) mean +- 1.96 SD and Gibbs quantiles."""
    rows = []
    for method in sorted(vb.method.unique()):
        sub = vb[(vb.method == method) & (vb.parameter == "beta") & vb["class"].isin(classes)]
        wide = sub.pivot_table(
            index=["class", "term"], columns="metric", values="value"
        ).reset_index()
        rows += [{"class": int(t[1]), "term": t.term, "method": method, "mean": t.mean,
                  "lower": t.mean - 1.96 * t.sd, "upper": t.mean + 1.96 * t.sd}
                 for t in wide.itertuples()]  # fmt: skip
    for p in gibbs[gibbs.parameter.str.startswith("beta[")].itertuples():
        cls, term = p.parameter[5:-1].split(",", 1)
        if int(cls) in classes:
            rows.append({"class": int(cls), "term": term, "method": p.method, "mean": p.mean,
                         "lower": p.q025, "upper": p.q975})  # fmt: skip
    return pd.DataFrame(rows)


def class_figure(table: pd.DataFrame) -> Figure:
    """Decision 10's extra panel: beta_i of class 7 (largest intercept) and 12 (41 rows)."""
    classes = sorted(table["class"].unique())
    fig, axes = new_figure(len(classes), 1, width=12, height=3.2)
    for ax, cls in zip(axes[:, 0], classes, strict=True):
        _dodged(ax, table[(table["class"] == cls) & (table.term != "intercept")], list(PREDICTORS))
        ax.set_title(f"class {cls}: beta_i (intercept omitted)", fontsize=9)
    axes[0, 0].legend(fontsize=7, ncol=3)
    fig.tight_layout()
    return fig


def table2_view(table2: pd.DataFrame) -> pd.DataFrame:
    """Table 2: ours next to the paper's per term, with the differences."""
    ours = table2.pivot_table(index="term", columns="metric", values="value")
    paper = table2.pivot_table(index="term", columns="metric", values="paper")
    out = pd.concat({"ours": ours, "paper": paper, "ours - paper": ours - paper}, axis=1)
    order = list(PREDICTORS)
    return out.reindex(order).round(4)


def rankings_view(rankings: pd.DataFrame, kind: str, methods: list[str]) -> pd.DataFrame:
    """One column per method: the items of ``kind`` (question or class) in rank order."""
    sub = rankings[(rankings.kind == kind) & rankings.method.isin(methods)]
    return sub.pivot_table(index="rank", columns="method", values="item", aggfunc="first")[methods]


def tau_view(rankings: pd.DataFrame) -> pd.DataFrame:
    """Kendall tau between every pair of the question (and class) rankings."""
    from hierbn.studies.becker2018.tables import kendall, ranking

    rows = []
    for kind, methods in (("question", ["paper-lasso", "lasso-exact", "lasso-grid", "paper-vb",
                                        "vb-faithful", "vb-corrected"]),
                          ("class", ["paper-lasso", "lasso-exact", "lasso-grid", "paper-vb",
                                     "vb-faithful", "vb-corrected"])):  # fmt: skip
        present = [m for m in methods if ((rankings.method == m) & (rankings.kind == kind)).any()]
        for i, a in enumerate(present):
            for b in present[i + 1 :]:
                tau = kendall(ranking(rankings, a, kind), ranking(rankings, b, kind))
                rows.append({"kind": kind, "a": a, "b": b, "tau": round(tau, 3)})
    return pd.DataFrame(rows)


def metric_view(table: pd.DataFrame, index: list[str]) -> pd.DataFrame:
    """Methods x metrics (mean over repetitions) of a tidy table."""
    return table.pivot_table(index=index, columns="metric", values="value", aggfunc="mean").round(4)


def figure2_view(table: pd.DataFrame) -> pd.DataFrame:
    """Figure 2's numbers: mean and SD per term (spec order) and method."""
    wide = table.pivot_table(index="term", columns="method", values=["mean", "sd"])
    return wide.reindex([*PREDICTORS, "intercept"]).round(4)
