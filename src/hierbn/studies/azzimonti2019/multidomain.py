"""E5 of azzimonti2019 (Sec. 5.1, Figs. 12–14) on the synthetic multi-domain generator
(decision A12).

One job = one (scenario (n, K), heterogeneity c, repetition): every one of the K users gets n
training and ``n_test`` test records; the classifiers are

- ``user_bdeu1`` / ``user_bdeu10``: a TAN learned on the user's own training data, BDeu(iss);
- ``user_rf``: a random forest per user, R ``randomForest`` with its defaults on the codes as
  factors (:mod:`hierbn.forest.randomforest_r`, decisions §E5);
- ``user_rf_sklearn`` (optional): scikit-learn's forest on the codes read as numbers, R's
  defaults mapped (the extra column "RF, scikit-learn on codes", decisions §E5);
- ``md_hier``: the multi-domain hierarchical TAN, structure learned on the pooled training data
  of the K users, every CPT from the multi-domain model (decisions §3.7 and A13);
- ``pooled_bdeu1`` / ``pooled_bdeu10`` (optional): the pooled structure with per-user BDeu CPTs.

Accuracy and one-vs-rest AUC are recorded per user; the VI time of every multi-domain CPT is
recorded per node (claim H18).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from hierbn.bn.structures import BNStructure, tan
from hierbn.cpts import Domains, fit_network, make_estimator
from hierbn.cpts.base import CPTEstimator
from hierbn.estimators.hier_vi import warm_up
from hierbn.forest import RRandomForest, forest_proba, r_random_forest
from hierbn.metrics import accuracy, roc_auc_ovr
from hierbn.seeds import int_seed, rng_for, seed_sequence
from hierbn.studies.azzimonti2019.multidomain_data import (
    DomainPopulation,
    GeneratorShape,
    make_population,
    sample_records,
)
from hierbn.studies.common import metric_records, tidy

STUDY = "azzimonti2019"
USER_METHODS = ("user_bdeu1", "user_bdeu10", "pooled_bdeu1", "pooled_bdeu10")
FORESTS = ("user_rf", "user_rf_sklearn")  # R's forest on factors, scikit-learn's on codes
METHODS = (*USER_METHODS, *FORESTS, "md_hier")


def population_for(config: dict[str, Any], c: float, base_seed: int) -> DomainPopulation:
    """The generator's population for heterogeneity c (structure and mu shared by every c)."""
    shape = GeneratorShape(
        config["users"], config["n_classes"], config["n_features"], config["n_states"]
    )
    structure_rng = rng_for(STUDY, "e5", "population", base_seed=base_seed)
    users_rng = rng_for(STUDY, "e5", "users", f"c={c:g}", base_seed=base_seed)
    return make_population(shape, c, structure_rng, users_rng)


def draw_split(
    rng: np.random.Generator, population: DomainPopulation, n_users: int, n_train: int, n_test: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(train codes, train users, test codes, test users), each user's rows contiguous."""
    train_users = np.repeat(np.arange(n_users), n_train)
    test_users = np.repeat(np.arange(n_users), n_test)
    return (
        sample_records(rng, population, train_users),
        train_users,
        sample_records(rng, population, test_users),
        test_users,
    )


def tan_on(codes: np.ndarray, template: BNStructure) -> BNStructure:
    """TAN (decision A9) learned on ``codes`` over the template's variables."""
    return tan(codes, list(template.names), list(template.cardinalities), template.class_index)


def _user_bn_proba(
    structure_of: Callable[[np.ndarray], BNStructure],
    estimator: CPTEstimator,
    train: np.ndarray,
    test: np.ndarray,
    seed: np.random.SeedSequence,
) -> np.ndarray:
    structure = structure_of(train)
    return fit_network(structure, train, estimator, seed).predict_proba(test)


def per_user_proba(
    method: str,
    pooled: BNStructure,
    train: np.ndarray,
    test: np.ndarray,
    key: tuple,
    base_seed: int,
) -> np.ndarray:
    """Class probabilities on one user's test rows from a classifier fitted on that user only."""
    if method in FORESTS:
        return forest_per_user(
            method, pooled, train, test, int_seed(*key, "rf", base_seed=base_seed)
        )
    scope, estimator = method.split("_")
    structure_of = (lambda rows: tan_on(rows, pooled)) if scope == "user" else (lambda rows: pooled)
    seed = seed_sequence(*key, base_seed=base_seed)
    return _user_bn_proba(structure_of, make_estimator(estimator, {}), train, test, seed)


def forest_per_user(
    method: str, pooled: BNStructure, train: np.ndarray, test: np.ndarray, seed: int
) -> np.ndarray:
    """One user's test-row class probabilities from R's forest on the features as factors
    (``user_rf``) or scikit-learn's on their codes (``user_rf_sklearn``), both with R's
    defaults (decisions §E5)."""
    k = pooled.class_index
    features = [j for j in range(train.shape[1]) if j != k]
    x, y, x_test = train[:, features], train[:, k], test[:, features]
    n_classes = pooled.cardinalities[k]
    if method == "user_rf":
        if np.unique(y).size < 2:  # R refuses one class; the user's class, surely (decisions §E5)
            return np.eye(n_classes)[np.full(x_test.shape[0], y[0])]
        cards = [pooled.cardinalities[j] for j in features]
        return RRandomForest(seed=seed).fit(x, y, cards, n_classes).predict_proba(x_test)
    return forest_proba(r_random_forest(seed), x, y, x_test, n_classes)


def _scores(y: np.ndarray, proba: np.ndarray) -> dict[str, float]:
    return {"accuracy": accuracy(y, proba), "auc": roc_auc_ovr(y, proba)}


def run_e5_job(
    n: int, n_users: int, c: float, rep: int, config: dict[str, Any], base_seed: int
) -> pd.DataFrame:
    """All classifiers of E5 for one (scenario, c, repetition) (Figs. 12–14, claims H16–H18)."""
    population = population_for(config, c, base_seed)
    if n_users > population.users:
        raise ValueError(
            f"scenario K = {n_users} exceeds the generator's users = {population.users}"
        )
    key = (STUDY, "e5", n, n_users, f"c={c:g}", rep)
    train, train_users, test, test_users = draw_split(
        rng_for(*key, base_seed=base_seed), population, n_users, n, config["n_test"]
    )
    template = population.structure
    pooled = tan_on(train, template)
    k = template.class_index
    base = {"study": STUDY, "experiment": "e5", "dataset": "synthetic", "n": n, "rep": rep,
            "seed": int_seed(*key, base_seed=base_seed), "n_users": n_users, "c": float(c)}  # fmt: skip
    records: list[dict[str, Any]] = []
    methods = config["methods"]
    if "md_hier" in methods:
        seed = seed_sequence(*key, base_seed=base_seed)
        records += _multidomain_records(
            base, pooled, train, train_users, test, test_users, n_users, seed
        )
    for method in (m for m in methods if m != "md_hier"):
        start = time.perf_counter()
        for user in range(n_users):
            rows, test_rows = train_users == user, test_users == user
            proba = per_user_proba(
                method, pooled, train[rows], test[test_rows], (*key, user), base_seed
            )
            records += metric_records(
                {**base, "user": user}, method, _scores(test[test_rows, k], proba)
            )
        records += metric_records(
            {**base, "user": -1}, method, {"fit_seconds": time.perf_counter() - start}
        )
    return tidy(records, {"e5": config, "pooled_structure": pooled.to_dict()})


def _multidomain_records(
    base: dict[str, Any],
    pooled: BNStructure,
    train: np.ndarray,
    train_users: np.ndarray,
    test: np.ndarray,
    test_users: np.ndarray,
    n_users: int,
    seed: np.random.SeedSequence,
) -> list[dict[str, Any]]:
    """The multi-domain hierarchical TAN: per-user scores and per-CPT VI times."""
    warm_up()  # kernel loading is not part of a CPT's VI time
    start = time.perf_counter()
    domains = Domains(train_users, n_users)
    fitted = fit_network(pooled, train, make_estimator("hier_domains", {}), seed, domains=domains)
    fit_seconds = time.perf_counter() - start
    proba = fitted.predict_proba(test, test_users)
    y = test[:, pooled.class_index]
    records = []
    for user in range(n_users):
        rows = test_users == user
        records += metric_records({**base, "user": user}, "md_hier", _scores(y[rows], proba[rows]))
    records += metric_records({**base, "user": -1}, "md_hier", {"fit_seconds": fit_seconds})
    for node, cpt in fitted.cpts.items():
        info = cpt.info
        joint_states = int(info.details["joint_states"])
        node_base = {**base, "user": -1, "node": node, "joint_states": joint_states}
        records += metric_records(
            node_base,
            "md_hier",
            {
                "vi_seconds": info.seconds,
                "vi_n_iter": info.iterations,
                "vi_converged": info.converged,
                "vi_finite": bool(info.details["finite"]),
            },
        )
    return records
