"""Family counting kernel throughput vs a plain-numpy reference (one core, one run).

Target (issue 2): >= 50 million (row x variable) cells per second.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from hierbn.bn.counting import family_counts, validate_codes
from hierbn.io import write_json


def numpy_counts(
    codes: np.ndarray, child: int, parents: list[int], cards: np.ndarray
) -> np.ndarray:
    """``counts[y, x]`` (parent configurations in rows, last parent fastest)."""
    y = np.ravel_multi_index(tuple(codes[:, p] for p in parents), tuple(cards[parents]))
    flat = np.bincount(
        y * int(cards[child]) + codes[:, child],
        minlength=int(cards[child] * np.prod(cards[parents])),
    )
    return flat.reshape(-1, cards[child])


def best_of(func, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--vars", type=int, default=20)
    parser.add_argument("--out", default="results/benchmarks/counting.json")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    cards = rng.integers(2, 6, size=args.vars)
    codes = validate_codes(rng.integers(0, cards, size=(args.rows, args.vars)), cards)
    families = [
        (i, [args.vars - 1, (i + 1) % (args.vars - 1)]) for i in range(args.vars - 1)
    ]  # TAN-like
    cells = sum(args.rows * (1 + len(p)) for _, p in families)
    assert all(
        np.array_equal(family_counts(codes, c, p, cards), numpy_counts(codes, c, p, cards))
        for c, p in families
    )
    ours = best_of(lambda: [family_counts(codes, c, p, cards) for c, p in families])
    peer = best_of(lambda: [numpy_counts(codes, c, p, cards) for c, p in families])
    summary = {
        "rows": args.rows,
        "families": len(families),
        "cells": cells,
        "numba_cells_per_s": cells / ours,
        "numpy_cells_per_s": cells / peer,
        "speedup_vs_numpy": peer / ours,
    }
    write_json(summary, args.out)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
