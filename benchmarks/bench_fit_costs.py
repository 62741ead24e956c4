"""What ``hierbn fit`` costs per CPT with each estimator at its default settings (the papers'
chains), on three files of the data mirror: credit-g (1,000 rows, 21 columns), kr-vs-kp (3,196
rows, 37) and letter (20,000 rows, 17), each with TAN and kDB-2. Prints seconds per CPT
(the fit's seconds / the number of CPTs) for the README's table.

    python benchmarks/bench_fit_costs.py [--estimators hier hdp ...] [--mirror ../shared/data]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from hierbn.data.user_tables import read_user_table
from hierbn.fit import DEFAULT_SETTINGS, fit

FILES = {
    "credit-g": ("renatopp/arff-datasets/classification/credit.g.arff", "class"),
    "kr-vs-kp": ("renatopp/arff-datasets/classification/kr.vs.kp.arff", "class"),
    "letter": ("renatopp/arff-datasets/classification/letter.arff", "class"),
}
ESTIMATORS = ["laplace", "bdeu1", "m", "hier", "hdp", "hidden"]


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
                print(rows[-1], flush=True)
    table = pd.DataFrame(rows)
    wide = table.pivot_table(index="estimator", columns=["data", "structure"],
                             values="seconds_per_cpt").reindex(args.estimators)  # fmt: skip
    print(wide.to_string(float_format=lambda v: f"{v:.3g}"))
    key = {e: DEFAULT_SETTINGS["bdeu" if e.startswith("bdeu") else e] for e in args.estimators}
    print("settings:", key)


if __name__ == "__main__":
    main()
