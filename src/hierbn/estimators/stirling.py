"""Log unsigned Stirling numbers of the first kind, ln S(n, t), in a table that grows on demand
(petitjean2018 §4.2; petitjean2018 decision §2.4). One cache is shared by every HDP tree of a
process, since all use discount a = 0 ("the Stirling numbers are shared among the different
trees")."""

from __future__ import annotations

import math
import threading

import numpy as np
from numba import njit

GROWTH = 1.618  # golden ratio, both dimensions, as the 2018 code (petitjean2018 decision §2.4)
# counts covered by the ratio tables: the sweep's entries with more customers (a few nodes
# near the root of a large data set) weigh their candidates from ln S instead
# (petitjean2018 decision §2.9); 2,048 or 4,096 were no faster
RATIO_ROWS = 1024


@njit(cache=True)
def _fill(table: np.ndarray, done_rows: int, done_cols: int) -> None:
    """Fill the entries outside the already computed block [0, done_rows) x [0, done_cols) by
    S(n, t) = S(n-1, t-1) + (n-1) S(n-1, t), in log space
    (petitjean2018 decision §2.4)."""
    rows, cols = table.shape
    for n in range(1, rows):
        log_prev = math.log(n - 1) if n > 1 else -np.inf
        first = 1 if n >= done_rows else done_cols
        for t in range(first, min(n, cols - 1) + 1):
            a = table[n - 1, t - 1]
            b = log_prev + table[n - 1, t] if t <= n - 1 else -np.inf
            if a == -np.inf and b == -np.inf:
                table[n, t] = -np.inf
                continue
            top = max(a, b)
            table[n, t] = top + math.log(math.exp(a - top) + math.exp(b - top))


def log_stirling_table(n_max: int, t_max: int) -> np.ndarray:
    """L[n, t] = ln S(n, t) for n <= n_max, t <= t_max (-inf where S is zero)."""
    table = np.full((n_max + 1, t_max + 1), -np.inf)
    table[0, 0] = 0.0
    _fill(table, 1, 1)
    return table


def stirling_ratios(log_s: np.ndarray, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """The ratios of neighbouring Stirling numbers of the table ``log_s`` = ln S, for the
    counts n < ``rows`` (at most the table's rows - 1) and t < min(rows, columns), as S(n, t)
    is 0 for t > n: ``up[n, t]`` = S(n, t + 1) / S(n, t) and ``down_t[t, n]`` =
    S(n + 1, t) / S(n, t) (transposed: the sweep walks n), 0 where S(n, t) = 0 or the next one
    is outside the table. Each is e to the difference of two logarithms, so it carries their
    rounding (petitjean2018 decision §2.9)."""
    rows = min(rows, log_s.shape[0] - 1)
    cols = min(rows, log_s.shape[1])
    block = log_s[: rows + 1, : cols + 1]
    with np.errstate(invalid="ignore"):
        up = np.zeros((rows, cols))
        up[:, : block.shape[1] - 1] = np.exp(block[:rows, 1:] - block[:rows, :-1])
        down = np.exp(block[1:, :cols] - block[:-1, :cols])
    up[~np.isfinite(up)] = 0.0
    down[~np.isfinite(down)] = 0.0
    return up, np.ascontiguousarray(down.T)


class StirlingCache:
    """Thread-safe growing table of ln S(n, t). ``table(n, t)`` returns an array covering at
    least rows 0..n and columns 0..t; ``tables(n, t)`` adds its ratio tables
    (:func:`stirling_ratios`, counts below ``ratio_rows``); arrays handed out earlier stay
    valid (never mutated)."""

    def __init__(self, ratio_rows: int = RATIO_ROWS) -> None:
        self._table = np.zeros((1, 1))  # ln S(0, 0) = 0; grown (and compiled) on first use
        self._ratios: tuple[np.ndarray, np.ndarray] | None = None
        self._ratio_rows = ratio_rows
        self._lock = threading.Lock()

    @property
    def shape(self) -> tuple[int, int]:
        return self._table.shape

    def table(self, n_max: int, t_max: int) -> np.ndarray:
        with self._lock:
            return self._grown(n_max, t_max)

    def tables(self, n_max: int, t_max: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(ln S, up, down_t) covering at least rows 0..n and columns 0..t of ln S."""
        with self._lock:
            table = self._grown(n_max, t_max)
            if self._ratios is None:
                self._ratios = stirling_ratios(table, self._ratio_rows)
            return (table, *self._ratios)

    def _grown(self, n_max: int, t_max: int) -> np.ndarray:
        rows, cols = self._table.shape
        if n_max < rows and t_max < cols:
            return self._table
        new_rows = rows if n_max < rows else max(n_max + 1, int(rows * GROWTH))
        new_cols = cols if t_max < cols else max(t_max + 1, int(cols * GROWTH))
        grown = np.full((new_rows, new_cols), -np.inf)
        grown[:rows, :cols] = self._table
        _fill(grown, rows, cols)
        self._table = grown
        self._ratios = None
        return grown

    def log_s(self, n: int, t: int) -> float:
        """ln S(n, t); -inf for t > n or t = 0 < n."""
        if t > n or n < 0 or t < 0:
            return -np.inf
        return float(self.table(n, t)[n, t])


SHARED = StirlingCache()
