"""What a cold machine pays (issue 46): each kernel family's first call with an empty Numba
cache against the same call once the cache is warm, each a fresh process on credit-g (1,000
rows, 21 columns; the README's ``hierbn fit`` example) or beal2006's smallest score job:

- structure learning: ``hierbn fit --learn hc`` and ``--learn tabu``;
- the CPT estimators: ``hierbn fit --structure nb --estimator`` laplace, bdeu1, m, hier, and the
  samplers hdp and hidden at 50 iterations;
- the grouped lasso (dombowsky2025's competitor): ``select_neighbours`` on 500 rows of six
  three-level columns;
- scoring: ``hierbn beal2006 scores`` on one instance of 10 rows;
- reading a CSV file: credit-g written as CSV, read by ``hierbn.data.readers.read_csv`` (the
  one-pass reader of an unquoted file, issue 45).

A cold call uses its own empty cache folder (``NUMBA_CACHE_DIR``), so it compiles every kernel it
reaches, shared ones included; the warm call then runs in that folder. Their difference is what
the first call on a new machine, container or cluster node pays. Run it with nothing else on the
machine: the compile is single-threaded CPU work.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hierbn.io import write_json

CREDIT = "renatopp/arff-datasets/classification/credit.g.arff"
GROUP_LASSO = (  # dombowsky2025's lasso competitor on 500 rows of 6 three-level columns
    "import numpy as np; from hierbn.structure_learning.group_lasso import select_neighbours; "
    "codes = np.random.default_rng(0).integers(0, 3, size=(500, 6)); "
    "select_neighbours(codes, 0, [1, 2, 3, 4, 5], seed=0)"
)
CSV_READ = (  # credit-g as CSV (no quotes), read the way hierbn fit and the panel read a .csv
    "import sys; from hierbn.data.readers import read_any, read_csv; "
    "path = sys.argv[2]; read_any(sys.argv[1], 'arff').to_csv(path, index=False); read_csv(path)"
)
BEAL_CONFIG = (
    '{"exact_max_n": 10, "reading": "fans", "restarts": 3, "vb_from_cs": true, "zero_floor": 0.0}'
)


def commands(mirror: Path, out: Path) -> dict[str, list[str]]:
    fit = [sys.executable, "-m", "hierbn.cli", "fit", "--data", str(mirror / CREDIT), "--out",
           str(out / "net.bif")]  # fmt: skip
    nb = ["--target", "class", "--structure", "nb"]
    runs = {
        "hc": [*fit, "--learn", "hc", "--estimator", "laplace"],
        "tabu": [*fit, "--learn", "tabu", "--estimator", "laplace"],
        **{name: [*fit, *nb, "--estimator", name] for name in ("laplace", "bdeu1", "m", "hier")},
        "hdp": [*fit, *nb, "--estimator", "hdp", "--setting", "iterations=50"],
        "hidden": [
            *fit,
            *nb,
            "--estimator",
            "hidden",
            "--setting",
            "iterations=50",
            "--setting",
            "burn=10",
        ],
        "group lasso": [sys.executable, "-c", GROUP_LASSO],
        "read a CSV": [
            sys.executable,
            "-c",
            CSV_READ,
            str(mirror / CREDIT),
            str(out / "credit.csv"),
        ],
        "beal2006 scores": [
            sys.executable,
            "-m",
            "hierbn.cli",
            "beal2006",
            "scores",
            "--instances",
            "1",
            "--n",
            "10",
            "--config",
            BEAL_CONFIG,
            "--seed",
            "1",
            "--threads",
            "1",
            "--out",
            str(out / "scores.parquet"),
        ],
    }
    return runs


def seconds(command: list[str], cache: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True,
                   env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})  # fmt: skip
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--mirror", default=str(Path(__file__).resolve().parents[2] / "shared" / "data")
    )
    parser.add_argument("--out", default="results/benchmarks/cold_start.json")
    args = parser.parse_args()
    rows = {}
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for name, command in commands(Path(args.mirror), work).items():
            cache = work / f"cache-{len(rows)}"
            cold = seconds(command, cache)
            warm = min(seconds(command, cache) for _ in range(2))
            rows[name] = {
                "cold_seconds": cold,
                "warm_seconds": warm,
                "compile_seconds": cold - warm,
            }
            print(f"{name:16} cold {cold:6.1f} s  warm {warm:5.1f} s  compile {cold - warm:5.1f} s")
    write_json(rows, args.out)


if __name__ == "__main__":
    main()
