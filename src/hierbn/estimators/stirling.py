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


class StirlingCache:
    """Thread-safe growing table of ln S(n, t). ``table(n, t)`` returns an array covering at
    least rows 0..n and columns 0..t; arrays handed out earlier stay valid (never mutated)."""

    def __init__(self) -> None:
        self._table = log_stirling_table(0, 0)
        self._lock = threading.Lock()

    @property
    def shape(self) -> tuple[int, int]:
        return self._table.shape

    def table(self, n_max: int, t_max: int) -> np.ndarray:
        with self._lock:
            rows, cols = self._table.shape
            if n_max < rows and t_max < cols:
                return self._table
            new_rows = rows if n_max < rows else max(n_max + 1, int(rows * GROWTH))
            new_cols = cols if t_max < cols else max(t_max + 1, int(cols * GROWTH))
            grown = np.full((new_rows, new_cols), -np.inf)
            grown[:rows, :cols] = self._table
            _fill(grown, rows, cols)
            self._table = grown
            return grown

    def log_s(self, n: int, t: int) -> float:
        """ln S(n, t); -inf for t > n or t = 0 < n."""
        if t > n or n < 0 or t < 0:
            return -np.inf
        return float(self.table(n, t)[n, t])


SHARED = StirlingCache()
