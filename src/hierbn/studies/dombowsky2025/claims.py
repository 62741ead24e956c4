"""Headline claims of dombowsky2025 (spec §7), one function per claim, computed from the result
tables: C1-C10. C9 is stated on the Kaggle METABRIC file; on the cBioPortal copy it reads "not
covered" with what we found."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from hierbn.studies.claims import NOT_COVERED, claim, evaluate, not_covered, num, status
from hierbn.studies.dombowsky2025.paper import METABRIC_MPM, TABLE2, TABLE6
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

COMPETITORS = ("MLE", "DM", "Logit MLE", "Logit GAM")
ALARM_EXPERIMENTS = ("alarm", "alarm_structure")  # diagnostics judged on the headline subsample


@dataclass(frozen=True)
class Results:
    """All experiment rows of the run and the checks step's rows (None when not run)."""

    results: pd.DataFrame
    checks: pd.DataFrame | None = None

    def has(self, experiment: str) -> bool:
        return bool((self.results.experiment == experiment).any())


def claim_c1(r: Results) -> dict[str, Any]:
    text = "Table 1: HiDDeN has the lowest RMSE for K > 2 and its advantage grows with K"
    crit = ("for K in {3, 5, 10} HiDDeN's mean RMSE < MLE, DM, logit MLE and logit GAM; the gap "
            "MLE - HiDDeN increases with K and is >= 0.015 at K = 10; all within 0.005 at K = 2; "
            "HiDDeN and MLE within 0.015 of the paper")  # fmt: skip
    paper = "HiDDeN .06/.071/.1/.135, MLE .06/.074/.106/.16 (K = 2/3/5/10)"
    if not r.has("table1"):
        return not_covered("C1", text, paper, crit, "Table 1 not run")
    t = table1(r.results).pivot(index="K", columns="method", values="mean")
    ks = sorted(t.index)
    if not {2, 10} <= set(ks) or any(m not in t.columns for m in ("HiDDeN", *COMPETITORS)):
        return not_covered("C1", text, paper, crit, f"Table 1 ran K = {ks} without every method")
    gaps = (t["MLE"] - t["HiDDeN"]).to_dict()
    lowest = all(t.loc[k, "HiDDeN"] < t.loc[k, list(COMPETITORS)].min() for k in ks if k > 2)
    at_two = t.loc[2, ["HiDDeN", *COMPETITORS]]
    spread_two = float(at_two.max() - at_two.min())
    paper_gap = table1(r.results).query("method in ['HiDDeN', 'MLE']").eval("mean - paper_mean")
    worst = float(paper_gap.abs().max())
    growing = all(gaps[a] < gaps[b] for a, b in itertools.pairwise(ks))
    ok = lowest and growing and gaps[10] >= 0.015 and spread_two <= 0.005 and worst <= 0.015
    ours = {"hidden": t["HiDDeN"].round(4).to_dict(), "mle": t["MLE"].round(4).to_dict(),
            "gap": {k: round(v, 4) for k, v in gaps.items()}, "spread_at_K2": spread_two,
            "max_gap_to_paper": worst, "lowest_for_K_gt_2": lowest}  # fmt: skip
    return claim("C1", text, paper, ours, crit, status(ok),
                 ours_text="HiDDeN " + "/".join(num(t.loc[k, "HiDDeN"], 2) for k in ks)
                 + ", MLE " + "/".join(num(t.loc[k, "MLE"], 2) for k in ks)
                 + f"; gap at K = 10 {num(gaps[10], 2)}; K = 2 spread {num(spread_two, 2)}; "
                 f"largest distance to the paper {num(worst, 2)}")  # fmt: skip


def _check(r: Results, metric: str) -> float:
    rows = r.checks[r.checks.metric == metric]
    return float(rows.value.iloc[0])


def claim_c2(r: Results) -> dict[str, Any]:
    text = "Theorem 2: h is log-concave when rho >= k and n_j(x) > 0; not so when rho < k"
    crit = ("max d^2 log h/dt^2 < 0 over t in [1e-3, 50] and random cases; the counterexample "
            "(rho < k, empty column) > 0 near 0; eq. (10) within 1e-6 of finite differences")  # fmt: skip
    paper = "Theorem 2 (proof App. A.2)"
    if r.checks is None:
        return not_covered("C2", text, paper, crit, "checks step not run")
    ours = {m: _check(r, m) for m in ("theorem2_max_second_derivative",
            "counterexample_second_derivative", "eq10_max_relative_gap")}  # fmt: skip
    ok = (ours["theorem2_max_second_derivative"] < 0 and ours["counterexample_second_derivative"] > 0
          and ours["eq10_max_relative_gap"] < 1e-6)  # fmt: skip
    return claim("C2", text, paper, ours, crit, status(ok),
                 ours_text=f"largest second derivative {num(ours['theorem2_max_second_derivative'])}; "
                 f"counterexample {num(ours['counterexample_second_derivative'])}; eq. (10) gap "
                 f"{num(ours['eq10_max_relative_gap'], 2)}")  # fmt: skip


def claim_c3(r: Results) -> dict[str, Any]:
    text = "The MALA-within-Gibbs sampler targets the exact posterior"
    crit = ("posterior means of t1, t2 and the eq. (14) predictives (both update orders) and "
            "Algorithm 3's model probabilities within 3 MC standard errors of 2-D grid integration, "
            "in long runs and after sweeps from exact posterior draws (invariance)")  # fmt: skip
    paper = "eqs. (9), (12), (14); Algorithms 1 and 3"
    if r.checks is None:
        return not_covered("C3", text, paper, crit, "checks step not run")
    zs = {m: _check(r, m) for m in r.checks.metric if "_z" in m}
    worst = max(zs.values())
    gaps = {m: _check(r, m) for m in ("alg3_max_gap_frequency", "alg3_max_gap_rao_blackwell")}
    return claim("C3", text, paper, {**zs, **gaps}, crit, status(worst <= 3.0),
                 ours_text=f"largest |z| {num(worst, 2)} over {len(zs)} groups; Algorithm 3 "
                 f"probabilities within {num(max(gaps.values()), 2)} (frequency and "
                 "Rao–Blackwellised)")  # fmt: skip


def claim_c4(r: Results) -> dict[str, Any]:
    text = "LUCAS Markov blankets (Table 2): HiDDeN's MAP has total Hamming 2, the lowest"
    crit = ("HiDDeN MAP Hamming (2,0,0,0,0,0) with Smoking missing Peer_Pressure and Genetics, a "
            "total below those of Table 2's methods (GS, IAMB, the lasso as [code] ran it); "
            "P(Fatigue in Mb(LC)) in [0.5, 0.8] and the other true LC edges >= 0.99; acceptance "
            "within 0.04 of Table 6; GS and IAMB totals in 3-4 (the corrected lasso is reported "
            "beside, not judged: A9)")  # fmt: skip
    paper = "HiDDeN 2, group lasso ([code]) 7, GS 3, IAMB 4; P(Fatigue) .646"
    lucas = r.results[r.results.experiment == "lucas"]
    if lucas.empty or set(lucas.node) != set(TABLE6):
        return not_covered(
            "C4", text, paper, crit, "the LUCAS experiment did not run all six targets"
        )
    hamming = table2(r.results).pivot(index="node", columns="method", values="hamming")
    totals = hamming.sum().to_dict()
    ours_vector = [int(hamming.loc[t, "HiDDeN"]) for t in TABLE6]
    sel = lucas_selections(r.results)
    smoking = sel[(sel.node == "Smoking") & sel.in_truth & (sel.HiDDeN == 0)].variable.tolist()
    lc = sel[sel.node == "Lung_cancer"].set_index("variable")
    fatigue = float(lc.loc["Fatigue", "edge_probability"])
    others = lc[lc.in_truth & (lc.index != "Fatigue")].edge_probability
    diag = table6(r.results).set_index("node")
    gaps = {t: max(abs(a - b) for a, b in zip(diag.loc[t, "acceptance"], TABLE6[t]["acceptance"], strict=True))
            for t in TABLE6 if np.allclose(diag.loc[t, "eps"], TABLE6[t]["eps"])}  # fmt: skip
    rivals = [m for m in TABLE2 if m != "HiDDeN"]
    ok = (ours_vector == [2, 0, 0, 0, 0, 0] and sorted(smoking) == ["Genetics", "Peer_Pressure"]
          and all(m in totals and totals["HiDDeN"] < totals[m] for m in rivals) and 0.5 <= fatigue <= 0.8
          and float(others.min()) >= 0.99 and len(gaps) == len(TABLE6) and max(gaps.values()) <= 0.04
          and all(3 <= totals[m] <= 4 for m in ("GS", "IAMB")))  # fmt: skip
    ours = {"hidden_hamming": ours_vector, "totals": {m: int(v) for m, v in totals.items()},
            "smoking_misses": smoking, "p_fatigue_in_lc": fatigue,
            "other_lc_edges_min": float(others.min()), "acceptance_gap_to_table6": gaps}  # fmt: skip
    total_text = ", ".join(f"{m} {int(v)}" for m, v in totals.items())
    return claim("C4", text, paper, ours, crit, status(ok),
                 ours_text=f"HiDDeN {tuple(ours_vector)}; totals {total_text}; P(Fatigue) {num(fatigue, 3)}; "
                 f"acceptance within {num(max(gaps.values(), default=float('nan')), 2)} of Table 6")  # fmt: skip


def claim_c5(r: Results) -> dict[str, Any]:
    text = "Table 3: HiDDeN picks the confounded DAG G2 more often than BIC, AIC and BDE"
    crit = ("BIC <= 0.05 at every k1; AIC in [0.2, 0.45] at k1 = 5 and <= 0.02 for k1 >= 25; BDE "
            "<= 0.1 for k1 <= 25 and in [0.4, 0.55] at k1 = 200; HiDDeN > BDE at every k1, >= 0.6 "
            "for k1 >= 25 and in [0.45, 0.75] at k1 = 5")  # fmt: skip
    paper = "HiDDeN .61/.71/.76/.82, BIC .02/0/0/0, AIC .38/0/0/0, BDE .08/.01/.21/.49"
    if not r.has("table3"):
        return not_covered("C5", text, paper, crit, "Table 3 not run")
    t = table3(r.results).pivot(index="k1", columns="method", values="rate")
    if set(t.index) != {5, 25, 100, 200}:
        return not_covered("C5", text, paper, crit, f"Table 3 ran k1 = {sorted(t.index)}")
    h, bde = t["HiDDeN"], t["BDE"]
    checks = {
        "bic": bool((t["BIC"] <= 0.05).all()),
        "aic": bool(0.2 <= t.loc[5, "AIC"] <= 0.45 and (t.loc[[25, 100, 200], "AIC"] <= 0.02).all()),
        "bde": bool((bde.loc[[5, 25]] <= 0.1).all() and 0.4 <= bde.loc[200] <= 0.55),
        "hidden": bool((h > bde).all() and (h.loc[[25, 100, 200]] >= 0.6).all()
                       and 0.45 <= h.loc[5] <= 0.75),
    }  # fmt: skip
    text_of = {m: "/".join(num(v, 2) for v in t[m]) for m in ("HiDDeN", "BIC", "AIC", "BDE")}
    return claim("C5", text, paper, {"rates": t.round(3).to_dict(), "checks": checks}, crit,
                 status(all(checks.values())),
                 ours_text="; ".join(f"{m} {v}" for m, v in text_of.items())
                 + ("" if all(checks.values()) else
                    f" (failing: {', '.join(k for k, v in checks.items() if not v)})"))  # fmt: skip


def claim_c6(r: Results) -> dict[str, Any]:
    text = (
        "Tables 7–8: HiDDeN finds the true parent set under both truths; BDE misses the dense one"
    )
    crit = ("mean Pr(G_true | n) in [0.78, 0.99] for both truths and larger at n = 150 than at 50; "
            "mean dBIC, dAIC within 1.5 and dBDE within 2.5 of Table 7; with G2 true HiDDeN "
            "selects it in >= 0.8 at every n, BDE in <= 0.4")  # fmt: skip
    paper = "Pr .813-.948; G2 selection HiDDeN .83-.95, BDE .19-.34"
    if not r.has("tables78"):
        return not_covered("C6", text, paper, crit, "Tables 7-8 not run")
    t7 = table7(r.results)
    probs = t7[t7.quantity == "prob"].set_index(["truth", "n"])["mean"]
    ns = sorted(t7.n.unique())
    rising = all(probs[(tr, ns[-1])] > probs[(tr, ns[0])] for tr in ("G1", "G2"))
    scores = t7[t7.quantity != "prob"]
    tolerance = np.where(scores.quantity == "BDE", 2.5, 1.5)
    distance = (scores["mean"] - scores["paper_mean"]).abs()
    t8 = table8(r.results).pivot(index="n", columns="method", values="rate")
    checks = {"prob_range": bool(probs.between(0.78, 0.99).all()), "prob_rising": rising,
              "scores_near_paper": bool((distance <= tolerance).all()),
              "hidden_selects_G2": bool((t8["HiDDeN"] >= 0.8).all()),
              "bde_misses_G2": bool((t8["BDE"] <= 0.4).all())}  # fmt: skip
    ours = {"prob": {f"{tr} n={n}": round(v, 3) for (tr, n), v in probs.items()},
            "max_score_distance": {q: float(distance[scores.quantity == q].max())
                                   for q in ("BIC", "AIC", "BDE")},
            "table8": t8.round(3).to_dict(), "checks": checks}  # fmt: skip
    return claim("C6", text, paper, ours, crit, status(all(checks.values())),
                 ours_text=f"Pr {num(probs.min(), 3)}-{num(probs.max(), 3)}; largest score gaps "
                 + ", ".join(f"{q} {num(v, 2)}" for q, v in ours["max_score_distance"].items())
                 + f"; G2 selection HiDDeN {num(t8['HiDDeN'].min(), 2)}-{num(t8['HiDDeN'].max(), 2)}, "
                 f"BDE {num(t8['BDE'].min(), 2)}-{num(t8['BDE'].max(), 2)}"
                 + ("" if all(checks.values()) else
                    f" (failing: {', '.join(k for k, v in checks.items() if not v)})"))  # fmt: skip


def claim_c7(r: Results) -> dict[str, Any]:
    text = "ALARM structure (Tables 10–11): the MAP parent sets equal the truth"
    crit = ("headline MAP sets HIST={LVF}, LVV={LVF,HYP}, STKV={LVF,HYP}; over >= 20 subsamples "
            "MAP(HIST) = truth in >= 90% and MAP(LVV), MAP(STKV) = truth in a majority; "
            "Pr(LVF->HIST) and Pr(HYP->LVV) >= 0.95 in >= 90% of subsamples; Pr(HYP->HIST) reported "
            "(expected 0.05-0.3, not Table 11's 0)")  # fmt: skip
    paper = "HIST {LVF} .825, LVV {LVF,HYP} .961, STKV {LVF,HYP} .793; Pr(HYP->HIST) printed 0"
    if not r.has("alarm_structure"):
        return not_covered("C7", text, paper, crit, "the ALARM structure experiment was not run")
    maps = alarm_structure_maps(r.results).set_index("node")
    if int(maps.subsamples.min()) < 20:
        return not_covered(
            "C7",
            text,
            paper,
            crit,
            f"{int(maps.subsamples.min())} subsamples ran; the claim needs >= 20",
        )
    edges = r.results[
        (r.results.experiment == "alarm_structure") & (r.results.metric == "edge_probability")
    ]
    sure = {f"{a}->{b}": float((edges[(edges.parent == a) & (edges.node == b)].value >= 0.95).mean())
            for a, b in (("LVF", "HIST"), ("HYP", "LVV"))}  # fmt: skip
    hyp_hist = edges[(edges.parent == "HYP") & (edges.node == "HIST")]
    headline_hyp_hist = float(hyp_hist[hyp_hist.rep == HEADLINE].value.iloc[0])
    subsamples = int(maps.subsamples.min())
    headline_ok = bool((maps.headline_map == maps.truth).all())
    share = maps.map_is_truth.to_dict()
    ok = (headline_ok and share["HIST"] >= 0.9 and share["LVV"] > 0.5
          and share["STKV"] > 0.5 and min(sure.values()) >= 0.9)  # fmt: skip
    ours = {"headline_map": maps.headline_map.to_dict(), "map_is_truth_share": share,
            "subsamples": subsamples, "edges_at_least_0_95_share": sure,
            "pr_hyp_hist_headline": headline_hyp_hist,
            "pr_hyp_hist_range": [float(hyp_hist.value.min()), float(hyp_hist.value.max())]}  # fmt: skip
    maps_text = ", ".join(f"{n} {m}" for n, m in maps.headline_map.items())
    return claim("C7", text, paper, ours, crit, status(ok),
                 ours_text=f"headline MAP {maps_text}; MAP = truth in "
                 + "/".join(f"{num(100 * share[n], 3)}%" for n in ("HIST", "LVV", "STKV"))
                 + f" of {subsamples} subsamples; Pr(HYP->HIST) {num(headline_hyp_hist, 2)} "
                 f"(range {num(hyp_hist.value.min(), 2)}-{num(hyp_hist.value.max(), 2)})")  # fmt: skip


def alarm_directions(p: pd.DataFrame) -> dict[str, bool]:
    """The qualitative statements of §4.6 F.2 on one subsample's estimates."""

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


def claim_c8(r: Results) -> dict[str, Any]:
    text = (
        "ALARM parameters (Figure 10): the estimates follow the clinical directions, ESS >= 1,000"
    )
    crit = ("on the headline subsample every direction of §4.6 F.2 holds (HIST=T likelier under "
            "LVF=T, P(HIST=F | LVF=F) > 0.8, NORMAL LVV when LVF=F, HYP=F, HIGH LVV raised by HYP, "
            "LOW LVV when LVF=T, PCWP and CVP track LVV) and the smallest ESS of a sampled cell "
            "probability is >= 1,000 per 50,000 iterations")  # fmt: skip
    paper = "Figure 10; ESS min 1805.76 (HIST) to 4088.379 (PCWP)"
    if not r.has("alarm"):
        return not_covered("C8", text, paper, crit, "the ALARM experiment was not run")
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
    threshold = 1000 * iterations / 50000
    ok = all(directions.values()) and float(ess["min"].min()) >= threshold
    ours = {"directions": directions, "ess_min": float(ess["min"].min()),
            "ess_threshold": threshold, "subsamples_all_directions": float(np.mean(per_sub)),
            "subsamples": len(per_sub)}  # fmt: skip
    failing = [k for k, v in directions.items() if not v]
    return claim("C8", text, paper, ours, crit, status(ok),
                 ours_text=f"{sum(directions.values())} of {len(directions)} directions hold on "
                 f"the headline subsample{' (not: ' + '; '.join(failing) + ')' if failing else ''}"
                 f", all of them on {num(100 * np.mean(per_sub), 3)}% of {len(per_sub)} subsamples; "
                 f"smallest ESS {num(ours['ess_min'])} (threshold {num(threshold)})")  # fmt: skip


def claim_c9(r: Results) -> dict[str, Any]:
    text = "METABRIC (Figures 5–6): HiDDeN's MPM parent sets of TBS, CHT and DFC"
    crit = ("with metabric_mode code on the Kaggle file: n = 1867; MPM sets within 1 edge of the "
            "paper's per outcome; Pr(IMS->CHT) in [0.4, 0.7], Pr(IMS->DFC) in [0.2, 0.45]; CTD and INC "
            "< 0.5 and COH > 0.5 for every outcome; HC/TABU fewer outcome parents than HiDDeN; "
            "the bug-emulated lasso selects every candidate")  # fmt: skip
    paper = (
        "{TSI,RTH,COH}, {AAD,RTH,IMS,HTH,COH}, {AAD,COH,CHT}; Pr(IMS->CHT) .548, Pr(IMS->DFC) .327"
    )
    rows = r.results[r.results.experiment == "metabric"]
    if rows.empty or set(rows.node) != set(METABRIC_MPM):
        return not_covered(
            "C9", text, paper, crit, "the METABRIC experiment did not run all three outcomes"
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
    why = (f"cBioPortal copy, not the Kaggle file the claim is stated on (A13): n = {n} (paper 1867) and "
           "CTD's levels differ; what we found is in 'ours'")  # fmt: skip
    return claim("C9", text, paper, ours, crit, NOT_COVERED, why,
                 ours_text=f"n = {n}; MPM {mpm_text}; Pr(IMS->CHT) {num(ours['pr_ims_cht'], 2)}, "
                 f"Pr(IMS->DFC) {num(ours['pr_ims_dfc'], 2)}; outcome parents "
                 + ", ".join(f"{m} {c}" for m, c in count.items())
                 + (f"; checks not met: {', '.join(failing)}" if failing else "; every check met"))  # fmt: skip


def claim_c10(r: Results) -> dict[str, Any]:
    text = (
        "MCMC diagnostics: acceptance 0.45-0.85 with the published step sizes, ESS >= 300 per 10k"
    )
    crit = ("every (experiment, setting, coordinate) mean acceptance after burn-in in [0.45, 0.85] "
            "(ALARM: headline subsample); the median coda log-posterior ESS of each setting's "
            "10,000-iteration chains >= 300 (the smallest and the stuck chains are reported)")  # fmt: skip
    paper = "Table 6 and App. D: acceptance .52-.78, ESS 330-2149 (LUCAS, METABRIC)"
    diag = sampler_diagnostics(r.results).query("method == 'HiDDeN'")
    if diag.empty:
        return not_covered("C10", text, paper, crit, "no HiDDeN chain was run")
    alarm = r.results.experiment.isin(ALARM_EXPERIMENTS)
    headline = r.results[alarm & (r.results.rep == HEADLINE)]
    acc_rows = pd.concat([diag[~diag.experiment.isin(ALARM_EXPERIMENTS)],
                          sampler_diagnostics(headline).query("method == 'HiDDeN'")])  # fmt: skip
    acc_cols = [c for c in diag.columns if c.startswith("acceptance_")]
    acc = acc_rows.melt(id_vars=["experiment", "setting"], value_vars=acc_cols).dropna()
    outside = acc[(acc.value < 0.45) | (acc.value > 0.85)]
    ten_k = diag[diag.iterations == 10000]
    low = ten_k[ten_k.logpost_ess_median < 300]
    ok = outside.empty and low.empty
    ours = {"acceptance_range": [float(acc.value.min()), float(acc.value.max())],
            "acceptance_outside": [f"{e} {s} {m}: {v:.3f}" for e, s, m, v in
                                   outside.itertuples(index=False)],
            "median_ess_10k": dict(zip(ten_k.experiment + " " + ten_k.setting,
                                       ten_k.logpost_ess_median.round(1), strict=True)),
            "min_ess_10k": float(ten_k.logpost_ess_min.min()) if len(ten_k) else None,
            "stuck_chains": int(diag.stuck_chains.sum())}  # fmt: skip
    settings = sorted({f"{e} {s}" for e, s in zip(outside.experiment, outside.setting,
                                                   strict=True)})  # fmt: skip
    return claim("C10", text, paper, ours, crit, status(ok),
                 ours_text=f"acceptance {num(acc.value.min(), 2)}-{num(acc.value.max(), 2)}"
                 + (f" (outside in {', '.join(settings)})" if settings else "")
                 + f"; median log-posterior ESS of the 10k settings {num(ten_k.logpost_ess_median.min())}"
                 f"-{num(ten_k.logpost_ess_median.max())}, smallest chain {num(ours['min_ess_10k'])}; "
                 f"{ours['stuck_chains']} stuck chain(s)")  # fmt: skip


CLAIMS = (claim_c1, claim_c2, claim_c3, claim_c4, claim_c5, claim_c6, claim_c7, claim_c8,
          claim_c9, claim_c10)  # fmt: skip


def evaluate_claims(results: Results) -> list[dict[str, Any]]:
    return evaluate(CLAIMS, results)
