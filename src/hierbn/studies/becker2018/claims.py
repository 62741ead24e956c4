"""Headline claims C1–C12 of becker2018 (spec §6), one function per claim, computed from the
result tables; a claim whose experiment was not run is "not covered"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from hierbn.studies.becker2018.paper import SIGNIFICANT, VB_CLASSES
from hierbn.studies.becker2018.tables import kendall, ranking, table4, vb_frame
from hierbn.studies.claims import claim, evaluate, not_covered, num, status

N_ROWS = 5820


@dataclass(frozen=True)
class Results:
    """The tables the claims read (None when the step was not run)."""

    table2: pd.DataFrame | None = None
    vb: pd.DataFrame | None = None  # both variants' full-data fits
    gibbs: pd.DataFrame | None = None  # draw summary with R-hat and ESS
    rankings: pd.DataFrame | None = None  # ours (VB, lasso) and the paper's
    cv: pd.DataFrame | None = None
    timing: pd.DataFrame | None = None
    synthetic: pd.DataFrame | None = None
    toy: pd.DataFrame | None = None


def _missing(*frames: pd.DataFrame | None) -> bool:
    return any(f is None or f.empty for f in frames)


def claim_c1(r: Results) -> dict[str, Any]:
    text = "Table 2: OLS of difficulty on the 30 predictors (no intercept)"
    crit = "every estimate within 0.0006 of the printed value, SE within 0.0011, t within 0.01, p within 0.001"
    paper = "Table 2 (30 rows)"
    if _missing(r.table2):
        return not_covered("C1", text, paper, crit, "Table 2 not run")
    t = r.table2.pivot_table(index="term", columns="metric", values=["value", "paper"])
    gap = (t["value"] - t["paper"]).abs()
    p_ok = np.where(
        t["paper"]["p_value"] == 0, t["value"]["p_value"] < 0.001, gap["p_value"] <= 0.001
    )
    ok_rows = (
        (gap["estimate"] <= 0.0006) & (gap["std_error"] <= 0.0011) & (gap["t_value"] <= 0.01) & p_ok
    )
    worst = {m: float(gap[m].max()) for m in ("estimate", "std_error", "t_value")}
    return claim(
        "C1", text, paper, {"terms_within": int(ok_rows.sum()), "terms": len(t), "max_gap": worst},
        crit, status(bool(ok_rows.all())),
        ours_text=f"{int(ok_rows.sum())} of {len(t)} terms within tolerance; largest gaps: estimate "
        f"{num(worst['estimate'], 2)}, SE {num(worst['std_error'], 2)}, t {num(worst['t_value'], 2)}",
    )  # fmt: skip


def claim_c2(r: Results) -> dict[str, Any]:
    text = "VB ranks the questions like the lasso: attendance, nb.repeat, then Q17 (Table 3)"
    crit = ("VB-faithful ranking = the paper's VB column (tau = 1); VB-corrected tau >= 0.85 with the "
            "same top 3; tau(VB, lasso) >= 0.6 and top-10 overlap >= 6")  # fmt: skip
    paper = "tau(VB, lasso) = 0.74, 7 of the top 10 shared"
    if _missing(r.rankings):
        return not_covered("C2", text, paper, crit, "rankings not run")
    faithful = ranking(r.rankings, "vb-faithful", "question")
    corrected = ranking(r.rankings, "vb-corrected", "question")
    lasso = ranking(r.rankings, "lasso-exact", "question")
    printed = ranking(r.rankings, "paper-vb", "question")
    ours = {"tau_faithful_vs_paper": kendall(faithful, printed),
            "tau_corrected_vs_paper": kendall(corrected, printed),
            "top3_corrected": corrected[:3], "tau_vb_vs_lasso": kendall(faithful, lasso),
            "top10_overlap": len(set(faithful[:10]) & set(lasso[:10]))}  # fmt: skip
    ok = (faithful == printed and ours["tau_corrected_vs_paper"] >= 0.85 and corrected[:3] == printed[:3]
          and ours["tau_vb_vs_lasso"] >= 0.6 and ours["top10_overlap"] >= 6)  # fmt: skip
    return claim(
        "C2", text, paper, ours, crit, status(ok),
        ours_text=f"tau vs the paper's VB column: faithful {num(ours['tau_faithful_vs_paper'], 2)}, "
        f"corrected {num(ours['tau_corrected_vs_paper'], 2)}; tau(VB, lasso) "
        f"{num(ours['tau_vb_vs_lasso'], 2)}, top-10 overlap {ours['top10_overlap']}",
    )  # fmt: skip


def claim_c3(r: Results) -> dict[str, Any]:
    text = "Lasso path ranking of questions and classes (Table 3)"
    crit = ("exact path: tau >= 0.95 vs the paper's question column; class column identical, or "
            "class 7 first and class 13 second")  # fmt: skip
    paper = "questions: attendance, nb.repeat, Q17, Q9, …; classes 7, 13, 2, 1, …"
    if _missing(r.rankings):
        return not_covered("C3", text, paper, crit, "rankings not run")
    questions = ranking(r.rankings, "lasso-exact", "question")
    classes = ranking(r.rankings, "lasso-exact", "class")
    printed = ranking(r.rankings, "paper-lasso", "class")
    tau = kendall(questions, ranking(r.rankings, "paper-lasso", "question"))
    same = sum(a == b for a, b in zip(classes, printed, strict=True))
    ok = tau >= 0.95 and (classes == printed or classes[:2] == ["class 7", "class 13"])
    return claim(
        "C3", text, paper, {"tau_questions": tau, "class_positions_equal": same, "classes": classes},
        crit, status(ok),
        ours_text=f"questions tau {num(tau, 3)}; classes {same} of 13 positions as printed "
        f"({', '.join(c.split()[1] for c in classes[:4])}, …)",
    )  # fmt: skip


def claim_c4(r: Results) -> dict[str, Any]:
    text = "Class rankings differ: both put class 7 first; VB puts class 13 last, the lasso second"
    crit = "VB by |class intercept| = [7, 8, 2, 11, 4, 6, 3, 12, 9, 5, 10, 1, 13]; tau(VB classes, lasso classes) < 0.3"
    paper = "VB 7, 8, 2, …, 13; tau = -0.10"
    if _missing(r.rankings):
        return not_covered("C4", text, paper, crit, "rankings not run")
    vb = ranking(r.rankings, "vb-faithful", "class")
    tau = kendall(vb, ranking(r.rankings, "lasso-exact", "class"))
    ok = vb == [f"class {c}" for c in VB_CLASSES] and tau < 0.3
    return claim(
        "C4", text, paper, {"vb_classes": vb, "tau_vb_vs_lasso": tau}, crit, status(ok),
        ours_text=f"VB: {', '.join(c.split()[1] for c in vb)}; tau(VB, lasso) {num(tau, 2)}",
    )  # fmt: skip


def _vb_vs_gibbs(r: Results) -> pd.DataFrame:
    vb = vb_frame(r.vb, "vb-faithful", "delta").set_index("term")
    gibbs = r.gibbs[r.gibbs.parameter.str.startswith("delta[")].copy()
    gibbs["term"] = gibbs.parameter.str[6:-1]
    return vb.join(gibbs.set_index("term"), lsuffix="_vb", rsuffix="_gibbs")


def claim_c5(r: Results) -> dict[str, Any]:
    text = "VB approximates the Gibbs posterior of the same model (Fig. 2)"
    crit = ("for every Delta_d |mean VB - mean Gibbs| <= 0.02 and <= 0.5 Gibbs SD; noise precision "
            "within 2%; Gibbs R-hat < 1.01")  # fmt: skip
    paper = "close point estimates (Fig. 2)"
    if _missing(r.vb, r.gibbs):
        return not_covered("C5", text, paper, crit, "VB or Gibbs not run")
    both = _vb_vs_gibbs(r)
    gap = (both["mean_vb"] - both["mean_gibbs"]).abs()
    in_sd = float((gap / both["sd_gibbs"]).max())
    sigma_vb = float(vb_frame(r.vb, "vb-faithful", "sigma")["mean"].iloc[0])
    sigma_gibbs = float(r.gibbs.set_index("parameter").loc["sigma", "mean"])
    rel = abs(sigma_vb / sigma_gibbs - 1)
    main = r.gibbs[
        r.gibbs.parameter.str.startswith("delta[") | r.gibbs.parameter.isin(["sigma", "s"])
    ]
    rhat = float(main["rhat"].max()) if "rhat" in main else float("nan")
    ok = gap.max() <= 0.02 and in_sd <= 0.5 and rel <= 0.02 and rhat < 1.01
    return claim(
        "C5", text, paper,
        {"max_gap": float(gap.max()), "max_gap_in_gibbs_sd": in_sd, "noise_precision_rel": rel, "rhat_max": rhat},
        crit, status(ok),
        ours_text=f"max |VB − Gibbs| {num(gap.max(), 2)} ({num(in_sd, 2)} Gibbs SD); noise precision "
        f"{rel:.2%} apart; Gibbs R-hat ≤ {num(rhat, 4)}",
    )  # fmt: skip


def claim_c6(r: Results) -> dict[str, Any]:
    text = "VB underestimates the posterior variance (Fig. 2)"
    crit = "sd_VB < sd_Gibbs for all 31 components of Delta; median ratio < 0.8; VB 95% intervals narrower for all"
    paper = "VB intervals narrower than Gibbs'"
    if _missing(r.vb, r.gibbs):
        return not_covered("C6", text, paper, crit, "VB or Gibbs not run")
    both = _vb_vs_gibbs(r)
    ratio = both["sd_vb"] / both["sd_gibbs"]
    narrower = 3.92 * both["sd_vb"] < both["q975"] - both["q025"]
    corrected = vb_frame(r.vb, "vb-corrected", "delta").set_index("term")["sd"] / both["sd_gibbs"]
    ok = bool((ratio < 1).all() and ratio.median() < 0.8 and narrower.all())
    return claim(
        "C6", text, paper,
        {"sd_ratio_median": float(ratio.median()), "sd_ratio_max": float(ratio.max()),
         "narrower": int(narrower.sum()), "corrected_sd_ratio_median": float(corrected.median())},
        crit, status(ok),
        ours_text=f"VB/Gibbs SD median {num(ratio.median(), 2)} (faithful), "
        f"{num(corrected.median(), 2)} (corrected), max {num(ratio.max(), 2)}; "
        f"narrower for {int(narrower.sum())} of {len(ratio)}",
    )  # fmt: skip


def claim_c7(r: Results) -> dict[str, Any]:
    text = "VB is considerably faster than Gibbs"
    crit = "VB to convergence <= 0.2 x one 6000-sweep Gibbs chain and <= 0.05 x four such chains (one thread, medians)"
    paper = "considerably faster (no numbers)"
    if _missing(r.timing):
        return not_covered("C7", text, paper, crit, "timing not run")
    t = r.timing.set_index(["method", "sweeps"])["value"]
    if ("gibbs", 6000) not in t.index:
        return not_covered("C7", text, paper, crit, "no 6000-sweep Gibbs timing")
    vb, chain = float(t[("vb-faithful", 0)]), float(t[("gibbs", 6000)])
    return claim(
        "C7", text, paper, {"vb_seconds": vb, "gibbs_chain_seconds": chain, "ratio": vb / chain},
        crit, status(vb <= 0.2 * chain and vb <= 0.05 * 4 * chain),
        ours_text=f"VB {num(vb, 2)} s vs one 6000-sweep chain {num(chain, 2)} s: {num(vb / chain, 2)}×",
        timing=True,
    )  # fmt: skip


def claim_c8(r: Results) -> dict[str, Any]:
    text = "CV MSE: lasso ~1.43 lowest, regression 1.45, VB 1.45 ~ LME 1.45, ridge 1.54 highest (Table 4)"
    crit = ("five models in [1.35, 1.65]; |VB - LME| <= 0.05; |VB - OLS| <= 0.05; lasso <= VB + 0.01; "
            "ridge without class >= max(others) - 0.01")  # fmt: skip
    paper = {"ols": 1.45, "lasso": 1.43, "vb": 1.45, "lme": 1.45, "ridge": 1.54}
    if _missing(r.cv):
        return not_covered("C8", text, paper, crit, "CV not run")
    mse = table4(r.cv).set_index("method")["mse_rounded"]
    five = mse[["ols", "lasso", "vb-faithful", "lme", "ridge"]]
    ok = (bool(five.between(1.35, 1.65).all()) and abs(mse["vb-faithful"] - mse["lme"]) <= 0.05
          and abs(mse["vb-faithful"] - mse["ols"]) <= 0.05 and mse["lasso"] <= mse["vb-faithful"] + 0.01
          and mse["ridge-noclass"] >= five.drop("ridge").max() - 0.01)  # fmt: skip
    folds = int(r.cv[r.cv.metric == "mse_rounded"].groupby("method").size().max())
    return claim(
        "C8", text, paper, {m: float(v) for m, v in mse.items()}, crit, status(ok),
        f"{folds} folds", paper_text="lasso 1.43, OLS 1.45, VB 1.45, LME 1.45, ridge 1.54",
        ours_text=", ".join(f"{m} {num(mse[m], 3)}" for m in [*five.index, "ridge-noclass"]),
    )  # fmt: skip


def claim_c9(r: Results) -> dict[str, Any]:
    text = "Coordinate ascent maximises the bound"
    crit = "corrected variant: ELBO non-decreasing (1e-8) on the real and synthetic data; both variants < 1000 iterations"
    paper = "the bound increases to a plateau"
    if _missing(r.vb):
        return not_covered("C9", text, paper, crit, "VB not run")
    fit = r.vb[r.vb.parameter == "fit"].pivot_table(
        index="method", columns="metric", values="value"
    )
    steps = [float(fit.loc["vb-corrected", "elbo_min_step"])]
    if not _missing(r.synthetic):
        syn = r.synthetic[
            (r.synthetic.method == "vb-corrected") & (r.synthetic.metric == "elbo_min_step")
        ]
        steps += syn["value"].tolist()
    iterations = fit["n_iter"].to_dict()
    ok = min(steps) >= -1e-8 and max(iterations.values()) < 1000
    return claim(
        "C9", text, paper, {"min_elbo_step_corrected": min(steps), "iterations": iterations}, crit, status(ok),
        ours_text=f"smallest corrected ELBO step {num(min(steps), 2)} over {len(steps)} fits; iterations "
        + ", ".join(f"{m} {int(v)}" for m, v in iterations.items()),
    )  # fmt: skip


def claim_c10(r: Results) -> dict[str, Any]:
    text = "Significant questions (p < 0.05): Q1, Q10, Q16, Q17, Q25, Q26"
    crit = "the set of questions with p < 0.05 in our Table 2 equals the paper's"
    if _missing(r.table2):
        return not_covered("C10", text, list(SIGNIFICANT), crit, "Table 2 not run")
    p = r.table2[r.table2.metric == "p_value"].set_index("term")["value"]
    ours = sorted(
        (t for t in p.index if t.startswith("Q") and p[t] < 0.05), key=lambda t: int(t[1:])
    )
    return claim("C10", text, list(SIGNIFICANT), ours, crit, status(ours == list(SIGNIFICANT)))


def claim_c11(r: Results) -> dict[str, Any]:
    text = "Predictive uncertainty = noise + parameter uncertainty; df ~ N"
    crit = "held-out 95% VB predictive interval coverage of the raw response in [0.93, 0.97]; 2 a_n = N + 2 a0"
    paper = "Student-t predictive with 2 a_n degrees of freedom"
    if _missing(r.cv, r.vb):
        return not_covered("C11", text, paper, crit, "CV or VB not run")
    coverage = r.cv[(r.cv.method == "vb-faithful") & (r.cv.metric == "coverage95")]["value"]
    fit = r.vb[(r.vb.method == "vb-faithful") & (r.vb.parameter == "fit")].set_index("metric")[
        "value"
    ]
    df_ok = abs(2 * fit["a_n"] - (N_ROWS + 2e-3)) < 1e-6
    mean = float(coverage.mean())
    return claim(
        "C11", text, paper, {"coverage95": mean, "folds": int(coverage.size), "two_a_n": 2 * float(fit["a_n"])},
        crit, status(0.93 <= mean <= 0.97 and df_ok),
        ours_text=f"coverage {mean:.3f} over {coverage.size} folds; 2 a_n = {num(2 * float(fit['a_n']), 6)}",
    )  # fmt: skip


def claim_c12(r: Results) -> dict[str, Any]:
    text = "Toy recovery (the R repository's test): Delta ~ (0.1, 0.3)"
    crit = "|Delta - (0.1, 0.3)| < 0.02 for VB (both variants) and Gibbs"
    paper = [0.1, 0.3]
    if _missing(r.toy):
        return not_covered("C12", text, paper, crit, "toy test not run")
    wide = r.toy.pivot_table(index="method", columns="metric", values="value")
    gaps = {
        m: float(max(abs(row.delta_slope - 0.1), abs(row.delta_intercept - 0.3)))
        for m, row in wide.iterrows()
    }
    return claim(
        "C12", text, paper, {m: [float(wide.loc[m, "delta_slope"]), float(wide.loc[m, "delta_intercept"])]
                             for m in wide.index},
        crit, status(max(gaps.values()) < 0.02),
        ours_text=", ".join(f"{m} ({num(wide.loc[m, 'delta_slope'], 3)}, {num(wide.loc[m, 'delta_intercept'], 3)})"
                            for m in wide.index),
    )  # fmt: skip


CLAIMS = (claim_c1, claim_c2, claim_c3, claim_c4, claim_c5, claim_c6, claim_c7, claim_c8,
          claim_c9, claim_c10, claim_c11, claim_c12)  # fmt: skip


def evaluate_claims(results: Results) -> list[dict[str, Any]]:
    """Every headline claim of spec §6 with the paper's value, ours, the criterion and status."""
    return evaluate(CLAIMS, results)
