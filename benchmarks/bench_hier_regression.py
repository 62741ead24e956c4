"""becker2018 on the Turkiye data (5,820 rows, 31 columns, 13 groups), one core, side by side:

- full-data VB (faithful) to convergence vs a plain-numpy reference of the same updates written
  the obvious way (per group, from the rows) — target >= 10x — and vs one 6,000-sweep chain of
  our Gibbs sampler — target >= 5x (claim C7);
- Gibbs sweeps per second vs a plain-numpy reference sweep — target >= 10x — and effective
  samples per second on Delta vs Stan NUTS on the same model (a ratio).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from scipy.special import digamma, gammaln

from hierbn.data.convert import build_dataset
from hierbn.data.registry import load_registry
from hierbn.diagnostics import ess_bulk
from hierbn.draws import concat_chains
from hierbn.estimators.hier_regression import GroupedData, fit_vb
from hierbn.estimators.hier_regression_gibbs import sample_gibbs
from hierbn.io import write_json
from hierbn.stan.runner import NutsSettings, compile_model, resolve_backend, sample_nuts
from hierbn.studies.becker2018.data import Design

HYPER = 1e-3


def turkiye(mirror: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    entry = load_registry("config/datasets.tsv")[("becker2018", "turkiye")]
    design = Design.of(build_dataset(entry, [mirror / entry.parts[0].file]))
    return design.with_intercept(), design.response, design.groups


def numpy_vb(x: np.ndarray, y: np.ndarray, g: np.ndarray, n_iter: int) -> float:
    """The faithful updates written the obvious way (per group from its rows, inverses, the
    ELBO's pieces by numpy and scipy); returns seconds for ``n_iter`` sweeps."""
    groups = [np.flatnonzero(g == c) for c in range(g.max() + 1)]
    n, dim = x.shape
    c_groups = len(groups)
    e_sigma, e_s, e_w, m_delta = 1.0, 1.0, np.ones(dim), np.zeros(dim)
    a_n, c_n, e_n = HYPER + n / 2, HYPER + c_groups * dim / 2, HYPER + 0.5
    start = time.perf_counter()
    for _ in range(n_iter):
        sse = tr_xxs = tr_s = stale = logdet = 0.0
        means = []
        for rows in groups:
            xi, yi = x[rows], y[rows]
            cov = np.linalg.inv(e_s * np.eye(dim) + e_sigma * xi.T @ xi)
            mi = cov @ (e_sigma * xi.T @ yi + e_s * m_delta)
            sse += np.sum((yi - xi @ mi) ** 2)
            tr_xxs += np.einsum("md,de,me->", xi, cov, xi)
            tr_s += np.trace(cov)
            stale += np.sum((mi - m_delta) ** 2)
            logdet += np.linalg.slogdet(cov)[1]
            means.append(mi)
        cov_d = np.linalg.inv(c_groups * e_s * np.eye(dim) + np.diag(e_w))
        m_delta = cov_d @ (e_s * np.sum(means, axis=0))
        d_n = HYPER + 0.5 * (stale + np.trace(cov_d) + tr_s)
        b_n = HYPER + 0.5 * (sse + tr_xxs)
        f_n = HYPER + 0.5 * (m_delta**2 + np.diag(cov_d))
        e_sigma, e_s, e_w = a_n / b_n, c_n / d_n, e_n / f_n
        _ = (0.5 * n * (digamma(a_n) - np.log(b_n)) + 0.5 * logdet
             + np.sum(gammaln(e_n) - np.log(f_n)))  # the ELBO's costly pieces, every sweep  # fmt: skip
    return time.perf_counter() - start


def numpy_gibbs(data: GroupedData, sweeps: int, seed: int = 0) -> float:
    """The Gibbs sweep written with numpy and default_rng; returns seconds for ``sweeps``."""
    rng = np.random.default_rng(seed)
    c_groups, dim = data.xty.shape
    n = data.rows.sum()
    sigma, s, w, delta = 1.0, 1.0, np.ones(dim), rng.normal(size=dim)
    beta = np.zeros((c_groups, dim))
    start = time.perf_counter()
    for _ in range(sweeps):
        for i in range(c_groups):
            chol = np.linalg.cholesky(s * np.eye(dim) + sigma * data.xtx[i])
            mean = np.linalg.solve(chol.T, np.linalg.solve(chol, sigma * data.xty[i] + s * delta))
            beta[i] = mean + np.linalg.solve(chol.T, rng.standard_normal(dim))
        sse = sum(data.yty[i] - 2 * beta[i] @ data.xty[i] + beta[i] @ data.xtx[i] @ beta[i]
                  for i in range(c_groups))  # fmt: skip
        sigma = rng.gamma(HYPER + n / 2, 1 / (HYPER + sse / 2))
        s = rng.gamma(HYPER + c_groups * dim / 2, 1 / (HYPER + np.sum((beta - delta) ** 2) / 2))
        lam = w + c_groups * s
        delta = s * beta.sum(axis=0) / lam + rng.standard_normal(dim) / np.sqrt(lam)
        w = rng.gamma(HYPER + 0.5, 1 / (HYPER + delta**2 / 2))
    return time.perf_counter() - start


def median_seconds(call, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mirror", type=Path, default=Path("../shared/data"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reference-sweeps", type=int, default=300)
    parser.add_argument("--nuts", type=int, default=500, help="NUTS warm-up = draws per chain")
    parser.add_argument("--out", default="results/benchmarks/hier_regression.json")
    args = parser.parse_args()
    x, y, g = turkiye(args.mirror)
    data = GroupedData.from_arrays(x, y, g, 13)
    fit = fit_vb(data)  # loads the compiled kernels; its iteration count is the reference's
    sample_gibbs(data, 1, 1, np.random.SeedSequence(0))
    vb = median_seconds(lambda: fit_vb(data), args.runs)
    reference_vb = numpy_vb(x, y, g, fit.n_iter)
    chain = median_seconds(
        lambda: sample_gibbs(data, 0, 6000, np.random.SeedSequence(1)), min(args.runs, 3)
    )
    reference_sweeps = numpy_gibbs(data, args.reference_sweeps)
    start = time.perf_counter()
    chains = [sample_gibbs(data, 1000, 5000, np.random.SeedSequence(seed)) for seed in (1, 2)]
    gibbs_seconds = time.perf_counter() - start
    gibbs_ess = float(
        np.min(ess_bulk(concat_chains([c.draws() for c in chains]), ["Delta"])["Delta"])
    )
    backend = resolve_backend("auto")
    compiled = compile_model("hier_regression", backend)
    stan_data = {"C": 13, "D": data.dim, "xtx": data.xtx.tolist(), "xty": data.xty.tolist(),
                 "yty": data.yty.tolist(), "rows": data.rows.astype(float).tolist(),
                 **dict.fromkeys(("a0", "b0", "c0", "d0", "e0", "f0"), HYPER)}  # fmt: skip
    nuts = sample_nuts("hier_regression", stan_data, ["delta"], np.random.SeedSequence(7), backend,
                       NutsSettings(chains=2, warmup=args.nuts, draws=args.nuts), compiled)  # fmt: skip
    nuts_ess = float(np.min(ess_bulk(nuts.draws, ["delta"])["delta"]))
    result = {
        "vb_seconds": vb, "vb_iterations": fit.n_iter, "reference_vb_seconds": reference_vb,
        "vb_speedup_vs_numpy": reference_vb / vb, "gibbs_chain_6000_seconds": chain,
        "vb_speedup_vs_gibbs_chain": chain / vb, "gibbs_sweeps_per_second": 6000 / chain,
        "reference_sweeps_per_second": args.reference_sweeps / reference_sweeps,
        "gibbs_speedup_vs_numpy": (6000 / chain) / (args.reference_sweeps / reference_sweeps),
        "gibbs_min_ess_per_second": gibbs_ess / gibbs_seconds, "nuts_min_ess_per_second": nuts_ess / nuts.seconds,
        "nuts_divergences": nuts.divergences, "nuts_backend": nuts.backend,
    }  # fmt: skip
    result["gibbs_vs_nuts_ess_per_second"] = (
        result["gibbs_min_ess_per_second"] / result["nuts_min_ess_per_second"]
    )
    write_json(result, args.out)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
