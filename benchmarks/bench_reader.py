"""The CSV reader of ``hierbn fit`` and the panel (:func:`hierbn.data.readers.read_csv`) on a
50,000-row ALARM table (37 text columns; bnlearn's 20,000 rows resampled with replacement,
seed 0), best of ``--repeats`` runs, against peers measured in the same run:

- ``pandas.read_csv(path)`` with its defaults (object columns, nothing checked);
- ``pandas.read_csv(path, dtype="category")``: the same parser giving categoricals, as ours does;
- the reader before issue 45 (``reference_csv_reader.py``), whose table must be ours exactly.

Targets (issue 45): >= 10x the reader before, and within 2x of ``pandas.read_csv``. Ours runs on
one thread (the pipeline's jobs, ``hierbn fit`` by default) and on two (``hierbn fit
--threads 2``). The ALARM file has no quotes, so ours reads it in one pass
(:mod:`hierbn.data.csv_kernels`) on one thread either way.

Needs the mirror (``--mirror``, default ``../shared/data``) for ALARM.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from hierbn.data.readers import read_csv, read_rda
from hierbn.io import write_json

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_csv_reader

ALARM = "cran/bnlearn/data/alarm.rda"


def best(run: Callable[[], object], repeats: int) -> tuple[float, object]:
    """The shortest of ``repeats`` wall times of ``run()`` and its last result."""
    seconds, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        seconds.append(time.perf_counter() - start)
    return min(seconds), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--mirror", default=str(Path(__file__).resolve().parents[2] / "shared" / "data")
    )
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default="results/benchmarks/reader.json")
    args = parser.parse_args()
    alarm = read_rda(Path(args.mirror) / ALARM)
    rows = np.random.default_rng(0).integers(0, len(alarm), args.rows)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "alarm.csv"
        alarm.iloc[rows].to_csv(path, index=False)
        ours1, table = best(lambda: read_csv(path), args.repeats)
        ours2, table2 = best(lambda: read_csv(path, threads=2), args.repeats)
        pandas_default, _ = best(lambda: pd.read_csv(path), args.repeats)
        pandas_category, _ = best(lambda: pd.read_csv(path, dtype="category"), args.repeats)
        before, old = best(lambda: reference_csv_reader.read_csv(path), max(1, args.repeats // 2))
    pd.testing.assert_frame_equal(table, old)  # the same table as the reader before
    pd.testing.assert_frame_equal(table2, old)
    result = {
        "rows": args.rows,
        "columns": table.shape[1],
        "ours_seconds": {"1 thread": ours1, "2 threads": ours2},
        "pandas_read_csv_seconds": pandas_default,
        "pandas_read_csv_category_seconds": pandas_category,
        "before_issue_45_seconds": before,
        "speedup_vs_before": {"1 thread": before / ours1, "2 threads": before / ours2},
        "ratio_to_pandas_read_csv": {
            "1 thread": ours1 / pandas_default,
            "2 threads": ours2 / pandas_default,
        },
        "ratio_to_pandas_category": {
            "1 thread": ours1 / pandas_category,
            "2 threads": ours2 / pandas_category,
        },
    }
    write_json(result, args.out)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
