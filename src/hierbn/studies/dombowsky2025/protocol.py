"""Simulation protocols of dombowsky2025 (decisions §4.1, §4.3 and §4.4) and the shared HiDDeN
pieces. Each job runs one block of replicates (``reps``) of one setting, with the step sizes of that
setting in its config, and returns a tidy table (one row per replicate x method
x metric, with the seed key and the config values it read) and a thinned log-posterior trace of
the block's first replicate for the report's trace plots."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from hierbn.bn.sparse_tables import parent_child_table
from hierbn.diagnostics import ess_ar_spectral, ess_bulk
from hierbn.draws import one_chain
from hierbn.estimators.bdeu import bdeu_theta
from hierbn.estimators.hidden import fit_fixed_parents, sample_models
from hierbn.scoring.decomposable import node_scores
from hierbn.seeds import rng_for, seed_sequence
from hierbn.studies.common import tidy
from hierbn.studies.dombowsky2025.simulate import table1_data, table3_data, tables78_data

STUDY = "dombowsky2025"
TRACE_POINTS = 2000
SCORES = ("BIC", "AIC", "BDE")


def hidden_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The prior and step-size mode every HiDDeN fit reads (decisions A1, A2)."""
    return {"b": config["prior"]["b"], "rho_rule": config["prior"]["rho_rule"],
            "step_size": "auto" if config["step_size"] == "auto" else "fixed"}  # fmt: skip


def chain_diagnostics(acceptance: np.ndarray, log_posterior: np.ndarray, burn: int) -> dict:
    """Acceptance per coordinate, and the coda (AR-spectral) and ArviZ bulk ESS of the
    post-burn-in log-posterior (decisions §2.6)."""
    kept = one_chain({}, {"lp": log_posterior[burn:]})
    metrics = {f"acceptance_t{x + 1}": float(a) for x, a in enumerate(acceptance)}
    metrics["logpost_ess"] = float(ess_ar_spectral(kept, ["lp"])["lp"])
    metrics["logpost_ess_bulk"] = float(ess_bulk(kept, ["lp"])["lp"])
    return metrics


def trace_table(log_posterior: np.ndarray, t: np.ndarray, **labels: Any) -> pd.DataFrame:
    """The log-posterior and t of one chain, thinned to at most TRACE_POINTS iterations."""
    step = max(1, log_posterior.shape[0] // TRACE_POINTS)
    rows = np.arange(0, log_posterior.shape[0], step)
    frame = pd.DataFrame({"iteration": rows, "log_posterior": log_posterior[rows]})
    for x in range(t.shape[-1]):
        frame[f"t{x + 1}"] = t[rows, x]
    for name, value in labels.items():
        frame[name] = value
    return frame


def _records(base: dict[str, Any], method: str, metrics: dict[str, float]) -> list[dict]:
    return [{**base, "method": method, "metric": m, "value": float(v)} for m, v in metrics.items()]


# ------------------------------------------------------------------------- Table 1 (decisions §4.1)
def _level_estimates(parent: np.ndarray, child: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Observed parent levels (sorted) and the sparse table [level, child value]."""
    table = parent_child_table(child, parent[:, None], 2)
    return table.configs[:, 0], table.counts


def logit_glm_fitted(counts: np.ndarray) -> np.ndarray:
    """Fitted Pr(x_j = 1 | level) of R glm(cbind(successes, failures) ~ factor(parent),
    binomial) on the aggregated rows (statsmodels GLM; saturated, so the cell proportions up
    to the IRLS tolerance). 0/1 cells diverge in IRLS exactly as in R, fitted ~0 or ~1."""
    import statsmodels.api as sm

    levels = counts.shape[0]
    design = np.column_stack([np.ones(levels), np.eye(levels)[:, 1:]])
    response = np.column_stack([counts[:, 1], counts[:, 0]])
    with warnings.catch_warnings():  # no residual df (saturated) and separated 0/1 cells
        warnings.simplefilter("ignore")
        fit = sm.GLM(response, design, family=sm.families.Binomial()).fit()
    return np.asarray(fit.fittedvalues)


def table1_estimates(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Pr(x_j = 1 | level) over the observed levels by the closed-form methods of Table 1.
    Logit GAM is mgcv's parametric factor model, identical to the GLM by design (decisions §4.1)."""
    glm = logit_glm_fitted(counts)
    return {
        "Logit MLE": glm,
        "Logit GAM": glm,
        "MLE": counts[:, 1] / counts.sum(axis=1),
        "DM": bdeu_theta(counts, 1.0)[:, 1],  # iss = 1 over the observed levels (decision A8)
    }


def rmse(estimate: np.ndarray, truth: np.ndarray) -> float:
    return float(np.sqrt(np.mean((estimate - truth) ** 2)))


INIT_LABELS = {"exp1": "t(0) ~ Exp(1)", "ones": "t(0) = 1"}


def hidden_label(init: str, first: bool) -> str:
    """Method name of a HiDDeN fit: the first of the configured inits is "HiDDeN" (the claims'
    column), the others say their initial state."""
    return "HiDDeN" if first else f"HiDDeN, {INIT_LABELS[init]}"


def run_table1_block(
    n_levels: int, reps: range, config: dict[str, Any], seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """HiDDeN (Algorithm 1, parents known) and the closed-form competitors on one block of
    Table 1 data sets, HiDDeN once per configured initial state (same streams otherwise).
    RMSE over the observed parent levels (all K but with probability ~3e-5 at K = 10, n = 100;
    the MLE is undefined for an empty level)."""
    section = config["table1"]
    data = [table1_data(rng_for(STUDY, "table1", n_levels, r, base_seed=seed), n_levels,
                        section["n"]) for r in reps]  # fmt: skip
    levels, tables = zip(*(_level_estimates(d.parent, d.child) for d in data), strict=True)
    seeds = [seed_sequence(STUDY, "table1", n_levels, r, "hidden", base_seed=seed) for r in reps]
    fits = {init: fit_fixed_parents(list(tables), section["eps"], seeds,
                                    n_iter=section["iterations"], burn=section["burn"],
                                    init=init, order="code", **hidden_settings(config))
            for init in section["inits"]}  # fmt: skip
    records = []
    for i, r in enumerate(reps):
        base = {"study": STUDY, "experiment": "table1", "dataset": f"K={n_levels}", "K": n_levels,
                "n": section["n"], "rep": r, "seed": seed}  # fmt: skip
        truth = data[i].q[levels[i]]
        for j, (init, fit) in enumerate(fits.items()):
            method = hidden_label(init, j == 0)
            estimate = fit.predictive[i, : len(levels[i]), 1]
            diagnostics = chain_diagnostics(fit.acceptance[i], fit.log_posterior[i],
                                            section["burn"])  # fmt: skip
            diagnostics |= {"rmse": rmse(estimate, truth), "levels_observed": len(levels[i]),
                            **{f"step_t{x + 1}": s for x, s in enumerate(fit.step_sizes[i])}}  # fmt: skip
            records += _records(base, method, diagnostics)
        for method, estimate in table1_estimates(tables[i]).items():
            records += _records(base, method, {"rmse": rmse(estimate, truth)})
    first = fits[section["inits"][0]]
    trace = trace_table(first.log_posterior[0], first.t[0], experiment="table1", K=n_levels,
                        rep=reps[0])  # fmt: skip
    return tidy(records, config), trace


def logit_bayes_data(counts: np.ndarray) -> dict[str, Any]:
    """Stan data of rstanarm's stan_glm on the aggregated rows: treatment dummies (reference =
    first observed level), prior scales 2.5 / sd(dummy) over the rows (autoscale, decision A7)."""
    levels = counts.shape[0]
    dummies = np.eye(levels)[:, 1:]
    return {"N": levels, "P": levels - 1, "X": dummies.tolist(),
            "successes": counts[:, 1].tolist(), "trials": counts.sum(axis=1).tolist(),
            "prior_scale": (2.5 / dummies.std(axis=0, ddof=1)).tolist()}  # fmt: skip


def run_table1_bayes_block(
    n_levels: int, reps: range, config: dict[str, Any], seed: int, compiled: dict[str, Any]
) -> pd.DataFrame:
    """Logit Bayes of Table 1 (rstanarm defaults through the project's Stan backend; fitted =
    invlogit(X · posterior-median coefficients)). Reported, not a claim (decision A7)."""
    from hierbn.stan.runner import NutsSettings, sample_nuts

    section = config["table1"]
    settings = NutsSettings(**section["logit_bayes"])
    records = []
    for r in reps:
        data = table1_data(rng_for(STUDY, "table1", n_levels, r, base_seed=seed), n_levels,
                           section["n"])  # fmt: skip
        levels, counts = _level_estimates(data.parent, data.child)
        stan_data = logit_bayes_data(counts)
        draws = sample_nuts("logit_glm", stan_data, ["alpha", "beta"],
                            seed_sequence(STUDY, "table1", n_levels, r, "stan", base_seed=seed),
                            compiled["backend"], settings, compiled)  # fmt: skip
        alpha = float(np.median(draws.draws.posterior["alpha"]))
        beta = np.median(draws.draws.posterior["beta"].reshape(-1, counts.shape[0] - 1), axis=0)
        fitted = 1.0 / (1.0 + np.exp(-(alpha + np.asarray(stan_data["X"]) @ beta)))
        base = {"study": STUDY, "experiment": "table1", "dataset": f"K={n_levels}", "K": n_levels,
                "n": section["n"], "rep": r, "seed": seed}  # fmt: skip
        records += _records(base, "Logit Bayes", {"rmse": rmse(fitted, data.q[levels]),
                            "divergences": draws.divergences, "seconds": draws.seconds})  # fmt: skip
    return tidy(records, {"table1": section, "backend": compiled["backend"]})


# ------------------------------------------------------ Tables 3, 7 and 8 (decisions §4.3 and §4.4)
def score_differences(child: np.ndarray, first: np.ndarray, second: np.ndarray) -> dict:
    """S(first parents) - S(second parents) of one node for BIC, AIC and BDeu (iss = 1),
    bnlearn conventions (decision A16); the other nodes of the two DAGs are identical and cancel."""
    a, b = node_scores(child, first), node_scores(child, second)
    return {"BIC": a.bic - b.bic, "AIC": a.aic - b.aic, "BDE": a.bde - b.bde}


def _candidate_fit(rows, parent_sets, reps, key, section, config, seed, init):
    tables = [[[parent_child_table(x[:, 2], x[:, list(ps)], 2).counts for ps in parent_sets]]
              for x in rows]  # fmt: skip
    seeds = [seed_sequence(STUDY, *key, r, "hidden", base_seed=seed) for r in reps]
    eps = np.asarray(section["eps"], dtype=np.float64)[None, :]
    return sample_models(tables, [2], eps, seeds, n_iter=section["iterations"],
                         burn=section["burn"], init=init, **hidden_settings(config))  # fmt: skip


def run_table3_block(
    k1: int, reps: range, config: dict[str, Any], seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """decisions §4.3: Algorithm 3 on node 3 with candidates {x1} (G1) and {x1, x2} (G2), prior 1/2,
    t^(0) = 1, the initial model from the prior; BIC/AIC/BDeu select G2 iff S(G2) > S(G1)."""
    section = config["table3"]
    rows = [table3_data(rng_for(STUDY, "table3", k1, r, base_seed=seed), k1, section["n"])
            for r in reps]  # fmt: skip
    fit = _candidate_fit(rows, [(0,), (0, 1)], reps, ("table3", k1), section, config, seed, "ones")
    records = []
    for i, r in enumerate(reps):
        base = {"study": STUDY, "experiment": "table3", "dataset": f"k1={k1}", "k1": k1,
                "n": section["n"], "rep": r, "seed": seed}  # fmt: skip
        prob = fit.frequency[i, 1]
        records += _records(base, "HiDDeN", {
            "prob_G2": prob, "prob_G2_rb": fit.rao_blackwell[i, 1], "selects_G2": prob > 0.5,
            **chain_diagnostics(fit.acceptance[i, 0], fit.log_posterior[i], section["burn"]),
            "levels_x1": len(np.unique(rows[i][:, 0]))})  # fmt: skip
        deltas = score_differences(rows[i][:, 2], rows[i][:, [0, 1]], rows[i][:, [0]])
        for score, delta in deltas.items():
            records += _records(base, score, {"delta": delta, "selects_G2": delta > 0})
    trace = trace_table(fit.log_posterior[0], fit.t[0, :, 0], experiment="table3", k1=k1,
                        rep=reps[0])  # fmt: skip
    return tidy(records, {"table3": section, **hidden_settings(config)}), trace


def run_tables78_block(
    truth: str, n: int, reps: range, config: dict[str, Any], seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """App. E: Algorithm 3 on x3 with candidates {x2} (G1, sparse) and {x1, x2} (G2, dense),
    prior 1/2, the truth's step sizes (decision A10), t^(0) per the config ([code]: Exp(1))."""
    section = config["tables78"]
    rows = [tables78_data(rng_for(STUDY, "tables78", truth, n, r, base_seed=seed), truth, n)
            for r in reps]  # fmt: skip
    fit = _candidate_fit(rows, [(1,), (0, 1)], reps, ("tables78", truth, n), section, config,
                         seed, section["init"])  # fmt: skip
    true_index = 0 if truth == "G1" else 1
    records = []
    for i, r in enumerate(reps):
        base = {"study": STUDY, "experiment": "tables78", "dataset": f"{truth}, n={n}",
                "truth": truth, "n": n, "rep": r, "seed": seed}  # fmt: skip
        prob = fit.frequency[i, true_index]
        records += _records(base, "HiDDeN", {
            "prob_true": prob, "prob_true_rb": fit.rao_blackwell[i, true_index],
            "selects_truth": prob > 0.5, "selects_G2": fit.frequency[i, 1] > 0.5,
            **chain_diagnostics(fit.acceptance[i, 0], fit.log_posterior[i], section["burn"])})  # fmt: skip
        g2_minus_g1 = score_differences(rows[i][:, 2], rows[i][:, [0, 1]], rows[i][:, [1]])
        for score, delta in g2_minus_g1.items():
            true_minus_false = delta if truth == "G2" else -delta
            records += _records(base, score, {"delta": true_minus_false,
                                              "selects_truth": true_minus_false > 0,
                                              "selects_G2": delta > 0})  # fmt: skip
    trace = trace_table(fit.log_posterior[0], fit.t[0, :, 0], experiment="tables78",
                        truth=truth, n=n, rep=reps[0])  # fmt: skip
    return tidy(records, {"tables78": section, **hidden_settings(config)}), trace
