"""Regression baselines used next to the hierarchical models: OLS (statsmodels), lasso and ridge
with glmnet's conventions (scikit-learn), the order in which features enter a lasso path, and
a random-intercept linear mixed model with BLUP predictions (statsmodels MixedLM).

glmnet conventions (what the compared papers used): columns standardised with the 1/n standard
deviation, an unpenalised intercept, lambda on the (1/2n)||y - Xb||^2 scale, a grid of 100
log-spaced values from lambda_max down to 1e-4 lambda_max."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
import statsmodels.api as sm
from sklearn.linear_model import lars_path, lasso_path
from sklearn.model_selection import KFold

N_LAMBDA = 100
LAMBDA_RATIO = 1e-4


def ols_table(x: np.ndarray, y: np.ndarray, names: list[str]) -> pd.DataFrame:
    """OLS of ``y`` on the columns of ``x`` as given (add a ones column for an intercept):
    estimate, standard error, t and two-sided p per column."""
    fit = sm.OLS(np.asarray(y, dtype=float), np.asarray(x, dtype=float)).fit()
    return pd.DataFrame(
        {
            "term": names,
            "estimate": fit.params,
            "std_error": fit.bse,
            "t_value": fit.tvalues,
            "p_value": fit.pvalues,
        }
    )


def ols_predict(x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray) -> np.ndarray:
    """Least-squares predictions with the design as given (no intercept added)."""
    coef, *_ = np.linalg.lstsq(np.asarray(x_train, float), np.asarray(y_train, float), rcond=None)
    return np.asarray(x_test, float) @ coef


@dataclass(frozen=True)
class Standardiser:
    """glmnet's standardisation: centre, divide by the 1/n standard deviation (constant columns
    are left unscaled)."""

    mean: np.ndarray
    scale: np.ndarray

    @classmethod
    def fit(cls, x: np.ndarray) -> Standardiser:
        values = np.asarray(x, dtype=float)
        scale = values.std(axis=0)
        return cls(values.mean(axis=0), np.where(scale > 0, scale, 1.0))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return (np.asarray(x, dtype=float) - self.mean) / self.scale


def lambda_grid(x: np.ndarray, y: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    """glmnet's grid for elastic-net mixing ``alpha`` (ridge: glmnet takes alpha = 0.001 for
    lambda_max) on standardised x and centred y."""
    n = x.shape[0]
    top = np.max(np.abs(x.T @ (y - y.mean()))) / (n * max(alpha, 1e-3))
    return np.geomspace(top, top * LAMBDA_RATIO, N_LAMBDA)


def lasso_entry_order(x: np.ndarray, y: np.ndarray, exact: bool = True) -> list[int]:
    """Columns in the order they first become non-zero along the lasso path, on standardised
    x and centred y: the exact LARS-lasso path, or glmnet's 100-lambda grid (ties by column).
    Columns that never enter (a redundant one-hot) come last, in column order."""
    xs = Standardiser.fit(x)(x)
    yc = np.asarray(y, dtype=float) - np.mean(y)
    if exact:
        _, _, coefs = lars_path(xs, yc, method="lasso")
    else:
        _, coefs, _ = lasso_path(xs, yc, alphas=lambda_grid(xs, yc), max_iter=100_000, tol=1e-10)
    active = np.abs(coefs) > 0
    first = np.where(active.any(axis=1), active.argmax(axis=1), active.shape[1])
    return [int(j) for j in np.lexsort((np.arange(first.size), first))]  # never entered: last


def _path(
    kind: str, x: np.ndarray, y: np.ndarray, grid: np.ndarray
) -> tuple[np.ndarray, float, np.ndarray]:
    """Coefficients (columns, lambdas) of the lasso or ridge path with an unpenalised intercept
    (x and y centred here), plus the centring: predictions are (x - x_mean) @ coef + y_mean."""
    x_mean, y_mean = x.mean(axis=0), float(y.mean())
    xc, yc = x - x_mean, y - y_mean
    if kind == "lasso":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # convergence chatter at the smallest lambdas
            _, coefs, _ = lasso_path(xc, yc, alphas=grid, max_iter=100_000, tol=1e-8)
    else:  # ridge: one SVD gives every lambda; glmnet's (1/2n) scale -> n * lambda
        u, sv, vt = np.linalg.svd(xc, full_matrices=False)
        shrink = sv[:, None] / (sv[:, None] ** 2 + x.shape[0] * grid[None, :])
        coefs = vt.T @ (shrink * (u.T @ yc)[:, None])
    return coefs, y_mean, x_mean


def penalised_cv_predict(
    kind: str,
    x_train: np.ndarray,
    y_train: np.ndarray,
    x_test: np.ndarray,
    seed: int,
    rule: str = "min",
    folds: int = 10,
) -> tuple[np.ndarray, float]:
    """Lasso or ridge with lambda from an inner shuffled ``folds``-fold CV over glmnet's grid
    (``rule`` min or 1se); returns the test predictions and the chosen lambda."""
    if kind not in ("lasso", "ridge") or rule not in ("min", "1se"):
        raise ValueError(f"kind must be lasso or ridge and rule min or 1se, got {kind}, {rule}")
    scaler = Standardiser.fit(x_train)
    xs, xt = scaler(x_train), scaler(x_test)
    y = np.asarray(y_train, dtype=float)
    grid = lambda_grid(xs, y, 1.0 if kind == "lasso" else 0.0)
    errors = np.zeros((folds, grid.size))
    splitter = KFold(n_splits=folds, shuffle=True, random_state=seed)
    for k, (fit_rows, val_rows) in enumerate(splitter.split(xs)):
        coefs, y_mean, x_mean = _path(kind, xs[fit_rows], y[fit_rows], grid)
        predictions = (xs[val_rows] - x_mean) @ coefs + y_mean
        errors[k] = np.mean((predictions - y[val_rows, None]) ** 2, axis=0)
    mean, se = errors.mean(axis=0), errors.std(axis=0, ddof=1) / np.sqrt(folds)
    best = int(np.argmin(mean))
    if rule == "1se":
        best = int(np.flatnonzero(mean <= mean[best] + se[best])[0])  # the largest such lambda
    coefs, y_mean, x_mean = _path(kind, xs, y, grid[: best + 1])
    return (xt - x_mean) @ coefs[:, -1] + y_mean, float(grid[best])


def mixed_model_predict(
    x_train: np.ndarray,
    y_train: np.ndarray,
    groups_train: np.ndarray,
    x_test: np.ndarray,
    groups_test: np.ndarray,
) -> np.ndarray:
    """Random-intercept linear mixed model fitted by REML (fixed effects: an intercept and the
    columns of x); predictions add the group's BLUP (0 for a group not seen in training)."""
    exog = sm.add_constant(np.asarray(x_train, dtype=float), has_constant="add")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = sm.MixedLM(np.asarray(y_train, float), exog, groups=np.asarray(groups_train)).fit(
            reml=True
        )
    blups = {g: float(np.asarray(v)[0]) for g, v in fit.random_effects.items()}
    fixed = sm.add_constant(np.asarray(x_test, dtype=float), has_constant="add") @ fit.fe_params
    return fixed + np.array([blups.get(g, 0.0) for g in np.asarray(groups_test)])
