"""dombowsky2025: the HiDDeN MALA-within-Gibbs sampler on one core, side by side with a
plain-numpy reference of the same sampler vectorised over replicate chains (u draws by
``rng.beta``, log h and its gradient by scipy's gammaln/digamma over the padded tables).

- Table 1 (4 K x 50 data sets x 10,000 iterations): ours vs the reference (target >= 10x, and
  <= 3 s on one core); iterations per second per coordinate;
- Table 3 at paper scale (4 k1 x 100 replications x 10,000 iterations, Algorithm 3): target
  <= 30 s on one core.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from scipy.special import digamma, gammaln

from hierbn.bn.sparse_tables import parent_child_table, stack_tables
from hierbn.estimators.hidden import fit_fixed_parents, sample_models
from hierbn.io import write_json
from hierbn.seeds import rng_for, seed_sequence
from hierbn.studies.dombowsky2025.simulate import table1_data, table3_data

ITERATIONS = 10_000
EPS = 0.5


def table1_tables(n_levels: int, datasets: int) -> list[np.ndarray]:
    out = []
    for rep in range(datasets):
        data = table1_data(rng_for("bench", n_levels, rep), n_levels, 100)
        out.append(parent_child_table(data.child, data.parent[:, None], 2).counts)
    return out


def numpy_fixed_parents(
    tables: list[np.ndarray], n_iter: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 1 ([code] order) vectorised over replicates with numpy/scipy, with the same
    outputs as ours: the posterior mean of the eq. (14) predictive [R, P, k] and the
    log-posterior trace [R, n_iter]."""
    rng = np.random.default_rng(seed)
    counts = stack_tables(tables).astype(np.float64)  # [R, P, k], zero rows = padding
    n_pa = counts.sum(axis=2)
    present = n_pa > 0
    reps, _, k = counts.shape
    t = rng.exponential(1.0, (reps, k))
    big_l = np.where(present, np.log(rng.random(n_pa.shape)), 0.0).sum(axis=1)
    h = 0.5 * EPS**2

    def terms(value: np.ndarray, x: int) -> tuple[np.ndarray, np.ndarray]:
        v = value[:, None]
        a = np.sum(gammaln(counts[:, :, x] + v) - gammaln(v), axis=1)
        g = np.sum(digamma(counts[:, :, x] + v) - digamma(v), axis=1)
        return a, g

    pred = np.zeros_like(counts)
    trace = np.zeros((reps, n_iter))
    for r in range(n_iter):
        if r:
            for x in range(k):
                t0 = t[:, x]
                a0, g0 = terms(t0, x)
                grad0 = -1.0 + g0 + big_l
                prop = t0 + h * grad0 + EPS * rng.standard_normal(reps)
                ok = prop > 0
                safe = np.where(ok, prop, 1.0)
                a1, g1 = terms(safe, x)
                grad1 = -1.0 + g1 + big_l
                log_ratio = -(safe - t0) + a1 - a0 + (safe - t0) * big_l
                log_ratio += ((safe - t0 - h * grad0) ** 2 - (t0 - safe - h * grad1) ** 2) / (4 * h)
                accept = ok & (np.log(rng.random(reps)) < log_ratio)
                t[:, x] = np.where(accept, safe, t0)
            beta = np.broadcast_to(t.sum(axis=1)[:, None], n_pa.shape)
            draws = rng.beta(beta, np.where(present, n_pa, 1.0))
            big_l = np.where(present, np.log(draws), 0.0).sum(axis=1)
        beta = t.sum(axis=1)
        pred += (t[:, None, :] + counts) / (beta[:, None, None] + n_pa[:, :, None])
        trace[:, r] = (np.sum(np.where(present, gammaln(beta[:, None]) - gammaln(n_pa + beta[:, None]), 0.0), axis=1)
                       + np.sum(gammaln(counts + t[:, None, :]) - gammaln(t[:, None, :]), axis=(1, 2))
                       - t.sum(axis=1))  # fmt: skip
    return pred / n_iter, trace


def table1_ours() -> tuple[float, float]:
    """Seconds for the whole Table 1 experiment, and the coordinate updates it made."""
    seconds = updates = 0.0
    for n_levels in (2, 3, 5, 10):
        tables = table1_tables(n_levels, 50)
        seeds = [seed_sequence("bench", n_levels, r) for r in range(50)]
        start = time.perf_counter()
        fit_fixed_parents(tables, EPS, seeds, n_iter=ITERATIONS)
        seconds += time.perf_counter() - start
        updates += 50 * ITERATIONS * 2
    return seconds, updates


def table3_ours(reps: int) -> float:
    seconds = 0.0
    eps = {5: (0.9, 0.3), 25: (0.65, 0.25), 100: (0.45, 0.15), 200: (0.4, 0.1)}
    for k1, steps in eps.items():
        rows = [table3_data(rng_for("bench3", k1, r), k1, 200) for r in range(reps)]
        tables = [[[parent_child_table(x[:, 2], x[:, ps], 2).counts for ps in ([0], [0, 1])]]
                  for x in rows]  # fmt: skip
        seeds = [seed_sequence("bench3", k1, r) for r in range(reps)]
        start = time.perf_counter()
        sample_models(tables, [2], np.asarray(steps)[None, :], seeds, n_iter=ITERATIONS, burn=200)
        seconds += time.perf_counter() - start
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reference-iterations", type=int, default=1000,
                        help="iterations of the numpy reference (its time is scaled to 10,000)")  # fmt: skip
    parser.add_argument("--out", default="results/benchmarks/hidden.json")
    args = parser.parse_args()
    numba.set_num_threads(1)
    # compile outside the timings
    fit_fixed_parents(table1_tables(2, 1), EPS, [seed_sequence("warm")], n_iter=10)
    sample_models([[[np.ones((2, 2), int), np.ones((3, 2), int)]]], [2], 0.5,
                  [seed_sequence("warm")], n_iter=10, burn=1)  # fmt: skip
    ours, updates = table1_ours()
    reference = 0.0
    for n_levels in (2, 3, 5, 10):
        tables = table1_tables(n_levels, 50)
        start = time.perf_counter()
        numpy_fixed_parents(tables, args.reference_iterations, n_levels)
        reference += time.perf_counter() - start
    reference *= ITERATIONS / args.reference_iterations
    table3 = table3_ours(100)
    report = {
        "table1_seconds": ours,
        "table1_numpy_reference_seconds": reference,
        "table1_speedup": reference / ours,
        "coordinate_updates_per_second": updates / ours,
        "table3_paper_scale_seconds": table3,
        "threads": 1,
    }
    write_json(report, args.out)
    print(f"Table 1 (4 K x 50 x 10,000): ours {ours:.2f} s (target <= 3), numpy reference "
          f"{reference:.1f} s -> {reference / ours:.1f}x (target >= 10); "
          f"{updates / ours / 1e6:.1f} M coordinate updates/s")  # fmt: skip
    print(f"Table 3 at paper scale (4 k1 x 100 x 10,000): {table3:.1f} s (target <= 30)")


if __name__ == "__main__":
    main()
