"""VI per CPT on the azzimonti2019 E1 grid vs Stan NUTS on the same CPTs (one run).

Target (issue 2): median VI time per CPT <= 2 ms and >= 1000x faster than NUTS.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time

import numpy as np

from hierbn.estimators.hier_vi import fit_hier_vi
from hierbn.io import write_json
from hierbn.seeds import rng_for, seed_sequence
from hierbn.stan.runner import compile_model, resolve_backend, sample_nuts
from hierbn.studies.azzimonti2019.protocol import simulate_cpt, stan_data

GRID_X = (2, 4, 6, 8)
GRID_Y = (2, 4, 6, 8)
GRID_N = (20, 40, 80, 160, 320, 640)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=3, help="repetitions per E1 cell for VI")
    parser.add_argument("--nuts-cpts", type=int, default=8, help="CPTs also fitted with NUTS")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--out", default="results/benchmarks/vi.json")
    args = parser.parse_args()

    tables = [
        simulate_cpt(rng_for("bench", x, y, n, r), x, y, n)[1]
        for x, y, n, r in itertools.product(GRID_X, GRID_Y, GRID_N, range(args.reps))
    ]
    fit_hier_vi(tables[0])  # load the numba cache outside the timing
    vi_times = []
    for counts in tables:
        start = time.perf_counter()
        fit_hier_vi(counts)
        vi_times.append(time.perf_counter() - start)

    backend = resolve_backend(args.backend)
    compile_model("hier_md", backend)
    picks = np.random.default_rng(0).choice(len(tables), args.nuts_cpts, replace=False)
    pairs = []
    for i in picks:
        counts = tables[i]  # counts[y, x]
        data = stan_data(counts)
        fit = sample_nuts("hier_md", data, ["theta"], seed_sequence("bench", int(i)), backend)
        pairs.append(
            {
                "shape": [counts.shape[1], counts.shape[0]],  # [|X|, |Y|]
                "n": int(counts.sum()),
                "vi_s": vi_times[i],
                "nuts_s": fit.seconds,
            }
        )
    ratios = [p["nuts_s"] / p["vi_s"] for p in pairs]
    summary = {
        "cpts": len(tables),
        "vi_median_ms": 1e3 * float(np.median(vi_times)),
        "vi_p90_ms": 1e3 * float(np.quantile(vi_times, 0.9)),
        "vi_max_ms": 1e3 * float(np.max(vi_times)),
        "nuts_backend": backend,
        "nuts_median_s": float(np.median([p["nuts_s"] for p in pairs])),
        "speedup_median": float(np.median(ratios)),
        "speedup_min": float(np.min(ratios)),
        "pairs": pairs,
    }
    write_json(summary, args.out)
    print(json.dumps({k: v for k, v in summary.items() if k != "pairs"}, indent=2))


if __name__ == "__main__":
    main()
