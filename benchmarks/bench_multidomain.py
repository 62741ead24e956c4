"""Multi-domain VI per CPT (azzimonti2019 §2.5, §3.7, E5 "Times", H18) vs Stan meanfield ADVI (one run).

One node of the multi-domain hierarchical model is the hierarchical MD fit of a table
counts[f, x']: |X'| = 325 joint (child, parents) states (13 classes x 5 x 5, the largest CPT of
the GoEco!-like generator) and one row per user f, 100 observations per row, fitted with
s = |X'| and alpha0 = 1. Tables are simulated like the spec's generator: mu ~ Dirichlet(1_325),
theta_f ~ Dirichlet(c * mu) for c in {5, 20, 100}, 100 multinomial draws per user (row).
K = 100 users is the target scenario (paper: VI 2 s - 7 min per CPT); K = 6 (paper: 0.6 - 12 s)
is timed for completeness.

Target (claim H18 / E5 "Times"): at K = 100, |X'| = 325, VI per CPT is >= 100x faster than
Stan meanfield ADVI (CmdStan ``variational`` defaults) on the same CPT; ``speedup_min_k100`` is
the smallest ratio advi_s / vi_median_s over c. Stan compile time is excluded.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time

import numpy as np

from hierbn.estimators.hier_vi import fit_hier_vi, warm_up
from hierbn.io import write_json
from hierbn.seeds import rng_for, seed_sequence
from hierbn.stan.runner import compile_model, resolve_backend, variational_meanfield
from hierbn.studies.azzimonti2019.protocol import stan_data

N_STATES = 13 * 5 * 5  # |X'| of a TAN feature with parents {C, X_j}
N_PER_USER = 100
USERS = (100, 6)
CONCENTRATIONS = (5.0, 20.0, 100.0)


def simulate_table(
    c: float, k: int, n_states: int = N_STATES, n_obs: int = N_PER_USER
) -> np.ndarray:
    """counts[f, x']: mu ~ Dir(1), theta_f ~ Dir(c * mu), n_obs multinomial draws per user f."""
    rng = rng_for("bench", "multidomain", c, k)
    mu = rng.dirichlet(np.ones(n_states))
    theta = rng.dirichlet(c * mu, size=k)  # (k, n_states)
    return np.stack([rng.multinomial(n_obs, row / row.sum()) for row in theta]).astype(np.float64)


def time_vi(counts: np.ndarray, reps: int) -> dict:
    n_states = counts.shape[1]
    times, fits = [], []
    for _ in range(reps):
        start = time.perf_counter()
        fit = fit_hier_vi(counts, s=float(n_states), alpha0=np.ones(n_states))
        times.append(time.perf_counter() - start)
        fits.append(fit)
    return {
        "vi_median_s": float(np.median(times)),
        "vi_s": times,
        "vi_iterations": fits[0].n_iter,
        "vi_converged": all(f.converged for f in fits),
        "vi_finite": all(np.isfinite(f.theta).all() and np.isfinite(f.tau) for f in fits),
        "vi_tau": fits[0].tau,
        "theta": fits[0].theta,
    }


def time_advi(
    counts: np.ndarray, reps: int, c: float, backend: str, compiled: dict, vi_theta: np.ndarray
) -> dict:
    data = stan_data(counts)
    runs = []
    for r in range(reps):
        start = time.perf_counter()
        try:
            fit = variational_meanfield(
                "hier_md",
                data,
                ["theta"],
                seed_sequence("bench", "multidomain", "advi", c, counts.shape[0], r),
                backend,
                compiled,
            )
        except RuntimeError as exc:
            runs.append(
                {"seconds": time.perf_counter() - start, "failed": True, "error": str(exc)[-300:]}
            )
            continue
        theta = fit.draws.posterior["theta"].mean(axis=(0, 1))  # [chain, draw, y, x] -> [y, x]
        finite = bool(np.isfinite(theta).all())
        runs.append(
            {
                "seconds": fit.seconds,
                "failed": not finite,
                "mse_vs_vi": float(np.mean((theta - vi_theta) ** 2)) if finite else None,
            }
        )
    ok = [run["seconds"] for run in runs if not run["failed"]]
    return {
        "advi_s": float(np.median(ok)) if ok else None,
        "advi_failed": sum(run["failed"] for run in runs),
        "advi_runs": runs,
    }


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3g}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--c",
        type=float,
        nargs="+",
        default=list(CONCENTRATIONS),
        help="heterogeneity c of theta_f ~ Dir(c mu)",
    )
    parser.add_argument(
        "--users", type=int, nargs="+", default=list(USERS), help="numbers of users K (rows)"
    )
    parser.add_argument(
        "--reps", type=int, default=3, help="VI fits per configuration (median time)"
    )
    parser.add_argument("--advi-reps", type=int, default=1, help="Stan ADVI fits per configuration")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--out", default="results/benchmarks/multidomain.json")
    args = parser.parse_args()

    backend = resolve_backend(args.backend)
    compiled = compile_model(
        "hier_md", backend
    )  # builds / loads the ADVI driver, outside the timing
    warm_up()
    load_start = os.getloadavg()[0]
    configs = []
    for k, c in itertools.product(args.users, args.c):
        counts = simulate_table(c, k)
        vi = time_vi(counts, args.reps)
        vi_theta = vi.pop("theta")
        advi = time_advi(counts, args.advi_reps, c, backend, compiled, vi_theta)
        mses = [run["mse_vs_vi"] for run in advi["advi_runs"] if run.get("mse_vs_vi") is not None]
        config = {
            "users": k,
            "c": c,
            "states": counts.shape[1],
            "n_per_user": int(counts[0].sum()),
            **vi,
            **advi,
            "theta_mse_vi_vs_advi": float(np.mean(mses)) if mses else None,
            "speedup": advi["advi_s"] / vi["vi_median_s"] if advi["advi_s"] is not None else None,
        }
        configs.append(config)
        print(
            f"K={k:3d} c={c:5g}: VI {config['vi_median_s']:.3f} s ({config['vi_iterations']} it), "
            f"ADVI {_fmt(config['advi_s'])} s ({config['advi_failed']} failed), speedup {_fmt(config['speedup'])}",
            file=sys.stderr,
            flush=True,
        )

    k100 = [cfg["speedup"] for cfg in configs if cfg["users"] == 100 and cfg["speedup"] is not None]
    summary = {
        "states": N_STATES,
        "n_per_user": N_PER_USER,
        "advi_backend": backend,
        "advi_compile_s_excluded": compiled.get("compile_seconds"),
        "loadavg_1min_at_start": load_start,
        "loadavg_1min_at_end": os.getloadavg()[0],
        "target": ">= 100x faster than Stan meanfield ADVI at K = 100, |X'| = 325",
        "speedup_min_k100": float(min(k100)) if k100 else None,
        "vi_max_s": float(max(cfg["vi_median_s"] for cfg in configs)),
        "vi_all_converged": all(cfg["vi_converged"] for cfg in configs),
        "vi_all_finite": all(cfg["vi_finite"] for cfg in configs),
        "advi_failed": sum(cfg["advi_failed"] for cfg in configs),
        "advi_fits": sum(len(cfg["advi_runs"]) for cfg in configs),
        "configs": [
            {
                key: cfg[key]
                for key in (
                    "users",
                    "c",
                    "vi_median_s",
                    "vi_iterations",
                    "vi_converged",
                    "vi_finite",
                    "advi_s",
                    "advi_failed",
                    "speedup",
                    "theta_mse_vi_vs_advi",
                )
            }
            for cfg in configs
        ],
    }
    write_json({**summary, "configs": configs}, args.out)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
