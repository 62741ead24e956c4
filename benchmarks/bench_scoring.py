"""beal2006 scoring speed at n = 480 (one core): all 136 structures x 3 restarts with MAP-EM
and VBEM, one AIS run (K = 16384) on the true structure, and a plain-numpy reference of the
same MAP-EM (vectorised over patterns) run side by side on a subset of structures.

Targets (issue 3): EM + VBEM for all structures <= 10 s; one AIS run <= 0.5 s.
Paper (MATLAB, 1 GHz): EM 200 s, VBEM 575 s (ratio 2.9); one AIS run ~96x VBEM.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from scipy.special import logsumexp

from hierbn.io import write_json
from hierbn.scoring.scores import (
    MAX_ITER,
    TOL_PER_DATUM,
    StructureModel,
    ais_score,
    compress,
    em_and_vb,
)
from hierbn.studies.beal2006.protocol import CLASS, nested_data, structures, true_structure


def numpy_map_em(model: StructureModel, patterns, counts, init) -> tuple[float, int]:
    """Plain-numpy MAP-EM in the softmax basis (the same algorithm as kernels.map_em)."""
    log_hid, log_obs = init[0].copy(), init[1].copy()
    n = counts.sum()
    previous = -np.inf
    for it in range(MAX_ITER):
        table = log_hid[np.arange(len(model.hcard))[:, None], model.states.T].sum(axis=0)[None, :]
        for v in range(len(model.ocard)):
            table = table + log_obs[v][model.cfg[v][None, :], patterns[:, v][:, None]]
        log_z = logsumexp(table, axis=1)
        ll = float(counts @ log_z)
        prior = sum(log_hid[h, :c].sum() for h, c in enumerate(model.hcard))
        prior += sum(log_obs[v, : model.ncfg[v], :c].sum() for v, c in enumerate(model.ocard))
        if (ll + prior - previous) / n < TOL_PER_DATUM:
            return ll, it + 1
        previous = ll + prior
        q = np.exp(table - log_z[:, None]) * counts[:, None]
        for h, c in enumerate(model.hcard):
            n_h = np.bincount(model.states[:, h], weights=q.sum(axis=0), minlength=c)
            log_hid[h, :c] = np.log((1 + n_h) / (c + n_h.sum()))
        for v, c in enumerate(model.ocard):
            n_v = np.zeros((model.ncfg[v], c))
            np.add.at(
                n_v,
                (
                    model.cfg[v][None, :].repeat(len(patterns), 0),
                    patterns[:, v][:, None].repeat(q.shape[1], 1),
                ),
                q,
            )
            log_obs[v, : model.ncfg[v], :c] = np.log(
                (1 + n_v) / (c + n_v.sum(axis=1, keepdims=True))
            )
    return ll, MAX_ITER


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=480)
    parser.add_argument("--peer-structures", type=int, default=10)
    parser.add_argument("--out", default="results/benchmarks/scoring.json")
    args = parser.parse_args()
    rows = nested_data(0, "fans", 20190101)[: args.n]
    patterns, counts = compress(rows)
    models = [StructureModel.build(s, CLASS) for s in structures()]
    rng = np.random.default_rng(0)
    inits = [[m.sample_prior(rng) for _ in range(3)] for m in models]
    em_and_vb(
        models[0], patterns[:5], counts[:5], inits[0][0], vb_from_cs=False
    )  # load numba caches
    em = vb = 0.0
    for model, starts in zip(models, inits, strict=True):
        for init in starts:
            out = em_and_vb(model, patterns, counts, init, vb_from_cs=False)
            em += out["em_seconds"]
            vb += out["vb_seconds"]
    peer_ours = peer_numpy = 0.0
    for model, starts in list(zip(models, inits, strict=True))[
        :: len(models) // args.peer_structures
    ][: args.peer_structures]:
        out = em_and_vb(model, patterns, counts, starts[0], vb_from_cs=False)
        peer_ours += out["em_seconds"]
        start = time.perf_counter()
        ll, _ = numpy_map_em(model, patterns, counts, starts[0])
        peer_numpy += time.perf_counter() - start
        assert abs(ll - out["ll"]) < 1e-6 * abs(ll), (ll, out["ll"])
    truth = StructureModel.build(true_structure(), CLASS)
    ais_score(truth, rows, rng, 16, 3000.0)
    ais = ais_score(truth, rows, rng, 16384, 3000.0)
    summary = {
        "n": args.n, "structures": len(models), "restarts": 3,
        "em_seconds_all": em, "vb_seconds_all": vb, "em_plus_vb_seconds_all": em + vb,
        "vb_over_em": vb / em, "ais_run_seconds_K16384": ais.attrs["seconds"],
        "ais_run_over_vb_3restarts_per_structure": ais.attrs["seconds"] / (vb / len(models)),
        "numpy_reference_speedup_em": peer_numpy / peer_ours, "peer_structures": args.peer_structures,
    }  # fmt: skip
    write_json(summary, args.out)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
