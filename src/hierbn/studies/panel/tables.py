"""Analysis tables of the panel study from its tidy CV table: CV means per data set,
mean ranks, the Friedman test with the Nemenyi post-hoc test and critical difference, win/draw/
loss with sign tests, the per-data-set table and learning-curve means.

Comparisons over data sets follow Demšar (2006), "Statistical comparisons of classifiers over
multiple data sets", JMLR 7:1–30: ranks within each data set (§3.2.2, ties get average ranks),
the Friedman statistic chi2_F and the Iman–Davenport F_F, the Nemenyi critical difference
CD = q_alpha sqrt(k(k+1)/(6N)) and the sign test over wins and losses (§3.1.3; here draws are
excluded rather than split, as in petitjean2018 decision §4.6). Each data set counts once: its
value is the mean over the 5x2 CV splits."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
import scikit_posthocs
from scipy.stats import f as f_distribution
from scipy.stats import friedmanchisquare, rankdata, studentized_range

from hierbn.stats_tests import sign_test

KEYS = ["dataset", "structure", "estimator", "metric"]
LOWER_IS_BETTER = frozenset({"zero_one", "rmse", "log_loss", "fit_seconds", "predict_seconds"})
HIGHER_IS_BETTER = frozenset({"auc"})
ALPHA = 0.05
DECIMALS = 4  # draws: equal CV means after rounding to this many decimals
RANK_COLUMNS = ["structure", "metric", "estimator", "mean_rank", "n_datasets"]
FRIEDMAN_COLUMNS = [
    "structure", "metric", "k", "n_datasets", "statistic", "p_value",
    "iman_davenport", "iman_davenport_p", "cd",
]  # fmt: skip
NEMENYI_COLUMNS = ["structure", "metric", "a", "b", "p_value"]
WDL_COLUMNS = [
    "structure", "metric", "a", "b", "wins", "draws", "losses", "n_datasets", "p_value",
]  # fmt: skip


def orientation(metric: str) -> float:
    """+1 for a metric where lower is better, -1 where higher is better (so that
    ``orientation * value`` is always lower-is-better)."""
    if metric in LOWER_IS_BETTER:
        return 1.0
    if metric in HIGHER_IS_BETTER:
        return -1.0
    known = sorted(LOWER_IS_BETTER | HIGHER_IS_BETTER)
    raise ValueError(f"metric {metric!r} has no known direction; expected one of {known}")


def dataset_means(cv: pd.DataFrame) -> pd.DataFrame:
    """The mean ``value`` over the CV splits per (dataset, structure, estimator, metric), in the
    order the table first names them (idempotent: the means of means are the means)."""
    missing = [c for c in [*KEYS, "value"] if c not in cv.columns]
    if missing:
        raise ValueError(f"the panel CV table lacks the columns {missing}")
    return cv.groupby(KEYS, sort=False, observed=True)["value"].mean().reset_index()


def _cells(means: pd.DataFrame) -> list[tuple[str, str]]:
    """Every (structure, metric) of the table, in order."""
    return list(dict.fromkeys(zip(means["structure"], means["metric"], strict=True)))


def _wide(means: pd.DataFrame, structure: str, metric: str) -> pd.DataFrame:
    """Data sets x estimators of the CV means of one (structure, metric), NaN where missing."""
    sub = dataset_means(means)
    sub = sub[(sub["structure"] == structure) & (sub["metric"] == metric)]
    wide = sub.pivot(index="dataset", columns="estimator", values="value")
    wide = wide.reindex(index=pd.unique(sub["dataset"]), columns=pd.unique(sub["estimator"]))
    wide.columns.name = "estimator"
    return wide


def blocks(cv: pd.DataFrame, structure: str, metric: str) -> pd.DataFrame:
    """The complete blocks of the Friedman design: data sets x estimators of the CV means, with
    estimators that have no value anywhere dropped, then data sets missing any estimator."""
    return _wide(cv, structure, metric).dropna(axis=1, how="all").dropna(axis=0, how="any")


def rank_matrix(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Ranks of the estimators (columns) within each data set (row): 1 = best in the metric's
    direction, ties get the average of the ranks they span (Demšar 2006 §3.2.2)."""
    ranks = rankdata(orientation(metric) * table.to_numpy(dtype=float), axis=1)
    return pd.DataFrame(ranks, index=table.index, columns=table.columns)


def mean_ranks(cv: pd.DataFrame) -> pd.DataFrame:
    """Per (structure, metric) and estimator: the mean rank over the data sets with every
    estimator's result (1 = best) and their number."""
    means = dataset_means(cv)
    rows = []
    for structure, metric in _cells(means):
        ranks = rank_matrix(blocks(means, structure, metric), metric)
        rows += [
            {
                "structure": structure,
                "metric": metric,
                "estimator": estimator,
                "mean_rank": float(ranks[estimator].mean()),
                "n_datasets": len(ranks),
            }
            for estimator in ranks.columns
        ]
    return pd.DataFrame(rows, columns=RANK_COLUMNS)


def critical_difference(k: int, n: int, alpha: float = ALPHA) -> float:
    """Nemenyi critical difference of mean ranks for k estimators on n data sets:
    q_alpha sqrt(k(k+1)/(6n)), q_alpha = studentized range quantile (k, inf) / sqrt(2)
    (Demšar 2006 §3.2.2, Table 5(a)); NaN for k < 2 or n < 1."""
    if k < 2 or n < 1:
        return math.nan
    q_alpha = studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    return float(q_alpha * math.sqrt(k * (k + 1) / (6 * n)))


def _friedman(table: pd.DataFrame) -> tuple[float, float, float, float]:
    """(chi2_F, p, F_F, p of F_F) of Demšar (2006) §3.2.2; scipy's chi2_F includes the tie
    correction. NaN without at least 3 estimators and 2 data sets, or when every value ties."""
    n, k = table.shape
    if k < 3 or n < 2:
        return (math.nan,) * 4
    with np.errstate(invalid="ignore", divide="ignore"):
        chi2, p = (float(x) for x in friedmanchisquare(*table.to_numpy(dtype=float).T))
    if not math.isfinite(chi2):
        return (math.nan,) * 4
    denominator = n * (k - 1) - chi2
    f_f = (n - 1) * chi2 / denominator if denominator > 0 else math.inf
    return chi2, p, f_f, float(f_distribution.sf(f_f, k - 1, (k - 1) * (n - 1)))


def friedman_nemenyi(
    cv: pd.DataFrame, structure: str, metric: str
) -> tuple[dict[str, Any], pd.DataFrame]:
    """The Friedman test of equal mean ranks for one (structure, metric) over the complete
    blocks, with the Nemenyi CD at alpha 0.05, and the Nemenyi p-values of every pair from
    :func:`scikit_posthocs.posthoc_nemenyi_friedman` in long form (Demšar 2006 §3.2.2)."""
    table = blocks(cv, structure, metric)
    n, k = table.shape
    chi2, p, f_f, f_p = _friedman(table)
    row = {
        "structure": structure,
        "metric": metric,
        "k": k,
        "n_datasets": n,
        "statistic": chi2,
        "p_value": p,
        "iman_davenport": f_f,
        "iman_davenport_p": f_p,
        "cd": critical_difference(k, n) if n >= 2 else math.nan,
    }
    pairs = []
    if k >= 2 and n >= 2:
        matrix = scikit_posthocs.posthoc_nemenyi_friedman(table.to_numpy(dtype=float))
        names = list(table.columns)
        pairs = [
            (structure, metric, names[i], names[j], float(matrix.iloc[i, j]))
            for i, j in combinations(range(k), 2)
        ]
    return row, pd.DataFrame(pairs, columns=NEMENYI_COLUMNS)


def friedman_tables(cv: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`friedman_nemenyi` over every (structure, metric): the Friedman table and the
    long Nemenyi p-value table."""
    means = dataset_means(cv)
    results = [friedman_nemenyi(means, s, m) for s, m in _cells(means)]
    friedman = pd.DataFrame([row for row, _ in results], columns=FRIEDMAN_COLUMNS)
    frames = [pairs for _, pairs in results if not pairs.empty]
    nemenyi = (
        pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=NEMENYI_COLUMNS)
    )
    return friedman, nemenyi


def nemenyi_matrix(nemenyi: pd.DataFrame, structure: str, metric: str) -> pd.DataFrame:
    """The square, symmetric Nemenyi p-value matrix (diagonal 1) of one (structure, metric)
    back from the long table."""
    sub = nemenyi[(nemenyi["structure"] == structure) & (nemenyi["metric"] == metric)]
    names = list(dict.fromkeys([*sub["a"], *sub["b"]]))
    matrix = pd.DataFrame(np.eye(len(names)), index=names, columns=names)
    for a, b, p in zip(sub["a"], sub["b"], sub["p_value"], strict=True):
        matrix.loc[a, b] = matrix.loc[b, a] = p
    return matrix


def _record(wide: pd.DataFrame, a: str, b: str, metric: str) -> dict[str, Any]:
    """W/D/L of estimator a against b over the data sets where both have a value."""
    rounded = wide[[a, b]].round(DECIMALS).dropna()
    diff = orientation(metric) * (rounded[a] - rounded[b])
    wins, losses = int((diff < 0).sum()), int((diff > 0).sum())
    draws = int((diff == 0).sum())
    return {
        "a": a,
        "b": b,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "n_datasets": wins + draws + losses,
        "p_value": sign_test(wins, losses),
    }


def win_draw_loss(cv: pd.DataFrame, pairs: Sequence[tuple[str, str]] | None = None) -> pd.DataFrame:
    """Wins/draws/losses of estimator a against b over data sets on the CV means, per
    (structure, metric): a wins where it is better in the metric's direction, a draw is equal
    after rounding to 4 decimals; two-tailed sign test without draws (Demšar 2006 §3.1.3).
    ``pairs`` defaults to every pair in the table's estimator order; absent ones are skipped."""
    means = dataset_means(cv)
    rows = []
    for structure, metric in _cells(means):
        wide = _wide(means, structure, metric)
        todo: Iterable[tuple[str, str]] = combinations(wide.columns, 2) if pairs is None else pairs
        rows += [
            {"structure": structure, "metric": metric, **_record(wide, a, b, metric)}
            for a, b in todo
            if a in wide.columns and b in wide.columns
        ]
    return pd.DataFrame(rows, columns=WDL_COLUMNS)


def rank_table(ranks: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Structures x estimators of the mean rank for ``metric`` (from :func:`mean_ranks`), in
    the order they first appear there (the CV table's order)."""
    sub = ranks[ranks["metric"] == metric]
    table = sub.pivot(index="structure", columns="estimator", values="mean_rank")
    return table.reindex(index=pd.unique(sub["structure"]), columns=pd.unique(sub["estimator"]))


def curve_ends(points: pd.DataFrame, metric: str) -> pd.DataFrame:
    """(data set, structure, size) x estimators of the mean learning-curve ``metric`` (from
    :func:`learning_curve_table`) at each data set's smallest training size and whole fold."""
    sub = points[points["metric"] == metric]
    sizes = sub.groupby("dataset")["n"]
    sub = sub[(sub["n"] == sizes.transform("min")) | (sub["n"] == sizes.transform("max"))]
    return sub.pivot_table(index=["dataset", "structure", "n"], columns="estimator", values="mean")


def wdl_matrix(wdl: pd.DataFrame, structure: str, metric: str) -> pd.DataFrame:
    """The W/D/L records of one (structure, metric) as an estimator x estimator table of
    "wins-draws-losses" of the row against the column, with "*" where the sign test gives
    p < 0.05 (both orientations of each pair are filled)."""
    sub = wdl[(wdl["structure"] == structure) & (wdl["metric"] == metric)]
    names = list(dict.fromkeys([*sub["a"], *sub["b"]]))
    table = pd.DataFrame("", index=pd.Index(names, name="row vs column"), columns=names)
    for row in sub.itertuples():
        star = "*" if row.p_value < ALPHA else ""
        table.loc[row.a, row.b] = f"{row.wins}-{row.draws}-{row.losses}{star}"
        table.loc[row.b, row.a] = f"{row.losses}-{row.draws}-{row.wins}{star}"
    return table


def per_dataset_table(cv: pd.DataFrame, structure: str, metric: str) -> pd.DataFrame:
    """Data sets x estimators of the CV means of one (structure, metric), and a ``best``
    column naming the best estimator(s) of each row (ties at 4 decimals joined by ', ')."""
    wide = _wide(cv, structure, metric)
    oriented = orientation(metric) * wide.round(DECIMALS)
    best = oriented.eq(oriented.min(axis=1), axis=0)
    table = wide.copy()
    table["best"] = [", ".join(wide.columns[row]) for row in best.to_numpy()]
    return table


def learning_curve_table(curves: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard error and number of splits (runs x folds) of each learning-curve point
    per (dataset, structure, estimator, n, metric)."""
    keys = ["dataset", "structure", "estimator", "n", "metric"]
    if curves.empty:
        return pd.DataFrame(columns=[*keys, "mean", "sem", "splits"])
    grouped = curves.groupby(keys, sort=True, observed=True)["value"]
    return grouped.agg(mean="mean", sem="sem", splits="count").reset_index()


def analysis_tables(cv: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The tables the claims step writes next to claims.json: mean ranks, Friedman tests,
    Nemenyi p-values and W/D/L of every estimator pair."""
    friedman, nemenyi = friedman_tables(cv)
    return {
        "ranks": mean_ranks(cv),
        "friedman": friedman,
        "nemenyi": nemenyi,
        "wdl": win_draw_loss(cv),
    }
