"""Structure experiments of dombowsky2025 on real data: the LUCAS Markov blankets (decisions §4.2;
Tables 2 and 6, Figures 3-4) and the METABRIC outcome parents under the ordering TBS -> CHT -> DFC
(decisions §4.5; Figures 5-7), HiDDeN against the grouped lasso (corrected and, per decision A9,
with [code]'s bugs), Grow-Shrink and IAMB (LUCAS) and hill climbing and tabu search (METABRIC). One
target or outcome per call, so each is its own job."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from hierbn.diagnostics import rhat
from hierbn.draws import Draws
from hierbn.seeds import seed_sequence
from hierbn.structure_learning.group_lasso import emulate_rowname_parents, select_neighbours
from hierbn.structure_learning.hidden_parents import (
    hamming,
    markov_blanket,
    posterior_of,
    sample_parents,
)
from hierbn.structure_learning.markov_blanket import grow_shrink, iamb
from hierbn.structure_learning.search import hill_climbing, tabu_search
from hierbn.studies.common import tidy
from hierbn.studies.dombowsky2025.lucas import COLUMNS, true_blankets
from hierbn.studies.dombowsky2025.protocol import (
    STUDY,
    chain_diagnostics,
    hidden_settings,
    trace_table,
)

# decisions §4.5: the outcomes in their ordering and the nine covariates of Table 4 (decision A11)
OUTCOMES = ("TBS", "CHT", "DFC")
COVARIATES = ("CTD", "AAD", "TSI", "RTH", "PTL", "INC", "IMS", "HTH", "COH")
# decision A9 (i): [code] passed Allergy (V10) as the response of Lung_cancer's lasso, its design
# being every column but Lung_cancer (V12 ~ .), Allergy included
LASSO_RESPONSE_BUG = {"Lung_cancer": "Allergy"}


def _lasso(
    codes: np.ndarray, response: np.ndarray, candidates: Sequence[int], seed, section
) -> tuple:
    """cv.glmnet's grouped lasso of ``response`` on ``codes[:, candidates]``: the selection at
    lambda.1se. The response is a separate column, so it may repeat a candidate
    (decision A9 (i))."""
    stacked = np.column_stack([codes, response])
    lasso = section["group_lasso"]
    return select_neighbours(stacked, stacked.shape[1] - 1, list(candidates), seed,
                             n_folds=lasso["folds"], n_lambda=lasso["lambdas"])  # fmt: skip


def _selection_records(
    base: dict, method: str, names: Sequence[str], chosen: set[str]
) -> list[dict]:
    return [{**base, "method": method, "variable": v, "metric": "selected", "value": float(v in chosen)}
            for v in names]  # fmt: skip


def run_lucas_target(
    table: pd.DataFrame, target: str, config: dict[str, Any], seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """decisions §4.2 for one target: HiDDeN's Algorithm 2 with Ca = the other 11 variables (t^(0) =
    1, Table 6's step sizes), its MAP and MPM blankets and edge probabilities; GS and IAMB (bnlearn
    learn.mb, G² test); the grouped lasso at lambda.1se, and with [code]'s response bug
    (decision A9) when ``emulate_code_bugs``. Hamming distances to the true blanket (Table 5)."""
    section = config["lucas"]
    codes = table[list(COLUMNS)].to_numpy()
    j = COLUMNS.index(target)
    others = [c for c in range(len(COLUMNS)) if c != j]
    names = [COLUMNS[c] for c in others]
    truth = set(true_blankets([target])[target])
    fit, post = markov_blanket(codes, j, section["eps"][target],
                               seed_sequence(STUDY, "lucas", target, "hidden", base_seed=seed),
                               n_iter=section["iterations"], burn=section["burn"], init="ones",
                               **hidden_settings(config))  # fmt: skip
    lasso_seed = seed_sequence(STUDY, "lucas", target, "group_lasso", base_seed=seed)
    selections = {
        "HiDDeN": {COLUMNS[c] for c in post.map_set},
        "HiDDeN MPM": {COLUMNS[c] for c in post.mpm_set},
        "GS": {COLUMNS[c] for c in grow_shrink(codes, j, section["alpha"])},
        "IAMB": {COLUMNS[c] for c in iamb(codes, j, section["alpha"])},
        "Group lasso": {COLUMNS[c] for c in _lasso(codes, codes[:, j], others, lasso_seed, section).selected},
    }  # fmt: skip
    if section["group_lasso"]["emulate_code_bugs"]:
        response = codes[:, COLUMNS.index(LASSO_RESPONSE_BUG.get(target, target))]
        bugged = _lasso(codes, response, others, lasso_seed, section).selected
        selections["Group lasso ([code])"] = {COLUMNS[c] for c in bugged}
    base = {"study": STUDY, "experiment": "lucas", "dataset": "LUCAS0", "n": len(codes), "seed": seed,
            "node": target}  # fmt: skip
    records = []
    for method, chosen in selections.items():
        records += _selection_records(base, method, names, chosen)
        records.append(
            {**base, "method": method, "metric": "hamming", "value": float(hamming(chosen, truth))}
        )
    records += [{**base, "method": "HiDDeN", "variable": v, "metric": "edge_probability", "value": float(p)}
                for v, p in zip(names, post.edge_probability, strict=True)]  # fmt: skip
    diagnostics = chain_diagnostics(fit.acceptance, fit.log_posterior, section["burn"])
    diagnostics |= {f"step_t{x + 1}": s for x, s in enumerate(fit.step_sizes)}
    diagnostics["map_probability"] = post.map_probability
    records += [
        {**base, "method": "HiDDeN", "metric": m, "value": float(v)} for m, v in diagnostics.items()
    ]
    trace = trace_table(fit.log_posterior, fit.t, experiment="lucas", node=target)
    return tidy(
        records, {"lucas": _lucas_section(section, target), **hidden_settings(config)}
    ), trace


def _lucas_section(section: dict[str, Any], target: str) -> dict[str, Any]:
    return {**{k: v for k, v in section.items() if k != "eps"}, "eps": section["eps"][target]}


def outcome_candidates(outcome: str) -> list[str]:
    """decisions §4.5: Ca(TBS) = the covariates, Ca(CHT) adds TBS, Ca(DFC) adds TBS and CHT."""
    return [*COVARIATES, *OUTCOMES[: OUTCOMES.index(outcome)]]


def _search_parents(codes: np.ndarray, outcome_index: int, search) -> set[int]:
    """hc()/tabu() on the outcome with its candidates, every arc out of the outcome blacklisted
    (decisions §4.5); the outcome's parents read off the learned DAG."""
    blacklist = [(outcome_index, v) for v in range(codes.shape[1]) if v != outcome_index]
    return set(search(codes, blacklist=blacklist)[outcome_index])


def run_metabric_outcome(
    table: pd.DataFrame, outcome: str, config: dict[str, Any], seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """decisions §4.5 for one outcome: HiDDeN's Algorithm 2 over Ca(outcome) (t^(0) = 1, burn-in
    500, the published step sizes) in ``chains`` independent chains (the paper ran one; single-site
    updates of z can stay in a local mode, so the chains' agreement is reported: log-posterior
    R-hat and each chain's MPM set), its MPM and MAP parent sets and edge probabilities from the
    pooled draws; HC and TABU on {candidates, outcome} with arcs out of the outcome
    blacklisted; the grouped lasso at lambda.1se and, with ``emulate_code_bugs``, [code]'s
    row-name 'parents' (decision A9 (ii))."""
    section = config["metabric"]
    candidates = outcome_candidates(outcome)
    codes = table[[*candidates, outcome]].to_numpy().astype(np.int64)
    j = len(candidates)
    cand = list(range(j))
    burn = section["burn"]
    fits = [sample_parents(codes, j, cand, section["eps"][outcome],
                           seed_sequence(STUDY, "metabric", outcome, "hidden", chain, base_seed=seed),
                           n_iter=section["iterations"], burn=burn, init="ones", **hidden_settings(config))
            for chain in range(section["chains"])]  # fmt: skip
    post = posterior_of(cand, np.concatenate([fit.z[burn:] for fit, _ in fits]))
    lasso = _lasso(codes, codes[:, j], cand, seed_sequence(STUDY, "metabric", outcome, "group_lasso",
                                                           base_seed=seed), section)  # fmt: skip
    selections = {
        "HiDDeN": {candidates[c] for c in post.mpm_set},
        "HiDDeN MAP": {candidates[c] for c in post.map_set},
        "HC": {candidates[c] for c in _search_parents(codes, j, hill_climbing)},
        "TABU": {candidates[c] for c in _search_parents(codes, j, tabu_search)},
        "Group lasso": {candidates[c] for c in lasso.selected},
    }
    if section["group_lasso"]["emulate_code_bugs"]:
        selections["Group lasso ([code])"] = {candidates[c] for c in emulate_rowname_parents(lasso)}
    base = {"study": STUDY, "experiment": "metabric", "dataset": f"METABRIC ({section['mode']})",
            "n": len(codes), "seed": seed, "node": outcome}  # fmt: skip
    records = []
    for method, chosen in selections.items():
        records += _selection_records(base, method, candidates, chosen)
    records += [{**base, "method": "HiDDeN", "variable": v, "metric": "edge_probability", "value": float(p)}
                for v, p in zip(candidates, post.edge_probability, strict=True)]  # fmt: skip
    for chain, (fit, chain_post) in enumerate(fits):
        chain_base = {**base, "rep": chain}
        records += _selection_records(chain_base, "HiDDeN (one chain)", candidates,
                                      {candidates[c] for c in chain_post.mpm_set})  # fmt: skip
        diagnostics = chain_diagnostics(fit.acceptance, fit.log_posterior, burn)
        diagnostics |= {f"step_t{x + 1}": s for x, s in enumerate(fit.step_sizes)}
        diagnostics["logpost_mean"] = float(fit.log_posterior[burn:].mean())
        records += [{**chain_base, "method": "HiDDeN", "metric": m, "value": float(v)}
                    for m, v in diagnostics.items()]  # fmt: skip
    if len(fits) > 1:
        kept = np.stack([fit.log_posterior[burn:] for fit, _ in fits])
        records.append(
            {
                **base,
                "method": "HiDDeN",
                "metric": "logpost_rhat",
                "value": float(rhat(Draws({}, {"lp": kept}), ["lp"])["lp"]),
            }
        )
    trace = pd.concat([trace_table(fit.log_posterior, fit.t, experiment="metabric", node=outcome, rep=chain)
                       for chain, (fit, _) in enumerate(fits)], ignore_index=True)  # fmt: skip
    config_used = {"metabric": {**{k: v for k, v in section.items() if k != "eps"},
                                "eps": section["eps"][outcome]}, **hidden_settings(config)}  # fmt: skip
    return tidy(records, config_used), trace
