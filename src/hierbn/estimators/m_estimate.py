"""m-estimates (petitjean2018 eq. (16), petitjean2018 decision §1.7); back-off queries live
in m_estimate_tree.

p(x | pi) = (counts(x, pi) + m/|X|) / (counts(pi) + m), where pi = (class, parent_1, ...) in
the structure's parent order. Back-off walks the prefix of the parent list:
- ``literal`` (default, the paper's text): use the deepest prefix whose joint count
  counts(x, prefix) >= 1, else the class-only level (per child value, so a column need not
  sum to one);
- ``context`` (the 2018 code): use the deepest prefix whose context count counts(prefix) >= 1
  (columns stay normalised).
With m = 0 a value unseen even with the class alone takes the smoothed marginal
(counts(x) + 1/|X|)/(N + 1), so no probability is zero.
"""

from __future__ import annotations

import numpy as np

from hierbn.validate import check_counts, check_positive

BACKOFF_RULES = ("literal", "context")


def m_estimate_theta(counts: np.ndarray, m: float) -> np.ndarray:
    """Eq. (16) on a count table ``counts[y, x]`` without back-off."""
    table = check_counts(counts)
    m = check_positive(m, "m", allow_zero=True)
    totals = table.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        theta = (table + m / table.shape[1]) / (totals + m)
    return np.where(totals + m > 0, theta, 1.0 / table.shape[1])  # m = 0, empty row: uniform
