"""Views and figures of the dombowsky2025 report: Tables 1, 3, 7 and 8 with the paper's value
beside ours, the sampler diagnostics, Figure 10 (square-root estimates of the ALARM CPTs) and
log-posterior trace plots. They format the claims step's summaries; nothing here fits."""

from __future__ import annotations

import re

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
    main = table[table.method != "Logit Bayes"].groupby("K").datasets.max().reindex(out.index)
    logit = table[table.method == "Logit Bayes"].set_index("K").datasets.reindex(out.index)
    out[("data sets", "")] = [str(int(m)) if pd.isna(b) or b == m else f"{int(m)} (logit Bayes {int(b)})"
                        for m, b in zip(main, logit, strict=True)]  # fmt: skip
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


def _setting_key(setting: str) -> tuple:
    """Sort 'K=10' after 'K=2' and 'G1, n=150' after 'G1, n=75': numbers compare as numbers."""
    return tuple(int(part) if part.isdigit() else part
                 for part in re.split(r"(\d+)", setting))  # fmt: skip


def diagnostics_view(table: pd.DataFrame) -> pd.DataFrame:
    """Rows (experiment, setting, method) in numeric order; acceptance of t(1) / t(2) / t(3) in
    one column; coda log-posterior ESS (smallest, median) rounded to whole draws."""
    order = sorted(range(len(table)), key=lambda i: (
        table.experiment.iloc[i], _setting_key(table.setting.iloc[i]), table.method.iloc[i]))  # fmt: skip
    rows = table.iloc[order]
    accept = rows.filter(like="acceptance_t")
    out = pd.DataFrame({
        "acceptance t(1) / t(2) / t(3)": [" / ".join(f"{v:.2f}" for v in r if pd.notna(v))
                                          for r in accept.to_numpy()],
        "log-posterior ESS, smallest": rows.logpost_ess_min.round().astype(int).to_numpy(),
        "log-posterior ESS, median": rows.logpost_ess_median.round().astype(int).to_numpy(),
        "chains": rows.chains.to_numpy(),
        "stuck chains": rows.stuck_chains.to_numpy(),
        "iterations": rows.iterations.map("{:,}".format).to_numpy(),
    }, index=pd.MultiIndex.from_frame(rows[["experiment", "setting", "method"]]))  # fmt: skip
    return out


def table3_probabilities_view(table: pd.DataFrame) -> pd.DataFrame:
    """Mean HiDDeN Pr(G2 | n) per k1: visit frequency and Rao–Blackwellised estimate."""
    rows = table[table.method == "HiDDeN"].sort_values("k1").set_index("k1")
    return pd.DataFrame({"replications": rows.reps,
                         "mean Pr(G2 | n), visit frequency": rows.prob_G2.round(3),
                         "mean Pr(G2 | n), Rao–Blackwellised": rows.prob_G2_rb.round(3)})  # fmt: skip


def alarm_levels_view(levels: dict[str, dict[str, int]]) -> pd.DataFrame:
    """The level counts of ``bnlearn::alarm`` per node of Figure 10."""
    return pd.DataFrame({"node": list(levels),
                         "levels (count)": [", ".join(f"{k} {v:,}" for k, v in counts.items())
                                            for counts in levels.values()]})  # fmt: skip


def alarm_ess_view(table: pd.DataFrame) -> pd.DataFrame:
    """ESS of the sampled predictive cell probabilities: ours on the headline subsample, the
    smallest over all subsamples, and the paper's."""
    rows = table.set_index("node")
    return pd.DataFrame({
        "ours, headline (min – max)": [f"{a:,.0f} – {b:,.0f}" for a, b in zip(rows["min"], rows["max"], strict=True)],
        "ours, smallest over subsamples": rows.min_over_subsamples.map("{:,.0f}".format),
        "paper (min – max)": [f"{a:,.0f} – {b:,.0f}" for a, b in zip(rows.paper_min, rows.paper_max, strict=True)],
    }, index=rows.index)  # fmt: skip


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
        ax.set_ylim(0, 1.22)  # headroom for the legend above the bars
        ax.set_yticks(np.linspace(0, 1, 6))
        ax.set_title(f"{node} | {', '.join(PARENTS[node])}", fontsize=9)
        ax.legend(fontsize=7, loc="upper center", ncol=len(levels), frameon=False)
    axes[0].set_ylabel("sqrt of estimated probability")
    fig.suptitle("Fig. 10: HiDDeN estimates of the ALARM CPTs (headline subsample; black ticks: "
                 "mean over subsamples)", fontsize=10)  # fmt: skip
    fig.tight_layout()
    return fig


def trace_figure(traces: pd.DataFrame) -> Figure:
    """Log-posterior traces (first replicate of each setting's first block)."""
    panels = [("table1", "K"), ("table3", "k1"), ("tables78", "truth"), ("alarm", "node")]
    panels = [(e, c) for e, c in panels if (traces.experiment == e).any()]
    n_rows = (len(panels) + 1) // 2
    fig, axes = plt.subplots(n_rows, 2, figsize=(14, 4.2 * n_rows), squeeze=False)
    for ax in axes.flat[len(panels) :]:
        ax.remove()
    for ax, (experiment, column) in zip(axes.flat[: len(panels)], panels, strict=True):
        sub = traces[traces.experiment == experiment]
        if experiment == "tables78":
            sub = sub.assign(truth=sub.truth + ", n=" + sub.n.astype(int).astype(str))
        for label, rows in sub.groupby(column, sort=False):
            first = rows[rows.rep == rows.rep.min()].sort_values("iteration")
            text = f"{label:g}" if isinstance(label, float) else str(label)
            ax.plot(first.iteration, first.log_posterior, lw=0.5, label=text)
        ax.set_title(f"{experiment}: log-posterior by {column} (first replicate)", fontsize=10)
        ax.set_xlabel("iteration")
        ax.set_ylabel("log-posterior")
        legend = ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        for line in legend.get_lines():
            line.set_linewidth(2)
    fig.tight_layout()
    return fig
