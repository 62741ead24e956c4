"""Experiment E4 of azzimonti2019: computing time on Adult (decisions §E4; Sec. 4.1.2 of the
paper).

Claims H14 (per-CPT VI vs MCMC times), H21 (whole-TAN times), H15 (VI never fails, Stan
ADVI crashes on some Adult CPTs) and, with ``rf_check``, H19-H20 (the paper's Adult comparison
with HDP and random forests); the paper's numbers are in ``paper.py``.
As decision A17 says, VI and ADVI are timed on every CPT at the configured n and on the full
data; NUTS only on a few CPTs (spanning the CPT sizes), at the first n and the first
repetitions, with a wall-time cap. As decision A19 says, the paper's VI is R and its MCMC is
Stan (C++), ours is Numba VI vs Stan: compare speed-up ratios, not absolute seconds; chains
run one after another; Stan compilation and Numba kernel loading (``warm_up``) are not part
of any fit's time.

A capped NUTS run is a lower bound of the full run's time (PyStan: soft cap between chains;
cmdstanpy: hard cap, no draws). Its R-hat and ESS are not recorded.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from hierbn.bn.counting import family_counts
from hierbn.bn.structures import BNStructure
from hierbn.cpts import fit_network
from hierbn.data.preprocess import CodedData
from hierbn.estimators.hier_vi import fit_hier_vi, warm_up
from hierbn.forest import RRandomForest, forest_proba, r_random_forest
from hierbn.metrics import accuracy, roc_auc_ovr
from hierbn.seeds import int_seed, rng_for, seed_sequence
from hierbn.stan.runner import NutsSettings
from hierbn.studies.azzimonti2019.protocol import (
    STUDY,
    advi_fit,
    coded,
    cpt_estimator,
    nuts_fit,
    tan_structure,
)
from hierbn.studies.common import metric_records, tidy, train_test_split

E4_KEYS = ("n", "full", "reps", "methods", "nuts_cpts", "nuts_reps", "nuts", "rf_check")
RF_KEYS = ("n", "reps", "test_size")
E4_METHODS = ("vi", "advi", "nuts")
WHOLE_MODEL = -1  # the ``node`` of rows about the whole TAN or classifier
HIER_TAN = cpt_estimator("hier", root="laplace")


@dataclass(frozen=True)
class TimingPlan:
    """What runs on a timed table: VI on/off, the Stan backend (None = no Stan), ADVI and NUTS."""

    vi: bool
    backend: str | None
    compiled: dict[str, Any] | None
    advi: bool
    nuts: bool
    settings: NutsSettings
    nuts_cpts: int
    base_seed: int


def check_e4_config(config: dict[str, Any]) -> None:
    """Refuse a missing key or an unknown method, naming it."""
    missing = [k for k in E4_KEYS if k not in config]
    if missing:
        raise KeyError(f"e4 config lacks {missing}")
    unknown = sorted(set(config["methods"]) - set(E4_METHODS))
    if unknown:
        raise ValueError(f"e4.methods: unknown {unknown}; expected a subset of {list(E4_METHODS)}")
    rf = config["rf_check"]
    if rf is not None and (absent := [k for k in RF_KEYS if k not in rf]):
        raise KeyError(f"e4.rf_check lacks {absent}")


# ------------------------------------------------------------------------- CPT columns
def cpt_columns(structure: BNStructure, node: int) -> dict[str, Any]:
    """The per-CPT columns of a row: node, its name and the CPT's shape."""
    n_states = int(structure.cardinalities[node])
    n_configs = structure.parent_cardinality(node)
    return {
        "node": int(node),
        "node_name": structure.names[node],
        "n_states": n_states,
        "n_parent_configs": n_configs,
        "cpt_size": n_states * n_configs,
        "is_class": node == structure.class_index,
    }


def whole_tan_columns(structure: BNStructure) -> dict[str, Any]:
    """Columns of a whole-TAN row: node = -1 and cpt_size = the TAN's number of parameters."""
    size = sum(cpt_columns(structure, node)["cpt_size"] for node in range(structure.n_nodes))
    return {"node": WHOLE_MODEL, "node_name": "", "cpt_size": size, "is_class": False}


def nuts_nodes(structure: BNStructure, count: int) -> list[int]:
    """``count`` CPTs with parents spanning the sizes |X|·|Y|: sorted by size (then node) and
    evenly spaced, smallest and largest included (count = 1: the smallest)."""
    candidates = [
        node
        for node in range(structure.n_nodes)
        if structure.parents[node] and structure.cardinalities[node] > 1
    ]
    ordered = sorted(candidates, key=lambda node: (cpt_columns(structure, node)["cpt_size"], node))
    if count <= 0 or not ordered:
        return []
    picks = np.unique(
        np.round(np.linspace(0, len(ordered) - 1, min(count, len(ordered)))).astype(int)
    )
    return [ordered[i] for i in picks]


# ----------------------------------------------------------------------- one fit each
def vi_cpt_metrics(counts: np.ndarray) -> dict[str, float]:
    """Time ``fit_hier_vi`` (s = |X|, alpha0 = 1) on one count table."""
    start = time.perf_counter()
    result = fit_hier_vi(counts)
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "n_iter": result.n_iter,
        "converged": float(result.converged),
        "failed": float(not np.all(np.isfinite(result.theta))),
    }


def vi_tan_metrics(
    structure: BNStructure, codes: np.ndarray, seed: np.random.SeedSequence
) -> dict[str, float]:
    """Time the whole hierarchical TAN (``fit_network``, root Laplace) as one call."""
    start = time.perf_counter()
    fitted = fit_network(structure, codes, HIER_TAN, seed)
    seconds = time.perf_counter() - start
    tables = [fitted.table(node) for node in fitted.cpts]
    return {
        "seconds": seconds,
        "converged": float(all(cpt.info.converged for cpt in fitted.cpts.values())),
        "failed": float(not all(np.all(np.isfinite(table)) for table in tables)),
    }


# --------------------------------------------------------------------- one timed table
def stan_cpt_records(
    counts: np.ndarray, key: tuple, row: dict[str, Any], plan: TimingPlan, with_nuts: bool
) -> list[dict[str, Any]]:
    """ADVI (and NUTS when asked) rows of one CPT."""
    records: list[dict[str, Any]] = []
    if plan.backend is None or counts.shape[1] < 2:  # a one-state variable: nothing to fit
        return records
    if plan.advi and (advi := advi_fit(counts, key, plan.backend, plan.compiled, plan.base_seed)):
        seed, _, metrics = advi
        records += metric_records({**row, "seed": seed}, "advi", metrics)
    if with_nuts:  # R-hat and ESS only for a run the cap did not stop
        seed, _, metrics = nuts_fit(
            counts, key, plan.settings, plan.backend, plan.compiled, plan.base_seed
        )
        records += metric_records({**row, "seed": seed}, "nuts", metrics)
    return records


def table_records(
    structure: BNStructure,
    codes: np.ndarray,
    key: tuple,
    base: dict[str, Any],
    plan: TimingPlan,
    nuts_on: bool,
) -> list[dict[str, Any]]:
    """Every timing of one training table: VI and ADVI per CPT, NUTS on the chosen CPTs,
    and the whole-TAN VI."""
    cards = np.asarray(structure.cardinalities)
    nuts_set = set(nuts_nodes(structure, plan.nuts_cpts)) if nuts_on and plan.nuts else set()
    records: list[dict[str, Any]] = []
    for node in range(structure.n_nodes):
        counts = family_counts(codes, node, structure.parents[node], cards)
        row = {**base, **cpt_columns(structure, node)}
        if plan.vi:
            records += metric_records(row, "vi", vi_cpt_metrics(counts))
        records += stan_cpt_records(counts, (*key, node), row, plan, node in nuts_set)
    if plan.vi:
        whole = {**base, **whole_tan_columns(structure)}
        seed = seed_sequence(*key, "vi_tan", base_seed=plan.base_seed)
        records += metric_records(whole, "vi_tan", vi_tan_metrics(structure, codes, seed))
    return records


def timed_tables(
    n_rows: int, config: dict[str, Any], base_seed: int
) -> list[tuple[tuple, dict[str, Any], np.ndarray, bool]]:
    """(key, base columns, training rows, NUTS on?) of every timed table: each (n, rep) subsample
    without replacement (skipped when n >= N, decision A15), then the full data when asked."""
    tables = []
    for n in config["n"]:
        if n >= n_rows:
            continue
        for rep in range(config["reps"]):
            key = (STUDY, "e4", "adult", n, rep)
            rows = np.sort(rng_for(*key, base_seed=base_seed).choice(n_rows, n, replace=False))
            nuts_on = n == config["n"][0] and rep < config["nuts_reps"]
            tables.append((key, _base(key, n, rep, False, base_seed), rows, nuts_on))
    if config["full"]:
        key = (STUDY, "e4", "adult", "full", 0)
        tables.append((key, _base(key, n_rows, 0, True, base_seed), np.arange(n_rows), False))
    return tables


def _base(key: tuple, n: int, rep: int, full: bool, base_seed: int) -> dict[str, Any]:
    return {
        "study": STUDY,
        "experiment": key[1],
        "dataset": "adult",
        "n": int(n),
        "rep": int(rep),
        "seed": int_seed(*key, base_seed=base_seed),
        "full": full,
    }


# --------------------------------------------------------------------------- RF check
def classifier_metrics(y: np.ndarray, proba: np.ndarray, fit_seconds: float) -> dict[str, float]:
    return {
        "accuracy": accuracy(y, proba),
        "auc": roc_auc_ovr(y, proba),
        "fit_seconds": fit_seconds,
    }


def rf_check_records(
    data: CodedData, structure: BNStructure, rf: dict[str, Any], base_seed: int
) -> list[dict[str, Any]]:
    """Hierarchical TAN vs random forest on paired splits of Adult (decisions §E4, optional
    check): R's randomForest on the attributes as factors (``rf``, the paper's), and
    scikit-learn's forest on the codes beside it (``rf_sklearn``, decisions §E5)."""
    n_rows = data.codes.shape[0]
    if rf["n"] >= n_rows:
        return []
    features = [c for c in range(data.codes.shape[1]) if c != data.class_index]
    n_classes = data.cards[data.class_index]
    y_all = data.codes[:, data.class_index]
    records: list[dict[str, Any]] = []
    for rep in range(rf["reps"]):
        key = (STUDY, "e4_rf", "adult", rf["n"], rep)
        train, test = train_test_split(
            rng_for(*key, base_seed=base_seed), n_rows, rf["n"], rf["test_size"]
        )
        base = {**_base(key, rf["n"], rep, False, base_seed), "node": WHOLE_MODEL, "node_name": ""}
        base["n_test"] = int(test.size)
        start = time.perf_counter()
        seed = seed_sequence(*key, base_seed=base_seed)
        fitted = fit_network(structure, data.codes[train], HIER_TAN, seed)
        seconds = time.perf_counter() - start
        proba = fitted.predict_proba(data.codes[test])
        records += metric_records(base, "hier", classifier_metrics(y_all[test], proba, seconds))
        x, x_test = data.codes[np.ix_(train, features)], data.codes[np.ix_(test, features)]
        seed = int_seed(*key, "rf", base_seed=base_seed)
        for method in ("rf", "rf_sklearn"):
            start = time.perf_counter()
            if method == "rf":  # R's randomForest on the attributes as factors (decisions §E5)
                forest = RRandomForest(seed=seed).fit(
                    x, y_all[train], [data.cards[c] for c in features], n_classes
                )
                proba = forest.predict_proba(x_test)
            else:  # the extra column: scikit-learn's forest on the codes
                proba = forest_proba(r_random_forest(seed), x, y_all[train], x_test, n_classes)
            seconds = time.perf_counter() - start  # the forest's fit and its (cheap) prediction
            records += metric_records(base, method, classifier_metrics(y_all[test], proba, seconds))
    return records


# ---------------------------------------------------------------------------- E4
def typed(frame: pd.DataFrame) -> pd.DataFrame:
    """Integer node and CPT-shape columns (nullable where a row has no CPT), a str node_name
    and bool ``full``/``is_class``; missing columns are added (e.g. nothing was timed)."""
    for column in (
        "node",
        "node_name",
        "n_states",
        "n_parent_configs",
        "cpt_size",
        "full",
        "is_class",
    ):
        if column not in frame.columns:
            frame[column] = pd.NA
    frame["node"] = frame["node"].astype("int64")  # every row has one (-1 = the whole model)
    for column in (
        "n_states",
        "n_parent_configs",
        "cpt_size",
        *(["n_test"] if "n_test" in frame else []),
    ):
        frame[column] = frame[column].astype("Int64")
    frame["node_name"] = frame["node_name"].fillna("").astype(str)
    for column in ("full", "is_class"):
        frame[column] = frame[column].astype("boolean").fillna(False).astype(bool)
    return frame


def run_e4_adult(
    prepared: pd.DataFrame,
    config: dict[str, Any],
    backend: str | None,
    compiled: dict[str, Any] | None,
    base_seed: int,
) -> pd.DataFrame:
    """E4: computing time on Adult (decisions §E4, A17 and A19; claims H14, H15).

    The TAN is learned once on all rows (as in E2/E3). For each (n, rep) subsample and, with
    ``full``, the whole data set: every CPT (class included, an |X| x 1 table) is timed with
    the hierarchical VI (method ``vi``: seconds, n_iter, converged, failed) and, when ``advi``
    is configured and a backend is given, Stan's meanfield ADVI (``advi``: seconds, failed;
    not recorded when no ADVI executable exists); the whole hierarchical TAN is timed as one
    ``fit_network`` call (``vi_tan``, node = -1). NUTS (``nuts``: seconds, capped, chains_done,
    divergences, and when not capped failed, rhat_max, ess_bulk_min) runs only on
    ``nuts_cpts`` CPTs spanning the sizes, at the first n and the first ``nuts_reps``
    repetitions, with ``nuts`` = NutsSettings (``max_seconds`` = the wall-time cap). The
    optional ``rf_check`` (experiment ``e4_rf``) compares the hierarchical TAN with a
    500-tree random forest on paired train/test splits (accuracy, auc, fit_seconds).
    """
    check_e4_config(config)
    methods = set(config["methods"])
    data = coded(prepared)
    structure = tan_structure(data)
    plan = TimingPlan(
        vi="vi" in methods,
        backend=backend,
        compiled=compiled,
        advi="advi" in methods,
        nuts="nuts" in methods,
        settings=NutsSettings(**config["nuts"]),
        nuts_cpts=int(config["nuts_cpts"]),
        base_seed=base_seed,
    )
    warm_up()  # Numba kernel loading is not part of a fit's time (Stan compile time is excluded too)
    records: list[dict[str, Any]] = []
    for key, base, rows, nuts_on in timed_tables(data.codes.shape[0], config, base_seed):
        records += table_records(structure, data.codes[rows], key, base, plan, nuts_on)
    if config["rf_check"] is not None:
        records += rf_check_records(data, structure, config["rf_check"], base_seed)
    return typed(tidy(records, {"e4": config}))
