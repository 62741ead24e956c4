"""What ``hierbn fit`` costs per CPT with each estimator at its default settings (the papers'
chains), on three files of the data mirror: credit-g (1,000 rows, 21 columns), kr-vs-kp (3,196
rows, 37) and letter (20,000 rows, 17), each with TAN and kDB-2. Prints seconds per CPT
(the fit's seconds / the number of CPTs) for the README's table.

Peer: pgmpy's ``DiscreteBayesianEstimator`` (BDeu, equivalent sample size 1) fitting the same
network on the same coded rows, against our ``bdeu1``; the CPTs must agree to 1e-12.

    python benchmarks/bench_fit_costs.py [--estimators hier hdp ...] [--mirror ../shared/data]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from hierbn.data.user_tables import read_user_table
from hierbn.fit import DEFAULT_SETTINGS, FittedModel, fit

FILES = {
    "credit-g": ("renatopp/arff-datasets/classification/credit.g.arff", "class"),
    "kr-vs-kp": ("renatopp/arff-datasets/classification/kr.vs.kp.arff", "class"),
    "letter": ("renatopp/arff-datasets/classification/letter.arff", "class"),
}
ESTIMATORS = ["laplace", "bdeu1", "m", "hier", "hdp", "hidden"]


def pgmpy_bdeu_seconds(model: FittedModel, frame: pd.DataFrame) -> float:
    """Seconds of pgmpy's BDeu (ess 1) fit of ``model``'s network on ``frame``'s coded rows,
    after checking its CPTs equal ours to 1e-12."""
    import numpy as np
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.parameter_estimator.discrete_bayesian import DiscreteBayesianEstimator

    codes = model.encode(frame)
    states = {n: list(model.states(n)) for n in model.nodes}
    rows = pd.DataFrame({n: np.asarray(states[n], dtype=object)[codes[:, i]]
                         for i, n in enumerate(model.nodes)})  # fmt: skip
    peer = DiscreteBayesianNetwork((p, n) for n in model.nodes for p in model.parents(n))
    peer.add_nodes_from(model.nodes)
    estimator = DiscreteBayesianEstimator(states, prior_type="BDeu", equivalent_sample_size=1)
    start = time.perf_counter()
    peer.fit(rows, estimator=estimator)
    seconds = time.perf_counter() - start
    for node in model.nodes:
        cpd = peer.get_cpds(node).copy()
        if model.parents(node):
            cpd.reorder_parents(list(model.parents(node)))
        gap = np.abs(cpd.get_values() - model.table(node).T).max()
        if gap > 1e-12:
            raise AssertionError(f"{node}: pgmpy's BDeu differs from ours by {gap}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mirror", type=Path, default=Path("../shared/data"))
    parser.add_argument("--estimators", nargs="+", default=ESTIMATORS)
    parser.add_argument("--structures", nargs="+", default=["tan", "kdb2"])
    args = parser.parse_args()
    rows = []
    for name, (path, target) in FILES.items():
        frame = read_user_table(args.mirror / path)
        target = target if target in frame.columns else frame.columns[-1]
        for structure in args.structures:
            for estimator in args.estimators:
                model = fit(frame, target=target, structure=structure, estimator=estimator)
                rows.append({"data": name, "rows": len(frame), "structure": structure,
                             "estimator": estimator, "cpts": len(model.nodes),
                             "seconds": model.seconds,
                             "seconds_per_cpt": model.seconds / len(model.nodes)})  # fmt: skip
                if estimator == "bdeu1":
                    peer = pgmpy_bdeu_seconds(model, frame)
                    rows[-1] |= {
                        "pgmpy_bdeu1_seconds": peer,
                        "pgmpy_over_ours": peer / model.seconds,
                    }
                print(rows[-1], flush=True)
    table = pd.DataFrame(rows)
    wide = table.pivot_table(index="estimator", columns=["data", "structure"],
                             values="seconds_per_cpt").reindex(args.estimators)  # fmt: skip
    print(wide.to_string(float_format=lambda v: f"{v:.3g}"))
    key = {e: DEFAULT_SETTINGS["bdeu" if e.startswith("bdeu") else e] for e in args.estimators}
    print("settings:", key)


if __name__ == "__main__":
    main()
