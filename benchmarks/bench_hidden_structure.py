"""dombowsky2025: the HiDDeN structure sampler (Algorithm 2, edge indicators with the
Beta-Bernoulli prior integrated out, eq. 13; MALA-within-Gibbs t updates, §2) on one core, side
by side with a plain-numpy/scipy reference of the same chain (per indicator it rebuilds the
flipped parent set's count table with ``np.unique`` + ``np.bincount`` and scores it by eq. (7)
with gammaln; MALA via digamma; u by ``rng.beta``). Run with ``NUMBA_NUM_THREADS=1``.

- LUCAS0, the six Table 2 targets (Ca = the other 11 variables), 10,000 iterations, burn-in 200,
  Table 6 step sizes, t^(0) = 1: ours per target (target: all six <= 10 s) vs the reference run
  for ``--reference-iterations`` and scaled to 10,000 (extrapolated; target >= 10x). The
  reference is checked to be the same sampler: one longer reference chain's edge probabilities
  against ours within Monte Carlo error (AR-spectral MCSE), and its MAP blanket;
- METABRIC (code mode), the three outcomes with 9, 10, 11 candidates, 10,000 iterations,
  burn-in 500, the published step sizes: ours per outcome (no target).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd
from scipy.special import digamma, gammaln

from hierbn.data.convert import build_dataset
from hierbn.data.registry import load_registry
from hierbn.diagnostics import ess_ar_spectral
from hierbn.estimators.hidden import update_count
from hierbn.io import write_json
from hierbn.seeds import rng_for, seed_sequence
from hierbn.structure_learning.hidden_parents import markov_blanket, posterior_of, sample_parents
from hierbn.studies.dombowsky2025.lucas import COLUMNS, code_lucas
from hierbn.studies.dombowsky2025.metabric import code_metabric
from hierbn.studies.dombowsky2025.structure import OUTCOMES, outcome_candidates

REPO = Path(__file__).resolve().parents[1]
MIRROR = REPO.parent / "shared" / "data"
ITERATIONS = 10_000
LUCAS_BURN, METABRIC_BURN = 200, 500
LUCAS_EPS = {"Smoking": (0.30, 0.30), "Genetics": (0.47, 0.18), "Fatigue": (0.32, 0.32),
             "Coughing": (0.20, 0.33), "Allergy": (0.65, 0.35), "Lung_cancer": (0.11, 0.15)}  # fmt: skip
METABRIC_EPS = {"TBS": (0.175, 0.25), "CHT": (0.095, 0.045), "DFC": (0.35, 0.2, 0.35)}
C = D = 1.0  # Beta(c, d) edge prior; b = 1 and Gamma shape 1 (rho_rule "code", A1)


def dataset(name: str) -> pd.DataFrame:
    """A registered dombowsky2025 data set converted from the mirror, as the tests read it."""
    entry = load_registry(REPO / "config" / "datasets.tsv")[("dombowsky2025", name)]
    return build_dataset(entry, [MIRROR / p.file for p in entry.parts])


def numpy_edge_chain(
    codes: np.ndarray, target: int, eps: tuple[float, ...], seed, n_iter: int, burn: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Algorithm 1 + Algorithm 2 for column ``target`` with Ca = every other column, in the
    order of ours (u, MALA per coordinate, then each indicator in turn), with the same outputs:
    indicator draws [n_iter, C], acceptance [k] after burn-in, log-posterior [n_iter]."""
    rng = np.random.default_rng(seed)
    y = codes[:, target]
    x = np.delete(codes, target, axis=1)
    k = int(y.max()) + 1
    cards = x.max(axis=0) + 1
    n_cand = x.shape[1]
    t = np.ones(k)
    z = (rng.random(n_cand) < C / (C + D)).astype(np.int8)
    h = 0.5 * np.asarray(eps) ** 2

    def table(mask: np.ndarray) -> np.ndarray:
        """n_{j|Pa}[configuration, x] over the observed configurations of the set ``mask``."""
        cols = np.flatnonzero(mask)
        config = np.ravel_multi_index(x[:, cols].T, cards[cols]) if cols.size else np.zeros_like(y)
        _, inverse = np.unique(config, return_inverse=True)
        n_cfg = int(inverse.max()) + 1
        return np.bincount(inverse * k + y, minlength=n_cfg * k).reshape(n_cfg, k)

    def score(n: np.ndarray) -> float:
        """log f(n_{j|Pa} | n_Pa, t), eq. (7)."""
        beta = t.sum()
        return float(np.sum(gammaln(beta) - gammaln(n.sum(axis=1) + beta))
                     + np.sum(gammaln(n + t) - gammaln(t)))  # fmt: skip

    def column(n: np.ndarray, value: float) -> tuple[float, float]:
        """A_x and A'_x of one column (eqs. 9-10 without the prior and u parts)."""
        return (float(np.sum(gammaln(n + value) - gammaln(value))),
                float(np.sum(digamma(n + value) - digamma(value))))  # fmt: skip

    z_trace = np.zeros((n_iter, n_cand), dtype=np.int8)
    acc = np.zeros(k)
    logpost = np.zeros(n_iter)
    current = table(z)
    for r in range(n_iter):
        if r:
            big_l = np.sum(np.log(rng.beta(t.sum(), current.sum(axis=1))))
            for v in range(k):
                t0 = t[v]
                a0, g0 = column(current[:, v], t0)
                grad0 = -1.0 + g0 + big_l
                prop = t0 + h[v] * grad0 + eps[v] * rng.standard_normal()
                if prop > 0:
                    a1, g1 = column(current[:, v], prop)
                    grad1 = -1.0 + g1 + big_l
                    log_ratio = -(prop - t0) + a1 - a0 + (prop - t0) * big_l
                    log_ratio += ((prop - t0 - h[v] * grad0) ** 2
                                  - (t0 - prop - h[v] * grad1) ** 2) / (4 * h[v])  # fmt: skip
                    if np.log(rng.random()) < log_ratio:
                        t[v] = prop
                        acc[v] += r >= burn
            score_now = score(current)
            for c in range(n_cand):
                others_in = int(z.sum()) - z[c]
                flipped = z.copy()
                flipped[c] = 1 - z[c]
                other = table(flipped)
                score_other = score(other)
                s1, s0 = (score_now, score_other) if z[c] else (score_other, score_now)
                l0 = np.log(D + n_cand - 1 - others_in) + s0
                l1 = np.log(C + others_in) + s1
                new = int(rng.random() < 1.0 / (1.0 + np.exp(l0 - l1)))
                if new != z[c]:
                    z, current, score_now = flipped, other, score_other
        included = int(z.sum())
        logpost[r] = (score(current) + gammaln(included + C) + gammaln(n_cand - included + D)
                      - t.sum())  # fmt: skip
        z_trace[r] = z
    return z_trace, acc / update_count(n_iter, burn), logpost


def mcse(indicators: np.ndarray) -> np.ndarray:
    """Monte Carlo standard error of each edge probability (coda's AR-spectral ESS)."""
    draws = indicators.astype(np.float64)
    p = draws.mean(axis=0)
    ess = np.atleast_1d(ess_ar_spectral(draws))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(ess > 0, np.sqrt(p * (1 - p) / ess), 0.0)


def log_posterior_mean(trace: np.ndarray) -> tuple[float, float]:
    """The mean of a log-posterior trace and its MCSE."""
    return float(trace.mean()), float(np.sqrt(trace.var(ddof=1) / ess_ar_spectral(trace)))


def lucas_ours(codes: np.ndarray) -> dict[str, tuple]:
    """(seconds, EdgeFit, ParentPosterior) of ours per target."""
    out = {}
    for target, eps in LUCAS_EPS.items():
        seed = seed_sequence("bench_structure", "lucas", target)
        start = time.perf_counter()
        fit, post = markov_blanket(codes, COLUMNS.index(target), eps, seed, n_iter=ITERATIONS,
                                   burn=LUCAS_BURN, init="ones")  # fmt: skip
        out[target] = (time.perf_counter() - start, fit, post)
    return out


def agreement(codes: np.ndarray, target: str, ours, n_iter: int) -> dict:
    """One reference chain of ``n_iter`` iterations on ``target`` against ours: edge
    probabilities with their MCSEs, |z| = |difference| / combined MCSE, the MAP blankets, the
    MALA acceptance rates and the post-burn-in mean log-posterior with its MCSE."""
    j = COLUMNS.index(target)
    z, acceptance, logpost = numpy_edge_chain(codes, j, LUCAS_EPS[target], rng_for("bench_structure", "check"),
                               n_iter, LUCAS_BURN)  # fmt: skip
    ref = posterior_of([c for c in range(len(COLUMNS)) if c != j], z[LUCAS_BURN:])
    ours_fit, ours_post = ours
    se = np.hypot(mcse(ours_fit.z[LUCAS_BURN:]), mcse(z[LUCAS_BURN:]))
    diff = np.abs(ours_post.edge_probability - ref.edge_probability)
    with np.errstate(divide="ignore", invalid="ignore"):
        zscore = np.where(diff == 0, 0.0, diff / se)
    return {"target": target, "reference_iterations": n_iter,
            "variables": [COLUMNS[c] for c in ref.candidates],
            "ours": ours_post.edge_probability, "reference": ref.edge_probability,
            "combined_mcse": se, "max_abs_z": float(zscore.max()),
            "within_4_mcse": bool(np.all(zscore <= 4)),
            "map_ours": [COLUMNS[c] for c in ours_post.map_set],
            "map_reference": [COLUMNS[c] for c in ref.map_set],
            "map_equal": ours_post.map_set == ref.map_set,
            "acceptance_ours": ours_fit.acceptance, "acceptance_reference": acceptance,
            "log_posterior_ours": log_posterior_mean(ours_fit.log_posterior[LUCAS_BURN:]),
            "log_posterior_reference": log_posterior_mean(logpost[LUCAS_BURN:])}  # fmt: skip


def metabric_ours() -> dict[str, dict]:
    codes, _, _ = code_metabric(dataset("metabric-patient"), dataset("metabric-sample"), "code")
    out = {}
    for outcome in OUTCOMES:
        candidates = outcome_candidates(outcome)
        data = codes[[*candidates, outcome]].to_numpy().astype(np.int64)
        seed = seed_sequence("bench_structure", "metabric", outcome)
        start = time.perf_counter()
        _, post = sample_parents(data, len(candidates), range(len(candidates)),
                                 METABRIC_EPS[outcome], seed, n_iter=ITERATIONS,
                                 burn=METABRIC_BURN, init="ones")  # fmt: skip
        out[outcome] = {"seconds": time.perf_counter() - start, "candidates": len(candidates),
                        "n": len(data), "mpm": [candidates[c] for c in post.mpm_set]}  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reference-iterations", type=int, default=500,
                        help="iterations of the numpy reference per target (scaled to 10,000)")  # fmt: skip
    parser.add_argument("--check-targets", nargs="+", default=["Genetics", "Lung_cancer"],
                        choices=list(LUCAS_EPS), help="targets with uncertain edges")  # fmt: skip
    parser.add_argument("--check-iterations", type=int, default=ITERATIONS,
                        help="iterations of the reference chains compared with ours")  # fmt: skip
    parser.add_argument("--out", default="results/benchmarks/hidden_structure.json")
    args = parser.parse_args()
    numba.set_num_threads(1)
    lucas, _ = code_lucas(dataset("lucas0"), "lucas.csv")
    codes = lucas[list(COLUMNS)].to_numpy()
    markov_blanket(codes, 0, 0.3, seed_sequence("warm"), n_iter=10, burn=1)  # compile outside
    ours = lucas_ours(codes)
    reference = {}
    for target, eps in LUCAS_EPS.items():
        start = time.perf_counter()
        numpy_edge_chain(codes, COLUMNS.index(target), eps, rng_for("bench_structure", target),
                         args.reference_iterations, min(LUCAS_BURN, args.reference_iterations - 1))  # fmt: skip
        reference[target] = (time.perf_counter() - start) * ITERATIONS / args.reference_iterations
    checks = [agreement(codes, t, ours[t][1:], args.check_iterations) for t in args.check_targets]
    metabric = metabric_ours()
    total = sum(s for s, _, _ in ours.values())
    total_ref = sum(reference.values())
    report = {
        "lucas_seconds": {t: s for t, (s, _, _) in ours.items()},
        "lucas_total_seconds": total,
        "lucas_map_blankets": {t: [COLUMNS[c] for c in p.map_set] for t, (_, _, p) in ours.items()},
        "lucas_numpy_reference_seconds_extrapolated": reference,
        "lucas_numpy_reference_total_seconds_extrapolated": total_ref,
        "reference_iterations": args.reference_iterations,
        "lucas_speedup": {t: reference[t] / s for t, (s, _, _) in ours.items()},
        "lucas_total_speedup": total_ref / total,
        "agreement": checks,
        "metabric": metabric,
        "threads": 1,
    }
    write_json(report, args.out)
    print(f"LUCAS, 6 targets x 10,000 iterations (Algorithm 2, |Ca| = 11), one core: ours {total:.2f} s "
          f"(target: each <= 10 s), numpy reference {total_ref:.0f} s (extrapolated from "
          f"{args.reference_iterations} iterations) -> {total_ref / total:.0f}x (target >= 10)")  # fmt: skip
    for target, (seconds, _, post) in ours.items():
        print(f"  {target:12s} ours {seconds:5.2f} s  reference {reference[target]:6.1f} s "
              f"({reference[target] / seconds:4.0f}x)  MAP {[COLUMNS[c] for c in post.map_set]}")  # fmt: skip
    for check in checks:
        print(f"Agreement on {check['target']} (reference {check['reference_iterations']:,} "
              f"iterations vs ours {ITERATIONS:,}, burn-in {LUCAS_BURN}): max |diff| / MCSE = "
              f"{check['max_abs_z']:.2f} ({'within' if check['within_4_mcse'] else 'NOT within'} "
              f"4 MCSE); MAP {'equal' if check['map_equal'] else 'differs'}: {check['map_ours']}")  # fmt: skip
        lp_ours, se_ours = check["log_posterior_ours"]
        lp_ref, se_ref = check["log_posterior_reference"]
        print(f"  mean log-posterior ours {lp_ours:.2f} +- {se_ours:.2f}, reference {lp_ref:.2f} +- "
              f"{se_ref:.2f}; MALA acceptance ours {np.round(check['acceptance_ours'], 3)}, "
              f"reference {np.round(check['acceptance_reference'], 3)}")  # fmt: skip
        for name, a, b, se in zip(check["variables"], check["ours"], check["reference"],
                                  check["combined_mcse"], strict=True):  # fmt: skip
            if max(a, b) > 0 and min(a, b) < 1:
                print(f"  {name:18s} ours {a:.4f}  reference {b:.4f}  (combined MCSE {se:.4f})")
    for outcome, row in metabric.items():
        print(f"METABRIC {outcome} (|Ca| = {row['candidates']}, n = {row['n']}, 10,000 iterations): "
              f"{row['seconds']:.2f} s; MPM {row['mpm']}")  # fmt: skip


if __name__ == "__main__":
    main()
