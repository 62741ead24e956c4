"""Experiment protocols of azzimonti2019 (decisions §4): E1 simulated CPTs, Lemma 1, E2 TAN
classification, E3 Adult CPT accuracy. Every function returns a tidy table."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pandas as pd

from hierbn.bn.counting import family_counts, validate_codes
from hierbn.bn.structures import BNStructure, tan
from hierbn.cpts import fit_network, make_estimator
from hierbn.cpts.base import CPTEstimator
from hierbn.data.preprocess import (
    CodedData,
    discretise_equal_frequency,
    drop_empty_columns,
    encode,
    impute_median_mode,
)
from hierbn.diagnostics import convergence
from hierbn.estimators.bdeu import bdeu_theta, ml_theta
from hierbn.estimators.hier_exact import exact_posterior_theta
from hierbn.estimators.hier_vi import fit_hier_vi, warm_up
from hierbn.metrics import accuracy, cpt_distances, cpt_mse, log_loss, roc_auc_ovr
from hierbn.seeds import int_seed, kernel_seed, rng_for, seed_sequence
from hierbn.stan.runner import (
    BackendUnavailable,
    NutsSettings,
    sample_nuts,
    variational_meanfield,
)
from hierbn.studies.azzimonti2019 import paper as P
from hierbn.studies.common import metric_records, tidy, train_test_split

STUDY = "azzimonti2019"
PLATEAU_BY = P.H4_PLATEAU - 1  # "a plateau in few iterations (less than 5)": by iteration 4 (H4)
LEMMA1_BATCHES = 20  # batch means: the Monte Carlo standard error of a Lemma 1 correlation


# ----------------------------------------------------------------------------- E1
def simulate_cpt(
    rng: np.random.Generator, n_x: int, n_y: int, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """E1 data: alpha = |X| * Dir(1), theta_y ~ Dir(alpha), y ~ Uniform, x ~ theta_y (decision A8).

    Returns (theta_true[y, x], counts[y, x]).
    """
    alpha = n_x * rng.dirichlet(np.ones(n_x))
    theta = np.empty((n_y, n_x))
    for y in range(n_y):
        draw = rng.dirichlet(alpha)
        theta[y] = draw / draw.sum()
    per_row = np.bincount(rng.integers(0, n_y, size=n), minlength=n_y)
    counts = rng.multinomial(per_row, theta)
    return theta, counts


def stan_data(counts: np.ndarray) -> dict[str, Any]:
    n_y, n_x = counts.shape
    return {
        "X": n_x,
        "Y": n_y,
        "n": counts.astype(int).tolist(),
        "s": float(n_x),
        "alpha0": [1.0] * n_x,
    }


def _vi_metrics(counts: np.ndarray) -> tuple[np.ndarray, dict[str, float]]:
    start = time.perf_counter()
    result = fit_hier_vi(counts)
    seconds = time.perf_counter() - start
    trace = result.elbo_trace
    final = trace[-1]
    steps = np.diff(trace)
    return result.theta, {
        "seconds": seconds,
        "n_iter": result.n_iter,
        "converged": float(result.converged),
        "elbo_min_step": float(steps.min()) if steps.size else 0.0,
        "elbo_final": float(final),
        "elbo_first": float(trace[0]),
        "elbo_plateau_by": float(trace[min(PLATEAU_BY, trace.size) - 1]),
        "failed": float(not np.all(np.isfinite(result.theta))),
    }


def nuts_fit(
    counts: np.ndarray,
    key: tuple,
    settings: NutsSettings,
    backend: str,
    compiled: dict[str, Any] | None,
    base_seed: int,
) -> tuple[int, np.ndarray | None, dict[str, float]]:
    """Stan NUTS on one count table: (seed, posterior mean, metrics with ArviZ diagnostics).

    A run stopped by the wall-time cap (``settings.max_seconds``, E4) has no estimate and no
    diagnostics: its time is a lower bound of the full run's."""
    stream = seed_sequence(*key, "nuts", base_seed=base_seed)
    seed = kernel_seed(stream)
    fit = sample_nuts("hier_md", stan_data(counts), ["theta"], stream, backend, settings, compiled)
    metrics = {
        "seconds": fit.seconds,
        "divergences": fit.divergences,
        "capped": float(fit.capped),
        "chains_done": float(fit.chains_done),
    }
    if fit.capped:
        return seed, None, metrics
    estimate = fit.draws.posterior["theta"].mean(axis=(0, 1))  # theta[chain, draw, y, x]
    diagnostics = convergence(fit.draws, ["theta"])
    metrics |= {
        "rhat_max": diagnostics.rhat_max,
        "failed": float(not np.all(np.isfinite(estimate))),
        "ess_bulk_min": diagnostics.ess_bulk_min,
        "ess_tail_min": diagnostics.ess_tail_min,
    }
    return seed, estimate, metrics


def advi_fit(
    counts: np.ndarray, key: tuple, backend: str, compiled: dict[str, Any] | None, base_seed: int
) -> tuple[int, np.ndarray | None, dict[str, float]] | None:
    """Stan's meanfield ADVI on one count table: (seed, mean or None when it failed, metrics),
    or None when no ADVI executable is available."""
    stream = seed_sequence(*key, "advi", base_seed=base_seed)
    seed = kernel_seed(stream)
    try:
        fit = variational_meanfield(
            "hier_md", stan_data(counts), ["theta"], stream, backend, compiled
        )
    except BackendUnavailable:
        return None
    except RuntimeError:
        return seed, None, {"failed": 1.0}
    estimate = fit.draws.posterior["theta"].mean(axis=(0, 1))
    failed = not np.all(np.isfinite(estimate))
    return seed, None if failed else estimate, {"seconds": fit.seconds, "failed": float(failed)}


def _stan_fits(
    counts: np.ndarray,
    methods: list[str],
    key: tuple,
    settings: NutsSettings,
    backend: str,
    compiled: dict[str, Any] | None,
    base_seed: int,
) -> dict[str, tuple[int, np.ndarray | None, dict[str, float]]]:
    """The configured Stan methods (NUTS, ADVI) on one count table, by method."""
    fits = {}
    if "nuts" in methods:
        fits["nuts"] = nuts_fit(counts, key, settings, backend, compiled, base_seed)
    if "advi" in methods and (advi := advi_fit(counts, key, backend, compiled, base_seed)):
        fits["advi"] = advi
    return fits


def run_e1_cell(
    n_x: int,
    n_y: int,
    config: dict[str, Any],
    backend: str | None,
    compiled: dict[str, Any] | None,
    base_seed: int,
) -> pd.DataFrame:
    """All (n, rep) fits of one (|X|, |Y|) cell of the E1 grid (Figs. 3–4, H2–H7)."""
    methods = config["methods"]
    settings = NutsSettings(**config.get("nuts", {}))
    warm_up()  # like Stan's compilation, kernel loading is not part of a fit's time
    records: list[dict[str, Any]] = []
    for n in config["n"]:
        for rep in range(config["reps"]):
            key = (STUDY, "e1", n_x, n_y, n, rep)
            theta_true, counts = simulate_cpt(rng_for(*key, base_seed=base_seed), n_x, n_y, n)
            base = {
                "study": STUDY,
                "experiment": "e1",
                "dataset": "simulated",
                "n": n,
                "rep": rep,
                "seed": int_seed(*key, base_seed=base_seed),
                "n_x": n_x,
                "n_y": n_y,
            }
            estimates: dict[str, np.ndarray] = {}
            if "vi" in methods:
                estimates["vi"], diag = _vi_metrics(counts)
                records += metric_records(base, "vi", diag)
            if "exact" in methods and n <= config["exact_max_n"]:
                start = time.perf_counter()
                estimates["exact"] = exact_posterior_theta(counts)
                records += metric_records(base, "exact", {"seconds": time.perf_counter() - start})
            if backend is not None:
                stan = _stan_fits(counts, methods, key, settings, backend, compiled, base_seed)
                for method, (seed, estimate, metrics) in stan.items():
                    if estimate is not None:
                        estimates[method] = estimate
                    records += metric_records({**base, "seed": seed}, method, metrics)
            for method, estimate in estimates.items():
                records += metric_records(base, method, cpt_distances(estimate, theta_true))
                if "exact" in estimates and method != "exact":
                    vs_exact = cpt_distances(estimate, estimates["exact"])
                    records += metric_records(
                        base, method, {f"{k}_vs_exact": v for k, v in vs_exact.items()}
                    )
    return tidy(records, {"e1": config, "backend": backend})


# ------------------------------------------------------------------------ Lemma 1
def prior_column_correlation(s: float, s0: float) -> float:
    """Lemma 1 (App. A.1, corrected eq. (6)): Cor(theta_{x|y}, theta_{x|y'}) = (s+1)/(s+s0+1)."""
    return (s + 1.0) / (s + s0 + 1.0)


def _batch_se(a: np.ndarray, b: np.ndarray) -> float:
    """The Monte Carlo standard error of corr(a, b) by batch means over
    :data:`LEMMA1_BATCHES` equal batches of the draws."""
    batches = zip(np.array_split(a, LEMMA1_BATCHES), np.array_split(b, LEMMA1_BATCHES), strict=True)
    corr = [np.corrcoef(x, y)[0, 1] for x, y in batches]
    return float(np.std(corr, ddof=1) / np.sqrt(LEMMA1_BATCHES))


def run_lemma1(settings: list[list[float]], draws: int, base_seed: int) -> pd.DataFrame:
    """Monte Carlo check of Lemma 1 for each (|X|, s) with alpha0 = 1 (claim H1)."""
    records = []
    for n_x, s in settings:
        n_x = int(n_x)
        rng = rng_for(STUDY, "lemma1", n_x, s, base_seed=base_seed)
        alpha = s * rng.dirichlet(np.ones(n_x), size=draws)
        theta_a = np.array([rng.dirichlet(a) for a in alpha])[:, 0]
        theta_b = np.array([rng.dirichlet(a) for a in alpha])[:, 0]
        records.append(
            {
                "study": STUDY,
                "experiment": "lemma1",
                "dataset": "prior",
                "n": draws,
                "rep": 0,
                "seed": int_seed(STUDY, "lemma1", n_x, s, base_seed=base_seed),
                "method": "monte_carlo",
                "metric": "correlation",
                "value": float(np.corrcoef(theta_a, theta_b)[0, 1]),
                "se": _batch_se(theta_a, theta_b),
                "n_x": n_x,
                "s": float(s),
                "formula_appendix": prior_column_correlation(s, n_x),
                "formula_eq6_printed": s / (s + n_x + 1.0),
            }
        )
    return tidy(records, {"lemma1": {"settings": settings, "draws": draws}})


# ----------------------------------------------------------------- E2 / E3 data
def prepare_dataset(
    canonical: pd.DataFrame, n_bins: int
) -> tuple[pd.DataFrame, dict[str, list[float]], list[str]]:
    """E2 preprocessing on the full data set: columns with no observed value dropped (nothing can
    impute them; they are listed in the data report), median/mode imputation, then
    equal-frequency bins with duplicate cut points merged (decisions §E2 and A16). The class stays
    last. Returns the prepared frame, the cut points and the dropped columns."""
    target = canonical.columns[-1]
    kept, dropped = drop_empty_columns(canonical, target)
    prepared, cuts = discretise_equal_frequency(impute_median_mode(kept), target, n_bins)
    return prepared, cuts, dropped


def coded(prepared: pd.DataFrame) -> CodedData:
    """Integer codes of a prepared data set (class = last column)."""
    data = encode(prepared, prepared.columns[-1])
    validate_codes(data.codes, np.asarray(data.cards))
    return data


def cpt_estimator(name: str, root: str = "laplace") -> CPTEstimator:
    """E2-E5's CPT estimators (``bdeu<iss>``, ``hier``): the hierarchical model over every
    parent configuration y in Y, as eq. (5) is written (decision A22), with ``root`` for
    parentless nodes (decision A6)."""
    return make_estimator(name, {"hier": {"root": root, "configurations": "all"}})


def tan_structure(data: CodedData) -> BNStructure:
    """TAN learned once on all instances (decision A9)."""
    return tan(data.codes, list(data.names), list(data.cards), data.class_index)


def run_e2_dataset(
    prepared: pd.DataFrame, dataset: str, config: dict[str, Any], base_seed: int
) -> pd.DataFrame:
    """TAN classification with BDeu(iss) and hierarchical CPTs on paired splits (Figs. 7–8)."""
    data = coded(prepared)
    structure = tan_structure(data)
    warm_up()
    n_rows = data.codes.shape[0]
    estimators = {m: cpt_estimator(m, config["root_estimator"]) for m in config["methods"]}
    y_all = data.codes[:, data.class_index]
    records: list[dict[str, Any]] = []
    for n in config["n"]:
        if n_rows <= n:
            continue  # decision A15: run a (data set, n) pair only if N > n
        for rep in range(config["reps"]):
            key = (STUDY, "e2", dataset, n, rep)
            train, test = train_test_split(
                rng_for(*key, base_seed=base_seed), n_rows, n, config["test_size"]
            )
            base = {
                "study": STUDY,
                "experiment": "e2",
                "dataset": dataset,
                "n": n,
                "rep": rep,
                "seed": int_seed(*key, base_seed=base_seed),
                "n_test": int(test.size),
                "n_rows": n_rows,
                "n_features": data.codes.shape[1] - 1,
                "n_classes": data.cards[data.class_index],
            }
            for method, estimator in estimators.items():
                start = time.perf_counter()
                fitted = fit_network(
                    structure,
                    data.codes[train],
                    estimator,
                    seed_sequence(*key, base_seed=base_seed),
                )
                fit_seconds = time.perf_counter() - start
                proba = fitted.predict_proba(data.codes[test])
                y = y_all[test]
                metrics = {
                    "accuracy": accuracy(y, proba),
                    "auc": roc_auc_ovr(y, proba),
                    "log_loss": log_loss(y, proba),
                    "fit_seconds": fit_seconds,
                }
                if method == "hier":
                    metrics["vi_not_converged"] = sum(
                        not cpt.info.converged for cpt in fitted.cpts.values()
                    )
                records += metric_records(base, method, metrics)
    return tidy(records, {"e2": config})


def truth_cpts(structure: BNStructure, codes: np.ndarray) -> list[np.ndarray]:
    """E3 ground truth: ML on the full data, BDeu(iss=1) for unobserved parent configurations
    (decision A18)."""
    cards = np.asarray(structure.cardinalities)
    truth = []
    for node in range(structure.n_nodes):
        counts = family_counts(codes, node, structure.parents[node], cards)  # [y, x]
        truth.append(ml_theta(counts, fallback=bdeu_theta(counts, 1.0)))
    return truth


def run_e3_adult(prepared: pd.DataFrame, config: dict[str, Any], base_seed: int) -> pd.DataFrame:
    """Per-CPT MSE against the full-data truth on Adult (Fig. 9, claims H12–H13)."""
    data = coded(prepared)
    structure = tan_structure(data)
    truth = truth_cpts(structure, data.codes)
    estimators = {m: cpt_estimator(m, config["root_estimator"]) for m in config["methods"]}
    n_rows = data.codes.shape[0]
    records: list[dict[str, Any]] = []
    for n in config["n"]:
        for rep in range(config["reps"]):
            key = (STUDY, "e3", "adult", n, rep)
            rng = rng_for(*key, base_seed=base_seed)
            train = np.sort(rng.choice(n_rows, n, replace=False))
            for method, estimator in estimators.items():
                seed = seed_sequence(*key, base_seed=base_seed)
                fitted = fit_network(structure, data.codes[train], estimator, seed)
                for node in range(structure.n_nodes):
                    records.append(
                        {
                            "study": STUDY,
                            "experiment": "e3",
                            "dataset": "adult",
                            "n": n,
                            "rep": rep,
                            "seed": int_seed(*key, base_seed=base_seed),
                            "method": method,
                            "metric": "mse",
                            "value": cpt_mse(fitted.table(node), truth[node]),
                            "node": int(node),
                            "node_name": structure.names[node],
                            "n_parent_configs": structure.parent_cardinality(node),
                            "n_states": structure.cardinalities[node],
                            "is_class": node == structure.class_index,
                        }
                    )
    return tidy(records, {"e3": config, "structure": structure.to_dict()})
