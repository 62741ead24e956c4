"""W/D/L tables and headline-claim checks of petitjean2018 (spec §5 and §8)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from hierbn.studies.claims import NOT_COVERED, claim, status
from hierbn.studies.petitjean2018 import STRUCTURES, sweep_method, win_draw_loss

PAPER_TABLE2 = {  # HDP vs m-estimate W-D-L over 68 data sets (RMSE, 0-1 loss), §5.2
    "nb": ("40-0-28", "45-5-18"),
    "tan": ("54-0-14", "52-3-13"),
    "kdb1": ("51-0-17", "45-4-19"),
    "kdb2": ("55-0-13", "52-4-12"),
    "kdb3": ("57-0-11", "56-3-9"),
    "kdb4": ("60-0-8", "58-4-6"),
    "kdb5": ("62-0-6", "60-4-4"),
    "skdb": ("56-0-12", "53-4-11"),
}


def table2(cv: pd.DataFrame) -> pd.DataFrame:
    """HDP vs m-estimate W/D/L per structure on RMSE and 0-1 loss, next to the paper's; draws
    at 4 decimals, and the W-D-L at 3 decimals as the sensitivity of spec §7.15."""
    rows = []
    present = set(cv["method"])
    for s in STRUCTURES:
        if f"{s}-hdp" not in present:
            continue
        for metric, col in (("rmse", 0), ("zero_one", 1)):
            if metric not in set(cv["metric"]):
                continue
            wdl = win_draw_loss(cv, f"{s}-hdp", f"{s}-m", metric)
            coarse = win_draw_loss(cv, f"{s}-hdp", f"{s}-m", metric, decimals=3)
            rows.append(
                {
                    **wdl,
                    "structure": s,
                    "paper": PAPER_TABLE2[s][col],
                    "wdl_3_decimals": f"{coarse['wins']}-{coarse['draws']}-{coarse['losses']}",
                }
            )
    return pd.DataFrame(rows)


def table3(cv: pd.DataFrame) -> pd.DataFrame:
    """TAN and SkDB with HDP or m-estimates vs random forest (§5.3)."""
    rows = []
    for a in ("tan-hdp", "tan-m", "skdb-hdp", "skdb-m"):
        if a in set(cv["method"]) and "rf" in set(cv["method"]):
            rows += [win_draw_loss(cv, a, "rf", m) for m in ("zero_one", "rmse")]
    return pd.DataFrame(rows)


def iteration_grid(config: dict[str, Any]) -> list[int]:
    """Iteration counts of the iteration x tying study (spec E2/E3), the main one included."""
    study = config["cv"].get("iteration_study")
    return sorted({*study["iterations"], config["cv"]["hdp"]["iterations"]}) if study else []


def iteration_table(cv: pd.DataFrame, config: dict[str, Any]) -> pd.DataFrame:
    """Fig. 4 (each tying at x iterations vs the same tying at the largest x) and Fig. 5 (Single
    or SameParent vs Level at each x): RMSE W/D/L over the data sets, wins = the first better."""
    study = config["cv"].get("iteration_study")
    grid = iteration_grid(config)
    present = set(cv["method"])
    rows = []
    if not study:
        return pd.DataFrame(rows)
    for s in study["structures"]:
        for tying in study["tyings"]:
            for x in grid:
                a = sweep_method(s, tying, x, config["cv"])
                comparisons = [("fig4", sweep_method(s, tying, grid[-1], config["cv"]))]
                if tying != "level":
                    comparisons.append(("fig5", sweep_method(s, "level", x, config["cv"])))
                for figure, b in comparisons:
                    if a == b or not {a, b} <= present:
                        continue
                    wdl = win_draw_loss(cv, a, b, "rmse")
                    rows.append(
                        {"figure": figure, "structure": s, "tying": tying, "iterations": x, **wdl}
                    )
    return pd.DataFrame(rows)


def prior_table(cv: pd.DataFrame) -> pd.DataFrame:
    """Prior sensitivity (spec §7.1): HDP with the main prior vs the alternative prior, W/D/L
    per structure on RMSE and 0-1 loss (wins = the main prior better)."""
    present = set(cv["method"])
    rows = []
    for s in STRUCTURES:
        if {f"{s}-hdp", f"{s}-hdp-prior"} <= present:
            rows += [
                win_draw_loss(cv, f"{s}-hdp", f"{s}-hdp-prior", m) for m in ("rmse", "zero_one")
            ]
    return pd.DataFrame(rows)


def learning_curve_table(curves: pd.DataFrame) -> pd.DataFrame:
    """Fig. 7: mean (and standard error) of the test RMSE over runs per data set, size, method."""
    rmse = curves[curves.metric == "rmse"]
    grouped = rmse.groupby(["dataset", "n", "method"])["value"]
    return grouped.agg(mean="mean", sem="sem", runs="size").reset_index()


def _iterations_claims(cv: pd.DataFrame, config: dict[str, Any]) -> list[dict[str, Any]]:
    table = iteration_table(cv, config)
    grid = iteration_grid(config)
    if table.empty or len(grid) < 2:
        reason = "no iteration x tying study in the config"
        return [
            claim("H5", "50k iterations beat fewer", None, None, "", NOT_COVERED, reason),
            claim("H6", "Level tying is the best default", None, None, "", NOT_COVERED, reason),
        ]
    n_sets = int(cv["dataset"].nunique())
    top = grid[-1]
    tenth = [x for x in grid[:-1] if x <= top // 10]
    x = tenth[-1] if tenth else grid[-2]
    fig4 = table[(table.figure == "fig4") & (table.iterations == x)]
    h5 = claim(
        "H5",
        f"{top} iterations beat {x} (Fig. 4)",
        "TAN-Single at 5k vs 50k: 13 W / 42 L",
        {f"{r.structure}-{r.tying}": f"{r.wins}-{r.draws}-{r.losses}" for r in fig4.itertuples()},
        f"for every structure and tying, {x} iterations has L > W against {top}",
        status(bool((fig4["losses"] > fig4["wins"]).all()) and not fig4.empty),
        f"{n_sets} data sets; paper grid 500..50,000, this run {grid}",
    )
    fig5 = table[(table.figure == "fig5") & (table.iterations == top)]
    level_vs_sp = fig5[fig5.tying == "sameparent"]
    tan_single = fig5[(fig5.tying == "single") & (fig5.structure == "tan")]
    # rows are "SP (or S) vs L": L beats SP when SP has more losses than wins
    ok = bool((level_vs_sp["losses"] > level_vs_sp["wins"]).all()) and not level_vs_sp.empty
    ok = ok and bool((tan_single["p_value"] > 0.05).all())
    h6 = claim(
        "H6",
        f"Level tying is the best default (Fig. 5, {top} iterations)",
        "L beats SP for TAN and SkDB; L ~ S for TAN",
        {
            f"{r.structure}-{r.tying}-vs-level": f"{r.wins}-{r.draws}-{r.losses} (p={r.p_value:.3g})"
            for r in fig5.itertuples()
        },
        "SP loses more than it wins against L for every structure; TAN S vs L has p > 0.05",
        status(ok),
        f"{n_sets} data sets",
    )
    return [h5, h6]


def _learning_curve_claim(curves: pd.DataFrame | None) -> dict[str, Any]:
    if curves is None or curves.empty:
        return claim("H10", "Learning curves", None, None, "", NOT_COVERED, "not run")
    table = learning_curve_table(curves)
    means = table.pivot_table(index=["dataset", "n"], columns="method", values="mean")
    ours: dict[str, Any] = {}
    ok = True
    for dataset, sub in means.groupby(level="dataset"):
        sub = sub.droplevel("dataset")
        if {"skdb-hdp", "skdb-m"} <= set(sub.columns):
            better = bool((sub["skdb-hdp"] <= sub["skdb-m"]).all())
            ours[f"{dataset}: skdb-hdp <= skdb-m at every size"] = better
            ok = ok and better
        if dataset == "adult" and {"tan-hdp", "tan-m"} <= set(sub.columns):
            gap = (sub["tan-m"] - sub["tan-hdp"]).round(5)
            ours["adult: tan-m minus tan-hdp RMSE by size"] = gap.to_dict()
            big = gap[gap.index >= 10_000]
            if big.empty:
                ours["adult: tan catch-up"] = "no training size >= 10,000 in this run"
            else:
                caught = bool(big.iloc[-1] <= 0.001)
                ours["adult: tan-m caught up at the largest size"] = caught
                ok = ok and caught
    return claim(
        "H10",
        "Learning curves (Fig. 7)",
        "SkDB-HDP best at every size on adult and connect-4; TAN-m overtakes TAN-HDP on adult "
        "beyond ~10k",
        ours,
        "SkDB-HDP mean RMSE <= SkDB-m at every size; on adult TAN-m within 0.001 of (or below) "
        "TAN-HDP at the largest size >= 10k",
        status(ok),
        f"data sets {sorted(curves['dataset'].unique())}, "
        f"sizes {sorted(int(n) for n in curves['n'].unique())}; "
        "connect-4 is not in the data mirror",
    )


def timing_table(timing: pd.DataFrame) -> pd.DataFrame:
    """§6.6 timings: one row per data set, method and iteration count, a column per metric."""
    return timing.pivot_table(
        index=["dataset", "n", "n_test", "method", "iterations"], columns="metric", values="value"
    ).reset_index()


def _timing_claim(timing: pd.DataFrame | None) -> dict[str, Any]:
    if timing is None or timing.empty:
        return claim("H13", "Efficiency", None, None, "", NOT_COVERED, "timing not run")
    table = timing_table(timing)
    per_25k = table["classify_seconds"] * 25_000 / table["n_test"]
    slowest = float(per_25k.max())
    hdp = table[table.method.str.endswith("-hdp")]
    ratios = {}
    linear = True
    for (dataset, method), sub in hdp.groupby(["dataset", "method"]):
        sub = sub.sort_values("iterations")
        if len(sub) < 2:
            continue
        lo, hi = sub.iloc[0], sub.iloc[-1]
        expected = hi["iterations"] / lo["iterations"]
        got = hi["fit_seconds"] / lo["fit_seconds"]
        ratios[f"{dataset}/{method}"] = {"iterations_ratio": expected, "fit_time_ratio": got}
        if method == "skdb-hdp" or "skdb-hdp" not in set(hdp.method):
            linear = linear and 0.5 * expected <= got <= 1.25 * expected
    return claim(
        "H13",
        "Efficiency: classification < 1 s per 25k rows; training ~ linear in iterations",
        "Adult: classify 25k < 1 s; SkDB5-HDP 50k iterations 86 s (Java)",
        {"slowest_classify_seconds_per_25k": slowest, "iteration_scaling": ratios},
        "every BNC classifies 25k rows in < 1 s; SkDB-HDP (the paper's timed model) fit-time "
        "ratio within [0.5, 1.25] x the iterations ratio (fixed overhead lowers it)",
        status(slowest < 1.0 and linear and bool(ratios)),
        "one core; absolute times differ from the paper's Java on other hardware",
    )


def _splice_claim(splice: pd.DataFrame | None) -> dict[str, Any]:
    paper = {
        "skdb-m": [0.01499, 0.1093],
        "skdb-hdp": [0.00318, 0.0544],
        "xgboost": [0.00314, 0.0594],
    }
    if splice is None or splice.empty:
        reason = "optional; the 50M-row splice data are not in the data mirror (splice.enabled)"
        return claim("H12", "Splice out-of-core", paper, None, "", NOT_COVERED, reason)
    value = splice.set_index(["method", "metric"])["value"]
    hdp_err, m_err = value[("skdb-hdp", "zero_one")], value[("skdb-m", "zero_one")]
    majority = value[("skdb-hdp", "majority_error")]
    ok = hdp_err <= 0.004 and m_err > majority and value[("skdb-hdp", "rmse")] < 0.0594
    return claim(
        "H12",
        "Splice: SkDB5-HDP <= 0.4% error and RMSE below XGBoost's; SkDB5-m worse than majority",
        paper,
        {
            "skdb-hdp": [hdp_err, value[("skdb-hdp", "rmse")]],
            "skdb-m": [m_err, value[("skdb-m", "rmse")]],
            "majority_error": majority,
        },
        "SkDB5-HDP 0-1 <= 0.4% and RMSE < 0.0594 (XGBoost, paper); SkDB5-m 0-1 > majority error",
        status(bool(ok)),
        f"down-sampled: {int(splice['n'].iloc[0])} training / {int(splice['n_test'].iloc[0])} "
        "test windows; XGBoost not run (paper value used)",
    )


def evaluate_claims(
    cv: pd.DataFrame,
    table1: pd.DataFrame | None,
    curves: pd.DataFrame | None,
    timing: pd.DataFrame | None,
    config: dict[str, Any],
    splice: pd.DataFrame | None = None,
) -> list[dict[str, Any]]:
    """Claims H1–H13 of spec §8 that the run covers; the others say why not."""
    out = [*_iterations_claims(cv, config), _learning_curve_claim(curves), _timing_claim(timing)]
    if table1 is not None and not table1.empty:
        means = table1.groupby(["dataset", "metric"]).agg(
            value=("value", "mean"), paper=("paper", "first")
        )
        gap = float((means["value"] - means["paper"]).abs().max())
        d1, d2 = (
            means.loc[("D1", "p_x0_given_y0"), "value"],
            means.loc[("D2", "p_x0_given_y0"), "value"],
        )
        ok = gap <= 0.015 + 0.005 and d1 > d2 > 2.5 / 3
        out.append(
            claim(
                "H1",
                "The HDP worked example behaves as in Table 1",
                {"D1": [0.89, 0.79], "D2": [0.86, 0.34]},
                {
                    "max_abs_gap": gap,
                    "means": {f"{d}/{m}": round(v, 3) for (d, m), v in means["value"].items()},
                },
                "|HDP - paper| <= 0.015 (+0.005 for the paper's rounding); HDP(y=0) D1 > D2 > 0.833",
                status(ok),
            )
        )
    else:
        out.append(
            claim("H1", "Table 1 worked example", None, None, "", NOT_COVERED, "table1 not run")
        )
    t2 = table2(cv)
    n_sets = int(cv["dataset"].nunique())
    if t2.empty:
        out.append(
            claim("H2", "HDP beats m-estimates for all 8 BNCs", PAPER_TABLE2, None, "", NOT_COVERED)
        )
    else:
        significant = (t2["p_value"] <= 0.05) | ((t2.structure == "nb") & (t2.metric == "rmse"))
        ok = bool((t2["wins"] > t2["losses"]).all() and significant.all())
        out.append(
            claim(
                "H2",
                "HDP beats m-estimates for all BNCs (Table 2)",
                PAPER_TABLE2,
                t2[["structure", "metric", "wins", "draws", "losses", "p_value"]].to_dict(
                    "records"
                ),
                "W > L for every structure and metric, sign test p <= 0.05 for all but NB-RMSE",
                status(ok),
                f"{n_sets} data sets",
            )
        )
    kdb = t2[t2.structure.str.startswith("kdb")] if not t2.empty else t2
    if set(kdb.get("structure", [])) >= {"kdb1", "kdb5"}:
        kdb = kdb.assign(fraction=kdb["wins"] / (kdb["wins"] + kdb["losses"]).clip(lower=1))
        frac = kdb.pivot_table(index="structure", columns="metric", values="fraction")
        ok = bool(
            frac.loc["kdb5", "rmse"] >= frac.loc["kdb1", "rmse"]
            and (frac.loc["kdb5"] >= 0.85).all()
        )
        out.append(
            claim(
                "H3",
                "The HDP advantage grows with kDB complexity",
                {"rmse": {"kdb1": 0.75, "kdb5": 0.91}, "zero_one": {"kdb1": 0.70, "kdb5": 0.94}},
                {"win_fraction": frac.round(3).to_dict()},
                "RMSE win fraction kDB-5 >= kDB-1, and kDB-5 >= 0.85 on both metrics",
                status(ok),
                f"{n_sets} data sets",
            )
        )
    else:
        out.append(
            claim("H3", "Advantage grows with k", None, None, "", NOT_COVERED, "needs kdb1..kdb5")
        )
    present = set(cv["method"])
    if {"kdb5-hdp", "kdb5-m"} <= present:
        others = [s for s in ("nb", "kdb1", "kdb2", "kdb3", "kdb4") if f"{s}-hdp" in present]
        hdp = [win_draw_loss(cv, "kdb5-hdp", f"{s}-hdp", "rmse") for s in others]
        m_vs_3 = win_draw_loss(cv, "kdb5-m", "kdb3-m", "rmse") if "kdb3-m" in present else None
        ok = all(w["wins"] >= w["losses"] for w in hdp)
        ok = ok and (m_vs_3 is None or m_vs_3["losses"] > m_vs_3["wins"])
        out.append(
            claim(
                "H4",
                "HDP controls overfitting as k grows (Fig. 6(b))",
                "kDB5-HDP wins vs every kDB-x; kDB5-m loses most to kDB3-m",
                {
                    "kdb5_hdp_vs": {
                        s: f"{w['wins']}-{w['draws']}-{w['losses']}"
                        for s, w in zip(others, hdp, strict=True)
                    },
                    "kdb5_m_vs_kdb3_m": None
                    if m_vs_3 is None
                    else f"{m_vs_3['wins']}-{m_vs_3['draws']}-{m_vs_3['losses']}",
                },
                "kDB5-HDP W >= L against every smaller k; kDB5-m L > W against kDB3-m (RMSE)",
                status(ok),
                f"{n_sets} data sets",
            )
        )
    else:
        out.append(claim("H4", "HDP controls overfitting", None, None, "", NOT_COVERED))
    t3 = table3(cv)
    for cid, method, paper in (
        ("H7", "tan-hdp", "42-3-23 (0-1)"),
        ("H8", "skdb-hdp", "44-0-24 (RMSE)"),
    ):
        rows = t3[t3.a == method] if not t3.empty else t3
        if rows.empty:
            out.append(
                claim(
                    cid,
                    f"{method} vs RF",
                    paper,
                    None,
                    "",
                    NOT_COVERED,
                    "RF or the structure not run",
                )
            )
            continue
        metric = "zero_one" if cid == "H7" else "rmse"
        row = rows[rows.metric == metric].iloc[0]
        out.append(
            claim(
                cid,
                f"{method} beats RF on {metric} (Table 3)",
                paper,
                rows[["metric", "wins", "draws", "losses", "p_value"]].to_dict("records"),
                f"W > L on {metric}",
                status(row["wins"] > row["losses"]),
                f"{n_sets} data sets",
            )
        )
    if {"tan-hdp", "skdb-hdp", "rf"} <= present:
        sizes = cv.groupby("dataset")["n"].max().sort_values(ascending=False)
        largest = cv[cv.dataset.isin(sizes.index[:10])]
        w_skdb = win_draw_loss(largest, "skdb-hdp", "rf", "zero_one")
        w_tan = win_draw_loss(largest, "tan-hdp", "rf", "zero_one")
        scale = min(10, len(sizes)) / 10
        ok = w_skdb["wins"] >= 6 * scale and w_tan["wins"] >= 5 * scale
        out.append(
            claim(
                "H9",
                "On the 10 largest data sets SkDB-HDP and TAN-HDP beat RF (0-1 loss)",
                {"skdb-hdp": "7-0-3", "tan-hdp": "6-1-3"},
                {"skdb-hdp": w_skdb, "tan-hdp": w_tan, "datasets": list(sizes.index[:10])},
                "W >= 6 (SkDB) and >= 5 (TAN) of 10, scaled if fewer",
                status(ok),
                "" if len(sizes) >= 10 else f"only {len(sizes)} data sets run",
            )
        )
    else:
        out.append(
            claim(
                "H9",
                "Large data sets vs RF",
                None,
                None,
                "",
                NOT_COVERED,
                "RF, TAN or SkDB not run",
            )
        )
    if {"kdb5-hdp", "skdb-hdp"} <= present:
        w = win_draw_loss(cv, "kdb5-hdp", "skdb-hdp", "rmse")
        out.append(
            claim(
                "H11",
                "kDB5-HDP ~ SkDB5-HDP (RMSE W/D/L not significant)",
                "33-5-30",
                w,
                "sign test p > 0.05",
                status(w["p_value"] > 0.05),
                f"{n_sets} data sets",
            )
        )
    else:
        out.append(claim("H11", "kDB5-HDP ~ SkDB5-HDP", None, None, "", NOT_COVERED))
    out.append(_splice_claim(splice))
    return sorted(out, key=lambda c: int(c["id"][1:]))
