"""m-estimates with prefix-tree back-off (petitjean2018 eq. (16), spec §1.7).

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

from hierbn.bn.counting import family_counts

BACKOFF_RULES = ("literal", "context")


def m_estimate_theta(counts: np.ndarray, m: float) -> np.ndarray:
    """Eq. (16) on a count table ``counts[x, y]`` without back-off."""
    table = np.asarray(counts, dtype=np.float64)
    if m < 0:
        raise ValueError(f"m must be >= 0, got {m}")
    totals = table.sum(axis=0, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        theta = (table + m / table.shape[0]) / (totals + m)
    return np.where(np.isfinite(theta), theta, 1.0 / table.shape[0])


def m_estimate_backoff(
    codes: np.ndarray,
    child: int,
    parents: tuple[int, ...],
    cards: np.ndarray,
    m: float,
    rule: str = "literal",
) -> np.ndarray:
    """CPT ``theta[x, y]`` over every full parent configuration y, with back-off (spec §1.7)."""
    if rule not in BACKOFF_RULES:
        raise ValueError(f"unknown back-off rule {rule!r}; expected one of {BACKOFF_RULES}")
    if not parents:
        return m_estimate_theta(family_counts(codes, child, (), cards), m)
    card = np.asarray(cards, dtype=np.int64)
    sizes = card[list(parents)]
    n_full = int(np.prod(sizes))
    configs = np.arange(n_full)
    theta = None
    for depth in range(1, len(parents) + 1):
        counts = family_counts(codes, child, parents[:depth], card).astype(np.float64)
        prefix = configs // int(np.prod(sizes[depth:]))
        joint = counts[:, prefix]
        context = counts.sum(axis=0)[prefix][None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            estimate = (joint + m / counts.shape[0]) / (context + m)
        if theta is None:
            theta = np.where(context + m > 0, estimate, 1.0 / counts.shape[0])
            if m == 0:
                marginal = family_counts(codes, child, (), card)[:, 0].astype(np.float64)
                smooth = (marginal + 1.0 / counts.shape[0]) / (marginal.sum() + 1.0)
                theta = np.where(joint > 0, theta, smooth[:, None])
            continue
        keep = joint >= 1 if rule == "literal" else np.broadcast_to(context >= 1, joint.shape)
        theta = np.where(keep, estimate, theta)
    return theta
