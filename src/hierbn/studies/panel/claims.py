"""Headline claims P1–P5 of the panel: each paper's headline about its estimator re-tested on
the common protocol (stratified 5x2 CV on the same data sets and structures), one function per
claim. The paper value is the paper's statement; ours is computed from the CV means over data
sets (ranks, W/D/L and the Friedman test of :mod:`hierbn.studies.panel.tables`, after Demšar
2006). Claims the run cannot evaluate say why."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import pandas as pd

from hierbn.studies.claims import claim, evaluate, not_covered, num, status, wdl
from hierbn.studies.panel.tables import (
    friedman_tables,
    learning_curve_table,
    mean_ranks,
    rank_matrix,
    win_draw_loss,
)

HIERARCHICAL = ("hier", "hdp", "hidden")
P2_STRUCTURES = ("skdb", "kdb3", "kdb2", "kdb1")  # most complex first
PAPER_HDP_VS_M_RMSE = {  # petitjean2018 Table 2: HDP vs m-estimate, RMSE W-D-L, 68 data sets
    "kdb1": "51-0-17", "kdb2": "55-0-13", "kdb3": "57-0-11", "skdb": "56-0-12",
}  # fmt: skip
MIN_DATASETS = 2
SIGN_TEST_DATASETS = 5


@dataclass(frozen=True)
class Results:
    """What the claims read: the merged CV rows, the learning-curve rows (None or empty when
    not run) and the ``panel`` config section (structures, estimators, learning_curve)."""

    cv: pd.DataFrame
    curves: pd.DataFrame | None
    config: dict[str, Any]

    @cached_property
    def ranks(self) -> pd.DataFrame:
        return mean_ranks(self.cv)

    @cached_property
    def friedman(self) -> pd.DataFrame:
        return friedman_tables(self.cv)[0]

    def missing(self, structures: list[str], estimators: list[str]) -> str:
        """Why a claim needing these structures and estimators is not covered ('' if it can be)."""
        gaps = [s for s in structures if s not in self.config.get("structures", [])]
        gaps += [e for e in estimators if e not in self.config.get("estimators", [])]
        return f"not configured: {', '.join(gaps)}" if gaps else ""

    def pair(self, structure: str, metric: str, a: str, b: str) -> dict[str, Any] | None:
        """W/D/L of a against b (a wins = a better), None without results."""
        cv = self.cv[self.cv["structure"] == structure]
        rows = win_draw_loss(cv[cv["metric"] == metric], pairs=[(a, b)])
        return rows.to_dict("records")[0] if len(rows) else None


def _too_few(n: int) -> str:
    """Why a comparison over ``n`` data sets is not covered ('' if it can be)."""
    return f"only {n} data set(s) with results (needs {MIN_DATASETS})" if n < MIN_DATASETS else ""


def _sets_note(n: int) -> str:
    """The number of data sets, flagged when too few for a sign test to mean much."""
    if n < SIGN_TEST_DATASETS:
        return f"{n} data sets: fewer than {SIGN_TEST_DATASETS}, W/D/L and p only indicative"
    return f"{n} data sets"


def claim_p1(r: Results) -> dict[str, Any]:
    text = "azzimonti2019: hierarchical VI ranks better than BDeu (iss 1) in log-loss on TAN"
    paper = (
        "hierarchical TAN beats BDeu (iss 1 and 10) in accuracy and AUC on most of 57 data "
        "sets (Figs 7–8); log-loss is not reported"
    )
    crit = "TAN log-loss mean rank over data sets (among all estimators, 1 = best): hier < bdeu1"
    why = r.missing(["tan"], ["hier", "bdeu1"])
    ranks = r.ranks[(r.ranks["structure"] == "tan") & (r.ranks["metric"] == "log_loss")]
    ranks = ranks.set_index("estimator")
    n = int(ranks["n_datasets"].max()) if {"hier", "bdeu1"} <= set(ranks.index) else 0
    why = why or _too_few(n)
    if why:
        return not_covered("P1", text, paper, crit, why)
    hier, bdeu = float(ranks.loc["hier", "mean_rank"]), float(ranks.loc["bdeu1", "mean_rank"])
    record = r.pair("tan", "log_loss", "hier", "bdeu1")
    return claim(
        "P1",
        text,
        paper,
        {"mean_rank": {"hier": hier, "bdeu1": bdeu}, "n_datasets": n, "hier_vs_bdeu1": record},
        crit,
        status(hier < bdeu),
        _sets_note(n),
        ours_text=f"mean rank hier {num(hier)} vs bdeu1 {num(bdeu)} over {n} data sets; "
        f"hier vs bdeu1 W-D-L {wdl(record)}",
    )


def _wins_claim(
    r: Results, cid: str, text: str, paper: Any, structure: str, a: str, b: str, metric: str
) -> dict[str, Any]:
    """A claim 'a beats b in metric on structure': W > L over data sets on the CV means."""
    crit = f"{structure} {metric}: {a} wins > losses against {b} over data sets (4 decimals)"
    why = r.missing([structure], [a, b])
    record = None if why else r.pair(structure, metric, a, b)
    why = why or _too_few(0 if record is None else int(record["n_datasets"]))
    if why:
        return not_covered(cid, text, paper, crit, why)
    return claim(
        cid,
        text,
        paper,
        {"structure": structure, **record},
        crit,
        status(record["wins"] > record["losses"]),
        _sets_note(int(record["n_datasets"])),
        ours_text=f"{structure}: {a} vs {b} {wdl(record)}",
    )


def claim_p2(r: Results) -> dict[str, Any]:
    configured = [s for s in P2_STRUCTURES if s in r.config.get("structures", [])]
    paper = "HDP beats m-estimates in RMSE for every BNC (Table 2, 68 data sets)"
    if not configured:
        text = "petitjean2018: HDP beats m-estimates in RMSE on the most complex structure"
        why = f"none of {', '.join(P2_STRUCTURES)} configured"
        return not_covered("P2", text, paper, "HDP wins > losses against m in RMSE", why)
    structure = configured[0]
    text = (
        f"petitjean2018: HDP beats m-estimates in RMSE on the most complex structure ({structure})"
    )
    paper += f"; {structure} {PAPER_HDP_VS_M_RMSE[structure]}"
    return _wins_claim(r, "P2", text, paper, structure, "hdp", "m", "rmse")


def claim_p3(r: Results) -> dict[str, Any]:
    ks = [
        int(m.group(1))
        for s in r.config.get("structures", [])
        if (m := re.fullmatch(r"kdb(\d+)", s))
    ]
    structure = f"kdb{max(ks)}" if ks else "kdb"
    text = f"dombowsky2025: HiDDeN beats Laplace in log-loss on sparse tables ({structure})"
    paper = (
        "HiDDeN has the lowest CPT RMSE for parents with K > 2 levels, its advantage growing "
        "with K (Table 1; against MLE and Dirichlet, not Laplace; log-loss not reported)"
    )
    if not ks:
        crit = "HiDDeN wins > losses against Laplace in log-loss on kDB-k, largest k"
        return not_covered("P3", text, paper, crit, "no kdb structure configured")
    return _wins_claim(r, "P3", text, paper, structure, "hidden", "laplace", "log_loss")


def claim_p4(r: Results) -> dict[str, Any]:
    text = "Estimator choice matters: the Friedman test rejects equal mean log-loss ranks"
    paper = "the five papers each report their estimator better than the baselines"
    crit = "Friedman p < 0.05 (log-loss, over data sets) on at least one configured structure"
    table = r.friedman[
        (r.friedman["metric"] == "log_loss")
        & r.friedman["structure"].isin(r.config.get("structures", []))
        & r.friedman["p_value"].notna()
    ]
    if table.empty:
        why = "needs >= 3 estimators with log-loss on >= 2 data sets for some structure"
        return not_covered("P4", text, paper, crit, why)
    p_values = dict(zip(table["structure"], table["p_value"].astype(float), strict=True))
    n = int(table["n_datasets"].min())
    return claim(
        "P4",
        text,
        paper,
        {"p_value": p_values, "k": int(table["k"].max()), "n_datasets": n},
        crit,
        status(min(p_values.values()) < 0.05),
        _sets_note(n),
        ours_text="Friedman p: " + ", ".join(f"{s} {num(p, 2)}" for s, p in p_values.items()),
    )


def _best_at_smallest(curves: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """Per curve data set: its smallest training size and the estimator(s) with the best mean
    log-loss rank there (ranked within each curve structure, averaged over the structures)."""
    points = learning_curve_table(curves[curves["metric"] == "log_loss"])
    best = {}
    for dataset, sub in points.groupby("dataset", sort=True):
        sub = sub[sub["n"] == sub["n"].min()]
        wide = sub.pivot(index="structure", columns="estimator", values="mean").dropna()
        ranks = rank_matrix(wide, "log_loss").mean()
        top = sorted(ranks.index[ranks == ranks.min()]) if len(wide) else []
        best[str(dataset)] = {"n": int(sub["n"].iloc[0]), "best": top}
    return best


def claim_p5(r: Results) -> dict[str, Any]:
    text = "Hierarchical estimators are best with the least data (learning curves)"
    paper = (
        "hierarchical shrinkage helps most at small n (azzimonti2019 Fig. 7; petitjean2018 "
        "Fig. 7; dombowsky2025 Table 1)"
    )
    crit = (
        "at the smallest training size, an estimator among hier, hdp, hidden has the best mean "
        "log-loss rank (over the curve structures) on every curve data set"
    )
    curves = r.curves
    configured = [e for e in HIERARCHICAL if e in r.config.get("estimators", [])]
    if curves is None or curves.empty or "log_loss" not in set(curves["metric"]):
        return not_covered("P5", text, paper, crit, "no learning curves in this run")
    if not configured:
        return not_covered("P5", text, paper, crit, "no hierarchical estimator configured")
    best = _best_at_smallest(curves)
    ok = all(set(b["best"]) & set(HIERARCHICAL) for b in best.values())
    return claim(
        "P5",
        text,
        paper,
        best,
        crit,
        status(ok and bool(best)),
        f"{len(best)} curve data set(s); structures {sorted(set(curves['structure']))}",
        ours_text="; ".join(
            f"{d} (n={b['n']}): best {', '.join(b['best']) or '—'}" for d, b in best.items()
        ),
    )


CLAIMS = (claim_p1, claim_p2, claim_p3, claim_p4, claim_p5)


def evaluate_claims(
    cv: pd.DataFrame, curves: pd.DataFrame | None, config: dict[str, Any]
) -> list[dict[str, Any]]:
    """Claims P1–P5 from the CV rows, the learning-curve rows and the ``panel`` config."""
    return evaluate(CLAIMS, Results(cv, curves, config))
