"""Headline claims of dombowsky2025 (spec §7), one function per claim, computed from the result
tables. Part 1 evaluates claims 1, 2, 3, 5, 6, 8 and 10; claims 4 (LUCAS), 7 (ALARM structure)
and 9 (METABRIC) belong to part 2 and read "not covered" until it lands."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from hierbn.studies.claims import claim, evaluate, not_covered, num, status
from hierbn.studies.dombowsky2025.tables import (
    HEADLINE,
    alarm_ess,
    alarm_predictive,
    alarm_structure_maps,
    sampler_diagnostics,
    table1,
    table3,
    table7,
    table8,
)

PART2 = "part 2 of the study (LUCAS, METABRIC, ALARM structure) is not implemented yet"
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
    return not_covered("C4", "LUCAS Markov blankets (Table 2): HiDDeN MAP total Hamming 2, the "
                       "lowest", "HiDDeN 2, group lasso 7, GS 3, IAMB 4",
                       "Hamming (2,0,0,0,0,0); P(Fatigue in Mb(LC)) in [0.5, 0.8]; acceptance "
                       "within 0.04 of Table 6", PART2)  # fmt: skip


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
    ok = (headline_ok and subsamples >= 20 and share["HIST"] >= 0.9 and share["LVV"] > 0.5
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
    return not_covered("C9", "METABRIC (Figures 5–6): MPM parent sets of TBS, CHT and DFC",
                       "{TSI,RTH,COH}, {AAD,RTH,IMS,HTH,COH}, {AAD,COH,CHT}",
                       "n = 1867; MPM sets within 1 edge per outcome; edge probabilities",
                       PART2)  # fmt: skip


def claim_c10(r: Results) -> dict[str, Any]:
    text = (
        "MCMC diagnostics: acceptance 0.45-0.85 with the published step sizes, ESS >= 300 per 10k"
    )
    crit = ("every (experiment, setting, coordinate) mean acceptance after burn-in in [0.45, 0.85] "
            "(ALARM: headline subsample); the median coda log-posterior ESS of each setting's "
            "10,000-iteration chains >= 300 (the smallest and the stuck chains are reported)")  # fmt: skip
    paper = "Table 6 and App. D: acceptance .52-.78, ESS 330-2149 (LUCAS, METABRIC: part 2)"
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
