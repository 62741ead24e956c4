"""A job's fixed cost: what every ``hierbn <study> <step>`` pays before its work (issue 24).

Per study, a fresh interpreter imports the CLI, builds the argument parser and imports the
study's protocol (what a step imports before it reads its inputs); the median of ``--repeats``
runs, as a ratio against the named peer measured in the same run: a fresh interpreter that
imports numpy and pandas only (the floor of any step that writes parquet).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from hierbn.io import write_json
from hierbn.studies import STUDIES

PEER = "import numpy, pandas"


def job_code(study: str) -> str:
    return (
        "from hierbn.cli import build_parser; build_parser(); "
        f"import hierbn.studies.{study}.protocol"
    )


def median_seconds(code: str, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out", default="results/benchmarks/startup.json")
    args = parser.parse_args()
    median_seconds(job_code(STUDIES[0]), 1)  # the Numba cache and the OS page cache warm
    peer = median_seconds(PEER, args.repeats)
    per_study = {s: median_seconds(job_code(s), args.repeats) for s in STUDIES}
    summary = {
        "repeats": args.repeats,
        "peer": PEER,
        "peer_seconds": peer,
        "job_seconds": per_study,
        "job_over_peer": {s: t / peer for s, t in per_study.items()},
    }
    write_json(summary, args.out)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
