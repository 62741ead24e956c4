"""Parameter estimators for discrete Bayesian-network CPTs.

Every estimator takes a count table ``counts[x, y]`` (rows: child states, columns:
joint parent configurations) and returns the CPT ``theta[x, y]`` whose columns sum to one.
"""
