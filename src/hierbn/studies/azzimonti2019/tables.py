"""Summaries of azzimonti2019's result tables used by the claims and the report: E2 deltas
and win/tie/loss summary, E3 global MSE."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon

BASELINES = ("bdeu1", "bdeu10")


def wide(frame: pd.DataFrame, index: list[str]) -> pd.DataFrame:
    """Methods as columns (mean over duplicates) indexed by ``index``."""
    return frame.pivot_table(index=index, columns="method", values="value", aggfunc="mean")


def e2_deltas(e2: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Mean over reps of metric(hier) - metric(baseline) per (dataset, n) for each baseline."""
    per_rep = wide(e2[e2.metric == metric], ["dataset", "n", "rep"])
    means = per_rep.groupby(level=["dataset", "n"]).mean()
    return pd.DataFrame(
        {b: means["hier"] - means[b] for b in BASELINES if b in means}
    ).reset_index()


def e2_summary(e2: pd.DataFrame) -> pd.DataFrame:
    """Per n, metric and baseline: win/tie/loss counts over data sets, mean and median delta,
    and a two-sided Wilcoxon signed-rank p-value over data sets (an addition, decision A20)."""
    rows = []
    for metric in ("accuracy", "auc"):
        deltas = e2_deltas(e2, metric)
        for baseline in BASELINES:
            if baseline not in deltas:
                continue
            for n, group in deltas.groupby("n"):
                d = group[baseline].dropna().to_numpy()
                nonzero = d[np.abs(d) > 1e-12]
                p = float(wilcoxon(nonzero).pvalue) if nonzero.size >= 5 else float("nan")
                rows.append(
                    {
                        "metric": metric,
                        "baseline": baseline,
                        "n": int(n),
                        "datasets": int(d.size),
                        "wins": int((d > 1e-12).sum()),
                        "ties": int((np.abs(d) <= 1e-12).sum()),
                        "losses": int((d < -1e-12).sum()),
                        "mean_delta": float(d.mean()) if d.size else np.nan,
                        "median_delta": float(np.median(d)) if d.size else np.nan,
                        "wilcoxon_p": p,
                    }
                )
    return pd.DataFrame(rows)


def e3_global(e3: pd.DataFrame) -> pd.DataFrame:
    """Global MSE per (n, rep, method): mean over CPTs (plotted) and sum (stored), decision A10."""
    grouped = e3.groupby(["n", "rep", "method"])["value"]
    return pd.DataFrame({"mean_mse": grouped.mean(), "sum_mse": grouped.sum()}).reset_index()


E5_BASELINES = ("user_bdeu1", "user_bdeu10", "user_rf")
E5_COMPARED = (
    *E5_BASELINES,
    "user_rf_sklearn",  # the extra column: scikit-learn's forest on codes (decisions §E5)
    "pooled_bdeu1",
    "pooled_bdeu10",
)  # (e): pooled structure, per-user BDeu
E5_CELL = ["n", "n_users", "c"]


def e5_gains(e5: pd.DataFrame, metric: str) -> pd.DataFrame:
    """metric(md_hier) - metric(baseline) per (n, K, c, rep, user), one column per baseline
    that was run, the optional pooled-structure ones included (Fig. 12 pools these over users
    and repetitions)."""
    users = e5[(e5.metric == metric) & (e5.user >= 0)]
    per_user = wide(users, [*E5_CELL, "rep", "user"])
    return pd.DataFrame(
        {b: per_user["md_hier"] - per_user[b] for b in E5_COMPARED if b in per_user}
    ).reset_index()


def e5_user_means(e5: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Per-user gain averaged over the repetitions (Figs. 13–14, decisions §E5)."""
    gains = e5_gains(e5, metric)
    return gains.drop(columns="rep").groupby([*E5_CELL, "user"]).mean().reset_index()


def e5_summary(e5: pd.DataFrame) -> pd.DataFrame:
    """Per (n, K, c), metric and baseline: median gain over user-repetitions and the fraction
    of users whose mean gain is positive."""
    rows = []
    for metric in (m for m in ("accuracy", "auc") if (e5.metric == m).any()):
        gains = e5_gains(e5, metric)
        means = e5_user_means(e5, metric)
        for baseline in (b for b in E5_COMPARED if b in gains):
            medians = gains.groupby(E5_CELL)[baseline].median()
            positive = means.groupby(E5_CELL)[baseline].apply(lambda d: float((d > 0).mean()))
            for cell, median in medians.items():
                rows.append(
                    {
                        **dict(zip(E5_CELL, cell, strict=True)),
                        "metric": metric,
                        "baseline": baseline,
                        "median_gain": float(median),
                        "users_positive": positive[cell],
                    }
                )
    return pd.DataFrame(rows)


def e5_vi_times(e5: pd.DataFrame) -> pd.DataFrame:
    """The multi-domain VI time of every CPT (claim H18), with |X'| and K."""
    times = e5[(e5.method == "md_hier") & (e5.metric == "vi_seconds")]
    return times[[*E5_CELL, "rep", "node", "joint_states", "value"]].rename(
        columns={"value": "seconds"}
    )
