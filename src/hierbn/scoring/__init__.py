"""Structure scores of discrete Bayesian networks.

``bipartite``, ``kernels``, ``scores``, ``ais`` and ``exact``: DAGs with hidden variables
(beal2006): MAP-EM, BIC, BICp, Cheeseman–Stutz, the VBEM lower bound, annealed importance
sampling and exact oracles. ``decomposable``: the complete-data scores (log-likelihood, BIC,
AIC, BDeu) of the structure search (dombowsky2025)."""
