"""Fit a Bayesian network on a user's table with any of the project's CPT estimators
(:mod:`hierbn.cpts`) and take it away (``hierbn fit`` on the command line).

>>> model = fit(frame, target="class", structure="tan", estimator="hier")
>>> model.predict_proba(new_rows)          # P(class | the other columns)
>>> model.write("model.bif")               # pgmpy, bnlearn's read.bif, ...

The table is prepared as the panel prepares a user's file
(:func:`hierbn.data.user_tables.prepare_table`): numbers are discretised, the missing value is
a state, an identifier-like column is refused; then coded by :mod:`hierbn.fit.encoding`. The
structure is a BN classifier by name, an edge list, or learned on BIC
(:mod:`hierbn.fit.structure`).
"""

from __future__ import annotations

from typing import Any

# the names of hierbn.fit.api, imported on first use (the estimators take seconds to import)
_API = ("DEFAULT_SETTINGS", "estimator_settings", "fit", "prepare")
__all__ = [*_API, "FittedModel"]


def __getattr__(name: str) -> Any:
    if name in _API:
        from hierbn.fit import api

        return getattr(api, name)
    if name == "FittedModel":
        from hierbn.fit.model import FittedModel

        return FittedModel
    raise AttributeError(f"module 'hierbn.fit' has no attribute {name!r}")
