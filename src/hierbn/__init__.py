"""hierbn: Bayesian parameter estimation and structure scoring in discrete Bayesian networks."""

from hierbn.numba_cache import use_source_keyed_cache

__version__ = "0.1.0"

use_source_keyed_cache()
