"""Headline claims H1–H18 of azzimonti2019 (spec §6), one function per claim, computed from
the result tables. A claim whose experiment was not run is reported as "not covered"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import spearmanr, wilcoxon

from hierbn.studies.azzimonti2019.tables import (
    BASELINES,
    e2_deltas,
    e3_global,
    e5_summary,
    e5_vi_times,
    wide,
)
from hierbn.studies.claims import claim, evaluate, not_covered, num, series, status


@dataclass(frozen=True)
class Results:
    """The tables the claims read: E1 (required), Lemma 1, E2–E5 (None when not run)."""

    e1: pd.DataFrame
    lemma1: pd.DataFrame | None = None
    e2: pd.DataFrame | None = None
    e3: pd.DataFrame | None = None
    e4: pd.DataFrame | None = None
    e5: pd.DataFrame | None = None


def _empty(frame: pd.DataFrame | None) -> bool:
    return frame is None or frame.empty


def claim_h1(r: Results) -> dict[str, Any]:
    text = "Prior correlation between columns is (s+1)/(s+s0+1) (Lemma 1, App. A.1)"
    if _empty(r.lemma1):
        return not_covered("H1", text, "(s+1)/(s+s0+1)", "|MC - formula| < 0.02", "")
    gap = float(np.max(np.abs(r.lemma1["value"] - r.lemma1["formula_appendix"])))
    return claim(
        "H1",
        text,
        "(s+1)/(s+s0+1)",
        {"max_abs_gap": gap, "cases": len(r.lemma1)},
        "|MC - formula| < 0.02 for every (|X|, s)",
        status(gap < 0.02),
        ours_text=f"max |MC − formula| {num(gap, 2)} over {len(r.lemma1)} (|X|, s) cases",
    )


def claim_h2(r: Results) -> dict[str, Any]:
    text = "VI is as accurate as MCMC (MSE, KL, Hellinger vs truth; Fig. 3)"
    crit = "VI/NUTS ratio of medians in [0.9, 1.1] in >= 90% of (cell, metric); paired Wilcoxon p > 0.01 in most cells"
    e1 = r.e1
    sub = e1[e1.metric.isin(["mse", "kl", "hellinger"]) & e1.method.isin(["vi", "nuts"])]
    if sub.empty or "nuts" not in set(sub.method):
        return not_covered("H2", text, "no noticeable difference", crit, "NUTS was not run")
    pairs = wide(sub, ["n_x", "n_y", "n", "metric", "rep"]).dropna()
    med = pairs.groupby(level=["n_x", "n_y", "n", "metric"]).median()
    ratio = med["vi"] / med["nuts"]
    within = float(((ratio >= 0.9) & (ratio <= 1.1)).mean())
    pvals = []
    for _, g in pairs.groupby(level=["n_x", "n_y", "n", "metric"]):
        diff = (g["vi"] - g["nuts"]).to_numpy()
        if np.count_nonzero(diff) >= 5:
            pvals.append(float(wilcoxon(diff).pvalue))
    frac_p = float(np.mean(np.array(pvals) > 0.01)) if pvals else float("nan")
    ok = within >= 0.9 and (not pvals or frac_p > 0.5)
    return claim(
        "H2",
        text,
        "no noticeable difference",
        {"fraction_within": within, "fraction_p_gt_0.01": frac_p, "cells": int(ratio.size)},
        crit,
        status(ok),
        "" if pvals else "too few repetitions per cell for the Wilcoxon part",
        ours_text=f"VI/NUTS median ratio in [0.9, 1.1] in {within:.0%} of {ratio.size} "
        "(cell, metric); "
        + (f"Wilcoxon p > 0.01 in {frac_p:.0%} of cells" if pvals else "no Wilcoxon (few reps)"),
    )


def claim_h3(r: Results) -> dict[str, Any]:
    text = (
        "VI is about two orders of magnitude faster than MCMC; VI time independent of |Y| (Fig. 4)"
    )
    paper = {"mcmc_seconds": {"2": 10, "8": 60}, "vi_seconds": {"2": 0.04, "8": 0.5}}
    paper_text = "NUTS 10 s (|X|=2) … 60 s (|X|=8); VI 0.04 s … 0.5 s"
    crit = "mean(NUTS)/mean(VI) >= 50 for every |X|; mean VI time at the largest |Y| <= 2x that at the smallest"
    sec = r.e1[r.e1.metric == "seconds"]
    if not {"nuts", "vi"} <= set(sec.method):
        return not_covered("H3", text, paper, crit, "NUTS was not run", paper_text=paper_text)
    by_x = sec.groupby(["n_x", "method"])["value"].mean().unstack()
    speedup = (by_x["nuts"] / by_x["vi"]).to_dict()
    vi_y = sec[sec.method == "vi"].groupby("n_y")["value"].mean()
    y_ratio = float(vi_y.iloc[-1] / vi_y.iloc[0]) if vi_y.size > 1 else float("nan")
    ok = min(speedup.values()) >= 50 and (not np.isfinite(y_ratio) or y_ratio <= 2.0)
    ours = {
        "speedup_by_n_x": {str(k): float(v) for k, v in speedup.items()},
        "vi_seconds_by_n_x": {str(k): float(v) for k, v in by_x["vi"].items()},
        "nuts_seconds_by_n_x": {str(k): float(v) for k, v in by_x["nuts"].items()},
        "vi_time_ratio_largest_vs_smallest_n_y": y_ratio,
    }
    ours_text = (
        f"VI/NUTS speed-up {series(speedup, '|X|=', 2).replace(' (', '× (')}; "
        f"VI time at largest/smallest |Y| {num(y_ratio, 2)}×"
    )
    return claim(
        "H3",
        text,
        paper,
        ours,
        crit,
        status(ok),
        paper_text=paper_text,
        ours_text=ours_text,
        timing=True,
    )


def claim_h4(r: Results) -> dict[str, Any]:
    text = "VI converges in tens of iterations; L~ plateaus in fewer than 5 (Sec. 3.2)"
    crit = "median iterations < 50; max < 1000; plateau (1e-3 rel.) by iteration 5 in most (> 50%) runs; L~ non-decreasing"
    e1 = r.e1
    vi = wide(e1[e1.method == "vi"].assign(method=e1.metric), ["n_x", "n_y", "n", "rep"])
    needed = {"elbo_min_step", "elbo_final", "plateau_iter", "n_iter"}
    if vi.empty or not needed <= set(vi.columns):
        return not_covered("H4", text, "tens of iterations", crit, "")
    monotone = bool((vi["elbo_min_step"] >= -1e-8 * np.abs(vi["elbo_final"])).all())
    plateau = float((vi["plateau_iter"] <= 5).mean())
    ours = {
        "median_iter": float(vi["n_iter"].median()),
        "max_iter": float(vi["n_iter"].max()),
        "fraction_plateau_by_5": plateau,
        "monotone_all_runs": monotone,
    }
    ok = ours["median_iter"] < 50 and ours["max_iter"] < 1000 and plateau > 0.5 and monotone
    ours_text = (
        f"median {num(ours['median_iter'])}, max {num(ours['max_iter'])} iterations; "
        f"plateau by 5 in {plateau:.0%}; L~ non-decreasing: {num(monotone)}"
    )
    return claim(
        "H4",
        text,
        "tens of iterations, plateau < 5",
        ours,
        crit,
        status(ok),
        ours_text=ours_text,
    )


def claim_h5(r: Results) -> dict[str, Any]:
    text = "Errors fall with n and rise with |Y| (Sec. 3.2)"
    crit = (
        "Spearman of cell medians: negative in n, positive in |Y|, for VI and NUTS and every metric"
    )
    e1 = r.e1
    sub = e1[e1.metric.isin(["mse", "kl", "hellinger"]) & e1.method.isin(["vi", "nuts"])]
    meds = sub.groupby(["method", "metric", "n_x", "n_y", "n"])["value"].median().reset_index()
    if meds.empty or meds["n"].nunique() < 2:
        return not_covered(
            "H5", text, "decrease in n, increase in |Y|", crit, "need >= 2 values of n"
        )
    ours = {}
    ok = True
    for (method, metric), g in meds.groupby(["method", "metric"]):
        rho_n = float(spearmanr(g["n"], g["value"]).statistic)
        rho_y = (
            float(spearmanr(g["n_y"], g["value"]).statistic)
            if g["n_y"].nunique() > 1
            else float("nan")
        )
        ours[f"{method}/{metric}"] = {"rho_n": rho_n, "rho_n_y": rho_y}
        ok &= rho_n < 0 and (not np.isfinite(rho_y) or rho_y > 0)
    rho_n = [v["rho_n"] for v in ours.values()]
    rho_y = [v["rho_n_y"] for v in ours.values()]
    ours_text = (
        f"Spearman in n {num(min(rho_n), 2)} … {num(max(rho_n), 2)}; "
        f"in |Y| {num(np.nanmin(rho_y), 2)} … {num(np.nanmax(rho_y), 2)} "
        f"({len(ours)} method × metric)"
    )
    return claim(
        "H5",
        text,
        "decrease in n, increase in |Y|",
        ours,
        crit,
        status(ok),
        ours_text=ours_text,
    )


def claim_h6(r: Results) -> dict[str, Any]:
    text = "VI matches the exact posterior mean for n <= 160 (MSE about 1e-5)"
    vals = r.e1[(r.e1.method == "vi") & (r.e1.metric == "mse_vs_exact")]["value"]
    if vals.empty:
        return not_covered("H6", text, 1e-5, "mean MSE(VI, exact) <= 2e-5", "")
    mean = float(vals.mean())
    return claim(
        "H6",
        text,
        1e-5,
        {"mean_mse_vs_exact": mean, "fits": int(vals.size)},
        "mean MSE(VI, exact) <= 2e-5",
        status(mean <= 2e-5),
        ours_text=f"mean MSE(VI, exact) {num(mean, 2)} over {vals.size} fits",
    )


def claim_h7(r: Results) -> dict[str, Any]:
    text = "VI beats Stan ADVI vs the exact posterior: ~35% lower MSE, 20% KL, 8% H, 30% faster"
    paper = {"mse": 0.35, "kl": 0.20, "hellinger": 0.08, "time": 0.30}
    paper_text = "VI lower by MSE 35%, KL 20%, H 8%; 30% faster"
    crit = "VI better on average in MSE, KL and H vs exact (magnitudes reported, not enforced)"
    e1 = r.e1
    sub = e1[
        e1.method.isin(["vi", "advi"])
        & e1.metric.isin(["mse_vs_exact", "kl_vs_exact", "hellinger_vs_exact", "seconds"])
    ]
    if "advi" not in set(sub.method):
        why = "Stan ADVI was not run (no ADVI executable could be built)"
        return not_covered("H7", text, paper, crit, why, paper_text=paper_text)
    means = sub.groupby(["metric", "method"])["value"].mean().unstack()
    rel = {k: float(v) for k, v in ((means["advi"] - means["vi"]) / means["advi"]).items()}
    ok = all(rel.get(m, -1) > 0 for m in ("mse_vs_exact", "kl_vs_exact", "hellinger_vs_exact"))
    labels = {"mse_vs_exact": "MSE", "kl_vs_exact": "KL", "hellinger_vs_exact": "H"}
    ours_text = "VI lower by " + ", ".join(f"{labels[m]} {rel[m]:.0%}" for m in labels if m in rel)
    if "seconds" in rel:
        ours_text += f"; {rel['seconds']:.0%} faster"
    return claim(
        "H7",
        text,
        paper,
        rel,
        crit,
        status(ok),
        paper_text=paper_text,
        ours_text=ours_text,
        timing=True,  # the relative time of VI and ADVI is one of the values
    )


def _fraction_positive(e2: pd.DataFrame, metric: str) -> dict[str, dict[str, float]]:
    deltas = e2_deltas(e2, metric)
    out: dict[str, dict[str, float]] = {}
    for baseline in BASELINES:
        if baseline in deltas:
            frac = deltas.groupby("n")[baseline].apply(lambda d: float((d > 0).mean()))
            out[baseline] = {str(int(n)): float(v) for n, v in frac.items()}
    return out


def _claim_majority(cid: str, metric: str, e2: pd.DataFrame | None, figure: str) -> dict[str, Any]:
    text = f"Hierarchical TAN beats BDeu (iss 1 and 10) in {metric} on the large majority of data sets ({figure})"
    crit = "fraction of data sets with mean delta > 0: > 50% at every n, >= 70% at n <= 40"
    if _empty(e2):
        return not_covered(cid, text, "large majority", crit, "")
    fractions = _fraction_positive(e2, metric)
    ok = all(
        v > 0.5 and (int(n) > 40 or v >= 0.7) for per in fractions.values() for n, v in per.items()
    )
    note = f"{e2['dataset'].nunique()} data sets, n in {sorted(e2['n'].unique().tolist())}"
    ours_text = "; ".join(
        f"vs {b}: " + ", ".join(f"{v:.0%} (n={n})" for n, v in per.items())
        for b, per in fractions.items()
    )
    return claim(
        cid, text, "large majority", fractions, crit, status(ok), note, ours_text=ours_text
    )


def claim_h8(r: Results) -> dict[str, Any]:
    return _claim_majority("H8", "accuracy", r.e2, "Fig. 7")


def claim_h9(r: Results) -> dict[str, Any]:
    return _claim_majority("H9", "auc", r.e2, "Fig. 8")


def claim_h10(r: Results) -> dict[str, Any]:
    text = "Gains are huge at n = 20, 40 and shrink with n but stay positive (Figs. 7–8)"
    crit = "mean delta(n=20) > mean delta(largest n) > 0 for both baselines and both metrics"
    e2 = r.e2
    if _empty(e2) or e2["n"].nunique() < 2:
        return not_covered("H10", text, "shrinking, positive", crit, "")
    ours = {}
    ok = True
    for metric in ("accuracy", "auc"):
        means = e2_deltas(e2, metric).groupby("n").mean(numeric_only=True)
        for b in BASELINES:
            first, last = float(means[b].iloc[0]), float(means[b].iloc[-1])
            ours[f"{metric}/{b}"] = {
                "n_first": int(means.index[0]),
                "delta_first": first,
                "n_last": int(means.index[-1]),
                "delta_last": last,
            }
            ok &= first > last > 0
    ours_text = "; ".join(
        f"{k}: {num(v['delta_first'], 2)} (n={v['n_first']}) → {num(v['delta_last'], 2)} "
        f"(n={v['n_last']})"
        for k, v in ours.items()
    )
    note = "paper's largest n is 640" if e2["n"].max() < 640 else ""
    return claim(
        "H10", text, "shrinking, positive", ours, crit, status(ok), note, ours_text=ours_text
    )


def claim_h11(r: Results) -> dict[str, Any]:
    text = "BDeu iss = 10 generally beats iss = 1 (Sec. 4.1)"
    crit = "iss = 10 has the higher mean accuracy in most (n, data set) pairs"
    if _empty(r.e2):
        return not_covered("H11", text, "generally", crit, "")
    acc = wide(r.e2[r.e2.metric == "accuracy"], ["dataset", "n"])
    frac = float((acc["bdeu10"] > acc["bdeu1"]).mean())
    return claim(
        "H11",
        text,
        "generally",
        {"fraction_pairs_iss10_better": frac},
        crit,
        status(frac > 0.5),
        ours_text=f"iss 10 better in {frac:.0%} of (data set, n) pairs",
    )


def claim_h12(r: Results) -> dict[str, Any]:
    text = "Adult: hierarchical global CPT MSE below BDeu(1) and BDeu(10) at every n in all reps; gap falls with n (Fig. 9)"
    crit = "delta > 0 in every rep for every n and both baselines; mean delta decreasing in n"
    if _empty(r.e3):
        return not_covered("H12", text, "all reps positive", crit, "")
    glob = e3_global(r.e3).pivot_table(index=["n", "rep"], columns="method", values="mean_mse")
    ours = {}
    ok = True
    for b in BASELINES:
        delta = glob[b] - glob["hier"]
        means = delta.groupby(level="n").mean()
        all_pos = bool((delta > 0).all())
        decreasing = bool(np.all(np.diff(means.to_numpy()) < 0))
        ours[b] = {
            "all_reps_positive": all_pos,
            "decreasing_in_n": decreasing,
            "mean_delta_by_n": {str(int(n)): float(v) for n, v in means.items()},
        }
        ok &= all_pos and decreasing
    ours_text = "; ".join(
        f"vs {b}: all reps positive {num(v['all_reps_positive'])}, mean gap "
        f"{series(v['mean_delta_by_n'], 'n=', 2)}"
        for b, v in ours.items()
    )
    return claim(
        "H12",
        text,
        "all reps positive, shrinking",
        ours,
        crit,
        status(ok),
        ours_text=ours_text,
    )


# Fig. 9 / §4.1.1: the paper's six largest per-CPT gains, at X3, X4, X5, X8, X10, X12, with these
# numbers of joint parent states; read as 0-based column indices of Adult (X0 = age), they are
# education, education-num, marital-status, race, capital-gain and hours-per-week
H13_PAPER_NODES = {3: 28, 4: 28, 5: 10, 8: 82, 10: 14, 12: 28}


def _h13_mapping(gains: pd.DataFrame) -> tuple[list[int], int, list[str]]:
    """Our |Y| at the paper's six nodes (X_i = column i), how many of our six largest gains are
    among them, and their names."""
    by_node = gains.set_index("node")
    ours = [int(by_node.loc[i, "n_parent_configs"]) for i in H13_PAPER_NODES]
    top6 = set(gains.nlargest(6, "gain").node)
    return (
        ours,
        len(top6 & set(H13_PAPER_NODES)),
        [str(by_node.loc[i, "node_name"]) for i in H13_PAPER_NODES],
    )


def claim_h13(r: Results) -> dict[str, Any]:
    text = "Adult: largest per-CPT gains at nodes with many joint parent states (Fig. 9, n = 160)"
    paper = list(H13_PAPER_NODES.values())
    crit = "Spearman(|Y_i|, mean delta MSE_i) > 0 and the top node has |Y| >= 28"
    e3 = r.e3
    if _empty(e3):
        return not_covered("H13", text, paper, crit, "")
    n_pick = 160 if 160 in set(e3["n"]) else int(min(e3["n"].unique(), key=lambda v: abs(v - 160)))
    sub = e3[(e3.n == n_pick) & ~e3.is_class]
    gains = sub.pivot_table(
        index=["node", "node_name", "n_parent_configs"],
        columns="method",
        values="value",
        aggfunc="mean",
    ).reset_index()
    gains["gain"] = gains[list(BASELINES)].mean(axis=1) - gains["hier"]
    rho = float(spearmanr(gains["n_parent_configs"], gains["gain"]).statistic)
    best = gains.loc[gains["gain"].idxmax()]
    top = int(best["n_parent_configs"])
    ours_at_paper, shared, names = _h13_mapping(gains)
    same = sum(a == b for a, b in zip(ours_at_paper, paper, strict=True))
    note = (f"the paper's X3, X4, X5, X8, X10, X12 read as column indices are {', '.join(names)}; our |Y| there "
            f"{ours_at_paper} against {paper} ({same} of 6 equal); our top node is {best['node_name']} "
            f"(X{int(best['node'])}, |Y| = {top}); {shared} of our 6 largest gains are among the paper's 6 nodes, "
            "which the paper does not rank, so a top node with |Y| = 14 (X10) is consistent with Fig. 9")  # fmt: skip
    if n_pick != 160:
        note = f"n = 160 not run; used n = {n_pick}; " + note
    return claim(
        "H13",
        text,
        paper,
        {
            "spearman": rho,
            "top_node_parent_configs": top,
            "top_node": str(best["node_name"]),
            "n": n_pick,
            "ours_at_paper_nodes": ours_at_paper,
            "our_top6_among_paper_nodes": shared,
        },
        crit,
        status(rho > 0 and top >= 28),
        note,
        paper_text="|Y| of the nodes: 28, 28, 10, 82, 14, 28",
        ours_text=f"Spearman {num(rho, 2)}; top node {best['node_name']} |Y| = {top} (n = {n_pick}); "
        f"|Y| at the paper's nodes {ours_at_paper}",
    )


def _e4_cpt_times(e4: pd.DataFrame, method: str) -> pd.DataFrame:
    """Per-CPT seconds of ``method`` on Adult, one row per (n, rep, node)."""
    rows = e4[
        (e4.experiment == "e4") & (e4.method == method) & (e4.metric == "seconds") & (e4.node >= 0)
    ]
    return rows.set_index(["n", "rep", "node"])["value"]


def claim_h14(r: Results) -> dict[str, Any]:
    text = "Adult timing: whole-TAN VI ~20 s vs MCMC ~70 min; per CPT VI 0.01-18 s vs MCMC 6 s-1 h"
    crit = (
        "VI/NUTS time ratio <= 1/50 on every NUTS-timed CPT (a capped NUTS time is a lower bound)"
    )
    paper = {"vi_tan_s": 20, "mcmc_tan_s": 4200, "vi_cpt_s": [0.01, 18], "mcmc_cpt_s": [6, 3600]}
    paper_text = "VI 20 s vs MCMC 4,200 s per TAN; per CPT VI 0.01-18 s, MCMC 6 s-1 h"
    if _empty(r.e4):
        return not_covered("H14", text, paper, crit, "E4 was not run", paper_text=paper_text)
    nuts = _e4_cpt_times(r.e4, "nuts")
    if nuts.empty:
        return not_covered(
            "H14", text, paper, crit, "NUTS was not run in E4", paper_text=paper_text
        )
    vi = _e4_cpt_times(r.e4, "vi")
    ratio = (vi.reindex(nuts.index) / nuts).dropna()
    e4 = r.e4
    capped = e4[(e4.method == "nuts") & (e4.metric == "capped")]["value"]
    vi_tan = e4[(e4.method == "vi_tan") & (e4.metric == "seconds")]["value"]
    ours = {
        "vi_tan_mean_s": float(vi_tan.mean()) if vi_tan.size else None,
        "vi_cpt_s": [float(vi.min()), float(vi.max())],
        "nuts_cpt_s": [float(nuts.min()), float(nuts.max())],
        "nuts_capped": int(capped.sum()),
        "nuts_cpts": int(nuts.size),
        "max_ratio": float(ratio.max()),
    }
    return claim(
        "H14",
        text,
        paper,
        ours,
        crit,
        status(bool(ratio.size) and ratio.max() <= 1 / 50),
        f"NUTS on {nuts.size} CPTs ({int(capped.sum())} capped: their time is a lower bound)",
        paper_text=paper_text,
        ours_text=(
            f"whole-TAN VI {num(ours['vi_tan_mean_s'], 2)} s; per CPT VI {num(vi.min(), 2)}-{num(vi.max(), 2)} s, "
            f"NUTS {num(nuts.min(), 2)}-{num(nuts.max(), 2)} s; max VI/NUTS {num(ratio.max(), 2)}"
        ),
        timing=True,
    )


def _vi_failures(r: Results) -> tuple[int, int]:
    """(non-finite VI outputs, VI runs not converged in 1000 iterations) over E1–E5."""
    e1 = r.e1
    failed = int(e1[(e1.method == "vi") & (e1.metric == "failed")]["value"].sum())
    nonconv = int((e1[(e1.method == "vi") & (e1.metric == "converged")]["value"] < 1).sum())
    if not _empty(r.e2):
        nonconv += int(
            r.e2[(r.e2.method == "hier") & (r.e2.metric == "vi_not_converged")]["value"].sum()
        )
    if not _empty(r.e4):
        vi = r.e4[r.e4.method == "vi"]
        nonconv += int((vi[vi.metric == "converged"]["value"] < 1).sum())
    if not _empty(r.e5):
        md = r.e5[r.e5.method == "md_hier"]
        failed += int((md[md.metric == "vi_finite"]["value"] < 1).sum())
        nonconv += int((md[md.metric == "vi_converged"]["value"] < 1).sum())
    return failed, nonconv


def _advi_failure_rates(r: Results) -> dict[str, float]:
    """ADVI failure rate per experiment that ran it (E1 simulated CPTs, E4 Adult CPTs)."""
    rates = {}
    for name, frame in (("e1", r.e1), ("e4_adult", r.e4)):
        if not _empty(frame):
            failed = frame[(frame.method == "advi") & (frame.metric == "failed")]["value"]
            if failed.size:
                rates[name] = float(failed.mean())
    return rates


def claim_h15(r: Results) -> dict[str, Any]:
    text = "VI never fails; Stan ADVI crashes on ~10% of Adult CPTs (20% with 100 domains)"
    crit = "VI failures (non-finite output or no convergence within 1000 iterations) = 0; ADVI failure rate reported"
    vi_fail, vi_nonconv = _vi_failures(r)
    rates = _advi_failure_rates(r)
    ours = {
        "vi_failures": vi_fail,
        "vi_not_converged": vi_nonconv,
        "advi_failure_rate": rates or None,
    }
    advi_text = ", ".join(f"{k} {v:.0%}" for k, v in rates.items()) or "not run"
    return claim(
        "H15",
        text,
        {"vi_failures": 0, "advi_failure_rate": {"e4_adult": 0.10, "e5_100_domains": 0.20}},
        ours,
        crit,
        status(vi_fail == 0 and vi_nonconv == 0),
        "" if rates else "ADVI not run",
        paper_text="VI failures 0; ADVI fails on 10% of Adult CPTs, 20% with 100 domains",
        ours_text=f"VI failures {vi_fail}, not converged {vi_nonconv}; ADVI failure rate {advi_text}",
    )


SUBSTITUTE = "on the synthetic multi-domain generator standing in for the private GoEco! data (A12)"


def _smallest_n_positive(summary: pd.DataFrame, baselines: tuple[str, ...]) -> tuple[int, float]:
    """(smallest n, lowest fraction of users with a positive mean gain there over metrics, c
    and ``baselines``) — the paper's Figs. 13–14 are at n = 100, K = 100."""
    n_min = int(summary["n"].min())
    at_n = summary[(summary.n == n_min) & summary.baseline.isin(baselines)]
    return n_min, float(at_n["users_positive"].min())


def claim_h16(r: Results) -> dict[str, Any]:
    text = (
        "Multi-domain hierarchical TAN beats per-user BDeu TANs (accuracy, AUC) for ~95% of users"
    )
    crit = (
        "median gain > 0 in every (n, K, c) cell, metric and BDeu baseline; "
        "> 80% of users with a positive mean gain at n = 100"
    )
    if _empty(r.e5):
        return not_covered("H16", text, 0.95, crit, "E5 was not run")
    summary = e5_summary(r.e5)
    bdeu = summary[summary.baseline.isin(["user_bdeu1", "user_bdeu10"])]
    if bdeu.empty:
        return not_covered("H16", text, 0.95, crit, "no per-user BDeu baseline was run")
    n_min, users_positive = _smallest_n_positive(summary, ("user_bdeu1", "user_bdeu10"))
    min_median = float(bdeu["median_gain"].min())
    note = SUBSTITUTE + ("" if n_min == 100 else f"; the smallest n run is {n_min}, not 100")
    return claim(
        "H16",
        text,
        0.95,
        {"min_median_gain": min_median, "users_positive_min": users_positive, "n": n_min},
        crit,
        status(min_median > 0 and users_positive > 0.8),
        note,
        paper_text="~95% of users gain (n = 100, K = 100)",
        ours_text=f"smallest median gain {num(min_median, 2)}; users with a positive mean gain at n = {n_min}: "
        f"{users_positive:.0%} (lowest over c, metrics and baselines)",
    )


def claim_h17(r: Results) -> dict[str, Any]:
    text = "Multi-domain hierarchical TAN is comparable to per-user random forests"
    crit = "median gain vs RF within +-0.03 in every (n, K, c) cell and metric (report only in the spec)"
    if _empty(r.e5):
        return not_covered("H17", text, "comparable", crit, "E5 was not run")
    rf = e5_summary(r.e5).query("baseline == 'user_rf'")
    if rf.empty:
        return not_covered(
            "H17", text, "comparable", crit, "the per-user random forest was not run"
        )
    medians = rf["median_gain"]
    return claim(
        "H17",
        text,
        "comparable",
        {"median_gain_range": [float(medians.min()), float(medians.max())]},
        crit,
        status(bool((medians.abs() <= 0.03).all())),
        SUBSTITUTE + "; the spec expects the substitute may change this",
        ours_text=f"median gain vs RF from {num(medians.min(), 2)} to {num(medians.max(), 2)} over cells and metrics",
    )


def claim_h18(r: Results) -> dict[str, Any]:
    text = "Multi-domain VI is tractable: 2 s - 7 min per CPT with 100 users, 0.6-12 s with 6"
    crit = "max per-CPT VI time < 10 min (independent re-implementation: ~5 s for |X'| = 325, |Y| = 100)"
    if _empty(r.e5) or "md_hier" not in set(r.e5.method):
        return not_covered(
            "H18", text, "2 s - 7 min", crit, "the multi-domain model was not fitted (E5)"
        )
    times = e5_vi_times(r.e5)
    by_k = times.groupby("n_users")["seconds"].max()
    largest = times[times.joint_states == times.joint_states.max()]
    return claim(
        "H18",
        text,
        {"k100_s": [2, 420], "k6_s": [0.6, 12]},
        {
            "max_s_by_k": {int(k): float(v) for k, v in by_k.items()},
            "largest_cpt_median_s": float(largest.seconds.median()),
        },
        crit,
        status(float(times.seconds.max()) < 600),
        f"largest CPT |X'| = {int(largest.joint_states.iloc[0])}",
        paper_text="VI 2 s - 7 min per CPT (K = 100), 0.6-12 s (K = 6)",
        ours_text="max VI time per CPT: "
        + ", ".join(f"K = {int(k)}: {num(v, 2)} s" for k, v in by_k.items()),
        timing=True,
    )


CLAIMS = (
    claim_h1, claim_h2, claim_h3, claim_h4, claim_h5, claim_h6, claim_h7, claim_h8, claim_h9,
    claim_h10, claim_h11, claim_h12, claim_h13, claim_h14, claim_h15, claim_h16, claim_h17,
    claim_h18,
)  # fmt: skip


def evaluate_claims(results: Results) -> list[dict[str, Any]]:
    """Every headline claim of spec §6 with paper value, ours, criterion and status."""
    return evaluate(CLAIMS, results)
