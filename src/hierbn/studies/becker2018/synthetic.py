"""The synthetic substitute of becker2018 (decisions §4): 13 unbalanced groups with the real class
sizes, collinear Likert items from a latent satisfaction score, the pilot's population weights
as truth (all of them, or a sparse scenario), and the R repository's toy test."""

from __future__ import annotations

import numpy as np

from hierbn.estimators.hier_regression import GroupedData
from hierbn.studies.becker2018.data import EXPECTED
from hierbn.studies.becker2018.paper import PREDICTORS

SCENARIOS = ("dense", "sparse")
# Not paper numbers: a pilot fit, the faithful VB fixed point on the real data (decision 1), is
# the truth of the substitute (decisions §4), in PREDICTORS order then the intercept.
PILOT_DELTA = (
    0.3806, 0.3868, 0.0375, 0.0250, -0.0211, 0.0160, 0.0274, -0.0056, 0.0090, 0.0003, -0.0541,
    -0.0244, -0.0244, -0.0131, 0.0062, 0.0169, -0.0012, -0.0735, 0.0951, -0.0354, -0.0035,
    0.0084, 0.0133, 0.0458, -0.0014, 0.0071, 0.0358, -0.0591, 0.0105, -0.0064, 1.6090,
)  # fmt: skip
# The sparse scenario (decisions §4): these predictors and the intercept keep their weights.
SPARSE_SUPPORT = ("nb.repeat", "attendance", "Q9", "Q16", "Q17", "Q22", "Q26")
# The R repository's self-test (decisions §4, not in the paper): the population weights of its toy
# data, (slope, intercept).
TOY_DELTA = (0.1, 0.3)
TRUE_POOLING = 586.0  # s: between-class SD of the weights ~ 0.041
TRUE_NOISE = 0.744  # sigma (a precision)


def true_delta(scenario: str) -> np.ndarray:
    """The population weights: the pilot's m_Delta, or only its sparse support (+ intercept)."""
    if scenario not in SCENARIOS:
        raise ValueError(f"unknown scenario {scenario!r}; expected one of {SCENARIOS}")
    delta = np.array(PILOT_DELTA)
    if scenario == "sparse":
        keep = np.array([p in SPARSE_SUPPORT for p in PREDICTORS] + [True])
        delta = np.where(keep, delta, 0.0)
    return delta


def synthetic_design(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(x with a trailing ones column, group codes 0..12) of N = 5820 synthetic rows."""
    sizes = np.array(EXPECTED["class_sizes"])
    n = int(sizes.sum())
    repeat = rng.choice([1, 2, 3], n, p=[0.843, 0.099, 0.058])
    attendance = rng.choice(5, n, p=[0.327, 0.177, 0.136, 0.215, 0.145])
    latent = rng.normal(size=(n, 1))
    items = np.clip(np.rint(3.1 + 1.3 * (latent + rng.normal(0, 0.35, (n, 28)))), 1, 5)
    constant = rng.random(n) < 0.4  # the real data has many rows with all 28 items equal
    items[constant] = items[constant, :1]
    x = np.column_stack([repeat, attendance, items, np.ones(n)]).astype(float)
    return x, np.repeat(np.arange(sizes.size), sizes)


def synthetic_data(
    rng: np.random.Generator, scenario: str
) -> tuple[GroupedData, np.ndarray, np.ndarray]:
    """(statistics, true Delta, true beta (C, D)) of one synthetic data set (decisions §4)."""
    delta = true_delta(scenario)
    x, groups = synthetic_design(rng)
    beta = delta + rng.normal(0, 1 / np.sqrt(TRUE_POOLING), (groups.max() + 1, delta.size))
    y = np.einsum("nd,nd->n", x, beta[groups]) + rng.normal(0, 1 / np.sqrt(TRUE_NOISE), x.shape[0])
    return GroupedData.from_arrays(x, y, groups, beta.shape[0]), delta, beta


def toy_data(rng: np.random.Generator) -> GroupedData:
    """The R repository's self-test (decisions §4): 6 groups of 100 rows, x = (1..100, 1),
    beta_i = (0.1, 0.3) + N(0, 0.01^2 I), noise SD 0.1."""
    x = np.column_stack([np.arange(1, 101), np.ones(100)]).astype(float)
    beta = np.array(TOY_DELTA) + rng.normal(0, 0.01, (6, 2))
    xs = np.tile(x, (6, 1))
    groups = np.repeat(np.arange(6), 100)
    y = np.einsum("nd,nd->n", xs, beta[groups]) + rng.normal(0, 0.1, 600)
    return GroupedData.from_arrays(xs, y, groups, 6)
