"""petitjean2018 HDP speed on Adult (one core): SkDB-HDP with 50,000 iterations and Level tying,
timed as the paper's §6.6 run, and a plain-numpy reference of the same table-count sweep
(Algorithm 1, vectorised over each window of candidates) run side by side on the same trees.
Also times the classification of the held-out half (~24.4k rows) for every BNC.

Targets: SkDB on Adult, 50,000 iterations, Level, one core: <= 60 s (issue 4; the authors'
Java: 86 s on their machine) and <= 10 s (issue 24: 2.5x the authors' Java, which took 25-27 s
for the same run on the machine these benchmarks were written on, measured back to back with
this benchmark; printed as that committed measurement, with no ratio, since the Java cannot run
here); classifying 25k Adult rows < 1 s for every BNC.

Needs the canonical Adult table: ``snakemake --cores 1 resources/datasets/petitjean2018/adult.parquet``.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pandas as pd
from scipy.special import gammaln

from hierbn.bn.classifier_structures import STRUCTURES, FoldData
from hierbn.cpts import fit_network, make_estimator
from hierbn.cpts.base import CPTEstimator
from hierbn.data.cv import encode_fold
from hierbn.estimators.hdp import build_tree, concentration_ids
from hierbn.estimators.hdp_kernels import initial_tables
from hierbn.estimators.stirling import SHARED
from hierbn.io import write_json
from hierbn.studies.petitjean2018.protocol import cv_split

# The authors' Java on this run, as committed: their classes are not installed where these
# benchmarks run, so it cannot be timed beside ours, and no ratio is printed against it (a
# ratio to a time taken on another host, at another load, misleads: issue 46 measured the same
# run at 58.5-59.7 s on a busier host). Time both back to back to compare.
JAVA_MEASUREMENT = {
    "seconds": [25.0, 27.0],
    "date": "2026-11-25",
    "host": "the 2-core machine these benchmarks were written on (issue 24), back to back "
    "with this benchmark",
}


def numpy_sweeps(tree, tying: str, n_iter: int, window: int = 10, seed: int = 0) -> float:
    """Plain-numpy Algorithm 1 as the paper writes it (the table updates of hdp_kernels.sweeps,
    concentrations every 5 iterations from one Beta auxiliary per node, running means of every
    node at every iteration); returns seconds for ``n_iter`` sweeps."""
    rng = np.random.default_rng(seed)
    conc = concentration_ids(tree, tying)
    n, t = initial_tables(tree.level, tree.parent, tree.counts, tree.level_start, 2.0, seed)
    alpha = np.full(conc.max() + 1, 2.0)
    alpha0, k_values = 2.0, n.shape[1]
    log_s = SHARED.table(int(tree.counts.sum()), int(t.max()) + 4 * window)
    depth = int(tree.level.max())
    pbar = np.zeros(n.shape)
    start = time.perf_counter()
    for it in range(n_iter):
        n_tot, t_tot = n.sum(axis=1), t.sum(axis=1)
        for d in range(depth, 0, -1):
            for j in range(tree.level_start[d], tree.level_start[d + 1]):
                pj = tree.parent[j]
                log_a = np.log(alpha[conc[j]])
                a_p = alpha0 if conc[pj] < 0 else alpha[conc[pj]]
                for k in np.flatnonzero(n[j] > 1):
                    cur = t[j, k]
                    cand = np.arange(max(1, cur - window), min(cur + window, n[j, k]) + 1)
                    inc = cand - cur
                    pn = n[pj, k] + inc
                    w = (t_tot[j] + inc) * log_a + log_s[n[j, k], cand]
                    w = w + log_s[np.maximum(pn, 0), t[pj, k]] - gammaln(a_p + n_tot[pj] + inc)
                    w[pn < t[pj, k]] = -np.inf
                    p = np.exp(w - w.max())
                    chosen = cand[np.searchsorted(np.cumsum(p), rng.random() * p.sum())]
                    step = chosen - cur
                    t[j, k], t_tot[j] = chosen, t_tot[j] + step
                    n[pj, k] += step
                    n_tot[pj] += step
        t[0] = np.minimum(1, n[0])
        if it % 5 == 0:
            live = np.flatnonzero((n_tot > 0) & (conc >= 0))
            q = rng.beta(alpha[conc[live]], n_tot[live])
            rate = 1.0 + np.bincount(conc[live], -np.log(q), alpha.size)
            shape = 2.0 + np.bincount(conc[live], t_tot[live], alpha.size)
            alpha = np.minimum(4000.0, rng.gamma(shape, 1.0 / rate))
        p = np.zeros(n.shape)
        p[0] = (n[0] + alpha0 / k_values) / (n_tot[0] + alpha0)
        for d in range(1, depth + 1):
            nodes = np.arange(tree.level_start[d], tree.level_start[d + 1])
            a = alpha[conc[nodes]][:, None]
            p[nodes] = (n[nodes] + a * p[tree.parent[nodes]]) / (n_tot[nodes, None] + a)
        pbar += (p - pbar) / (it + 1)
    return time.perf_counter() - start


def hdp_estimator(iterations: int) -> CPTEstimator:
    """HDP CPTs with the paper's settings (Level tying, improper Gamma(0, 0) prior,
    concentrations every 5 iterations); the class (a root) takes the m = 1 estimate."""
    settings = {"iterations": iterations, "tying": "level", "prior": [0.0, 0.0], "conc_every": 5}
    return make_estimator("hdp", {"hdp": settings})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--adult", default="resources/datasets/petitjean2018/adult.parquet")
    parser.add_argument("--iterations", type=int, default=50_000)
    parser.add_argument("--reference-iterations", type=int, default=20)
    parser.add_argument("--out", default="results/benchmarks/hdp.json")
    args = parser.parse_args()

    frame = pd.read_parquet(args.adult)
    target = frame.columns[-1]
    y = frame[target].cat.codes.to_numpy()
    train_rows, test_rows = cv_split(y, "adult", 0, 0, 0)
    fold = FoldData(*encode_fold(frame, target, train_rows, test_rows))
    structure, kept = fold.structure("skdb")
    k = structure.class_index

    def trees():
        for node in kept:
            parents = list(structure.parents[node])
            yield build_tree(
                fold.train[:, node],
                fold.train[:, parents],
                np.asarray(fold.cards)[parents],
                fold.cards[node],
            )

    nodes = sum(tree.level.size for tree in trees())
    seeds = np.random.SeedSequence(0)  # node i samples from its stateless child i
    fitted_nodes = (*kept, k)  # the class CPT is fitted with the kept features
    fit_network(structure, fold.train, hdp_estimator(50), seeds, nodes=fitted_nodes)  # JIT warm-up
    start = time.perf_counter()
    fitted = fit_network(
        structure, fold.train, hdp_estimator(args.iterations), seeds, nodes=fitted_nodes
    )
    ours = time.perf_counter() - start
    sampling = sum(fitted.cpts[node].info.details["sampling_seconds"] for node in kept)
    reference = sum(numpy_sweeps(tree, "level", args.reference_iterations) for tree in trees())
    ours_rate = nodes * args.iterations / sampling
    reference_rate = nodes * args.reference_iterations / reference

    classify = {}
    estimators = {
        "m": make_estimator("m", {"m": {"m": 1.0, "backoff": "literal"}}),
        "hdp": hdp_estimator(20),
    }
    for name in STRUCTURES:
        s, s_kept = fold.structure(name)
        for kind, estimator in estimators.items():
            network = fit_network(s, fold.train, estimator, seeds, nodes=(*s_kept, s.class_index))
            start = time.perf_counter()
            network.predict_proba(fold.test)
            classify[f"{name}-{kind}"] = time.perf_counter() - start
    result = {
        "dataset": "adult",
        "train_rows": int(train_rows.size),
        "test_rows": int(test_rows.size),
        "skdb_attributes_kept": len(kept),
        "skdb_max_parents": max(len(structure.parents[i]) for i in kept) - 1,
        "tree_nodes": int(nodes),
        "iterations": args.iterations,
        "skdb_hdp_fit_seconds": ours,
        "sampling_seconds": sampling,
        "target_seconds": 10.0,
        "paper_java_seconds": 86.0,
        "authors_java_committed_measurement": JAVA_MEASUREMENT,
        "node_iterations_per_second": ours_rate,
        "numpy_reference_node_iterations_per_second": reference_rate,
        "speedup_vs_numpy_reference": ours_rate / reference_rate,
        "classify_seconds": classify,
        "classify_max_seconds": max(classify.values()),
        "class_index": k,
    }
    write_json(result, args.out)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
