"""Experiment protocols of becker2018 (paper Section 3, decisions §4): Table 2 (OLS without
intercept), the full-data VB fits of both variants, Gibbs chains, Stan NUTS, the timing of
decision 17, the hyper-parameter sensitivity of decision 18, the synthetic substitute and the R
repository's toy test. Each step returns a tidy table (one row per parameter or cell x method x
metric)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pandas as pd

from hierbn.estimators.hier_regression import GroupedData, HierRegressionVB, Hyper, fit_vb
from hierbn.estimators.hier_regression_gibbs import sample_gibbs
from hierbn.seeds import int_seed, kernel_seed, rng_for, seed_sequence
from hierbn.studies.becker2018.data import Design
from hierbn.studies.becker2018.paper import PREDICTORS, TABLE2
from hierbn.studies.becker2018.synthetic import synthetic_data, toy_data
from hierbn.studies.common import tidy

STUDY = "becker2018"
TERMS = (*PREDICTORS, "intercept")
# decision 9: the smallest Gibbs chain the study takes as a posterior (burn-in, kept draws)
POSTERIOR_CHAIN = (1000, 5000)
TABLE2_METRICS = ("estimate", "std_error", "t_value", "p_value")


def hyper_of(config: dict[str, Any]) -> Hyper:
    return Hyper(**config["hyper"])


def full_data(frame: pd.DataFrame) -> GroupedData:
    """The VB/Gibbs statistics of the whole data: raw predictors + ones, groups = class."""
    design = Design.of(frame)
    return GroupedData.from_arrays(design.with_intercept(), design.response, design.groups, 13)


def _row(method: str, parameter: str, term: str, cls: int, metric: str, value: float, **extra):
    return {"study": STUDY, "experiment": "fit", "dataset": "turkiye", "method": method,
            "parameter": parameter, "term": term, "class": cls, "metric": metric,
            "value": float(value), **extra}  # fmt: skip


def run_table2(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 2: OLS of difficulty on the 30 predictors without an intercept, next to the paper
    (``paper_below``: the paper prints the p value as a bound, "< 0.001"). statsmodels and
    scikit-learn are imported here, not by every job of the study (about 1.1 s, issue 43)."""
    from hierbn.estimators.regression_baselines import ols_table

    design = Design.of(frame)
    table = ols_table(design.predictors, design.response, list(PREDICTORS))
    records = []
    for row in table.itertuples():
        paper = dict(zip(TABLE2_METRICS, TABLE2[row.term], strict=True))
        for metric, printed in paper.items():
            bound = isinstance(printed, str)  # a p printed as "< 0.001"
            records.append({"study": STUDY, "experiment": "table2", "dataset": "turkiye",
                            "method": "ols", "term": row.term, "metric": metric,
                            "value": float(getattr(row, metric)),
                            "paper": float(printed.lstrip("< ")) if bound else printed,
                            "paper_below": bound})  # fmt: skip
    return tidy(records, {"design": "30 predictors, no intercept"})


def vb_records(fit: HierRegressionVB, method: str, seconds: float) -> list[dict[str, Any]]:
    """Means and SDs of every factor of a VB fit, and its convergence."""
    rows = []
    sd = fit.delta_sd
    for d, term in enumerate(TERMS):
        rows += [_row(method, "delta", term, 0, "mean", fit.m_delta[d]),
                 _row(method, "delta", term, 0, "sd", sd[d]),
                 _row(method, "w", term, 0, "mean", fit.ard_precision[d])]  # fmt: skip
        for c in range(fit.m.shape[0]):
            rows += [_row(method, "beta", term, c + 1, "mean", fit.m[c, d]),
                     _row(method, "beta", term, c + 1, "sd", np.sqrt(fit.S[c, d, d]))]  # fmt: skip
    rows += [_row(method, "sigma", "", 0, "mean", fit.noise_precision),
             _row(method, "s", "", 0, "mean", fit.pooling_precision)]  # fmt: skip
    diagnostics = {
        "n_iter": fit.n_iter,
        "converged": float(fit.converged),
        "seconds": seconds,
        "elbo": fit.elbo_trace[-1],
        "a_n": fit.a_n,
        "elbo_min_step": float(np.min(np.diff(fit.elbo_trace))) if fit.n_iter > 1 else 0.0,
    }
    rows += [_row(method, "fit", "", 0, k, v) for k, v in diagnostics.items()]  # fmt: skip
    return rows


def run_vb(frame: pd.DataFrame, variant: str, config: dict[str, Any]) -> pd.DataFrame:
    """The full-data VB fit of one variant (decisions 1 and 2): factor means, SDs and
    convergence."""
    data = full_data(frame)
    fit_vb(data, variant=variant, max_iter=2)  # load the compiled kernels before timing
    start = time.perf_counter()
    fit = fit_vb(data, hyper_of(config), variant, config["vb"]["tol"], config["vb"]["max_iter"])
    seconds = time.perf_counter() - start
    return tidy(
        vb_records(fit, f"vb-{variant}", seconds), {"vb": config["vb"], "hyper": config["hyper"]}
    )


def run_gibbs_chain(
    frame: pd.DataFrame, chain: int, config: dict[str, Any], base_seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One Gibbs chain on the full data (decision 9): (kept draws of Delta, sigma, s, w and the
    recorded classes' beta, one row per draw; tidy mean and SD of every class's beta)."""
    gibbs = config["gibbs"]
    stream = seed_sequence(STUDY, "gibbs", chain, base_seed=base_seed)
    seed = kernel_seed(stream)
    record = tuple(c - 1 for c in gibbs["record_classes"])
    start = time.perf_counter()
    draws = sample_gibbs(full_data(frame), gibbs["burn"], gibbs["draws"], stream, gibbs["thin"],
                         hyper_of(config), record)  # fmt: skip
    seconds = time.perf_counter() - start
    columns = {f"delta[{t}]": draws.delta[:, d] for d, t in enumerate(TERMS)}
    columns |= {"sigma": draws.sigma, "s": draws.s}
    columns |= {f"w[{t}]": draws.w[:, d] for d, t in enumerate(TERMS)}
    for r, group in enumerate(record):
        columns |= {f"beta[{group + 1},{t}]": draws.beta[:, r, d] for d, t in enumerate(TERMS)}
    wide = pd.DataFrame(columns).assign(chain=chain, draw=np.arange(gibbs["draws"]), seed=seed)
    sd = np.sqrt(np.maximum(draws.beta_sq - draws.beta_mean**2, 0.0))
    rows = [_row("gibbs", "beta", t, c + 1, metric, values[c, d], chain=chain, seed=seed)
            for c in range(sd.shape[0]) for d, t in enumerate(TERMS)
            for metric, values in (("mean", draws.beta_mean), ("sd", sd))]  # fmt: skip
    rows.append(_row("gibbs", "fit", "", 0, "seconds", seconds, chain=chain, seed=seed))
    return wide, tidy(rows, {"gibbs": gibbs, "hyper": config["hyper"]})


def run_nuts(
    frame: pd.DataFrame, config: dict[str, Any], compiled: dict[str, Any], base_seed: int
) -> pd.DataFrame:
    """The same model in Stan (non-centred, ``hier_regression.stan``), NUTS: a third reference
    not in the paper (decision 9). One row per draw: Delta, sigma, s, chain, divergences."""
    from hierbn.stan.runner import NutsSettings, sample_nuts

    data = full_data(frame)
    stan_data = {"C": data.n_groups, "D": data.dim, "xtx": data.xtx.tolist(),
                 "xty": data.xty.tolist(), "yty": data.yty.tolist(),
                 "rows": data.rows.astype(float).tolist(), **config["hyper"]}  # fmt: skip
    settings = NutsSettings(**config["nuts"]["settings"])
    stream = seed_sequence(STUDY, "nuts", base_seed=base_seed)
    seed = kernel_seed(stream)
    fit = sample_nuts("hier_regression", stan_data, ["delta", "sigma", "s"], stream,
                      compiled["backend"], settings, compiled)  # fmt: skip
    posterior = fit.draws.posterior
    chains, draws = posterior["sigma"].shape[:2]
    columns = {f"delta[{t}]": posterior["delta"][..., d].ravel() for d, t in enumerate(TERMS)}
    columns |= {"sigma": posterior["sigma"].ravel(), "s": posterior["s"].ravel()}
    return pd.DataFrame(columns).assign(
        chain=np.repeat(np.arange(chains), draws), draw=np.tile(np.arange(draws), chains),
        seed=seed, seconds=fit.seconds, divergences=fit.divergences, backend=fit.backend,
    )  # fmt: skip


def _median_seconds(call: Any, runs: int) -> tuple[float, Any]:
    """Median wall-clock seconds of ``runs`` calls, and the last call's result."""
    seconds, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = call()
        seconds.append(time.perf_counter() - start)
    return float(np.median(seconds)), result


def run_timing(frame: pd.DataFrame, config: dict[str, Any], base_seed: int) -> pd.DataFrame:
    """Decision 17: one thread, median of ``runs`` wall-clock times of VB to convergence (both
    variants) and of one Gibbs chain at each configured number of sweeps."""
    data = full_data(frame)
    timing, vb, hyper = config["timing"], config["vb"], hyper_of(config)
    stream = seed_sequence(STUDY, "timing", base_seed=base_seed)
    seed = kernel_seed(stream)
    fit_vb(data, max_iter=2)
    sample_gibbs(data, 1, 1, stream)  # compiled kernels loaded before timing
    rows = []
    for variant in vb["variants"]:
        seconds, fit = _median_seconds(
            lambda v=variant: fit_vb(data, hyper, v, vb["tol"], vb["max_iter"]), timing["runs"]
        )
        rows.append((f"vb-{variant}", 0, fit.n_iter, seconds))
    for sweeps in timing["gibbs_sweeps"]:
        seconds, _ = _median_seconds(
            lambda n=sweeps: sample_gibbs(data, 0, n, stream, hyper=hyper), timing["runs"]
        )
        rows.append(("gibbs", sweeps, sweeps, seconds))
    records = [{"study": STUDY, "experiment": "timing", "dataset": "turkiye", "method": method,
                "metric": "seconds", "value": seconds, "iterations": int(iterations),
                "runs": timing["runs"], "sweeps": sweeps, "seed": seed}
               for method, sweeps, iterations, seconds in rows]  # fmt: skip
    return tidy(records, {"timing": timing, "vb": vb})


def run_sensitivity(frame: pd.DataFrame, config: dict[str, Any]) -> pd.DataFrame:
    """Decision 18: the faithful VB fit with all six hyper-parameters at each value; its ARD
    precisions and class intercepts give the rankings compared with the default's."""
    data = full_data(frame)
    records = []
    for value in config["sensitivity"]["values"]:
        hyper = Hyper(*([value] * 6))
        fit = fit_vb(data, hyper, "faithful", config["vb"]["tol"], config["vb"]["max_iter"])
        kept = [r for r in vb_records(fit, "vb-faithful", 0.0) if r["parameter"] in ("w", "fit", "delta")
                or (r["parameter"] == "beta" and r["term"] == "intercept")]  # fmt: skip
        records += [{**r, "experiment": "sensitivity", "hyper_value": value} for r in kept]
    return tidy(records, {"sensitivity": config["sensitivity"], "vb": config["vb"]})


def _recovery(
    method: str, mean: np.ndarray, sd: np.ndarray, truth: np.ndarray, base: dict
) -> list[dict]:
    covered = np.abs(mean - truth) <= 1.96 * sd
    metrics = {"delta_rmse": np.sqrt(np.mean((mean - truth) ** 2)), "coverage95": covered.mean()}
    return [{**base, "method": method, "metric": k, "value": float(v)} for k, v in metrics.items()]


def _ranking_auc(score: np.ndarray, relevant: np.ndarray) -> float:
    """P(score of a relevant feature > score of an irrelevant one) (ties count half)."""
    pos, neg = score[relevant], score[~relevant]
    if not pos.size or not neg.size:
        return float("nan")
    return float(np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])))


def run_synthetic(scenario: str, rep: int, config: dict[str, Any], base_seed: int) -> pd.DataFrame:
    """One synthetic data set (decisions §4): recovery of Delta (RMSE, 95% coverage) by both VB
    variants and Gibbs, VB-vs-Gibbs agreement, the ARD ranking AUC of the true support."""
    key = (STUDY, "synthetic", scenario, rep)
    data, delta, _ = synthetic_data(rng_for(*key, base_seed=base_seed), scenario)
    base = {"study": STUDY, "experiment": "synthetic", "dataset": scenario, "rep": rep,
            "n": int(data.rows.sum()), "seed": int_seed(*key, base_seed=base_seed)}  # fmt: skip
    relevant = delta[:-1] != 0
    records = []
    fits = {v: fit_vb(data, hyper_of(config), v, config["vb"]["tol"], config["vb"]["max_iter"])
            for v in config["vb"]["variants"]}  # fmt: skip
    for variant, fit in fits.items():
        method = f"vb-{variant}"
        records += _recovery(method, fit.m_delta, fit.delta_sd, delta, base)
        steps = np.diff(fit.elbo_trace)
        records += [{**base, "method": method, "metric": k, "value": float(v)} for k, v in {
            "n_iter": fit.n_iter, "elbo_min_step": steps.min() if steps.size else 0.0,
            "ranking_auc": _ranking_auc(-fit.ard_precision[:-1], relevant)}.items()]  # fmt: skip
    settings = config["synthetic"]["gibbs"]
    chains = [sample_gibbs(data, settings["burn"], settings["draws"],
                           seed_sequence(*key, "gibbs", c, base_seed=base_seed),
                           hyper=hyper_of(config))
              for c in range(settings["chains"])]  # fmt: skip
    draws = np.concatenate([c.delta for c in chains])
    records += _recovery("gibbs", draws.mean(axis=0), draws.std(axis=0), delta, base)
    for variant, fit in fits.items():
        gap = np.max(np.abs(fit.m_delta - draws.mean(axis=0)))
        records.append(
            {**base, "method": f"vb-{variant}", "metric": "max_gap_to_gibbs", "value": float(gap)}
        )
    return tidy(records, {"synthetic": config["synthetic"], "vb": config["vb"]})


def run_toy(config: dict[str, Any], base_seed: int) -> pd.DataFrame:
    """The R repository's toy test (decisions §4): Delta by both VB variants and Gibbs."""
    key = (STUDY, "toy")
    data = toy_data(rng_for(*key, base_seed=base_seed))
    base = {"study": STUDY, "experiment": "toy", "dataset": "toy", "n": 600,
            "seed": int_seed(*key, base_seed=base_seed)}  # fmt: skip
    records = []
    for variant in ("faithful", "corrected"):
        fit = fit_vb(data, hyper_of(config), variant, config["vb"]["tol"], config["vb"]["max_iter"])
        values = {"delta_slope": fit.m_delta[0], "delta_intercept": fit.m_delta[1],
                  "noise_sd": 1 / np.sqrt(fit.noise_precision), "n_iter": fit.n_iter}  # fmt: skip
        records += [
            {**base, "method": f"vb-{variant}", "metric": k, "value": float(v)}
            for k, v in values.items()
        ]
    chain = sample_gibbs(
        data,
        *POSTERIOR_CHAIN,
        seed_sequence(*key, "gibbs", base_seed=base_seed),
        hyper=hyper_of(config),
    )
    mean = chain.delta.mean(axis=0)
    records += [{**base, "method": "gibbs", "metric": k, "value": float(v)}
                for k, v in {"delta_slope": mean[0], "delta_intercept": mean[1],
                             "noise_sd": np.mean(1 / np.sqrt(chain.sigma))}.items()]  # fmt: skip
    return tidy(records, {"vb": config["vb"], "hyper": config["hyper"]})
