"""Views and figures of the dombowsky2025 report: Tables 1, 3, 7 and 8 with the paper's value
beside ours, the sampler diagnostics, Figure 10 (square-root estimates of the ALARM CPTs), the
ALARM structure (Tables 10-11), the LUCAS Markov blankets (Tables 2 and 6, Figure 3), METABRIC
(its data report, Figures 5-6, App. D) and log-posterior trace plots. They format the claims
step's summaries; nothing here fits."""

from __future__ import annotations

import re
from typing import Any

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.gridspec import SubplotSpec
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from hierbn.studies.dombowsky2025.alarm import LEVELS, PARENTS, STRUCTURE_ORDER
from hierbn.studies.dombowsky2025.lucas import TARGETS
from hierbn.studies.dombowsky2025.paper import QUOTED_EDGES, TABLE1_METHODS, TABLE4_LEVELS
from hierbn.studies.dombowsky2025.structure import COVARIATES, OUTCOMES

LEVEL_COLORS = {"FALSE": "#9ecae1", "TRUE": "#08519c", "LOW": "#fdae6b", "NORMAL": "#a1d99b",
                "HIGH": "#de2d26"}  # fmt: skip


def _mean_sd(mean: float, sd: float, digits: int = 3) -> str:
    return "—" if pd.isna(mean) else f"{mean:.{digits}f} ({sd:.{digits}f})"


def figure2(table: pd.DataFrame) -> Figure:
    """Figure 2 of the paper: the fitted Pr(x_j = 1 | x_{j-1}) per parent category (columns,
    labelled with the counts k / n) under the MLE and Dir(alpha, alpha) for each alpha, computed
    from the paper's counts, and ours below them: HiDDeN's eq. (14) estimate for the same counts,
    which learns the shrinkage instead of fixing alpha."""
    grid = table.pivot(index="estimator", columns="category", values="fitted")
    order = list(dict.fromkeys(table.estimator))
    grid = grid.reindex(order)
    counts = table.drop_duplicates("category").set_index("category")
    fig, ax = plt.subplots(figsize=(6.5, 0.45 * len(order) + 1.4))
    image = ax.imshow(grid.to_numpy(), cmap="Blues", vmin=0, vmax=1, aspect="auto")
    for (i, j), value in np.ndenumerate(grid.to_numpy()):
        ax.text(j, i, f"{value:.3f}", ha="center", va="center", fontsize=8,
                color="white" if value > 0.6 else "black")  # fmt: skip
    ours = [i for i, e in enumerate(order) if (table[table.estimator == e].source == "ours").all()]
    for i in ours:
        ax.axhline(i - 0.5, color="#e6550d", lw=2)
    ax.set_xticks(range(grid.shape[1]), [f"{c}\n{counts.successes[c]}/{counts['count'][c]}"
                                         for c in grid.columns])  # fmt: skip
    ax.set_yticks(range(len(order)), [f"{e} (ours)" if i in ours else e
                                      for i, e in enumerate(order)])  # fmt: skip
    ax.set_xlabel("parent category x_{j-1} (successes / count)")
    fig.colorbar(image, ax=ax, fraction=0.04, label="fitted Pr(x_j = 1 | x_{j-1})")
    ax.set_title("Fig. 2: fitted values as α varies (from the paper's counts), HiDDeN below",
                 fontsize=10)  # fmt: skip
    fig.tight_layout()
    return fig


def table1_view(table: pd.DataFrame) -> pd.DataFrame:
    """Rows K, per method 'ours' and 'paper' mean (SD) RMSE."""
    cells = {}
    extra = sorted(m for m in set(table.method) if m.startswith("HiDDeN,"))
    for method in [m for m in (TABLE1_METHODS[0], *extra, *TABLE1_METHODS[1:])
                   if m in set(table.method)]:  # fmt: skip
        sub = table[table.method == method].set_index("K")
        cells[(method, "ours")] = [_mean_sd(r["mean"], r["sd"]) for _, r in sub.iterrows()]
        if sub.paper_mean.notna().any():
            cells[(method, "paper")] = [_mean_sd(r.paper_mean, r.paper_sd)
                                        for _, r in sub.iterrows()]  # fmt: skip
        index = sub.index
    out = pd.DataFrame(cells, index=index)
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    main = table[table.method != "Logit Bayes"].groupby("K").datasets.max().reindex(out.index)
    logit = table[table.method == "Logit Bayes"].set_index("K").datasets.reindex(out.index)
    out[("data sets", "")] = [str(int(m)) if pd.isna(b) or b == m else f"{int(m)} (logit Bayes {int(b)})"
                        for m, b in zip(main, logit, strict=True)]  # fmt: skip
    return out


def rates_view(table: pd.DataFrame, column: str, order: list[str]) -> pd.DataFrame:
    """Rows method, columns the setting: 'ours (paper)' selection rates."""
    pivot = table.pivot(index="method", columns=column, values="rate")
    paper = table.pivot(index="method", columns=column, values="paper")
    text = pivot.map(lambda v: f"{v:.2f}") + paper.map(
        lambda v: "" if pd.isna(v) else f" ({v:.2f})")  # fmt: skip
    return text.reindex([m for m in order if m in text.index])


def table7_view(table: pd.DataFrame) -> pd.DataFrame:
    """Rows (truth, n), per quantity 'ours' and 'paper' mean (SD)."""
    cells = {}
    for quantity, label in (("prob", "Pr(G_true | n)"), ("BIC", "ΔBIC"), ("AIC", "ΔAIC"),
                            ("BDE", "ΔBDE")):  # fmt: skip
        sub = table[table.quantity == quantity].set_index(["truth", "n"]).sort_index()
        cells[(label, "ours")] = [_mean_sd(r["mean"], r["sd"]) for _, r in sub.iterrows()]
        cells[(label, "paper")] = [_mean_sd(r.paper_mean, r.paper_sd) for _, r in sub.iterrows()]
        index = sub.index
    out = pd.DataFrame(cells, index=index)
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    return out


def _setting_key(setting: str) -> tuple:
    """Sort labels with numbers in them as numbers: 'x=10' after 'x=9'."""
    return tuple(int(part) if part.isdigit() else part
                 for part in re.split(r"(\d+)", setting))  # fmt: skip


def diagnostics_view(table: pd.DataFrame) -> pd.DataFrame:
    """Rows (experiment, setting, method) in numeric order; acceptance of t(1) / t(2) / t(3) in
    one column; coda log-posterior ESS (smallest, median) rounded to whole draws."""
    order = sorted(range(len(table)), key=lambda i: (
        table.experiment.iloc[i], _setting_key(table.setting.iloc[i]), table.method.iloc[i]))  # fmt: skip
    rows = table.iloc[order]
    accept = rows.filter(like="acceptance_t")
    out = pd.DataFrame({
        "acceptance t(1) / t(2) / t(3)": [" / ".join(f"{v:.2f}" for v in r if pd.notna(v))
                                          for r in accept.to_numpy()],
        "log-posterior ESS, smallest": rows.logpost_ess_min.round().astype(int).to_numpy(),
        "log-posterior ESS, median": rows.logpost_ess_median.round().astype(int).to_numpy(),
        "chains": rows.chains.to_numpy(),
        "stuck chains": rows.stuck_chains.to_numpy(),
        "iterations": rows.iterations.map("{:,}".format).to_numpy(),
    }, index=pd.MultiIndex.from_frame(rows[["experiment", "setting", "method"]]))  # fmt: skip
    return out


def table3_probabilities_view(table: pd.DataFrame) -> pd.DataFrame:
    """Mean HiDDeN Pr(G2 | n) per k1: visit frequency and Rao–Blackwellised estimate."""
    rows = table[table.method == "HiDDeN"].sort_values("k1").set_index("k1")
    return pd.DataFrame({"replications": rows.reps,
                         "mean Pr(G2 | n), visit frequency": rows.prob_G2.round(3),
                         "mean Pr(G2 | n), Rao–Blackwellised": rows.prob_G2_rb.round(3)})  # fmt: skip


def alarm_levels_view(levels: dict[str, dict[str, int]]) -> pd.DataFrame:
    """The level counts of ``bnlearn::alarm`` per node of Figure 10."""
    return pd.DataFrame({"node": list(levels),
                         "levels (count)": [", ".join(f"{k} {v:,}" for k, v in counts.items())
                                            for counts in levels.values()]})  # fmt: skip


def alarm_ess_view(table: pd.DataFrame) -> pd.DataFrame:
    """ESS of the sampled predictive cell probabilities: ours on the headline subsample, the
    smallest over all subsamples, and the paper's."""
    rows = table.set_index("node")
    return pd.DataFrame({
        "ours, headline (min – max)": [f"{a:,.0f} – {b:,.0f}" for a, b in zip(rows["min"], rows["max"], strict=True)],
        "ours, smallest over subsamples": rows.min_over_subsamples.map("{:,.0f}".format),
        "paper (min – max)": [f"{a:,.0f} – {b:,.0f}" for a, b in zip(rows.paper_min, rows.paper_max, strict=True)],
    }, index=rows.index)  # fmt: skip


def figure10(predictive: pd.DataFrame) -> Figure:
    """Figure 10: sqrt of the eq. (14) estimate of Pr(x_j | x_Pa) per parent configuration on
    the headline subsample (bars), with the mean over all subsamples (black ticks) and the
    configuration's count n_Pa in the tick label."""
    fig, axes = plt.subplots(1, len(PARENTS), figsize=(17, 3.8))
    for ax, node in zip(axes, PARENTS, strict=True):
        sub = predictive[predictive.node == node]
        configs = list(dict.fromkeys(sub.parents))
        levels = LEVELS[node]
        width = 0.8 / len(levels)
        for k, level in enumerate(levels):
            rows = sub[sub.level == level].set_index("parents").reindex(configs)
            x = np.arange(len(configs)) + (k - (len(levels) - 1) / 2) * width
            ax.bar(x, np.sqrt(rows.predictive), width, color=LEVEL_COLORS[level], label=level)
            ax.plot(x, np.sqrt(rows.mean_over_subsamples), "_", color="black", ms=8)
        counts = sub.groupby("parents", sort=False)["count"].sum().reindex(configs)
        ax.set_xticks(np.arange(len(configs)))
        ax.set_xticklabels([f"{c.replace(', ', chr(10))}\nn={int(n)}" for c, n in
                            zip(configs, counts, strict=True)], fontsize=7)  # fmt: skip
        ax.set_ylim(0, 1.22)  # headroom for the legend above the bars
        ax.set_yticks(np.linspace(0, 1, 6))
        ax.set_title(f"{node} | {', '.join(PARENTS[node])}", fontsize=9)
        ax.legend(fontsize=7, loc="upper center", ncol=len(levels), frameon=False)
    axes[0].set_ylabel("sqrt of estimated probability")
    fig.suptitle("Fig. 10: HiDDeN estimates of the ALARM CPTs (headline subsample; black ticks: "
                 "mean over subsamples)", fontsize=10)  # fmt: skip
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------ structure learning
SURE = 0.995  # ours, a drawing choice (the paper gives none): edges this sure go unlabelled (Figs 3, 5)
TEAL, ORANGE, GREY = "#1f8a8a", "#e6550d", "#969696"
COVARIATE_COLOR, OUTCOME_COLOR = "#9ecae1", "#fc9272"  # Figure 5: covariates blue, outcomes red
# the methods of Table 2 and of the METABRIC parents table, as the report names them
TABLE2_METHODS = {"HiDDeN": "HiDDeN (MAP)", "HiDDeN MPM": "HiDDeN MPM", "GS": "GS", "IAMB": "IAMB",
                  "Group lasso": "Group lasso (corrected)",
                  "Group lasso ([code])": "Group lasso ([code])"}  # fmt: skip
METABRIC_METHODS = {"HiDDeN": "HiDDeN MPM", "paper_mpm": "paper's MPM", "HC": "HC",
                    "TABU": "TABU", "Group lasso": "group lasso (corrected)",
                    "Group lasso ([code])": "group lasso ([code])"}  # fmt: skip


def _prob(value: float) -> str:
    """A probability to three decimals; '—' when missing, '<0.001' when positive but smaller."""
    if pd.isna(value):
        return "—"
    return "<0.001" if 0 < value < 0.0005 else f"{value:.3f}"


def table10_view(table: pd.DataFrame) -> pd.DataFrame:
    """Table 10: the visited parent sets per node on the headline subsample, most visited first:
    visit frequency, Rao–Blackwellised probability, mean frequency over subsamples, the paper's."""
    return pd.DataFrame({
        "visit frequency": table.probability.map(_prob).to_numpy(),
        "Rao–Blackwellised": table.probability_rb.map(_prob).to_numpy(),
        "mean over subsamples": table.mean_over_subsamples.map(_prob).to_numpy(),
        "paper": table.paper.map(_prob).to_numpy(),
    }, index=pd.MultiIndex.from_arrays([table.node, table.parent_set],
                                       names=["node", "parent set"]))  # fmt: skip


def table11_view(table: pd.DataFrame) -> pd.DataFrame:
    """Table 11: Pr(parent -> node) on the headline subsample, its mean, minimum and maximum over
    subsamples and the paper's; edges in the paper's order (by parent, then node)."""
    rank = {n: i for i, n in enumerate(STRUCTURE_ORDER)}
    rows = table.sort_values(["parent", "node"], key=lambda c: c.map(rank))
    columns = {"headline subsample": "probability", "mean over subsamples": "mean_over_subsamples",
               "min over subsamples": "min_over_subsamples",
               "max over subsamples": "max_over_subsamples", "paper": "paper"}  # fmt: skip
    return pd.DataFrame({label: rows[c].map(_prob).to_numpy() for label, c in columns.items()},
                        index=pd.Index(rows.parent + " → " + rows.node, name="edge"))  # fmt: skip


def alarm_maps_view(maps: pd.DataFrame) -> pd.DataFrame:
    """Per node the true parents, the headline MAP set and how many subsamples' MAP is the truth."""
    hits = (maps.map_is_truth * maps.subsamples).round().astype(int)
    return pd.DataFrame({
        "node": maps.node.to_numpy(), "true parents": maps.truth.to_numpy(),
        "MAP, headline subsample": maps.headline_map.to_numpy(),
        "subsamples whose MAP is the truth": [f"{h} of {n} ({h / n:.0%})" for h, n in
                                              zip(hits, maps.subsamples, strict=True)],
    })  # fmt: skip


def _ours_paper(ours: float, paper: float) -> str:
    return "—" if pd.isna(ours) else f"{ours:.0f}" + ("" if pd.isna(paper) else f" ({paper:.0f})")


def table2_view(table: pd.DataFrame) -> pd.DataFrame:
    """Table 2: Hamming distance to the true blanket per target (Table 2's order) and method,
    'ours (paper)', with a Total row (the paper's total only where it printed every target)."""
    targets = [t for t in TARGETS if t in set(table.node)]
    methods = [m for m in TABLE2_METHODS if m in set(table.method)]
    ours, paper = (table.pivot(index="node", columns="method", values=v)
                   .reindex(index=targets, columns=methods) for v in ("hamming", "paper"))  # fmt: skip
    ours.loc["Total"] = ours.sum(min_count=1)
    paper.loc["Total"] = paper.sum(min_count=len(targets))
    text = pd.DataFrame({TABLE2_METHODS[m]: [_ours_paper(o, p) for o, p in
                                             zip(ours[m], paper[m], strict=True)]
                         for m in methods}, index=pd.Index(ours.index, name="target"))  # fmt: skip
    return text


def _slashed(values: Any, spec: str) -> str:
    return " / ".join(format(float(v), spec) for v in values)


def hidden_diagnostics_view(
    table: pd.DataFrame, order: tuple[str, ...], label: str
) -> pd.DataFrame:
    """Table 6 / App. D: per node (in ``order``) the step sizes ε, the acceptance of each t(x)
    after burn-in and the log-posterior ESS, 'ours (paper)'; ε names the paper's only if it
    differs (decision A19: our ESS is of the correct log-posterior). Where several chains ran, their
    number and the log-posterior R-hat."""
    rows = table.set_index("node").reindex([n for n in order if n in set(table.node)])
    eps = [_slashed(e, "g") + ("" if p is None or np.allclose(list(e), list(p))
                                else f" (paper {_slashed(p, 'g')})")
           for e, p in zip(rows.eps, rows.paper_eps, strict=True)]  # fmt: skip
    accept = [_slashed(a, ".3f") + ("" if p is None else f" ({_slashed(p, '.3f')})")
              for a, p in zip(rows.acceptance, rows.paper_acceptance, strict=True)]  # fmt: skip
    ess = [f"{e:,.0f}" + ("" if pd.isna(p) else f" ({p:,.0f})")
           for e, p in zip(rows.logpost_ess, rows.paper_ess, strict=True)]  # fmt: skip
    out = pd.DataFrame({"ε": eps, "acceptance, ours (paper)": accept,
                        "log-posterior ESS, ours (paper)": ess},
                       index=pd.Index(rows.index, name=label))  # fmt: skip
    if "logpost_rhat" in rows and rows.logpost_rhat.notna().any():
        # several chains ran (METABRIC): means over them, and whether they agree
        out["chains"] = rows.chains.astype(int).to_numpy()
        out["log-posterior R-hat"] = [f"{v:.2f}" for v in rows.logpost_rhat]
    return out


def table6_view(table: pd.DataFrame) -> pd.DataFrame:
    """Table 6: the LUCAS sampler per target, in Table 2's order."""
    return hidden_diagnostics_view(table, TARGETS, "target")


def metabric_diagnostics_view(table: pd.DataFrame) -> pd.DataFrame:
    """App. D: the METABRIC sampler per outcome, in the ordering TBS, CHT, DFC."""
    return hidden_diagnostics_view(table, OUTCOMES, "outcome")


def lucas_summary_text(check: dict[str, Any]) -> str:
    """One line on the LUCAS0 data (rows, variables, whether the column order was that of
    decisions §4.2)."""
    order = (
        "as in decisions §4.2" if check["order_matches_spec"] else "reordered to decisions §4.2's"
    )
    return (f"LUCAS0 training set: {check['rows']:,} rows × {len(check['mean'])} binary "
            f"variables, columns {order}.")  # fmt: skip


def _blanket_panel(ax: Axes, rows: pd.DataFrame, target: str) -> None:
    """One Figure 3 panel: ``target`` in the centre, its true and HiDDeN-MAP blanket around it
    (networkx's shell layout); edge width ∝ posterior edge probability; solid = in the MAP
    blanket (teal if true, orange if not), dashed grey = true but missed; the probability
    labels the edges below SURE."""
    rows = rows[(rows.HiDDeN == 1) | rows.in_truth]
    graph = nx.Graph()
    graph.add_node(target)
    graph.add_edges_from((target, v) for v in rows.variable)
    pos = nx.shell_layout(graph, nlist=[[target], list(rows.variable)], scale=2)
    kinds = [(rows[(rows.HiDDeN == 1) & rows.in_truth], TEAL, "solid", 0.8),
             (rows[(rows.HiDDeN == 1) & ~rows.in_truth], ORANGE, "solid", 0.8),
             (rows[(rows.HiDDeN != 1) & rows.in_truth], GREY, "dashed", 1.5)]  # fmt: skip
    for kind, color, style, thinnest in kinds:
        if not kind.empty:
            nx.draw_networkx_edges(graph, pos, edgelist=[(target, v) for v in kind.variable],
                                   width=[max(5 * p, thinnest) for p in kind.edge_probability],
                                   edge_color=color, style=style, ax=ax)  # fmt: skip
    fills = {target: ("#d9d9d9", GREY)} | {v: ("#b3e0dc", TEAL) if t else ("#fdd0a2", ORANGE)
                                           for v, t in zip(rows.variable, rows.in_truth, strict=True)}  # fmt: skip
    for node, (fill, edge) in fills.items():
        nx.draw_networkx_labels(graph, pos, labels={node: node.replace("_", "\n")}, font_size=9,
                                font_weight="bold" if node == target else "normal", ax=ax,
                                bbox={"boxstyle": "round,pad=0.35", "fc": fill, "ec": edge})  # fmt: skip
    labels = {(target, v): _edge_label(p, QUOTED_EDGES.get((v, target)))
              for v, p in zip(rows.variable, rows.edge_probability, strict=True) if p < SURE}  # fmt: skip
    nx.draw_networkx_edge_labels(graph, pos, edge_labels=labels, font_size=8, label_pos=0.45,
                                 rotate=False, bbox={"fc": "white", "ec": "none", "pad": 0.5},
                                 ax=ax)  # fmt: skip
    hamming = int(((rows.HiDDeN == 1) != rows.in_truth).sum())
    ax.set_title(f"{target.replace('_', ' ')} (Hamming {hamming})", fontsize=11)
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-1.3, 1.3)
    ax.axis("off")


def _edge_label(p: float, paper: float | None) -> str:
    text = "<0.01" if p < 0.005 else f"{p:.2f}"
    return text if paper is None else f"{text}\n(paper {paper:.3f})"


def figure3(selections: pd.DataFrame) -> Figure:
    """Figure 3 for each target of Table 2: the HiDDeN MAP Markov blanket with edges weighted by
    their posterior probability and the true blanket (Table 5) highlighted."""
    targets = [t for t in TARGETS if t in set(selections.node)]
    fig, axes = plt.subplots(2, 3, figsize=(12, 8))
    for ax, target in zip(axes.flat, targets, strict=False):
        _blanket_panel(ax, selections[selections.node == target], target)
    for ax in axes.flat[len(targets) :]:
        ax.remove()
    handles = [Line2D([], [], color=TEAL, lw=3, label="in HiDDeN's MAP blanket and the true one"),
               Line2D([], [], color=ORANGE, lw=3, label="in HiDDeN's MAP blanket only"),
               Line2D([], [], color=GREY, lw=1.5, ls="--", label="true, missed by HiDDeN's MAP")]  # fmt: skip
    fig.legend(handles=handles, loc="lower center", ncol=3, frameon=False, fontsize=10)
    fig.suptitle("Fig. 3: HiDDeN MAP Markov blankets on LUCAS (edge width ∝ posterior edge "
                 f"probability, labelled where < {SURE})", fontsize=12)  # fmt: skip
    fig.tight_layout(rect=(0, 0.04, 1, 0.98))
    return fig


def _ticks(values: pd.Series) -> list[str]:
    return ["✓" if v == 1 else "" for v in values]


def _metabric_rows(parents: pd.DataFrame) -> pd.DataFrame:
    """The METABRIC parents table in the outcomes' order, candidates in Table 4's order."""
    rank = {v: i for i, v in enumerate((*COVARIATES, *OUTCOMES))}
    return parents.sort_values(["node", "variable"], key=lambda c: c.map(rank), ignore_index=True)


def metabric_parents_view(parents: pd.DataFrame) -> pd.DataFrame:
    """Figures 5-6 as a table: per outcome and candidate HiDDeN's edge probability (the paper's
    where quoted) and which methods select it (✓), the paper's MPM beside ours."""
    rows = _metabric_rows(parents)
    prob = [_prob(p) + ("" if pd.isna(q) else f" (paper {q:.3f})")
            for p, q in zip(rows.edge_probability, rows.paper_probability, strict=True)]  # fmt: skip
    out = {"HiDDeN Pr(edge)": prob}
    out |= {
        label: _ticks(rows[m].astype(float)) for m, label in METABRIC_METHODS.items() if m in rows
    }
    return pd.DataFrame(out, index=pd.MultiIndex.from_arrays([rows.node, rows.variable],
                                                             names=["outcome", "candidate"]))  # fmt: skip


def metabric_summary_text(check: dict[str, Any]) -> str:
    """n ours vs the paper's, the mode and the source of the METABRIC data."""
    return (f"n = **{check['n']:,}** patients (the paper: {check['paper_n']:,}; "
            f"{check['n'] - check['paper_n']:+,}), `{check['mode']}` mode (decision A12), from "
            f"{check['patients']:,} patients of the cBioPortal `brca_metabric` tables; "
            f"{check['dropped']:,} dropped:")  # fmt: skip


def metabric_drops_view(check: dict[str, Any]) -> pd.DataFrame:
    """The reasons patients were dropped (the first that applied) with their counts."""
    reasons = check["drop_reasons"]
    return pd.DataFrame({"reason": list(reasons), "patients": [f"{v:,}" for v in reasons.values()]})


def metabric_levels_view(check: dict[str, Any]) -> pd.DataFrame:
    """Per variable its cBioPortal column, our number of levels beside Table 4's and each level
    with its count (an empty label is a level in `code` mode, decision A12)."""
    levels = check["levels"]
    return pd.DataFrame({
        "variable": list(levels),
        "cBioPortal column": [check["column_map"].get(v, "") for v in levels],
        "levels, ours (Table 4)": [f"{len(c)} ({TABLE4_LEVELS.get(v, '—')})"
                                   for v, c in levels.items()],
        "level: count": [", ".join(f"{k or '(empty)'}: {n:,}" for k, n in c.items())
                           for c in levels.values()],
    })  # fmt: skip


def metabric_edges(parents: pd.DataFrame, method: str) -> list[tuple[str, str]]:
    """(parent, outcome) of every candidate ``method`` selects, outcomes in their ordering."""
    rows = _metabric_rows(parents)
    chosen = rows[rows[method].astype(float) == 1]
    return list(zip(chosen.variable, chosen.node, strict=True))


def _dag_panel(ax: Axes, parents: pd.DataFrame, method: str, title: str) -> None:
    """The outcomes' parents selected by ``method`` (networkx's multipartite layout): the
    covariates (blue) in the top row, the outcomes (red) below in their ordering, the edges among
    them curved; widths ∝ HiDDeN's posterior edge probability for HiDDeN, labelled below SURE;
    equal widths for the other methods."""
    edges = metabric_edges(parents, method)
    graph = nx.DiGraph(edges)
    graph.add_nodes_from((*COVARIATES, *OUTCOMES))
    pos = nx.multipartite_layout(graph, subset_key={0: list(COVARIATES), 1: list(OUTCOMES)},
                                 align="horizontal")  # fmt: skip
    prob = _metabric_rows(parents).set_index(["variable", "node"]).edge_probability
    weighted = method == "HiDDeN"
    size = 750
    nx.draw_networkx_nodes(graph, pos, node_size=size, ax=ax,
                           node_color=[OUTCOME_COLOR if n in OUTCOMES else COVARIATE_COLOR
                                       for n in graph])  # fmt: skip
    nx.draw_networkx_labels(graph, pos, font_size=10, ax=ax)
    for among, style in ((False, "arc3,rad=0"), (True, "arc3,rad=0.45")):
        subset = [e for e in edges if (e[0] in OUTCOMES) == among]
        if not subset:
            continue
        nx.draw_networkx_edges(graph, pos, edgelist=subset, node_size=size, ax=ax,
                               width=[4 * prob[e] if weighted else 1.5 for e in subset],
                               edge_color="#525252", arrowsize=14, connectionstyle=style)  # fmt: skip
        labels = {e: _edge_label(prob[e], QUOTED_EDGES.get(e)) for e in subset
                  if weighted and prob[e] < SURE}  # fmt: skip
        nx.draw_networkx_edge_labels(graph, pos, edge_labels=labels, font_size=9, ax=ax,
                                     label_pos=0.5 if among else 0.3, connectionstyle=style,
                                     rotate=False, bbox={"fc": "white", "ec": "none", "pad": 0.5})  # fmt: skip
    ys = [y for _, y in pos.values()]
    ax.set_ylim(min(ys) - 0.04, max(ys) + 0.06)  # room for the curved edges below the outcomes
    ax.set_xlim(-1.12, 1.12)
    ax.invert_yaxis()  # layer 0 (the covariates) on top
    ax.set_title(title, fontsize=11)
    ax.axis("off")


def figure5(parents: pd.DataFrame) -> Figure:
    """Figure 5 (top): HiDDeN's median probability parent sets of TBS, CHT and DFC."""
    fig, ax = plt.subplots(figsize=(11, 4))
    _dag_panel(ax, parents, "HiDDeN", "Fig. 5 (top): HiDDeN MPM parents of the outcomes "
               f"(width ∝ posterior edge probability, labelled where < {SURE})")  # fmt: skip
    fig.tight_layout()
    return fig


def figure5_competitors(parents: pd.DataFrame) -> Figure:
    """Figure 5 (middle, bottom): the parents selected by HC, TABU and the group lasso, corrected
    and as [code] selects them (the paper's fully connected middle panel, decision A9)."""
    methods = [(m, label) for m, label in (
        ("HC", "HC"), ("TABU", "TABU"), ("Group lasso", "group lasso (corrected)"),
        ("Group lasso ([code])", "group lasso ([code]: the paper's Fig. 5, middle)"))
        if m in parents]  # fmt: skip
    n_rows = (len(methods) + 1) // 2
    fig, axes = plt.subplots(n_rows, 2, figsize=(12, 3.4 * n_rows), squeeze=False)
    for ax in axes.flat[len(methods) :]:
        ax.remove()
    for ax, (method, label) in zip(axes.flat, methods, strict=False):
        _dag_panel(ax, parents, method, label)
    fig.suptitle("Fig. 5 (middle, bottom): the outcomes' parents selected by the other methods",
                 fontsize=12)  # fmt: skip
    fig.tight_layout()
    return fig


def figure6(parents: pd.DataFrame) -> Figure:
    """Figure 6: HiDDeN's posterior edge probabilities, candidates (rows) by outcome (columns);
    grey where the variable is not a candidate of the outcome."""
    rows = _metabric_rows(parents)
    grid = rows.pivot(index="variable", columns="node", values="edge_probability")
    grid = grid.reindex(index=[v for v in (*COVARIATES, *OUTCOMES) if v in grid.index],
                        columns=[o for o in OUTCOMES if o in grid.columns])  # fmt: skip
    fig, ax = plt.subplots(figsize=(3.9, 4.6))
    cmap = plt.get_cmap("Blues").with_extremes(bad="#f0f0f0")
    image = ax.imshow(
        np.ma.masked_invalid(grid.to_numpy()), cmap=cmap, vmin=0, vmax=1, aspect="auto"
    )
    for (i, j), value in np.ndenumerate(grid.to_numpy()):
        if not np.isnan(value):
            ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=7,
                    color="white" if value > 0.6 else "black")  # fmt: skip
    ax.set_xticks(range(grid.shape[1]), grid.columns)
    ax.set_yticks(range(grid.shape[0]), grid.index)
    ax.set_xlabel("outcome")
    ax.set_ylabel("candidate parent")
    fig.colorbar(image, ax=ax, fraction=0.05, label="posterior edge probability")
    ax.set_title("Fig. 6: HiDDeN edge probabilities", fontsize=10)
    fig.tight_layout()
    return fig


TRACE_PANELS = (("table1", "K"), ("table3", "k1"), ("tables78", "truth"), ("alarm", "node"),
                ("alarm_structure", "node"), ("lucas", "node"), ("metabric", "node"))  # fmt: skip
STRIPS = ("lucas", "metabric")  # one chain per node, levels hundreds apart: a strip per node


def _first_chains(sub: pd.DataFrame, column: str) -> list[tuple[str, pd.DataFrame]]:
    """(label, trace) of the first replicate of each ``column`` value (every row when the
    experiment has no replicates)."""
    chains = []
    for label, rows in sub.groupby(column, sort=False):
        rep = rows.rep.min()
        first = (rows if pd.isna(rep) else rows[rows.rep == rep]).sort_values("iteration")
        chains.append((f"{label:g}" if isinstance(label, float) else str(label), first))
    return chains


def _trace_panel(ax: Axes, chains: list[tuple[str, pd.DataFrame]], title: str) -> None:
    for label, first in chains:
        ax.plot(first.iteration, first.log_posterior, lw=0.5, label=label)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("iteration")
    ax.set_ylabel("log-posterior")
    legend = ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    for line in legend.get_lines():
        line.set_linewidth(2)


def _trace_strips(
    fig: Figure, spec: SubplotSpec, chains: list[tuple[str, pd.DataFrame]], title: str
) -> None:
    """One strip per chain with its own y-range, fitted to the chain after its first 5% of
    iterations (the start, when far below, runs off the strip)."""
    inner = spec.subgridspec(len(chains), 1, hspace=0.08)
    for i, (label, first) in enumerate(chains):
        ax = fig.add_subplot(inner[i])
        ax.plot(first.iteration, first.log_posterior, lw=0.5, color=f"C{i}")
        steady = first.log_posterior[first.iteration >= 0.05 * first.iteration.max()]
        pad = 0.1 * (steady.max() - steady.min()) + 1e-9
        ax.set_ylim(steady.min() - pad, steady.max() + pad)
        ax.yaxis.set_major_locator(MaxNLocator(nbins=3, prune="both"))
        ax.tick_params(labelsize=7)
        ax.text(0.005, 0.06, label, transform=ax.transAxes, fontsize=8, va="bottom",
                bbox={"fc": "white", "ec": "none", "alpha": 0.8, "pad": 1})  # fmt: skip
        if i == 0:
            ax.set_title(title, fontsize=10)
        if i == len(chains) // 2:
            ax.set_ylabel("log-posterior")
        if i < len(chains) - 1:
            ax.tick_params(labelbottom=False)
        else:
            ax.set_xlabel("iteration")


def trace_figure(traces: pd.DataFrame) -> Figure:
    """Log-posterior traces (first replicate of each setting's first block; LUCAS and METABRIC
    one strip per target or outcome: LUCAS's chain, METABRIC's first chain)."""
    panels = [(e, c) for e, c in TRACE_PANELS if (traces.experiment == e).any()]
    n_rows = (len(panels) + 1) // 2
    fig = plt.figure(figsize=(14, 4.2 * n_rows))
    grid = fig.add_gridspec(n_rows, 2, left=0.05, right=0.92, bottom=0.5 / (4.2 * n_rows),
                            top=1 - 0.3 / (4.2 * n_rows), wspace=0.4, hspace=0.3)  # fmt: skip
    for k, (experiment, column) in enumerate(panels):
        sub = traces[traces.experiment == experiment]
        if experiment == "tables78":
            sub = sub.assign(truth=sub.truth + ", n=" + sub.n.astype(int).astype(str))
        chains = _first_chains(sub, column)
        if experiment in STRIPS:
            title = f"{experiment}: log-posterior by {column} (each strip its own y-range)"
            _trace_strips(fig, grid[k // 2, k % 2], chains, title)
        else:
            title = f"{experiment}: log-posterior by {column} (first replicate)"
            _trace_panel(fig.add_subplot(grid[k // 2, k % 2]), chains, title)
    return fig
