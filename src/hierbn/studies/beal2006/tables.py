"""Tables and summaries of beal2006's result tables (decisions §3.7 and §7): scores as one wide
table, ranks of the true structure (Table 2), AIS violations of the VB bound (Table 3), the
structure posteriors and their KL to AIS, Experiment B summaries and the cost ratios."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
from scipy.special import logsumexp

from hierbn.studies.beal2006.paper import (
    SMALL_N_MAX,
    TABLE2,
    TABLE3,
    TABLE3_COLUMNS,
    TABLE3_ROWS,
    TABLE3_SMALL,
    TIMING_N,
)
from hierbn.studies.beal2006.paper import TABLE2_METHODS as TABLE2_METHODS_AND_AIS
from hierbn.studies.beal2006.protocol import pooled_ais

CORRECTED = ("BIC", "BICp", "CS", "VB")
TABLE2_METHODS = TABLE2_METHODS_AND_AIS[:-1]  # the scores EM and VBEM give (AIS apart)


def wide_scores(scores: pd.DataFrame) -> pd.DataFrame:
    """(instance, n, structure) x method table of scores, with d and is_true columns."""
    sub = scores[scores.metric.isin(["score", "diagnostic"])]
    wide = sub.pivot_table(index=["rep", "n", "structure"], columns="method", values="value")
    meta = sub.drop_duplicates(["rep", "n", "structure"]).set_index(["rep", "n", "structure"])[
        ["d", "is_true"]
    ]
    return wide.join(meta).reset_index()


def with_ais(wide: pd.DataFrame, ais: pd.DataFrame | None) -> pd.DataFrame:
    """Add AIS^(G) (all runs) and AIS^(5) (runs 0-4) columns for instance 0."""
    if ais is None or ais.empty:
        return wide
    out = wide.copy()
    for name, runs in (("AIS", None), ("AIS5", list(range(5)))):
        pooled = pooled_ais(ais, runs).rename(name).reset_index().assign(rep=0)
        out = out.merge(pooled, on=["rep", "n", "structure"], how="left")
    return out


def true_ranks(wide: pd.DataFrame, methods: list[str]) -> pd.DataFrame:
    """rank = 1 + #{structures scoring strictly higher than the true one}, per (instance, n)."""
    rows = []
    for (rep, n), g in wide.groupby(["rep", "n"]):
        truth = g[g.is_true]
        for m in methods:
            if m in g and g[m].notna().all():
                rows.append(
                    {
                        "rep": rep,
                        "n": n,
                        "method": m,
                        "rank": int(1 + (g[m] > truth[m].iloc[0]).sum()),
                        "gap": float(truth[m].iloc[0] - g[m].max()),
                    }
                )
    return pd.DataFrame(rows)


def posterior(values: np.ndarray) -> np.ndarray:
    """Structure posterior exp(score)/sum exp(score) (uniform structure prior)."""
    return np.exp(values - logsumexp(values))


def kl_to_ais(wide: pd.DataFrame, methods: list[str]) -> pd.DataFrame:
    """KL(P_AIS || P_method) and the reverse, per n (instance 0), decision A14."""
    rows = []
    for n, g in wide[wide.rep == 0].groupby("n"):
        if "AIS" not in g or g["AIS"].isna().any():
            continue
        p = posterior(g["AIS"].to_numpy())
        for m in methods:
            q = posterior(g[m].to_numpy())
            rows.append(
                {
                    "n": n,
                    "method": m,
                    "kl": float(np.sum(p * (np.log(p + 1e-300) - np.log(q + 1e-300)))),
                    "kl_reverse": float(np.sum(q * (np.log(q + 1e-300) - np.log(p + 1e-300)))),
                }
            )
    return pd.DataFrame(rows)


def table2(wide: pd.DataFrame) -> pd.DataFrame:
    """Ranks of the true structure (instance 0) next to the paper's Table 2 (its AIS entry at
    n = 1280 read as 11, decision A12)."""
    methods = list(TABLE2_METHODS_AND_AIS)
    ranks = true_ranks(wide[wide.rep == 0], methods).pivot(
        index="n", columns="method", values="rank"
    )
    out = pd.DataFrame(index=ranks.index)
    for i, m in enumerate(methods):
        out[f"{m} ours"] = ranks.get(m, np.nan)
        out[f"{m} paper"] = [TABLE2.get(int(n), (np.nan,) * len(methods))[i] for n in ranks.index]
    return out.reset_index()


def table3(wide: pd.DataFrame, ais: pd.DataFrame) -> pd.DataFrame:
    """AIS violations of the VB bound and MH rejection per n (Table 3, decision A11), each row
    of ours beside the paper's column for that n (:func:`paper_table3_column`)."""
    rows = []
    inst0 = wide[wide.rep == 0].set_index(["n", "structure"])
    logz = ais[ais.metric == "log_z"].set_index(["n", "structure", "run"])["value"]
    acc = ais[ais.metric == "acceptance"]
    paper = paper_table3()
    for n in sorted(ais["n"].unique()):
        vb_star = inst0.loc[n, "VB*"]
        vb = inst0.loc[n, "VB"]
        single = logz.loc[n].unstack("run")
        pooled5 = inst0.loc[n, "AIS5"] if "AIS5" in inst0 else pd.Series(np.nan, index=vb.index)
        ours = {
            "% AIS(1) < VB*": 100 * float(single.lt(vb_star, axis=0).mean().mean()),
            "% AIS(1) < VB": 100 * float(single.lt(vb, axis=0).mean().mean()),
            "% MH rejection": 100 * (1 - float(acc[acc.n == n]["value"].mean())),
            "% AIS(5) < VB*": 100 * float((pooled5 < vb_star).mean()),
            "% AIS(5) < VB": 100 * float((pooled5 < vb).mean()),
        }
        column = paper_table3_column(int(n))
        row: dict[str, Any] = {"n": int(n), "paper column": "—" if column is None else str(column)}
        for name in TABLE3_ROWS:
            row[name] = ours[name]
            row[f"{name} paper"] = paper.loc[name, column] if column is not None else np.nan
        rows.append({**row, "runs": int(single.shape[1])})
    return pd.DataFrame(rows)


def ais_steps(ais: pd.DataFrame | None) -> int | None:
    """The schedule length K the AIS runs used (from their config column); None when AIS did
    not run."""
    if ais is None or ais.empty or "config" not in ais:
        return None
    steps = {json.loads(c)["ais"]["steps"] for c in ais["config"].unique()}
    if len(steps) != 1:
        raise ValueError(f"AIS runs with different schedule lengths {sorted(steps)}")
    return int(steps.pop())


def paper_table3_column(n: int) -> str | int | None:
    """The paper's Table 3 column that holds size n: its own column, the range column
    n = 10 … 560 (whose entries bound every size of the range), or None."""
    if n in TABLE3_COLUMNS:
        return n
    return TABLE3_SMALL if n <= SMALL_N_MAX else None


def paper_table3() -> pd.DataFrame:
    """The paper's Table 3 (rows: the five measures; columns: n ≤ 560 and the larger sizes);
    the n ≤ 560 entries are the maximum over that range (printed with ≤ or <)."""
    return pd.DataFrame(
        [TABLE3[name] for name in TABLE3_ROWS], index=list(TABLE3_ROWS), columns=TABLE3_COLUMNS
    )


def experiment_b(wide: pd.DataFrame) -> pd.DataFrame:
    """Figs. 4–5 over the parameter draws (instances >= 1): median and best rank, success
    rate, mean posterior of T and fraction with P(T | y) > 1/136."""
    sub = wide[wide.rep >= 1]
    ranks = true_ranks(sub, list(CORRECTED))
    post = []
    for (rep, n), g in sub.groupby(["rep", "n"]):
        for m in CORRECTED:
            p = posterior(g[m].to_numpy())[g.is_true.to_numpy()][0]
            post.append({"rep": rep, "n": n, "method": m, "p_true": p})
    merged = ranks.merge(pd.DataFrame(post), on=["rep", "n", "method"])
    n_struct = wide["structure"].nunique()
    return (
        merged.groupby(["n", "method"])
        .agg(
            median_rank=("rank", "median"),
            best_rank=("rank", "min"),
            success=("rank", lambda r: float((r == 1).mean())),
            mean_p_true=("p_true", "mean"),
            frac_above_uniform=("p_true", lambda p: float((p > 1 / n_struct).mean())),
            instances=("rank", "size"),
        )
        .reset_index()
    )


def rank_table(wide: pd.DataFrame) -> pd.DataFrame:
    """Rank of the true structure per n (instance 0) for the corrected scores, AIS and MAP."""
    return true_ranks(wide[wide.rep == 0], [*CORRECTED, "AIS", "MAP"]).pivot(
        index="n", columns="method", values="rank"
    )


def timing_summary(scores: pd.DataFrame, ais: pd.DataFrame | None) -> dict[str, Any] | None:
    """Seconds of EM, VBEM (all structures, instance 0) and one AIS run at the paper's timing
    size (n = 480, Section 4.1) or else the largest n run, for the cost claim H9; None when the
    scores carry no timings."""
    sec = scores[scores.method.isin(["em_seconds", "vb_seconds"]) & (scores.rep == 0)]
    if sec.empty:
        return None
    n_pick = int(sec["n"].max()) if TIMING_N not in set(sec["n"]) else TIMING_N
    per = sec[sec.n == n_pick].groupby("method")["value"].sum()
    timing = {
        "n": n_pick,
        "em_seconds": float(per["em_seconds"]),
        "vb_seconds": float(per["vb_seconds"]),
    }
    if ais is not None:
        ais_sec = ais[(ais.metric == "seconds") & (ais.n == n_pick)]
        if not ais_sec.empty:
            timing["ais_seconds"] = float(ais_sec.groupby("run")["value"].sum().mean())
    return timing
