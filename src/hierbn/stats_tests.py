"""Significance tests shared by the studies' comparisons over data sets."""

from __future__ import annotations


def sign_test(wins: int, losses: int) -> float:
    """Two-tailed binomial sign test of wins against losses, draws excluded (Demšar 2006 §3.1.3;
    petitjean2018 decision §4.6); 1.0 when there is neither."""
    from scipy.stats import binomtest  # on use: scipy.stats costs ~0.4 s at a job's start

    return float(binomtest(wins, wins + losses, 0.5).pvalue) if wins + losses else 1.0
