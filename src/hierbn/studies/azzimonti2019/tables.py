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
    """Global MSE per (n, rep, method): mean over CPTs (plotted) and sum (stored), A10."""
    grouped = e3.groupby(["n", "rep", "method"])["value"]
    return pd.DataFrame({"mean_mse": grouped.mean(), "sum_mse": grouped.sum()}).reset_index()
