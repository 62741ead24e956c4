"""Headline claims of dombowsky2025 (decisions §7; the paper's sentences quoted in ``paper.py``),
one function per claim, computed from the result tables: C1-C10. Each record carries the sentence it
tests and, in ``deviation``, the tolerance or decision by which its criterion departs from it.
C4 shows both the paper's Table 2 as printed and its conclusion against the correctly run group
lasso; C9 is stated on the Kaggle METABRIC file, so on the cBioPortal copy it reads "not covered"
with what we found."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from hierbn.studies.claims import (
    NOT_COVERED,
    REDUCED_SCALE,
    claim,
    evaluate,
    not_covered,
    num,
    status,
)
from hierbn.studies.dombowsky2025.paper import (
    ALARM_ESS,
    ALARM_ITERATIONS,
    C1,
    C2,
    C3,
    C4,
    C5,
    C6,
    C6_SHARE,
    C7,
    C8,
    C9,
    C10,
    LUCAS_FATIGUE_IN_LC,
    METABRIC_DIAGNOSTICS,
    METABRIC_EDGES,
    METABRIC_MPM,
    METABRIC_N,
    SCALE,
    TABLE1,
    TABLE1_METHODS,
    TABLE2,
    TABLE2_METHODS,
    TABLE2_TOTALS,
    TABLE3,
    TABLE6,
    TABLE7,
    TABLE8,
    TABLE10,
    TABLE10_TRUTH,
    TABLE11,
    TABLE11_TRUE_EDGE_BOUND,
)
from hierbn.studies.dombowsky2025.tables import (
    HEADLINE,
    alarm_ess,
    alarm_predictive,
    alarm_structure_maps,
    lucas_selections,
    metabric_parents,
    sampler_diagnostics,
    table1,
    table2,
    table3,
    table6,
    table7,
    table8,
)
from hierbn.studies.readings import (
    EQUIVALENT,
    EVERY,
    PRINTED,
    STANDARD_ERRORS,
    printed_precision,
    quantified,
    relative_margin,
)
from hierbn.studies.scale import run_scale_of

COMPETITORS = TABLE1_METHODS[1:]  # Table 1's methods other than HiDDeN
ALARM_EXPERIMENTS = ("alarm", "alarm_structure")  # diagnostics judged on the headline subsample
CORRECT_LASSO = "Group lasso"  # the lasso the paper describes (decision A9); Table 2 has [code]'s


@dataclass(frozen=True)
class Results:
    """All experiment rows of the run and the checks step's rows (None when not run)."""

    results: pd.DataFrame
    checks: pd.DataFrame | None = None

    def has(self, experiment: str) -> bool:
        return bool((self.results.experiment == experiment).any())


def _slashed(values: Iterable[float], digits: int = 3) -> str:
    return "/".join(num(v, digits) for v in values)


def _failing(checks: dict[str, Any]) -> str:
    """' (failing: a, b)' for the checks that do not hold, '' when all do."""
    bad = [k for k, v in checks.items() if v is False]
    return f" (failing: {', '.join(bad)})" if bad else ""


# ---------------------------------------------------------------------------- C1, Table 1
C1_SIMILAR = 0.005  # "all methods perform similarly" at K = 2: the equivalence margin
C1_TO_PAPER = 0.015  # decisions §7.1: HiDDeN and MLE within this of Table 1
C1_GAP_AT_10 = 0.015  # decisions §7.1: MLE - HiDDeN at K = 10


def _paired_differences(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (K, competitor) the mean of competitor RMSE - HiDDeN RMSE over the data sets both ran
    (logit Bayes runs on fewer data sets than the others, decision A7)."""
    wide = rows.pivot_table(index=["K", "rep"], columns="method", values="value")
    out = {m: (wide[m] - wide["HiDDeN"]).groupby("K").mean() for m in COMPETITORS if m in wide}
    frame = pd.DataFrame(out).dropna(how="all")
    return frame.set_axis(frame.index.astype(int), axis=0)


def claim_c1(r: Results) -> dict[str, Any]:
    text = ("Table 1: all methods similar at K = 2; for K > 2 HiDDeN has the lowest mean RMSE and "
            "its advantage over the competitors grows with K")  # fmt: skip
    crit = (f"at K = 2 every method's mean RMSE within {C1_SIMILAR} of HiDDeN's; for every K > 2 "
            "every competitor's mean RMSE above HiDDeN's; the gap to the closest competitor "
            f"increases with K; HiDDeN and MLE within {C1_TO_PAPER} of Table 1 and MLE - HiDDeN "
            f">= {C1_GAP_AT_10} at K = 10")  # fmt: skip
    deviation = (f"'perform similarly' is judged by an equivalence margin of {C1_SIMILAR} in mean "
                 "RMSE; every difference is paired on the data sets both methods ran (logit "
                 "Bayes runs on fewer, decision A7); the reproduction tolerances of decisions §7.1 (distance "
                 "to Table 1, the gap at K = 10) are required as well")  # fmt: skip
    paper = (f"HiDDeN {_slashed(TABLE1[k]['HiDDeN'][0] for k in TABLE1)}, MLE "
             f"{_slashed(TABLE1[k]['MLE'][0] for k in TABLE1)}, DM "
             f"{_slashed(TABLE1[k]['DM'][0] for k in TABLE1)} (K = {_slashed(TABLE1)})")  # fmt: skip
    keep = {"statement": C1, "deviation": deviation}
    if not r.has("table1"):
        return not_covered("C1", text, paper, crit, "Table 1 not run", **keep)
    rows = r.results[(r.results.experiment == "table1") & (r.results.metric == "rmse")]
    diffs = _paired_differences(rows)
    ks = sorted(diffs.index)
    if (
        set(ks) != set(TABLE1)
        or set(diffs.columns) != set(COMPETITORS)
        or diffs.isna().to_numpy().any()
    ):
        return not_covered("C1", text, paper, crit,
                           f"Table 1 ran K = {ks} with {sorted(diffs.columns)}; the claim needs "
                           f"K = {sorted(TABLE1)} and every method of Table 1", **keep)  # fmt: skip
    t = table1(r.results).pivot(index="K", columns="method", values="mean")
    gap = diffs.min(axis=1)  # the closest competitor
    distance = table1(r.results).query("method in ['HiDDeN', 'MLE']").eval("mean - paper_mean")
    checks = {
        "similar_at_K2": bool(diffs.loc[2].abs().max() <= C1_SIMILAR),
        "lowest_for_K_gt_2": bool((gap.loc[[k for k in ks if k > 2]] > 0).all()),
        "gap_grows_with_K": all(gap[a] < gap[b] for a, b in itertools.pairwise(ks)),
        "near_table1": bool(distance.abs().max() <= C1_TO_PAPER),
        "mle_gap_at_K10": bool(diffs.loc[10, "MLE"] >= C1_GAP_AT_10),
    }  # fmt: skip
    ours = {"hidden": t["HiDDeN"].round(4).to_dict(), "mle": t["MLE"].round(4).to_dict(),
            "gap_to_closest": gap.round(4).to_dict(), "closest": diffs.idxmin(axis=1).to_dict(),
            "max_distance_to_table1": float(distance.abs().max()), "checks": checks}  # fmt: skip
    return claim("C1", text, paper, ours, crit, status(all(checks.values())), **keep,
                 ours_text=f"HiDDeN {_slashed(t['HiDDeN'], 2)}, MLE {_slashed(t['MLE'], 2)}; gap "
                 f"to the closest competitor {_slashed(gap, 2)} (K = {_slashed(ks)}); largest "
                 f"distance to Table 1 {num(ours['max_distance_to_table1'], 2)}"
                 + _failing(checks))  # fmt: skip


# ---------------------------------------------------------------------------- C2-C3, checks
def _check(r: Results, metric: str) -> float:
    rows = r.checks[r.checks.metric == metric]
    return float(rows.value.iloc[0])


def claim_c2(r: Results) -> dict[str, Any]:
    text = "Theorem 2: h is log-concave when rho >= k and n_j(x) > 0; not so when rho < k"
    crit = ("max d^2 log h/dt^2 < 0 over t in [1e-3, 50] and random cases; the counterexample "
            "(rho < k, empty column) > 0 near 0; eq. (10) within 1e-6 of finite differences")  # fmt: skip
    deviation = ("the theorem is checked numerically (a grid of t and random counts, u and "
                 "shapes), not proved; 'the condition on rho is needed' by one counterexample")  # fmt: skip
    paper = "Theorem 2 (proof App. A.2)"
    keep = {"statement": C2, "deviation": deviation}
    if r.checks is None:
        return not_covered("C2", text, paper, crit, "checks step not run", **keep)
    ours = {m: _check(r, m) for m in ("theorem2_max_second_derivative",
            "counterexample_second_derivative", "eq10_max_relative_gap")}  # fmt: skip
    ok = (ours["theorem2_max_second_derivative"] < 0 and ours["counterexample_second_derivative"] > 0
          and ours["eq10_max_relative_gap"] < 1e-6)  # fmt: skip
    return claim("C2", text, paper, ours, crit, status(ok), **keep,
                 ours_text=f"largest second derivative {num(ours['theorem2_max_second_derivative'])}; "
                 f"counterexample {num(ours['counterexample_second_derivative'])}; eq. (10) gap "
                 f"{num(ours['eq10_max_relative_gap'], 2)}")  # fmt: skip


C3_Z = 3.0  # Monte-Carlo standard errors


def claim_c3(r: Results) -> dict[str, Any]:
    text = "The MALA-within-Gibbs sampler targets the exact posterior"
    crit = ("posterior means of t1, t2 and the eq. (14) predictives (both update orders) and "
            f"Algorithm 3's model probabilities within {C3_Z:g} MC standard errors of 2-D grid "
            "integration, in long runs and after sweeps from exact posterior draws (invariance)")  # fmt: skip
    deviation = (f"'exact' is tested on small tables (a binary child) whose posterior can be "
                 f"integrated on a grid, to within {C3_Z:g} Monte-Carlo standard errors")  # fmt: skip
    paper = "eqs. (9), (12), (14); Algorithms 1 and 3"
    keep = {"statement": C3, "deviation": deviation}
    if r.checks is None:
        return not_covered("C3", text, paper, crit, "checks step not run", **keep)
    zs = {m: _check(r, m) for m in r.checks.metric if "_z" in m}
    worst = max(zs.values())
    gaps = {m: _check(r, m) for m in ("alg3_max_gap_frequency", "alg3_max_gap_rao_blackwell")}
    return claim("C3", text, paper, {**zs, **gaps}, crit, status(worst <= C3_Z), **keep,
                 ours_text=f"largest |z| {num(worst, 2)} over {len(zs)} groups; Algorithm 3 "
                 f"probabilities within {num(max(gaps.values()), 2)} (frequency and "
                 "Rao–Blackwellised)")  # fmt: skip


# ---------------------------------------------------------------------------- C4, LUCAS
C4_FATIGUE = (0.5, 0.8)  # decisions §7.4: P(Fatigue in Mb(LC)), the paper's value with a margin
C4_SURE = 0.99  # decisions §7.4: the other true LC-blanket edges
C4_ACCEPTANCE = 0.04  # decisions §7.4: acceptance within this of Table 6


def lowest_total(totals: dict[str, float], hidden: str = "HiDDeN") -> bool:
    """Whether ``hidden``'s total Hamming distance is strictly below every other method's."""
    return all(totals[hidden] < v for m, v in totals.items() if m != hidden)


def claim_c4(r: Results) -> dict[str, Any]:
    text = ("LUCAS Markov blankets (Table 2): HiDDeN's MAP blanket is the truth except for "
            "Smoking, the lowest total Hamming distance")  # fmt: skip
    rivals = [m for m in TABLE2 if m != "HiDDeN"]
    correct = ["GS", "IAMB", CORRECT_LASSO]
    crit = ("(a) Table 2 as printed: HiDDeN's total is the lowest; (b) reproduced: our HiDDeN MAP "
            "Hamming vector equals Table 2's, P(Fatigue in Mb(LC)) in "
            f"[{C4_FATIGUE[0]}, {C4_FATIGUE[1]}], the other true LC edges >= {C4_SURE}, acceptance "
            f"within {C4_ACCEPTANCE} of Table 6; (c) the conclusion on our run: HiDDeN's total below "
            "those of GS, IAMB and the group lasso run as the paper describes it; pass if (b) and "
            "(c) hold")  # fmt: skip
    deviation = ("Table 2's group lasso is the authors' code's, which fitted Lung_cancer with "
                 "Allergy as the response (decision A9); the conclusion is judged against the lasso as the "
                 "paper describes it, the printed table beside it; the Fatigue, edge and "
                 "acceptance tolerances are those of decisions §7.4")  # fmt: skip
    paper_totals = {m: TABLE2_TOTALS[m] for m in TABLE2_METHODS}
    paper = ("totals " + ", ".join(f"{m} {v}" for m, v in paper_totals.items())
             + f"; HiDDeN {tuple(TABLE2['HiDDeN'].values())}; P(Fatigue) {LUCAS_FATIGUE_IN_LC}")  # fmt: skip
    keep = {"statement": C4, "deviation": deviation}
    lucas = r.results[r.results.experiment == "lucas"]
    if lucas.empty or set(lucas.node) != set(TABLE6):
        return not_covered("C4", text, paper, crit,
                           "the LUCAS experiment did not run all six targets", **keep)  # fmt: skip
    hamming = table2(r.results).pivot(index="node", columns="method", values="hamming")
    missing = [m for m in ("HiDDeN", *rivals, *correct) if m not in hamming]
    if missing:
        return not_covered("C4", text, paper, crit, f"LUCAS ran without {missing}", **keep)
    totals = {m: int(v) for m, v in hamming.sum().items()}
    ours_vector = [int(hamming.loc[t, "HiDDeN"]) for t in TABLE2["HiDDeN"]]
    sel = lucas_selections(r.results)
    lc = sel[sel.node == "Lung_cancer"].set_index("variable")
    fatigue = float(lc.loc["Fatigue", "edge_probability"])
    others = lc[lc.in_truth & (lc.index != "Fatigue")].edge_probability
    diag = table6(r.results).set_index("node")
    gaps = {t: max(abs(a - b) for a, b in zip(diag.loc[t, "acceptance"], TABLE6[t]["acceptance"], strict=True))
            for t in TABLE6 if np.allclose(diag.loc[t, "eps"], TABLE6[t]["eps"])}  # fmt: skip
    printed = lowest_total(paper_totals)
    reproduced = {
        "hidden_hamming": ours_vector == list(TABLE2["HiDDeN"].values()),
        "fatigue": C4_FATIGUE[0] <= fatigue <= C4_FATIGUE[1],
        "other_lc_edges": bool(others.min() >= C4_SURE),
        "acceptance": len(gaps) == len(TABLE6) and max(gaps.values()) <= C4_ACCEPTANCE,
    }  # fmt: skip
    judged = {m: totals[m] for m in ("HiDDeN", *correct)}
    conclusion = lowest_total(judged)
    ours = {"paper_table_supports_conclusion": printed, "reproduced": reproduced,
            "conclusion_against_correct_lasso": conclusion, "hidden_hamming": ours_vector,
            "totals": totals, "p_fatigue_in_lc": fatigue,
            "other_lc_edges_min": float(others.min()), "acceptance_gap_to_table6": gaps}  # fmt: skip
    lasso = f"corrected lasso {totals[CORRECT_LASSO]}"
    note = ("" if conclusion else
            f"The paper's own Table 2 supports its conclusion (HiDDeN {paper_totals['HiDDeN']} "
            f"against {', '.join(str(v) for m, v in paper_totals.items() if m != 'HiDDeN')}), "
            f"but the group lasso run as the paper describes it totals {totals[CORRECT_LASSO]}, "
            f"not below HiDDeN's {totals['HiDDeN']}: the lowest total holds only against the "
            "authors' mis-specified lasso fit.")  # fmt: skip
    return claim("C4", text, paper, ours, crit, status(all(reproduced.values()) and conclusion),
                 note, **keep,
                 ours_text=f"(a) Table 2 as printed {'supports' if printed else 'contradicts'} "
                 f"the conclusion; (b) HiDDeN {tuple(ours_vector)}, P(Fatigue) {num(fatigue, 3)}, "
                 f"acceptance within {num(max(gaps.values(), default=float('nan')), 2)} of Table 6"
                 f"{_failing(reproduced)}; (c) totals HiDDeN {totals['HiDDeN']}, GS {totals['GS']}, "
                 f"IAMB {totals['IAMB']}, {lasso} ([code]'s "
                 f"{totals['Group lasso ([code])']}): {'lowest' if conclusion else 'not the lowest'}")  # fmt: skip


# ---------------------------------------------------------------------------- C5, Table 3
C5_FAIL = 0.02  # "completely fail": a selection rate at most this
C5_AIC_AT_5 = (0.2, 0.45)  # decisions §7.5 reproduction ranges
C5_BDE_AT_200 = (0.4, 0.55)


def claim_c5(r: Results) -> dict[str, Any]:
    text = ("Table 3: HiDDeN is the only method selecting the confounded DAG G2 in more than half "
            "of the replications; AIC and BIC fail for k1 > 5; both Dirichlet methods improve "
            "with k1")  # fmt: skip
    crit = ("HiDDeN > 0.5 at every k1 and BIC, AIC, BDE <= 0.5 at every k1; BIC and AIC <= "
            f"{C5_FAIL} for k1 > 5; HiDDeN and BDE higher at the largest k1 than at the smallest; "
            f"reproduction (decisions §7.5): BIC <= 0.05 everywhere, AIC in {list(C5_AIC_AT_5)} at "
            f"k1 = 5, BDE <= 0.1 for k1 <= 25 and in {list(C5_BDE_AT_200)} at k1 = 200")  # fmt: skip
    deviation = (f"'completely fail' is read as a selection rate <= {C5_FAIL}; 'benefit from "
                 "increasing k1' as a higher rate at k1 = 200 than at k1 = 5 (BDE's printed rates "
                 "dip at 25); the reproduction ranges of decisions §7.5 are required as well")  # fmt: skip
    paper = "; ".join(f"{m} {_slashed(TABLE3[m].values(), 2)}" for m in TABLE3)
    keep = {"statement": C5, "deviation": deviation}
    if not r.has("table3"):
        return not_covered("C5", text, paper, crit, "Table 3 not run", **keep)
    t = table3(r.results).pivot(index="k1", columns="method", values="rate")
    if set(t.index) != set(TABLE3["HiDDeN"]):
        return not_covered("C5", text, paper, crit, f"Table 3 ran k1 = {sorted(t.index)}; the "
                           f"claim needs {sorted(TABLE3['HiDDeN'])}", **keep)  # fmt: skip
    h, bde = t["HiDDeN"], t["BDE"]
    large = [k for k in t.index if k > min(t.index)]
    checks = {
        "hidden_above_half": bool((h > 0.5).all()),
        "only_hidden_above_half": bool((t[["BIC", "AIC", "BDE"]] <= 0.5).all().all()),
        "aic_bic_fail_for_k1_gt_5": bool((t.loc[large, ["BIC", "AIC"]] <= C5_FAIL).all().all()),
        "dirichlet_improve": bool(h.iloc[-1] > h.iloc[0] and bde.iloc[-1] > bde.iloc[0]),
        "bic": bool((t["BIC"] <= 0.05).all()),
        "aic": C5_AIC_AT_5[0] <= t["AIC"].iloc[0] <= C5_AIC_AT_5[1],
        "bde": bool((bde.iloc[:2] <= 0.1).all()
                    and C5_BDE_AT_200[0] <= bde.iloc[-1] <= C5_BDE_AT_200[1]),
    }  # fmt: skip
    return claim("C5", text, paper, {"rates": t.round(3).to_dict(), "checks": checks}, crit,
                 status(all(checks.values())), **keep,
                 ours_text="; ".join(f"{m} {_slashed(t[m], 2)}" for m in ("HiDDeN", "BIC", "AIC", "BDE"))
                 + _failing(checks))  # fmt: skip


# ---------------------------------------------------------------------------- C6, Tables 7-8
C6_PROB = (0.78, 0.99)  # decisions §7.6 reproduction ranges and tolerances
C6_SCORE_TOLERANCE = {"BIC": 1.5, "AIC": 1.5, "BDE": 2.5}
_TABLE7_PROBS = [row["prob"][0] for row in TABLE7.values()]
TABLE7_RANGE = f"{num(min(_TABLE7_PROBS))}-{num(max(_TABLE7_PROBS))}"


def claim_c6(r: Results) -> dict[str, Any]:
    text = ("Tables 7–8: with G1 true every method favours G1, HiDDeN's Pr(G1 | n) growing with n; "
            f"with G2 true BDE favours the wrong DAG while HiDDeN picks G2 in > {C6_SHARE:.0%}")  # fmt: skip
    crit = ("G1 true: mean Pr(G1 | n) > 0.5 and mean dBIC, dAIC, dBDE > 0 at every n, Pr(G1 | n) "
            "larger at the largest n than at the smallest; G2 true: BDE selects G2 in < 0.5 and "
            f"HiDDeN in > {C6_SHARE} at every n, HiDDeN's rate larger at the largest n than at the "
            f"smallest; reproduction (decisions §7.6): mean Pr(G_true | n) in {list(C6_PROB)}, mean "
            "score differences within 1.5 (BIC, AIC) and 2.5 (BDE) of Table 7")  # fmt: skip
    deviation = ("'favour' is read on the mean score difference (Table 7) and on the selection "
                 "rate (Table 8); 'increases with n' and 'steadily increasing power' compare the "
                 "largest n with the smallest (adjacent steps are within Monte-Carlo error at "
                 "our replications); the reproduction tolerances of decisions §7.6 are required as well")  # fmt: skip
    paper = (f"Pr(G_true | n) {TABLE7_RANGE}; G2 selection HiDDeN "
             f"{_slashed(TABLE8['HiDDeN'].values(), 2)}, BDE {_slashed(TABLE8['BDE'].values(), 2)}")  # fmt: skip
    keep = {"statement": C6, "deviation": deviation}
    if not r.has("tables78"):
        return not_covered("C6", text, paper, crit, "Tables 7-8 not run", **keep)
    t7 = table7(r.results)
    cells = set(zip(t7.truth, t7.n, strict=True))
    if cells != set(TABLE7):
        return not_covered("C6", text, paper, crit, f"Tables 7-8 ran {sorted(cells)}; the claim "
                           f"needs both truths at n = {sorted({n for _, n in TABLE7})}", **keep)  # fmt: skip
    mean = t7.set_index(["truth", "quantity", "n"])["mean"]
    ns = sorted(t7.n.unique())
    t8 = table8(r.results).pivot(index="n", columns="method", values="rate")
    scores = t7[t7.quantity != "prob"]
    distance = (scores["mean"] - scores["paper_mean"]).abs()
    tolerance = scores.quantity.map(C6_SCORE_TOLERANCE)
    g1 = mean.loc["G1"]
    checks = {
        "g1_all_favour_g1": bool((g1.loc["prob"] > 0.5).all()
                                 and (g1.loc[["BIC", "AIC", "BDE"]] > 0).all()),
        "g1_prob_grows": bool(g1.loc[("prob", ns[-1])] > g1.loc[("prob", ns[0])]),
        "bde_misses_g2": bool((t8["BDE"] < 0.5).all()),
        "hidden_selects_g2": bool((t8["HiDDeN"] > C6_SHARE).all()),
        "hidden_power_grows": bool(t8["HiDDeN"].iloc[-1] > t8["HiDDeN"].iloc[0]),
        "prob_range": bool(mean.xs("prob", level="quantity").between(*C6_PROB).all()),
        "scores_near_paper": bool((distance <= tolerance).all()),
    }  # fmt: skip
    probs = mean.xs("prob", level="quantity")
    ours = {"prob": {f"{tr} n={n}": round(v, 3) for (tr, n), v in probs.items()},
            "max_score_distance": {q: float(distance[scores.quantity == q].max())
                                   for q in C6_SCORE_TOLERANCE},
            "table8": t8.round(3).to_dict(), "checks": checks}  # fmt: skip
    return claim("C6", text, paper, ours, crit, status(all(checks.values())), **keep,
                 ours_text=f"Pr {num(probs.min(), 3)}-{num(probs.max(), 3)}; largest score gaps "
                 + ", ".join(f"{q} {num(v, 2)}" for q, v in ours["max_score_distance"].items())
                 + f"; G2 selection HiDDeN {_slashed(t8['HiDDeN'], 2)}, BDE {_slashed(t8['BDE'], 2)}"
                 + _failing(checks))  # fmt: skip


# ---------------------------------------------------------------------------- C7, ALARM F.3
C7_PRECISION = printed_precision(str(TABLE11_TRUE_EDGE_BOUND))  # 0.993 printed to 3 decimals
TRUE_EDGES = [(p, n) for n, ps in TABLE10_TRUTH.items() for p in ps]


def _mc_se(p: pd.Series, ess: pd.Series) -> pd.Series:
    """The Monte Carlo SE of a chain's probability estimate: sqrt(p (1 - p) / ESS), the ESS
    that of the chain's log-posterior (0 where unknown)."""
    return np.sqrt(p * (1 - p) / ess).fillna(0.0)


def _structure_ess(rows: pd.DataFrame) -> pd.Series:
    """Per (rep, node) the log-posterior ESS of the ALARM structure chain."""
    ess = rows[rows.metric == "logpost_ess"]
    return ess.groupby(["rep", "node"]).value.first()


def table10_in_range(freq: pd.DataFrame, ess: pd.Series | None = None) -> dict[str, dict[str, Any]]:
    """Per Table 10 entry (node, parent set): the paper's probability, the range of our
    subsamples' visit frequencies of that set and whether the paper's lies within it, read as a
    printed number (each subsample widened by the printed precision plus 2 Monte Carlo SE)."""
    out = {}
    for node, sets in TABLE10.items():
        for label, paper in sets.items():
            rows = freq[(freq.node == node) & (freq.parent_set == label)]
            values = rows.value.reset_index(drop=True)
            known = ess if ess is not None else pd.Series(dtype=float)
            e = pd.Series([known.get((r, node), np.nan) for r in rows.rep], dtype=float)
            pad = printed_precision(f"{paper:.3f}") + STANDARD_ERRORS * _mc_se(values, e)
            low, high = (float(values.min()), float(values.max())) if len(values) else (0.0, 0.0)
            within = bool(len(values)) and bool(((values - pad <= paper) & (paper <= values + pad)).any()
                                                 or (low <= paper <= high))  # fmt: skip
            out[f"{node} {label}"] = {"paper": paper, "ours_range": [round(low, 3), round(high, 3)],
                                      "within": within}  # fmt: skip
    return out


def claim_c7(r: Results) -> dict[str, Any]:
    bound = TABLE11_TRUE_EDGE_BOUND
    text = ("ALARM structure (Tables 10–11): the MAP parent sets are the truth and every true edge "
            f"from a diagnosis has probability above {bound}")  # fmt: skip
    crit = ("on the headline subsample: the MAP sets = the truth (HIST {LVF}, LVV {LVF,HYP}, STKV "
            f"{{LVF,HYP}}); {EVERY.named('every')} one of the {len(TRUE_EDGES)} true edges (LVF->HIST, "
            f"LVF->LVV, HYP->LVV, LVF->STKV, HYP->STKV) at least {bound} read as {PRINTED.named()} "
            f"(its printed precision {C7_PRECISION:g} plus 2 Monte Carlo SE, sqrt(p(1-p)/ESS)); "
            "each of Table 10's probabilities within the range of our subsamples', each widened "
            "the same way; Pr(HYP->HIST) and the subsamples' shares reported")  # fmt: skip
    deviation = ("the paper's one subsample cannot be replayed (decision A15): its sentence is asked "
                 "of our headline subsample (the other subsamples' shares are shown, not judged), "
                 "and Table 10's probabilities are compared with the range over our subsamples; "
                 f"'greater than {bound}' is read as at least {bound}, as Table 11 itself prints "
                 f"{bound}; 'zero posterior mass' of HYP->HIST is reported, not judged: Table 11's "
                 f"0 contradicts Table 10's {TABLE10['HIST']['{LVF,HYP}']} for {{LVF,HYP}} "
                 "(decision A14)")  # fmt: skip
    paper = ("; ".join(f"{n} {s} {v}" for n, sets in TABLE10.items() for s, v in
                       itertools.islice(sets.items(), 1))
             + "; Table 11 " + ", ".join(f"{a}->{b} {num(v)}" for (a, b), v in TABLE11.items()))  # fmt: skip
    keep = {"statement": C7, "deviation": deviation}
    if not r.has("alarm_structure"):
        return not_covered("C7", text, paper, crit, "the ALARM structure experiment was not run",
                           **keep)  # fmt: skip
    maps = alarm_structure_maps(r.results).set_index("node")
    subsamples = int(maps.subsamples.min())
    if subsamples < 20:
        return not_covered("C7", text, paper, crit,
                           f"{subsamples} subsamples ran; the claim needs >= 20", **keep)  # fmt: skip
    rows = r.results[r.results.experiment == "alarm_structure"]
    edges = rows[rows.metric == "edge_probability"].pivot_table(
        index="rep", columns=["parent", "node"], values="value")  # fmt: skip
    true_edges = edges[TRUE_EDGES]
    all_sure = (true_edges >= bound).all(axis=1)
    hyp_hist = edges[("HYP", "HIST")]
    ess = _structure_ess(rows)
    headline = true_edges.loc[HEADLINE]
    se = _mc_se(headline, pd.Series([ess.get((HEADLINE, b), np.nan) for _, b in TRUE_EDGES],
                                    index=headline.index))  # fmt: skip
    sure = quantified([bool(p >= bound - C7_PRECISION - STANDARD_ERRORS * e)
                       for p, e in zip(headline, se, strict=True)], EVERY, "true edges")  # fmt: skip
    table10 = table10_in_range(rows[rows.metric == "set_probability"], ess)
    share = maps.map_is_truth.to_dict()
    checks = {
        "headline_map_is_truth": bool((maps.headline_map == maps.truth).all()),
        "true_edges_headline": bool(sure),
        "table10_within_range": all(v["within"] for v in table10.values()),
    }  # fmt: skip
    ours = {"headline_map": maps.headline_map.to_dict(), "map_is_truth_share": share,
            "subsamples": subsamples, "checks": checks,
            "true_edges_headline": {f"{a}->{b}": round(float(v), 4)
                                    for (a, b), v in true_edges.loc[HEADLINE].items()},
            "share_all_true_edges_sure": float(all_sure.mean()), "table10": table10,
            "true_edges_headline_se": {f"{a}->{b}": float(v) for (a, b), v in se.items()},
            "pr_hyp_hist_headline": float(hyp_hist.loc[HEADLINE]),
            "pr_hyp_hist_range": [float(hyp_hist.min()), float(hyp_hist.max())]}  # fmt: skip
    maps_text = ", ".join(f"{n} {m}" for n, m in maps.headline_map.items())
    return claim("C7", text, paper, ours, crit, status(all(checks.values())), **keep,
                 ours_text=f"headline MAP {maps_text}; MAP = truth in "
                 + "/".join(f"{num(100 * share[n], 3)}%" for n in ("HIST", "LVV", "STKV"))
                 + f" of {subsamples} subsamples; smallest true edge {num(headline.min(), 3)}"
                 f" (headline; {sure.text} at least {bound} within noise), all five >= {bound} in "
                 f"{num(100 * all_sure.mean(), 3)}% of the subsamples; "
                 f"Pr(HYP->HIST) {num(hyp_hist.loc[HEADLINE], 2)} (range {num(hyp_hist.min(), 2)}-"
                 f"{num(hyp_hist.max(), 2)})" + _failing(checks))  # fmt: skip


def alarm_directions(p: pd.DataFrame) -> dict[str, bool]:
    """The qualitative statements of App. F.2 (decisions §7.8) on one subsample's estimates."""

    def est(node: str, parents: str, level: str) -> float:
        row = p[(p.node == node) & (p.parents == parents) & (p.level == level)]
        return float(row.predictive.iloc[0])

    lvv = ("LOW", "NORMAL", "HIGH")
    return {
        "HIST=T more likely when LVF=T": est("HIST", "LVF=TRUE", "TRUE") > est("HIST", "LVF=FALSE", "TRUE"),
        "P(HIST=F | LVF=F) > 0.8": est("HIST", "LVF=FALSE", "FALSE") > 0.8,
        "LVF=F, HYP=F: mostly NORMAL LVV": est("LVV", "LVF=FALSE, HYP=FALSE", "NORMAL") > 0.5,
        "HYP=T (LVF=F) raises HIGH LVV": est("LVV", "LVF=FALSE, HYP=TRUE", "HIGH")
        > est("LVV", "LVF=FALSE, HYP=FALSE", "HIGH"),
        "P(LVV=LOW | LVF=T, HYP=F) > 0.5": est("LVV", "LVF=TRUE, HYP=FALSE", "LOW") > 0.5,
        "PCWP and CVP track LVV": all(
            max(lvv, key=lambda v, n=node, u=u: est(n, f"LVV={u}", v)) == u
            for node in ("PCWP", "CVP") for u in lvv),
    }  # fmt: skip


C8_ESS = 1000  # decisions §7.8: smallest ESS of a sampled cell probability per ALARM_ITERATIONS


def claim_c8(r: Results) -> dict[str, Any]:
    text = f"ALARM parameters (Figure 10): the estimates follow the clinical directions, ESS >= {C8_ESS:,}"
    crit = ("on the headline subsample every direction of decisions §7.8 holds (HIST=T likelier under "
            "LVF=T, P(HIST=F | LVF=F) > 0.8, NORMAL LVV when LVF=F, HYP=F, HIGH LVV raised by HYP, "
            "LOW LVV when LVF=T, PCWP and CVP track LVV) and the smallest ESS of a sampled cell "
            f"probability is >= {C8_ESS:,} per {ALARM_ITERATIONS:,} iterations")  # fmt: skip
    deviation = ("'very high' is read as > 0.8 and 'associated with low LVV' as a probability "
                 "> 0.5; 'PCWP and CVP have direct relationships to LVV' as each one's most "
                 "likely level being LVV's; the paper reports the ESS without a criterion: we "
                 f"ask the smallest for >= {C8_ESS:,} per {ALARM_ITERATIONS:,} iterations "
                 "(decisions §7.8), about half the paper's smallest; judged on the headline "
                 "subsample (the paper's cannot be replayed, decision A15), the share of subsamples reported")  # fmt: skip
    low = min(ALARM_ESS, key=lambda n: ALARM_ESS[n][0])
    paper = (f"Figure 10; smallest ESS {num(ALARM_ESS[low][0], 6)} ({low}), per node "
             + ", ".join(f"{n} {num(v[0], 4)}" for n, v in ALARM_ESS.items()))  # fmt: skip
    keep = {"statement": C8, "deviation": deviation}
    if not r.has("alarm"):
        return not_covered("C8", text, paper, crit, "the ALARM experiment was not run", **keep)
    pred = alarm_predictive(r.results)
    directions = alarm_directions(pred)
    rows = r.results[(r.results.experiment == "alarm") & (r.results.metric == "predictive")]
    per_sub = []
    for rep in sorted(rows.rep.unique()):
        sub = rows[rows.rep == rep].rename(columns={"value": "predictive"})
        per_sub.append(all(alarm_directions(sub).values()))
    ess = alarm_ess(r.results)
    diagnostics = sampler_diagnostics(r.results)
    iterations = int(diagnostics.query("experiment == 'alarm'").iterations.max())
    threshold = C8_ESS * iterations / ALARM_ITERATIONS
    ok = all(directions.values()) and float(ess["min"].min()) >= threshold
    ours = {"directions": directions, "ess_min": float(ess["min"].min()),
            "ess_threshold": threshold, "subsamples_all_directions": float(np.mean(per_sub)),
            "subsamples": len(per_sub)}  # fmt: skip
    failing = [k for k, v in directions.items() if not v]
    return claim("C8", text, paper, ours, crit, status(ok), **keep,
                 ours_text=f"{sum(directions.values())} of {len(directions)} directions hold on "
                 f"the headline subsample{' (not: ' + '; '.join(failing) + ')' if failing else ''}"
                 f", all of them on {num(100 * np.mean(per_sub), 3)}% of {len(per_sub)} subsamples; "
                 f"smallest ESS {num(ours['ess_min'])} (threshold {num(threshold)})")  # fmt: skip


def claim_c9(r: Results) -> dict[str, Any]:
    text = "METABRIC (Figures 5–6): HiDDeN's MPM parent sets of TBS, CHT and DFC"
    crit = (f"with metabric_mode code on the Kaggle file: n = {METABRIC_N}; MPM sets within 1 edge of the "
            "paper's per outcome; Pr(IMS->CHT) in [0.4, 0.7], Pr(IMS->DFC) in [0.2, 0.45]; CTD and INC "
            "< 0.5 and COH > 0.5 for every outcome; HC/TABU fewer outcome parents than HiDDeN; "
            "the bug-emulated lasso selects every candidate")  # fmt: skip
    deviation = ("the claim is stated on the Kaggle file, which needs a login; the cBioPortal "
                 "copy we read differs in n and in CTD's levels (decision A13), so it is not judged; the "
                 "tolerances (1 edge, the probability ranges) are those of decisions §7.9")  # fmt: skip
    paper = (", ".join("{" + ",".join(sorted(v)) + "}" for v in METABRIC_MPM.values())
             + "; " + ", ".join(f"Pr({a}->{b}) {v}" for (a, b), v in METABRIC_EDGES.items()))  # fmt: skip
    keep = {"statement": C9, "deviation": deviation}
    rows = r.results[r.results.experiment == "metabric"]
    if rows.empty or set(rows.node) != set(METABRIC_MPM):
        return not_covered(
            "C9",
            text,
            paper,
            crit,
            "the METABRIC experiment did not run all three outcomes",
            **keep,
        )
    parents = metabric_parents(r.results)
    mpm = {
        o: sorted(parents[(parents.node == o) & (parents.HiDDeN == 1)].variable)
        for o in METABRIC_MPM
    }
    prob = parents.set_index(["variable", "node"]).edge_probability
    count = {m: int(parents[m].sum()) for m in ("HiDDeN", "HC", "TABU") if m in parents}
    checks = {
        "mpm_within_one_edge": {o: len(set(mpm[o]) ^ METABRIC_MPM[o]) <= 1 for o in METABRIC_MPM},
        "ims_cht_in_0.4_0.7": 0.4 <= prob[("IMS", "CHT")] <= 0.7,
        "ims_dfc_in_0.2_0.45": 0.2 <= prob[("IMS", "DFC")] <= 0.45,
        "ctd_inc_below_half": bool((prob.loc[["CTD", "INC"]] < 0.5).all()),
        "coh_above_half": bool((prob.loc["COH"] > 0.5).all()),
        "search_sparser": all(count[m] < count["HiDDeN"] for m in ("HC", "TABU")),
        "bug_lasso_selects_all": bool((parents["Group lasso ([code])"] == 1).all())
        if "Group lasso ([code])" in parents else None,
    }  # fmt: skip
    n = int(rows.n.iloc[0])
    ours = {"n": n, "mpm": mpm, "pr_ims_cht": float(prob[("IMS", "CHT")]), "pr_ims_dfc": float(prob[("IMS", "DFC")]),
            "outcome_parents": count, "checks": checks}  # fmt: skip
    mpm_text = ", ".join("{" + ",".join(v) + "}" for v in mpm.values())
    failing = [
        k for k, v in checks.items() if v is False or (isinstance(v, dict) and not all(v.values()))
    ]
    why = (f"cBioPortal copy, not the Kaggle file the claim is stated on (decision A13): n = {n} (paper {METABRIC_N}) and "
           "CTD's levels differ; what we found is in 'ours'")  # fmt: skip
    return claim("C9", text, paper, ours, crit, NOT_COVERED, why, **keep,
                 ours_text=f"n = {n}; MPM {mpm_text}; Pr(IMS->CHT) {num(ours['pr_ims_cht'], 2)}, "
                 f"Pr(IMS->DFC) {num(ours['pr_ims_dfc'], 2)}; outcome parents "
                 + ", ".join(f"{m} {c}" for m, c in count.items())
                 + (f"; checks not met: {', '.join(failing)}" if failing else "; every check met"))  # fmt: skip


C10_EXPERIMENTS = ("lucas", "metabric")  # the units C10's sentence names (App. C.2 and D)


def claim_c10(r: Results) -> dict[str, Any]:
    printed = [*TABLE6.values(), *METABRIC_DIAGNOSTICS.values()]
    rates = [a for d in printed for a in d["acceptance"]]
    sizes = [d["ess"] for d in printed]
    low, high = min(rates) - relative_margin(min(rates)), max(rates) + relative_margin(max(rates))
    least = min(sizes) - relative_margin(min(sizes))
    text = ("MCMC diagnostics of LUCAS and METABRIC: acceptance and log-posterior ESS like the "
            "paper's (Table 6, App. D)")  # fmt: skip
    crit = (f"on LUCAS and METABRIC (the chains the sentence names), {EVERY.named('every')} "
            f"(setting, coordinate) mean acceptance after burn-in and every setting's median "
            f"log-posterior ESS {EQUIVALENT.named('similar')} to the paper's printed ones: "
            f"acceptance in [{low:.3f}, {high:.3f}] (the printed {min(rates)}-{max(rates)} "
            f"±10 %), ESS >= {least:.0f} (the printed smallest {min(sizes)} - 10 %); stuck "
            "chains reported")  # fmt: skip
    deviation = ("the paper tunes the step sizes to avoid 'very small or large' acceptance and "
                 "reads traceplots: we judge by the range of its own printed diagnostics with the "
                 "readings' ±10 % margin (decisions §7.10); the other experiments' diagnostics "
                 "(ALARM, the simulations) are shown in the report, not judged here")  # fmt: skip
    paper = (f"Table 6 and App. D: acceptance {num(min(rates), 3)}-{num(max(rates), 3)}, ESS "
             f"{num(min(sizes), 6)}-{num(max(sizes), 6)} (LUCAS, METABRIC)")  # fmt: skip
    keep = {"statement": C10, "deviation": deviation}
    diag = sampler_diagnostics(r.results).query("method == 'HiDDeN'")
    diag = diag[diag.experiment.isin(C10_EXPERIMENTS)]
    if diag.empty:
        return not_covered("C10", text, paper, crit, "no LUCAS or METABRIC chain was run",
                           cause=REDUCED_SCALE, evidence="the run made no LUCAS or METABRIC chain",
                           **keep)  # fmt: skip
    acc_cols = [c for c in diag.columns if c.startswith("acceptance_")]
    acc = diag.melt(id_vars=["experiment", "setting"], value_vars=acc_cols).dropna()
    inside = (acc.value >= low) & (acc.value <= high)
    outside = acc[~inside]
    low_ess = diag[diag.logpost_ess_median < least]
    units = quantified([*inside, *(diag.logpost_ess_median >= least)], EVERY, "diagnostics")
    ours = {"acceptance_range": [float(acc.value.min()), float(acc.value.max())],
            "acceptance_outside": [f"{e} {s} {m}: {v:.3f}" for e, s, m, v in
                                   outside.itertuples(index=False)],
            "median_ess": dict(zip(diag.experiment + " " + diag.setting,
                                   diag.logpost_ess_median.round(1), strict=True)),
            "ess_below": sorted(low_ess.experiment + " " + low_ess.setting),
            "min_ess": float(diag.logpost_ess_min.min()),
            "stuck_chains": int(diag.stuck_chains.sum())}  # fmt: skip
    settings = sorted({f"{e} {s}" for e, s in zip(outside.experiment, outside.setting,
                                                   strict=True)})  # fmt: skip
    return claim("C10", text, paper, ours, crit, status(bool(units)), **keep,
                 ours_text=f"{units.text} within; acceptance {num(acc.value.min(), 2)}-"
                 f"{num(acc.value.max(), 2)}" + (f" (outside in {', '.join(settings)})" if settings else "")
                 + f"; median log-posterior ESS {num(diag.logpost_ess_median.min())}"
                 f"-{num(diag.logpost_ess_median.max())}, smallest chain {num(ours['min_ess'])}; "
                 f"{ours['stuck_chains']} stuck chain(s)")  # fmt: skip


CLAIMS = (claim_c1, claim_c2, claim_c3, claim_c4, claim_c5, claim_c6, claim_c7, claim_c8,
          claim_c9, claim_c10)  # fmt: skip


# Which dimensions of the paper's scale (paper.SCALE) each claim's verdict depends on.
SCALE_KEYS: dict[str, tuple[str, ...]] = {
    "C1": (), "C2": (), "C3": (), "C4": ("lucas_iterations",), "C5": (), "C6": (), "C7": (),
    "C8": ("alarm_iterations",), "C9": ("metabric_iterations",),
    "C10": ("lucas_iterations", "metabric_iterations"),
}  # fmt: skip


def evaluate_claims(results: Results, run: dict[str, float] | None = None) -> list[dict[str, Any]]:
    """Every claim, each with its scale (``run``: the run's, ``workflow.run_scale``; None:
    the paper's)."""
    scale = run_scale_of(SCALE, run, SCALE_KEYS) if run is not None else None
    return evaluate(CLAIMS, results, scale)
