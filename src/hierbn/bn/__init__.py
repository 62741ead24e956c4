"""Discrete Bayesian-network building blocks: counting kernels, structures, classifiers."""
