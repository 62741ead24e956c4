"""Figures 3, 4, 7, 8, 9 and 12–14 of azzimonti2019 (our versions), the E4 timing figure and
the E1 and E4 tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from hierbn.report.plotting import grouped_boxplot, new_figure
from hierbn.studies.azzimonti2019.paper import FIG9_N
from hierbn.studies.azzimonti2019.tables import (
    E5_BASELINES,
    E5_COMPARED,
    e2_deltas,
    e3_global,
    e5_gains,
    e5_user_means,
)

METHOD_COLORS = {"nuts": "tab:red", "vi": "orange", "advi": "tab:purple"}
BASELINE_COLORS = {"bdeu1": "tab:blue", "bdeu10": "lightskyblue"}
E5_COLORS = dict(zip(E5_BASELINES, ("tab:blue", "lightskyblue", "tab:green"), strict=True))
E4_MARKERS = {"vi": ("orange", "o"), "advi": ("tab:purple", "s"), "nuts": ("tab:red", "^")}


def figure3(e1: pd.DataFrame) -> Figure:
    """Fig. 3: MSE, KL and Hellinger of VI and MCMC vs the truth; columns |Y|, x = n."""
    metrics = ["mse", "kl", "hellinger"]
    n_ys = sorted(e1["n_y"].unique())
    fig, axes = new_figure(len(metrics), len(n_ys))
    sub = e1[e1.method.isin(list(METHOD_COLORS))]
    for r, metric in enumerate(metrics):
        for c, n_y in enumerate(n_ys):
            ax = axes[r, c]
            grouped_boxplot(
                ax, sub[(sub.metric == metric) & (sub.n_y == n_y)], "n", "method", METHOD_COLORS
            )
            ax.set_yscale("log")
            ax.set_title(f"|Y| = {n_y}")
            ax.set_ylabel(metric.upper() if metric != "hellinger" else "H")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle("Fig. 3: accuracy of VI vs MCMC (boxes pool |X| and repetitions)")
    fig.tight_layout()
    return fig


def figure4(e1: pd.DataFrame) -> Figure:
    """Fig. 4: computing time per CPT (s), panels |X|, x = n."""
    n_xs = sorted(e1["n_x"].unique())
    fig, axes = new_figure(1, len(n_xs))
    sub = e1[(e1.metric == "seconds") & e1.method.isin(list(METHOD_COLORS))]
    for c, n_x in enumerate(n_xs):
        ax = axes[0, c]
        grouped_boxplot(ax, sub[sub.n_x == n_x], "n", "method", METHOD_COLORS)
        ax.set_yscale("log")
        ax.set_title(f"|X| = {n_x}")
        ax.set_ylabel("seconds")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle("Fig. 4: computing time of VI vs MCMC (boxes pool |Y| and repetitions)")
    fig.tight_layout()
    return fig


def delta_figure(e2: pd.DataFrame, metric: str, index: dict[str, int], title: str) -> Figure:
    """Figs. 7/8: mean over reps of metric(hier) - metric(BDeu) per data set, panels by n."""
    deltas = e2_deltas(e2, metric)
    deltas["index"] = deltas["dataset"].map(index)
    ns = sorted(deltas["n"].unique())
    cols = min(3, len(ns))
    rows = int(np.ceil(len(ns) / cols))
    fig, axes = new_figure(rows, cols, width=4.2)
    for k, n in enumerate(ns):
        ax = axes[k // cols, k % cols]
        part = deltas[deltas.n == n].sort_values("index")
        x = np.arange(len(part))
        for j, (baseline, color) in enumerate(BASELINE_COLORS.items()):
            if baseline in part:
                ax.bar(
                    x + (j - 0.5) * 0.4,
                    part[baseline],
                    width=0.4,
                    color=color,
                    label=f"vs {baseline}",
                )
        ax.axhline(0, color="black", lw=0.6)
        ax.set_xticks(x)
        ax.set_xticklabels(part["index"].astype(int).astype(str), fontsize=6, rotation=90)
        ax.set_title(f"n = {n}")
        ax.set_xlabel("data set (Table B.1 index)")
    for k in range(len(ns), rows * cols):
        axes[k // cols, k % cols].set_visible(False)
    axes[0, 0].set_ylabel(f"delta {metric}")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def figure9(e3: pd.DataFrame, n_per_cpt: int = FIG9_N) -> Figure:
    """Fig. 9 (caption layout, decision A10): left per-CPT MSE(BDeu) - MSE(hier) at the paper's n
    (``FIG9_N``, or the nearest n run); right the
    difference of the global (mean over CPTs) MSE as a function of n."""
    n_pick = (
        n_per_cpt
        if n_per_cpt in set(e3["n"])
        else int(min(e3["n"].unique(), key=lambda v: abs(v - n_per_cpt)))
    )
    fig, axes = new_figure(1, 2, width=6.0, height=3.2)
    per = e3[e3.n == n_pick].pivot_table(index=["node", "rep"], columns="method", values="value")
    rows = []
    for baseline in BASELINE_COLORS:
        d = (per[baseline] - per["hier"]).rename("value").reset_index()
        rows.append(d.assign(baseline=baseline))
    per_cpt = pd.concat(rows)
    nodes = e3.drop_duplicates("node").set_index("node")["n_parent_configs"]
    labels = {i: f"X{i} (|Y|={k})" for i, k in nodes.items()}
    grouped_boxplot(axes[0, 0], per_cpt, "node", "baseline", BASELINE_COLORS, labels)
    axes[0, 0].tick_params(axis="x", labelrotation=90, labelsize=6)
    axes[0, 0].axhline(0, color="black", lw=0.6)
    axes[0, 0].set_title(f"per CPT, n = {n_pick}")
    axes[0, 0].set_ylabel("MSE(BDeu) - MSE(hier)")
    glob = e3_global(e3).pivot_table(index=["n", "rep"], columns="method", values="mean_mse")
    rows = [
        (glob[b] - glob["hier"]).rename("value").reset_index().assign(baseline=b)
        for b in BASELINE_COLORS
    ]
    grouped_boxplot(axes[0, 1], pd.concat(rows), "n", "baseline", BASELINE_COLORS)
    axes[0, 1].axhline(0, color="black", lw=0.6)
    axes[0, 1].set_title("global MSE (mean over CPTs)")
    axes[0, 1].legend(fontsize=7)
    fig.suptitle("Fig. 9: Adult, MSE difference in favour of the hierarchical model when > 0")
    fig.tight_layout()
    return fig


def e1_versus_exact(e1: pd.DataFrame) -> pd.DataFrame:
    """Mean distance to the exact posterior mean and mean time, per method (H6–H7 table)."""
    metrics = ["mse_vs_exact", "kl_vs_exact", "hellinger_vs_exact", "seconds"]
    sub = e1[e1.metric.isin(metrics) & (e1.n <= e1.n.max())]
    return sub.pivot_table(index="method", columns="metric", values="value", aggfunc="mean")


def e4_timing_figure(e4: pd.DataFrame) -> Figure:
    """E4: seconds per Adult CPT against its size |X|·|Y|, VI, Stan ADVI and NUTS; hollow
    markers are full-data fits, crosses ADVI failures, NUTS capped fits are lower bounds."""
    fig, axes = new_figure(1, 1, width=6.5, height=3.8)
    ax = axes[0, 0]
    per_cpt = e4[(e4.experiment == "e4") & (e4.node >= 0)]
    times = per_cpt[per_cpt.metric == "seconds"]
    for method, (color, marker) in E4_MARKERS.items():
        for full, part in times[times.method == method].groupby("full"):
            face = "none" if full else color
            label = f"{method} ({'full data' if full else 'n = ' + ', '.join(map(str, sorted(part.n.unique())))})"
            ax.scatter(
                part.cpt_size,
                part.value,
                marker=marker,
                facecolors=face,
                edgecolors=color,
                s=22,
                label=label,
            )
    failed = per_cpt[
        (per_cpt.method == "advi") & (per_cpt.metric == "failed") & (per_cpt.value > 0)
    ]
    if not failed.empty:
        ax.scatter(failed.cpt_size, np.full(len(failed), times.value.max()), marker="x", color="black",
                   label=f"ADVI failed ({len(failed)})")  # fmt: skip
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("CPT size |X|·|Y|")
    ax.set_ylabel("seconds per CPT")
    ax.legend(fontsize=7)
    fig.suptitle("E4: computing time per Adult CPT (NUTS on a capped subset)", fontsize=10)
    fig.tight_layout()
    return fig


def e4_table(e4: pd.DataFrame) -> pd.DataFrame:
    """Per method and data size: CPTs timed, median / max seconds per CPT, failures, capped fits,
    and the whole-TAN VI time."""
    rows = e4[e4.experiment == "e4"]
    size = np.where(rows["full"], "full data", "n = " + rows["n"].astype(str))
    rows = rows.assign(size=size)
    seconds = rows[rows.metric == "seconds"].groupby(["method", "size"])["value"]
    table = pd.DataFrame(
        {"fits": seconds.size(), "median_s": seconds.median(), "max_s": seconds.max()}
    )
    for metric in ("failed", "capped"):
        counts = rows[rows.metric == metric].groupby(["method", "size"])["value"].sum()
        table[metric] = counts.reindex(table.index).fillna(0).astype(int)
    return table


def e4_rf_table(e4: pd.DataFrame) -> pd.DataFrame:
    """The optional Adult check: hierarchical TAN vs random forest, mean over repetitions."""
    rf = e4[e4.experiment == "e4_rf"]
    return rf.pivot_table(index="method", columns="metric", values="value", aggfunc="mean")


def _e5_cell_label(n: int, n_users: int) -> str:
    return f"n = {n}\nK = {n_users}"


def figure12(e5: pd.DataFrame) -> Figure:
    """Fig. 12: gain of the multi-domain hierarchical TAN over each per-user baseline, boxes
    over users x repetitions; rows accuracy / AUC, columns heterogeneity c."""
    cs = sorted(e5["c"].unique())
    fig, axes = new_figure(2, len(cs), width=4.0, height=3.0)
    for r, metric in enumerate(("accuracy", "auc")):
        gains = e5_gains(e5, metric)
        long = gains.melt(
            id_vars=["n", "n_users", "c", "rep", "user"], var_name="baseline", value_name="value"
        )
        labels = {
            n: _e5_cell_label(n, k)
            for n, k in gains[["n", "n_users"]].drop_duplicates().itertuples(index=False)
        }
        for col, c in enumerate(cs):
            ax = axes[r, col]
            grouped_boxplot(ax, long[long.c == c], "n", "baseline", E5_COLORS, labels)
            ax.set_xlabel("scenario")
            ax.axhline(0, color="black", lw=0.6)
            ax.set_title(f"{metric}, c = {c:g}")
            ax.set_ylabel("gain of md_hier")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(
        "Fig. 12: multi-domain hierarchical TAN minus\nper-user baselines (synthetic users, A12)",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


def per_user_figure(e5: pd.DataFrame, metric: str, title: str) -> Figure:
    """Figs. 13–14: per-user mean gain over repetitions, sorted, at the smallest n (the paper's
    ``E5_PER_USER`` scenario); rows vs BDeu 1, BDeu 10, RF, columns heterogeneity c."""
    means = e5_user_means(e5, metric)
    n_min = int(means["n"].min())
    means = means[means.n == n_min]
    baselines = [b for b in E5_BASELINES if b in means]
    cs = sorted(means["c"].unique())
    fig, axes = new_figure(len(baselines), len(cs), width=4.0, height=2.2)
    for r, baseline in enumerate(baselines):
        for col, c in enumerate(cs):
            ax = axes[r, col]
            values = np.sort(means.loc[means.c == c, baseline].to_numpy())
            ax.bar(np.arange(values.size), values, color=E5_COLORS[baseline], width=1.0)
            ax.axhline(0, color="black", lw=0.6)
            ax.set_title(
                f"vs {baseline}, c = {c:g}: {np.mean(values > 0):.0%} of users gain", fontsize=8
            )
            ax.set_xlabel("user (sorted)")
        axes[r, 0].set_ylabel(f"mean gain ({metric})")
    n_users = int(means["n_users"].max())
    fig.suptitle(f"{title}\n(n = {n_min}, K = {n_users}, synthetic users)", fontsize=10)
    fig.tight_layout()
    return fig


def e5_gain_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The E5 summary as one row per (n, K, c): median gain per (metric, baseline) and the
    lowest fraction of users with a positive mean gain over those columns."""
    cell = ["n", "n_users", "c"]
    wide = summary.pivot_table(
        index=cell, columns=["metric", "baseline"], values="median_gain"
    ).round(3)
    order = [(m, b) for m in ("accuracy", "auc") for b in E5_COMPARED if (m, b) in wide.columns]
    wide = wide[order]
    wide[("users gaining", "lowest")] = summary.groupby(cell)["users_positive"].min()
    wide.index = wide.index.set_names(["n", "K", "c"]).set_levels(
        [lv.astype(int) if lv.name == "n" else lv for lv in wide.index.levels]
    )
    return wide


def e5_vi_table(e5: pd.DataFrame) -> pd.DataFrame:
    """Multi-domain VI seconds per CPT by K and |X'| (claim H18)."""
    times = e5[(e5.method == "md_hier") & (e5.metric == "vi_seconds")].astype({"joint_states": int})
    grouped = times.groupby(["n_users", "joint_states"])["value"]
    return pd.DataFrame(
        {"cpts": grouped.size(), "median_s": grouped.median(), "max_s": grouped.max()}
    ).rename_axis(["K", "|X'|"])
