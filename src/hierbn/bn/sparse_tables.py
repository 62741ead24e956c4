"""Parent–child contingency tables over the *observed* parent configurations only.

A dense table has ``prod(card[parents])`` rows, most of them empty once a node has a few many-level
parents (METABRIC's candidate sets exceed 10^6 configurations). Every score and sampler of the
project that sums over parent configurations gets exactly the same value from the sparse table,
because an empty configuration contributes 0 (dombowsky2025 decisions §2.5 and A20): only the rows
that occur in the data are built, by encoding each row's parent codes to one integer and counting
with ``np.unique`` and ``np.bincount``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hierbn.validate import check_codes

_MAX_KEY = 2**62


@dataclass(frozen=True)
class SparseTable:
    """``counts[p, x]``: rows of the data with the ``p``-th observed parent configuration
    ``configs[p]`` (parent codes, lexicographic order) and child value ``x``. A node without
    parents has one configuration (the root convention of dombowsky2025 decisions §1.2) and
    ``configs`` of width 0."""

    counts: np.ndarray  # (P, k) int64, every row sum > 0
    configs: np.ndarray  # (P, n_parents) int64

    @property
    def parent_counts(self) -> np.ndarray:
        """n_Pa(x_Pa) of each observed configuration (all > 0)."""
        return self.counts.sum(axis=1)


def configuration_ids(parents: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dense ids ``0..P-1`` of each row's parent configuration and the ``P`` distinct
    configurations in lexicographic order. ``parents[row, parent]`` are non-negative codes."""
    codes = np.asarray(parents, dtype=np.int64)
    n, m = codes.shape
    if m == 0:
        return np.zeros(n, dtype=np.int64), np.zeros((1 if n else 0, 0), dtype=np.int64)
    radix = codes.max(axis=0) + 1 if n else np.ones(m, dtype=np.int64)
    if float(np.prod(radix.astype(np.float64))) < _MAX_KEY:
        # one integer per row (last parent fastest), so the unique is over a 1-d array
        weights = np.append(np.cumprod(radix[::-1])[::-1][1:], 1)  # prod(radix[j+1:])
        keys, ids = np.unique(codes @ weights, return_inverse=True)
        configs = (keys[:, None] // weights[None, :]) % radix[None, :]
        return ids.reshape(-1), configs
    configs, ids = np.unique(codes, axis=0, return_inverse=True)
    return ids.reshape(-1), configs


def parent_child_table(child: np.ndarray, parents: np.ndarray, child_card: int) -> SparseTable:
    """The sparse table of ``child`` (codes ``0..child_card-1``) against the columns of
    ``parents`` (``[row, parent]`` codes; width 0 for a root node)."""
    y = check_codes(child, [child_card], "child", allow_empty=True)[:, 0]
    pa = np.asarray(parents)
    if pa.ndim != 2 or pa.shape[0] != y.shape[0]:
        raise ValueError(
            f"parents must be [row, parent] with {y.shape[0]} rows, got shape {pa.shape}"
        )
    if pa.shape[1]:
        pa = check_codes(pa, pa.max(axis=0) + 1 if pa.size else np.ones(pa.shape[1]), "parents",
                         allow_empty=True)  # fmt: skip
    ids, configs = configuration_ids(pa)
    n_configs = configs.shape[0]
    counts = np.bincount(ids * child_card + y, minlength=n_configs * child_card)
    return SparseTable(counts.reshape(n_configs, child_card).astype(np.int64), configs)


def stack_tables(tables: list[np.ndarray]) -> np.ndarray:
    """Tables ``(P_i, k)`` of independent replicates as one ``(R, max P_i, k)`` array padded
    with empty rows, which every HiDDeN kernel treats as absent (they contribute exactly 0)."""
    if not tables:
        raise ValueError("no tables to stack")
    widths = {t.shape[1] for t in tables}
    if len(widths) != 1:
        raise ValueError(f"tables have different numbers of child values: {sorted(widths)}")
    out = np.zeros((len(tables), max(t.shape[0] for t in tables), widths.pop()), dtype=np.int64)
    for r, table in enumerate(tables):
        out[r, : table.shape[0]] = table
    return out
