"""Headline claims P1–P5 of the panel: each paper's headline sentence re-tested on the common
protocol (stratified 5x2 CV on the same data sets and structures), one function per claim.
P1–P3 judge azzimonti2019's, petitjean2018's and dombowsky2025's own sentences as their paper
judged them; P4 and P5 are the panel's hypotheses, generalising a sentence of a paper. The
statements and paper values come from :mod:`hierbn.studies.panel.paper`; ours from the CV
means over data sets (W/D/L with the sign test, ranks, after Demšar 2006, of
:mod:`hierbn.studies.panel.tables`).

Stated up front:

- A claim needs every structure, estimator and metric its sentence names, with results on the
  same data sets, and more than 10 of them (Demšar 2006 §3.2.2's rule of thumb for tests over
  data sets, N > 10); otherwise it is not covered at this scale, never judged on a subset
  (decision 1).
- P1 "large majority": at least three quarters of the data sets won (a draw is no win;
  decision 2).
- P2 significance: petitjean2018's two-tailed sign test (its Section 6.1), draws excluded,
  p <= 0.05 (decision 3; petitjean2018 decision §4.6).
- P3: held-out RMSE of the class probabilities replaces the RMSE to the truth (decision 4).
- P4: a one-sided Wilcoxon signed-rank test per structure, Holm-corrected across the
  structures at family-wise alpha 0.05 (decision 5).
- P5: "learn faster" as a positive advantage at the smallest size, no smaller than with the
  whole fold (decision 6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import pandas as pd
from scipy.stats import wilcoxon
from statsmodels.stats.multitest import multipletests

from hierbn.stats_tests import sign_test
from hierbn.studies.claims import claim, evaluate, not_covered, num, status, wdl
from hierbn.studies.panel import paper as P
from hierbn.studies.panel.tables import (
    blocks,
    dataset_means,
    learning_curve_table,
    rank_matrix,
    win_draw_loss,
)

HIERARCHICAL = ("hier", "hdp", "hidden")
BASELINES = ("laplace", "bdeu1", "bdeu10", "m")
STRUCTURES = ("nb", "tan", "kdb1", "kdb2", "kdb3", "skdb")  # the panel's; all in Table 2
KDB_LEVELS = ("kdb1", "kdb2", "kdb3")  # sparser tables as k grows (P3)
DM_COMPETITORS = ("laplace", "bdeu1", "bdeu10")  # Dirichlet-multinomial estimators (P3)
MIN_DATASETS = 11  # decision 1: Demšar (2006) §3.2.2, tests over data sets want N > 10
LARGE_MAJORITY = 0.75  # P1: "the large majority" of the data sets (decision 2)
ALPHA = 0.05  # P4's family-wise level (decision 5)


@dataclass(frozen=True)
class Results:
    """What the claims read: the merged CV rows, the learning-curve rows (None or empty when
    not run) and the ``panel`` config section (structures, estimators, learning_curve)."""

    cv: pd.DataFrame
    curves: pd.DataFrame | None
    config: dict[str, Any]

    def covered(
        self, structures: Sequence[str], estimators: Sequence[str], metrics: Sequence[str]
    ) -> tuple[pd.DataFrame, str]:
        """The CV means restricted to the data sets with a result for every (structure,
        estimator, metric) asked for, and '' — or an empty table and why the claim is not
        covered at this scale (what it needs that the run did not make)."""
        need = (
            f"needs {', '.join(structures)} x {', '.join(estimators)} x {', '.join(metrics)} "
            f"on more than {MIN_DATASETS - 1} data sets (Demšar 2006's N > 10)"
        )
        gaps = [s for s in structures if s not in self.config.get("structures", [])]
        gaps += [e for e in estimators if e not in self.config.get("estimators", [])]
        if gaps:
            return pd.DataFrame(), f"not covered at this scale: {need}; not run: {', '.join(gaps)}"
        means = dataset_means(self.cv)
        means = means[
            means["structure"].isin(structures)
            & means["estimator"].isin(estimators)
            & means["metric"].isin(metrics)
            & means["value"].notna()
        ]
        cells = means[["dataset", "structure", "estimator", "metric"]].drop_duplicates()
        cells = cells.groupby("dataset").size()
        complete = cells.index[cells == len(structures) * len(estimators) * len(metrics)]
        if len(complete) < MIN_DATASETS:
            return pd.DataFrame(), f"not covered at this scale: {need}; the run has {len(complete)}"
        return means[means["dataset"].isin(complete)].reset_index(drop=True), ""


def _record(means: pd.DataFrame, structure: str, metric: str, a: str, b: str) -> dict[str, Any]:
    """W/D/L (with the sign-test p) of estimator a against b on one (structure, metric)."""
    sub = means[(means["structure"] == structure) & (means["metric"] == metric)]
    return win_draw_loss(sub, pairs=[(a, b)]).to_dict("records")[0]


# ------------------------------------------------------------------ P1: azzimonti2019
P1_PAIRS = [(m, b) for m in ("zero_one", "auc") for b in ("bdeu1", "bdeu10")]


def p1_holds(records: Mapping[str, Mapping[str, Any]]) -> bool:
    """azzimonti2019's sentence on W/D/L records of hier against each BDeu: hier wins on at
    least :data:`LARGE_MAJORITY` of the data sets in every record."""
    return bool(records) and all(
        r["wins"] >= LARGE_MAJORITY * r["n_datasets"] for r in records.values()
    )


def claim_p1(r: Results) -> dict[str, Any]:
    text = (
        "azzimonti2019: hierarchical TAN beats BDeu (iss 1 and 10) in accuracy and AUC on the "
        "large majority of data sets"
    )
    paper = f"the large majority of the {P.AZZIMONTI_DATASETS} data sets (Figs 7–8)"
    crit = (
        f"TAN: hier wins (better CV mean at 4 decimals) on >= {LARGE_MAJORITY:.0%} of the data "
        "sets against bdeu1 and against bdeu10, in 0-1 loss and in AUC (all four)"
    )
    deviation = (
        f"'large majority' read as >= {LARGE_MAJORITY:.0%} of the data sets won (a draw is no "
        "win); accuracy is 1 - 0-1 loss; the panel's data sets and stratified 5x2 CV (training "
        f"on half of each data set) instead of the paper's {P.AZZIMONTI_DATASETS} data sets "
        f"subsampled to n = {min(P.AZZIMONTI_SIZES)} to {max(P.AZZIMONTI_SIZES)}; the paper "
        "judges its figures without a test, so none is applied (the sign-test p "
        "is shown)"
    )
    means, why = r.covered(["tan"], ["hier", "bdeu1", "bdeu10"], ["zero_one", "auc"])
    if why:
        return not_covered("P1", text, paper, crit, why, statement=P.P1, deviation=deviation)
    records = {f"{m} vs {b}": _record(means, "tan", m, "hier", b) for m, b in P1_PAIRS}
    n = int(means["dataset"].nunique())
    return claim(
        "P1",
        text,
        paper,
        {"n_datasets": n, "hier_vs": records},
        crit,
        status(p1_holds(records)),
        f"{n} data sets",
        statement=P.P1,
        deviation=deviation,
        ours_text="TAN hier " + "; ".join(f"{k}: {wdl(v)}" for k, v in records.items()),
    )


# ------------------------------------------------------------------ P2: petitjean2018
def _counts(cell: str) -> tuple[int, int, int]:
    """A Table 2 cell 'W-D-L' as (wins, draws, losses)."""
    wins, draws, losses = (int(x) for x in cell.split("-"))
    return wins, draws, losses


def paper_significant(structure: str, metric: str) -> bool:
    """Whether the paper's own Table 2 cell is significant under its sign test (all but NB
    RMSE)."""
    wins, _, losses = _counts(P.TABLE2[structure][metric])
    return sign_test(wins, losses) <= P.PETITJEAN_ALPHA


def p2_holds(records: Mapping[tuple[str, str], Mapping[str, Any]]) -> bool:
    """petitjean2018's sentence as its Table 2 judges it, on W/D/L records of HDP against m
    keyed (structure, metric): HDP wins more than it loses in every cell, with the sign test's
    p <= 0.05 wherever the paper's own cell is significant."""
    return bool(records) and all(
        r["wins"] > r["losses"]
        and (r["p_value"] <= P.PETITJEAN_ALPHA or not paper_significant(*key))
        for key, r in records.items()
    )


def claim_p2(r: Results) -> dict[str, Any]:
    text = "petitjean2018: HDP is far superior to m-estimates (Table 2's W/D/L, every structure)"
    paper = {s: P.TABLE2[s] for s in STRUCTURES}
    paper_text = f"HDP vs m W-D-L (0-1 loss, RMSE) over {P.PETITJEAN_DATASETS} data sets: "
    paper_text += "; ".join(f"{s} {v['zero_one']}, {v['rmse']}" for s, v in paper.items())
    crit = (
        f"on each of {', '.join(STRUCTURES)}, in 0-1 loss and RMSE: hdp wins > losses against m "
        "over the data sets, and the two-tailed sign test (draws excluded) gives "
        f"p <= {P.PETITJEAN_ALPHA} in every cell the paper's Table 2 has significant under that "
        "test (all but NB RMSE)"
    )
    deviation = (
        "the panel's six structures (Table 2 also has kDB-4 and kDB-5, which the panel does "
        f"not run) and data sets instead of the paper's {P.PETITJEAN_DATASETS}; the panel's HDP "
        "and m settings (config panel.settings)"
    )
    means, why = r.covered(STRUCTURES, ["hdp", "m"], ["zero_one", "rmse"])
    if why:
        return not_covered(
            "P2", text, paper, crit, why, statement=P.P2, deviation=deviation, paper_text=paper_text
        )
    records = {
        (s, m): _record(means, s, m, "hdp", "m") for s in STRUCTURES for m in ("zero_one", "rmse")
    }
    ours = {s: {m: records[(s, m)] for m in ("zero_one", "rmse")} for s in STRUCTURES}
    return claim(
        "P2",
        text,
        paper,
        ours,
        crit,
        status(p2_holds(records)),
        f"{means['dataset'].nunique()} data sets",
        statement=P.P2,
        deviation=deviation,
        paper_text=paper_text,
        ours_text="; ".join(f"{s} {wdl(v['zero_one'])}, {wdl(v['rmse'])}" for s, v in ours.items()),
    )


# ------------------------------------------------------------------ P3: dombowsky2025
def p3_holds(average: Mapping[str, Mapping[str, float]]) -> bool:
    """dombowsky2025's sentence on the average RMSE per sparsity level (kDB-k, in order) and
    estimator: hidden lowest at every level, and its gap to the best competitor strictly
    growing from level to level."""
    gaps = [
        min(v for e, v in level.items() if e != "hidden") - level["hidden"]
        for level in average.values()
    ]
    return bool(gaps) and gaps[0] > 0 and all(b > a for a, b in pairwise(gaps))


def claim_p3(r: Results) -> dict[str, Any]:
    text = (
        "dombowsky2025: HiDDeN has the lowest average RMSE on sparse tables, its lead growing "
        "with the sparsity (kDB-1 to kDB-3)"
    )
    crit = (
        f"average over data sets of the CV mean RMSE, on each of {', '.join(KDB_LEVELS)}: "
        f"hidden below each of {', '.join(DM_COMPETITORS)}, and (best competitor - hidden) "
        "strictly increasing from kdb1 to kdb3"
    )
    deviation = (
        "the panel has no true probabilities: RMSE of the predicted class probabilities on "
        "held-out folds replaces the RMSE to the simulated conditional probabilities; sparsity "
        "grows with k in kDB-k (more parents) instead of with the parent's categories K; the "
        "competitors are the panel's Dirichlet-multinomial estimators (laplace, bdeu1, bdeu10; "
        "the paper's MLE and logistic regressions are not panel estimators); averages over "
        "the panel's data sets instead of the paper's simulated data sets per K; no test (the paper "
        "compares averages)"
    )
    estimators = ["hidden", *DM_COMPETITORS]
    means, why = r.covered(KDB_LEVELS, estimators, ["rmse"])
    if why:
        return not_covered("P3", text, P.P3.text, crit, why, statement=P.P3, deviation=deviation)
    average = {
        s: {e: float(v) for e, v in sub.groupby("estimator")["value"].mean().items()}
        for s, sub in means.groupby("structure", sort=False)
    }
    average = {s: average[s] for s in KDB_LEVELS}
    gaps = {
        s: min(v for e, v in a.items() if e != "hidden") - a["hidden"] for s, a in average.items()
    }
    return claim(
        "P3",
        text,
        P.P3.text,
        {"average_rmse": average, "gap": gaps},
        crit,
        status(p3_holds(average)),
        f"{means['dataset'].nunique()} data sets",
        statement=P.P3,
        deviation=deviation,
        ours_text="; ".join(
            f"{s}: hidden {num(average[s]['hidden'])}, lead {num(g, 2)}" for s, g in gaps.items()
        ),
    )


# ------------------------------------------------------------------ P4: the panel's own
def rank_gap(table: pd.DataFrame) -> pd.Series:
    """Per data set (rows of a data sets x estimators table of log-loss): the mean rank of the
    hierarchical estimators minus that of the baselines (negative: hierarchical better)."""
    ranks = rank_matrix(table, "log_loss")
    return ranks[list(HIERARCHICAL)].mean(axis=1) - ranks[list(BASELINES)].mean(axis=1)


def directional_p(gap: pd.Series) -> float:
    """One-sided Wilcoxon signed-rank p of 'the rank gap is below 0' over the data sets (zero
    gaps dropped; 1.0 when every gap is zero)."""
    values = gap.to_numpy(dtype=float)
    if not (values != 0).any():
        return 1.0
    return float(wilcoxon(values, alternative="less").pvalue)


def holm(p_values: Mapping[str, float]) -> dict[str, float]:
    """Holm-adjusted p-values (family-wise error control across the keys)."""
    keys = list(p_values)
    adjusted = multipletests([p_values[k] for k in keys], method="holm")[1]
    return {k: float(p) for k, p in zip(keys, adjusted, strict=True)}


def p4_holds(adjusted: Mapping[str, float]) -> bool:
    """The hypothesis holds on every structure after Holm's correction."""
    return bool(adjusted) and all(p <= ALPHA for p in adjusted.values())


def claim_p4(r: Results) -> dict[str, Any]:
    text = (
        "The hierarchical estimators rank better than the baselines in log-loss on every structure"
    )
    crit = (
        f"on each of {', '.join(STRUCTURES)}: per data set, the mean log-loss rank of "
        f"{', '.join(HIERARCHICAL)} minus that of {', '.join(BASELINES)} (ranks among the "
        "seven); one-sided Wilcoxon signed-rank test that it is below 0 over the data sets, "
        f"Holm-adjusted across the {len(STRUCTURES)} structures; passes if the adjusted "
        f"p <= {ALPHA} on every structure"
    )
    deviation = (
        "the panel's own hypothesis, generalising azzimonti2019's abstract from its hierarchical "
        "TAN vs BDeu to the three hierarchical estimators vs the four baselines, on every panel "
        "structure, in log-loss (a proper score), on the common protocol"
    )
    means, why = r.covered(STRUCTURES, [*HIERARCHICAL, *BASELINES], ["log_loss"])
    if why:
        return not_covered("P4", text, P.P4.text, crit, why, statement=P.P4, deviation=deviation)
    per = {}
    for s in STRUCTURES:
        gap = rank_gap(blocks(means, s, "log_loss"))
        per[s] = {"mean_rank_gap": float(gap.mean()), "p_value": directional_p(gap)}
    adjusted = holm({s: v["p_value"] for s, v in per.items()})
    for s, p in adjusted.items():
        per[s]["holm_p"] = p
    return claim(
        "P4",
        text,
        P.P4.text,
        per,
        crit,
        status(p4_holds(adjusted)),
        f"{means['dataset'].nunique()} data sets",
        statement=P.P4,
        deviation=deviation,
        ours_text="rank gap (Holm p): "
        + ", ".join(
            f"{s} {num(v['mean_rank_gap'], 2)} ({num(v['holm_p'], 2)})" for s, v in per.items()
        ),
    )


# ------------------------------------------------------------------ P5: the panel's own
def curve_advantage(points: pd.DataFrame) -> dict[str, float]:
    """For one (data set, structure) of learning-curve means (rows estimator x n): the best
    baseline's mean RMSE minus the best hierarchical one's at the smallest training size and
    with the whole fold (the largest; positive: hierarchical better)."""
    out = {}
    for label, n in (("smallest", points["n"].min()), ("whole", points["n"].max())):
        at = points[points["n"] == n].set_index("estimator")["mean"]
        out[label] = float(at[list(BASELINES)].min() - at[list(HIERARCHICAL)].min())
    return out


def p5_holds(advantage: Mapping[str, Mapping[str, float]]) -> bool:
    """'learn faster' on every curve: a hierarchical estimator better than every baseline at
    the smallest size, by at least as much as with the whole fold."""
    return bool(advantage) and all(
        a["smallest"] > 0 and a["smallest"] >= a["whole"] for a in advantage.values()
    )


def _curves_missing(r: Results) -> tuple[pd.DataFrame, str]:
    """The RMSE learning-curve means of every configured curve data set and structure, or why
    P5 is not covered (the curves the config asks for, not all made)."""
    section = r.config.get("learning_curve") or {}
    datasets, structures = section.get("datasets", []), section.get("structures", [])
    estimators = [*HIERARCHICAL, *BASELINES]
    need = (
        "not covered at this scale: needs RMSE learning curves of "
        f"{', '.join(estimators)} at two sizes or more on every configured curve data set "
        "and structure"
    )
    gaps = [e for e in estimators if e not in r.config.get("estimators", [])]
    curves = r.curves
    if gaps or not datasets or not structures or curves is None or curves.empty:
        return pd.DataFrame(), need + (f"; not run: {', '.join(gaps)}" if gaps else "")
    points = learning_curve_table(curves[curves["metric"] == "rmse"])
    for d in datasets:
        for s in structures:
            cell = points[(points["dataset"] == d) & (points["structure"] == s)]
            sizes = cell.groupby("estimator")["n"].apply(frozenset)
            if set(estimators) - set(sizes.index) or len(set(sizes)) != 1 or len(sizes.iloc[0]) < 2:
                return pd.DataFrame(), f"{need}; missing or incomplete: {d}, {s}"
    return points[points["dataset"].isin(datasets) & points["structure"].isin(structures)], ""


def claim_p5(r: Results) -> dict[str, Any]:
    text = (
        "Hierarchical estimators learn faster: best at the smallest training size (learning curves)"
    )
    crit = (
        "on every configured curve data set and structure: (best baseline - best hierarchical) "
        "mean RMSE > 0 at the smallest training size, and >= its value with the whole fold"
    )
    deviation = (
        "the panel's own hypothesis, generalising petitjean2018's Fig. 7 remark from HDP vs "
        f"m-estimate to {', '.join(HIERARCHICAL)} vs {', '.join(BASELINES)}, on the panel's "
        "learning curves (means over the configured runs); 'learn faster' read as better at the "
        "smallest size by at least as much as with the whole fold; no test (the paper reads "
        "the curves' means)"
    )
    points, why = _curves_missing(r)
    if why:
        return not_covered("P5", text, P.P5.text, crit, why, statement=P.P5, deviation=deviation)
    advantage = {
        f"{d}/{s}": curve_advantage(cell)
        for (d, s), cell in points.groupby(["dataset", "structure"], sort=False)
    }
    return claim(
        "P5",
        text,
        P.P5.text,
        advantage,
        crit,
        status(p5_holds(advantage)),
        f"{len(advantage)} curve(s)",
        statement=P.P5,
        deviation=deviation,
        ours_text="advantage at smallest / whole: "
        + "; ".join(
            f"{k} {num(a['smallest'], 2)} / {num(a['whole'], 2)}" for k, a in advantage.items()
        ),
    )


CLAIMS = (claim_p1, claim_p2, claim_p3, claim_p4, claim_p5)


def evaluate_claims(
    cv: pd.DataFrame, curves: pd.DataFrame | None, config: dict[str, Any]
) -> list[dict[str, Any]]:
    """Claims P1–P5 from the CV rows, the learning-curve rows and the ``panel`` config."""
    return evaluate(CLAIMS, Results(cv, curves, config))
