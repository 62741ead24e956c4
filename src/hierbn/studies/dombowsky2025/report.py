"""Views and figures of the dombowsky2025 report: Tables 1, 3, 7 and 8 with the paper's value
beside ours, the sampler diagnostics, Figure 10 (square-root estimates of the ALARM CPTs) and
log-posterior trace plots. They format the claims step's summaries; nothing here fits."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from hierbn.studies.dombowsky2025.alarm import LEVELS, PARENTS
from hierbn.studies.dombowsky2025.paper import TABLE1_METHODS

LEVEL_COLORS = {"FALSE": "#9ecae1", "TRUE": "#08519c", "LOW": "#fdae6b", "NORMAL": "#a1d99b",
                "HIGH": "#de2d26"}  # fmt: skip


def _mean_sd(mean: float, sd: float, digits: int = 3) -> str:
    return "—" if pd.isna(mean) else f"{mean:.{digits}f} ({sd:.{digits}f})"


def table1_view(table: pd.DataFrame) -> pd.DataFrame:
    """Rows K, per method 'ours' and 'paper' mean (SD) RMSE."""
    cells = {}
    extra = sorted(m for m in set(table.method) if m.startswith("HiDDeN,"))
    for method in [m for m in (TABLE1_METHODS[0], *extra, *TABLE1_METHODS[1:])
                   if m in set(table.method)]:  # fmt: skip
        sub = table[table.method == method].set_index("K")
        cells[(method, "ours")] = [_mean_sd(r["mean"], r["sd"]) for _, r in sub.iterrows()]
        if sub.paper_mean.notna().any():
            cells[(method, "paper")] = [_mean_sd(r.paper_mean, r.paper_sd)
                                        for _, r in sub.iterrows()]  # fmt: skip
        index = sub.index
    out = pd.DataFrame(cells, index=index)
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    out["data sets"] = table.groupby("K").datasets.max().reindex(out.index).astype(str)
    logit = table[table.method == "Logit Bayes"].set_index("K").datasets
    if len(logit):
        out["data sets"] = out["data sets"] + " (logit Bayes " + logit.reindex(out.index).fillna(
            0).astype(int).astype(str) + ")"  # fmt: skip
    return out


def rates_view(table: pd.DataFrame, column: str, order: list[str]) -> pd.DataFrame:
    """Rows method, columns the setting: 'ours (paper)' selection rates."""
    pivot = table.pivot(index="method", columns=column, values="rate")
    paper = table.pivot(index="method", columns=column, values="paper")
    text = pivot.map(lambda v: f"{v:.2f}") + paper.map(
        lambda v: "" if pd.isna(v) else f" ({v:.2f})")  # fmt: skip
    return text.reindex([m for m in order if m in text.index])


def table7_view(table: pd.DataFrame) -> pd.DataFrame:
    """Rows (truth, n), per quantity 'ours' and 'paper' mean (SD)."""
    cells = {}
    for quantity, label in (("prob", "Pr(G_true | n)"), ("BIC", "ΔBIC"), ("AIC", "ΔAIC"),
                            ("BDE", "ΔBDE")):  # fmt: skip
        sub = table[table.quantity == quantity].set_index(["truth", "n"]).sort_index()
        cells[(label, "ours")] = [_mean_sd(r["mean"], r["sd"]) for _, r in sub.iterrows()]
        cells[(label, "paper")] = [_mean_sd(r.paper_mean, r.paper_sd) for _, r in sub.iterrows()]
        index = sub.index
    out = pd.DataFrame(cells, index=index)
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    return out


def figure10(predictive: pd.DataFrame) -> Figure:
    """Figure 10: sqrt of the eq. (14) estimate of Pr(x_j | x_Pa) per parent configuration on
    the headline subsample (bars), with the mean over all subsamples (black ticks) and the
    configuration's count n_Pa in the tick label."""
    fig, axes = plt.subplots(1, len(PARENTS), figsize=(17, 3.8))
    for ax, node in zip(axes, PARENTS, strict=True):
        sub = predictive[predictive.node == node]
        configs = list(dict.fromkeys(sub.parents))
        levels = LEVELS[node]
        width = 0.8 / len(levels)
        for k, level in enumerate(levels):
            rows = sub[sub.level == level].set_index("parents").reindex(configs)
            x = np.arange(len(configs)) + (k - (len(levels) - 1) / 2) * width
            ax.bar(x, np.sqrt(rows.predictive), width, color=LEVEL_COLORS[level], label=level)
            ax.plot(x, np.sqrt(rows.mean_over_subsamples), "_", color="black", ms=8)
        counts = sub.groupby("parents", sort=False)["count"].sum().reindex(configs)
        ax.set_xticks(np.arange(len(configs)))
        ax.set_xticklabels([f"{c.replace(', ', chr(10))}\nn={int(n)}" for c, n in
                            zip(configs, counts, strict=True)], fontsize=7)  # fmt: skip
        ax.set_ylim(0, 1.02)
        ax.set_title(f"{node} | {', '.join(PARENTS[node])}", fontsize=9)
        ax.legend(fontsize=7, loc="upper right")
    axes[0].set_ylabel("sqrt of estimated probability")
    fig.suptitle("Fig. 10: HiDDeN estimates of the ALARM CPTs (headline subsample; black ticks: "
                 "mean over subsamples)", fontsize=10)  # fmt: skip
    fig.tight_layout()
    return fig


def trace_figure(traces: pd.DataFrame) -> Figure:
    """Log-posterior traces (first replicate of each setting's first block)."""
    panels = [("table1", "K"), ("table3", "k1"), ("tables78", "truth"), ("alarm", "node")]
    panels = [(e, c) for e, c in panels if (traces.experiment == e).any()]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.4 * len(panels), 3.2), squeeze=False)
    for ax, (experiment, column) in zip(axes[0], panels, strict=True):
        sub = traces[traces.experiment == experiment]
        if experiment == "tables78":
            sub = sub.assign(truth=sub.truth + ", n=" + sub.n.astype(int).astype(str))
        for label, rows in sub.groupby(column, sort=False):
            first = rows[rows.rep == rows.rep.min()].sort_values("iteration")
            text = f"{label:g}" if isinstance(label, float) else str(label)
            ax.plot(first.iteration, first.log_posterior, lw=0.5, label=text)
        ax.set_title(f"{experiment}: log-posterior by {column}", fontsize=9)
        ax.set_xlabel("iteration")
        ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    return fig
