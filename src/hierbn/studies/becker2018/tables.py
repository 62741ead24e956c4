"""Summaries of becker2018's result tables for the claims and the report: pooled Gibbs (and NUTS)
posteriors with R-hat and ESS, Figure 2's table, the Table 3 rankings with Kendall tau, the
Table 4 CV means, and the hyper-parameter sensitivity of the rankings."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from hierbn.diagnostics import ess_bulk, ess_tail, rhat
from hierbn.draws import Draws
from hierbn.studies.becker2018.paper import (
    CLASS_TEXT,
    LASSO_QUESTIONS,
    TABLE3_CLASS_ROWS,
    TABLE4,
    VB_QUESTIONS,
)

# Not paper values: our reconstruction (decisions §3.6) of the cells of Table 3's class sub-table
# that are garbled in the paper text (rank -> class), read from the OCR fragments and the pilot.
# With the legible cells (legible_classes) they make the class columns shown as the paper's in
# the report (spec_classes); claims judge only the legible cells.
SPEC_CLASS_FILL = {"lasso": {5: 6, 6: 11}, "vb": {2: 8, 5: 4, 6: 6}}


def draw_summary(draws: pd.DataFrame, method: str) -> pd.DataFrame:
    """Per parameter column of a draws table (one row per draw, a ``chain`` column): mean, sd,
    2.5% and 97.5% quantiles, split R-hat and bulk/tail ESS over the chains (ArviZ)."""
    parameters = [c for c in draws.columns if "[" in c or c in ("sigma", "s")]
    chains = sorted(draws["chain"].unique())
    rows = []
    for name in parameters:
        values = draws[name].to_numpy()
        by_chain = Draws({name: np.stack([draws.loc[draws.chain == c, name].to_numpy()
                                          for c in chains])})  # fmt: skip
        diagnostics = {"rhat": float(rhat(by_chain)[name]),
                       "ess_bulk": float(ess_bulk(by_chain)[name]),
                       "ess_tail": float(ess_tail(by_chain)[name])} if len(chains) > 1 else {}  # fmt: skip
        rows.append({"method": method, "parameter": name, "mean": values.mean(), "sd": values.std(ddof=1),
                     "q025": np.quantile(values, 0.025), "q975": np.quantile(values, 0.975),
                     "chains": len(chains), "draws": len(values), **diagnostics})  # fmt: skip
    return pd.DataFrame(rows)


def pooled_beta(moments: pd.DataFrame) -> pd.DataFrame:
    """Every class's beta pooled over the chains from each chain's mean and SD."""
    wide = moments[moments.parameter == "beta"].pivot_table(
        index=["class", "term", "chain"], columns="metric", values="value"
    )
    second = wide["sd"] ** 2 + wide["mean"] ** 2
    grouped = pd.DataFrame({"mean": wide["mean"], "second": second}).groupby(
        level=["class", "term"]
    )
    pooled = grouped.mean()
    pooled["sd"] = np.sqrt(np.maximum(pooled["second"] - pooled["mean"] ** 2, 0.0))
    return pooled.drop(columns="second").reset_index()


def vb_frame(vb: pd.DataFrame, method: str, parameter: str) -> pd.DataFrame:
    """(term, class) x metric of one VB fit's parameter."""
    sub = vb[(vb.method == method) & (vb.parameter == parameter)]
    return sub.pivot_table(index=["term", "class"], columns="metric", values="value").reset_index()


def figure2_table(vb: pd.DataFrame, gibbs: pd.DataFrame, nuts: pd.DataFrame | None) -> pd.DataFrame:
    """Figure 2: Delta per term, VB mean +- 1.96 SD (both variants) and the Gibbs (NUTS)
    posterior mean with its 2.5-97.5% interval."""
    rows = []
    for method in sorted(vb.method.unique()):
        delta = vb_frame(vb, method, "delta")
        rows += [{"term": t.term, "method": method, "mean": t.mean, "sd": t.sd,
                  "lower": t.mean - 1.96 * t.sd, "upper": t.mean + 1.96 * t.sd}
                 for t in delta.itertuples()]  # fmt: skip
    for summary in (gibbs, nuts):
        if summary is None or summary.empty:
            continue
        delta = summary[summary.parameter.str.startswith("delta[")]
        rows += [{"term": p.parameter[6:-1], "method": p.method, "mean": p.mean, "sd": p.sd,
                  "lower": p.q025, "upper": p.q975} for p in delta.itertuples()]  # fmt: skip
    return pd.DataFrame(rows)


def vb_rankings(vb: pd.DataFrame, method: str) -> pd.DataFrame:
    """Decisions 11 and 12: questions by ascending E[w_d] (intercept excluded); classes by
    descending |class intercept| (the paper's), and the diagnostics |intercept - population
    intercept| and ||m_i - m_Delta||."""
    w = vb_frame(vb, method, "w")
    w = w[w.term != "intercept"].sort_values("mean", kind="stable")
    rows = [{"method": method, "kind": "question", "rank": r + 1, "item": t}
            for r, t in enumerate(w.term)]  # fmt: skip
    beta = vb_frame(vb, method, "beta").pivot_table(index="class", columns="term", values="mean")
    delta = vb_frame(vb, method, "delta").set_index("term")["mean"]
    scores = {
        "class": beta["intercept"].abs(),
        "class-deviation": (beta["intercept"] - delta["intercept"]).abs(),
        "class-distance": np.sqrt(((beta - delta[beta.columns]) ** 2).sum(axis=1)),
    }
    for kind, score in scores.items():
        order = score.sort_values(ascending=False, kind="stable").index
        rows += [{"method": method, "kind": kind, "rank": r + 1, "item": f"class {int(c)}"}
                 for r, c in enumerate(order)]  # fmt: skip
    return pd.DataFrame(rows)


def legible_classes(model: str) -> dict[int, str]:
    """Table 3's class column of ``model`` ("lasso" or "vb") as far as the paper text shows it:
    rank -> class for the legible rows, and the classes the paper's sentence places (class 7
    first in both; class 13 second for the lasso, last for VB)."""
    cells = {rank: f"class {row[model]}" for rank, row in TABLE3_CLASS_ROWS.items()}
    cells[1] = f"class {CLASS_TEXT['both_first']}"
    cells[2 if model == "lasso" else 13] = f"class {CLASS_TEXT['lasso_second_vb_last']}"
    return dict(sorted(cells.items()))


def spec_classes(model: str) -> list[str]:
    """Table 3's class column of ``model`` ("lasso" or "vb"): the legible cells, the rest
    from the reconstruction of decisions §3.6 (:data:`SPEC_CLASS_FILL`)."""
    fill = {rank: f"class {c}" for rank, c in SPEC_CLASS_FILL[model].items()}
    cells = legible_classes(model) | fill
    return [cells[rank] for rank in range(1, 14)]


def paper_rankings() -> pd.DataFrame:
    """Table 3: the question columns as printed; the class columns as reconstructed in
    decisions §3.6 (:func:`spec_classes`)."""
    columns = {("paper-lasso", "question"): LASSO_QUESTIONS, ("paper-vb", "question"): VB_QUESTIONS,
               ("paper-lasso", "class"): spec_classes("lasso"),
               ("paper-vb", "class"): spec_classes("vb")}  # fmt: skip
    return pd.DataFrame([{"method": m, "kind": k, "rank": r + 1, "item": item}
                         for (m, k), items in columns.items() for r, item in enumerate(items)])  # fmt: skip


def ranking(table: pd.DataFrame, method: str, kind: str) -> list[str]:
    sub = table[(table.method == method) & (table.kind == kind)].sort_values("rank")
    return sub["item"].tolist()


def kendall(a: list[str], b: list[str]) -> float:
    """Kendall's tau between two rankings of the same items."""
    if sorted(a) != sorted(b):
        raise ValueError(f"rankings of different items: {sorted(set(a) ^ set(b))}")
    position = {item: i for i, item in enumerate(b)}
    return float(kendalltau(np.arange(len(a)), [position[item] for item in a]).statistic)


def table4(cv: pd.DataFrame) -> pd.DataFrame:
    """Table 4: per model the CV MSE (rounded and raw predictions): mean over folds, then over
    repeats; the per-fold SD; the paper's value where it has one."""
    sub = cv[cv.metric.isin(["mse_rounded", "mse_raw"])]
    per_repeat = sub.groupby(["method", "metric", "rep"])["value"].mean()
    means = per_repeat.groupby(["method", "metric"]).mean().unstack()
    spread = sub.groupby(["method", "metric"])["value"].std().unstack()
    out = pd.DataFrame({"mse_rounded": means["mse_rounded"], "mse_raw": means["mse_raw"],
                        "fold_sd": spread["mse_rounded"],
                        "folds": sub[sub.metric == "mse_rounded"].groupby("method").size()})  # fmt: skip
    paper = {
        **{m.replace("vb", "vb-faithful"): v for m, v in TABLE4.items()},
        "ridge-noclass": TABLE4["ridge"],
    }
    out["paper"] = [paper.get(m) for m in out.index]
    out["note"] = ["the paper's ridge value matches this design (decisions §3.7)"
                   if m == "ridge-noclass" else "sensitivity" if m not in paper else ""
                   for m in out.index]  # fmt: skip
    order = ["ols", "lasso", "vb-faithful", "lme", "ridge"]
    return out.reindex(order + [m for m in out.index if m not in order]).reset_index()


def sensitivity_table(sensitivity: pd.DataFrame, vb: pd.DataFrame) -> pd.DataFrame:
    """Decision 18: the question ranking under each hyper-parameter value against the default's
    (Kendall tau, same top 5), and the fit's iterations."""
    default = ranking(vb_rankings(vb, "vb-faithful"), "vb-faithful", "question")
    rows = []
    for value, sub in sensitivity.groupby("hyper_value"):
        ranked = ranking(vb_rankings(sub, "vb-faithful"), "vb-faithful", "question")
        fit = sub[sub.parameter == "fit"].set_index("metric")["value"]
        rows.append({"hyper_value": value, "tau_vs_default": kendall(ranked, default),
                     "same_top5": ranked[:5] == default[:5], "top5": ", ".join(ranked[:5]),
                     "n_iter": int(fit["n_iter"])})  # fmt: skip
    return pd.DataFrame(rows)
