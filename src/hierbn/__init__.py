"""hierbn: Bayesian parameter estimation and structure scoring in discrete Bayesian networks."""

__version__ = "0.1.0"
