"""Scoring DAG structures with hidden variables (beal2006): MAP-EM, BIC, BICp,
Cheeseman–Stutz, the VBEM lower bound, annealed importance sampling and exact oracles."""
