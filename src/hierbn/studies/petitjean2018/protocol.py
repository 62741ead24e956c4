"""Experiment protocol of petitjean2018 (decisions §4.2, §4.3, §4.4 and §4.6): stratified 5x2
cross-validation, MDL discretisation fitted on each training fold with missing values as their
own category, the 8 BN classifier structures with HDP or m-estimate CPTs, and a random forest
baseline: Weka's RandomForest on the codes as nominal attributes, as the paper ran it
(Section 6.1), and scikit-learn's forest on the codes read as numbers beside it (decision
§1.9)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from hierbn.bn.classifier_structures import STRUCTURES, FoldData, build_structure
from hierbn.bn.structures import BNStructure
from hierbn.cpts import fit_network, make_estimator
from hierbn.cpts.base import CPTEstimator, family
from hierbn.data.cv import encode_fold, two_fold_split
from hierbn.data.sequences import read_labels, read_windows
from hierbn.forest import WekaRandomForest, forest_proba, weka_on_codes
from hierbn.metrics import rmse_multiclass, zero_one_loss
from hierbn.seeds import int_seed, rng_for, seed_sequence
from hierbn.stats_tests import sign_test
from hierbn.studies.common import tidy
from hierbn.studies.petitjean2018.paper import M_ESTIMATE, TABLE1_COUNTS, TABLE1_HDP

STUDY = "petitjean2018"
M_GRID = M_ESTIMATE["grid"]


def cv_split(
    y: np.ndarray, dataset: str, round_: int, fold: int, base_seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """(train rows, test rows) of one split of the stratified 5x2 CV (decision §4.3); the split of
    a round depends only on (data set, round), so every method and job sees the same one."""
    return two_fold_split(y, (STUDY, "cv", dataset, round_), fold, base_seed)


def cv_splits(
    y: np.ndarray, dataset: str, rounds: Iterable[int], base_seed: int
) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
    """Stratified 5x2 CV (decision §4.3): (round, fold, train rows, test rows) of ``rounds``,
    shared by all methods."""
    return [(r, f, *cv_split(y, dataset, r, f, base_seed)) for r in rounds for f in (0, 1)]


def m_estimator(m: float, backoff: str) -> CPTEstimator:
    """m-estimates with ``backoff`` (decision §1.7)."""
    return make_estimator("m", {"m": {"m": m, "backoff": backoff}})


def hdp_estimator(
    iterations: int, tying: str, prior: tuple[float, float], conc_every: int
) -> CPTEstimator:
    """HDP context trees (decisions §2.5-§2.7)."""
    settings = {"iterations": iterations, "tying": tying, "prior": prior, "conc_every": conc_every}
    return make_estimator("hdp", {"hdp": settings})


def _predict(
    structure: BNStructure,
    kept: tuple[int, ...],
    train: np.ndarray,
    test: np.ndarray,
    estimator: CPTEstimator,
    seeds: dict[int, np.random.SeedSequence],
    threads: int = 1,
) -> tuple[np.ndarray, float]:
    """The class posterior of the BNC with the kept attributes and the class (whose CPT is
    the estimator's root rule: m = 1 for HDP, decision §1.8), and the seconds its HDP chains
    sampled (summed over the trees; 0 for the m-estimates)."""
    nodes = (*kept, structure.class_index)
    fitted = fit_network(structure, train, estimator, seeds, nodes=nodes, threads=threads)
    sampling = sum(cpt.info.details.get("sampling_seconds", 0.0) for cpt in fitted.cpts.values())
    return fitted.predict_proba(test), sampling


def node_seeds(
    key: tuple, nodes: tuple[int, ...], base_seed: int
) -> dict[int, np.random.SeedSequence]:
    """One random stream per node, keyed by the cell and the node."""
    return {n: seed_sequence(*key, n, base_seed=base_seed) for n in nodes}


def select_m(
    structure_name: str, train: np.ndarray, names, cards, rng: np.random.Generator, rule: str
) -> float:
    """m from M_GRID by multi-class RMSE on a holdout of max(1, min(N/10, 5000)) rows
    (decision §1.7)."""
    n = train.shape[0]
    h = max(1, int(min(n / M_ESTIMATE["holdout_fraction"], M_ESTIMATE["holdout_cap"])))
    order = rng.permutation(n)
    hold, rest = train[order[:h]], train[order[h:]]
    structure, kept = build_structure(structure_name, rest, names, cards)
    unused = node_seeds(("m-selection",), (*kept, structure.class_index), 0)  # no sampler
    scores = [
        rmse_multiclass(
            hold[:, -1], _predict(structure, kept, rest, hold, m_estimator(m, rule), unused)[0]
        )
        for m in M_GRID
    ]
    return float(M_GRID[int(np.argmin(scores))])


FORESTS = ("rf", "rf-sklearn")  # Weka's forest (the paper's), scikit-learn's on the codes


def random_forest(
    fold: FoldData, forest: str, seed: int, trees: int, threads: int = 1
) -> np.ndarray:
    """Test-row class probabilities of a ``trees``-tree forest with Weka's defaults fitted on the
    fold's training codes: ``rf`` is Weka's RandomForest on the codes as nominal attributes
    (Section 6.1 of petitjean2018: log2(M)+1 attributes per split, no minimum leaf, multiway
    splits); ``rf-sklearn`` is scikit-learn's forest on the codes read as numbers (decision
    §1.9)."""
    x, y, test = fold.train[:, :-1], fold.train[:, -1], fold.test[:, :-1]
    n_classes = fold.cards[-1]
    if forest == "rf":
        weka = WekaRandomForest(seed=seed, trees=trees, threads=threads)
        return weka.fit(x, y, fold.cards[:-1], n_classes).predict_proba(test)
    return forest_proba(weka_on_codes(seed, trees, x.shape[1]), x, y, test, n_classes)


@dataclass(frozen=True)
class Method:
    """One compared classifier: a structure with an estimator (``m``, ``hdp``), or the forest.
    HDP runs of the iteration x tying study (decisions §E2/§E3) carry their own tying and
    iterations; ``prior_sensitivity`` runs use the alternative concentration prior
    (decision §7.1); plain ``hdp`` uses the config's main setting. Names: ``tan-m``,
    ``skdb-hdp``, ``tan-hdp-single-5000``, ``skdb-hdp-prior``, ``rf``, ``rf-sklearn``."""

    structure: str
    estimator: str
    tying: str | None = None
    iterations: int | None = None
    alternative_prior: bool = False

    @property
    def name(self) -> str:
        if self.estimator in FORESTS:
            return self.estimator
        if self.alternative_prior:
            return f"{self.structure}-hdp-prior"
        if self.tying is None:
            return f"{self.structure}-{self.estimator}"
        return f"{self.structure}-hdp-{self.tying}-{self.iterations}"

    @classmethod
    def parse(cls, name: str) -> Method:
        if name in FORESTS:
            return cls("rf", name)
        parts = name.split("-")
        if len(parts) == 2 and parts[0] in STRUCTURES and parts[1] in ("m", "hdp"):
            return cls(parts[0], parts[1])
        if len(parts) == 3 and parts[0] in STRUCTURES and parts[1:] == ["hdp", "prior"]:
            return cls(parts[0], "hdp", alternative_prior=True)
        if len(parts) == 4 and parts[0] in STRUCTURES and parts[1] == "hdp" and parts[3].isdigit():
            return cls(parts[0], "hdp", parts[2], int(parts[3]))
        raise ValueError(
            f"unknown method {name!r}; expected rf, rf-sklearn, <structure>-m, <structure>-hdp, "
            "<structure>-hdp-prior or <structure>-hdp-<tying>-<iterations>"
        )


def sweep_method(structure: str, tying: str, iterations: int, config: dict[str, Any]) -> str:
    """Name of the HDP run with this tying and iteration count; the main setting is plain hdp."""
    main = config["hdp"]
    if (tying, iterations) == (main["tying"], main["iterations"]):
        return f"{structure}-hdp"
    return Method(structure, "hdp", tying, iterations).name


def cv_methods(config: dict[str, Any]) -> list[str]:
    """Every method of the CV config: structures x {m, hdp}, the iteration x tying runs, the
    prior-sensitivity runs, the two forests."""
    names = [f"{s}-{e}" for s in config["structures"] for e in ("m", "hdp")]
    study = config.get("iteration_study")
    if study:
        grid = sorted({*study["iterations"], config["hdp"]["iterations"]})
        for s in study["structures"]:
            for tying in study["tyings"]:
                for x in grid:
                    name = sweep_method(s, tying, x, config)
                    if name not in names:
                        names.append(name)
    sensitivity = config.get("prior_sensitivity")
    if sensitivity:
        names += [f"{s}-hdp-prior" for s in sensitivity["structures"]]
    if config["random_forest"]["trees"] > 0:
        names += FORESTS
    return names


def evaluate_method(
    fold: FoldData,
    method: Method,
    key: tuple,
    config: dict[str, Any],
    base_seed: int,
    threads: int = 1,
) -> tuple[int, dict[str, float]]:
    """Fit one method on the fold's training codes and score the test codes: (seed, metrics).
    ``key`` = (study, dataset, round, fold) names every random stream (plus the method)."""
    y = fold.test[:, -1]
    if method.estimator in FORESTS:
        seed = int_seed(*key, method.estimator, base_seed=base_seed)
        trees = config["random_forest"]["trees"]
        proba = random_forest(fold, method.estimator, seed, trees, threads)
        return seed, {"zero_one": zero_one_loss(y, proba), "rmse": rmse_multiclass(y, proba)}
    skey = (*key, method.structure)
    structure, kept = fold.structure(method.structure)
    metrics: dict[str, float] = {}
    if method.estimator == "m":
        rng = rng_for(*skey, "m", base_seed=base_seed)
        m = select_m(method.structure, fold.train, fold.names, fold.cards, rng, config["backoff"])
        estimator = m_estimator(m, config["backoff"])
        seeds = node_seeds((*skey, "m"), (*kept, structure.class_index), base_seed)
        metrics["m_selected"] = m
    else:
        tying = method.tying or config["hdp"]["tying"]
        iterations = method.iterations or config["hdp"]["iterations"]
        if method.alternative_prior:  # a prior-sensitivity cell is not given the main prior
            prior, extra = config["prior_sensitivity"]["prior"], ("prior",)
        else:
            prior, extra = (
                config["hdp"]["prior"],
                (() if method.tying is None else (tying, iterations)),
            )
        nodes = (*kept, structure.class_index)
        seeds = node_seeds((*skey, "hdp", *extra), nodes, base_seed)
        estimator = hdp_estimator(iterations, tying, tuple(prior), config["hdp"]["conc_every"])
    start = time.perf_counter()
    proba, sampling = _predict(structure, kept, fold.train, fold.test, estimator, seeds, threads)
    metrics.update(
        zero_one=zero_one_loss(y, proba),
        rmse=rmse_multiclass(y, proba),
        seconds=time.perf_counter() - start,
    )
    if method.estimator == "hdp":  # the part of the seconds that grows with the iterations
        metrics["sampling_seconds"] = sampling
    return int_seed(*skey, base_seed=base_seed), metrics


def cell_config(config: dict[str, Any], method: str) -> dict[str, Any]:
    """The values of the CV config that one method reads (a cluster cell job's params, so a
    change reruns only the cells it affects): the forest's tree count, the m-estimate back-off,
    the main HDP setting, or for the iteration x tying and prior-sensitivity runs only what
    their name does not fix."""
    parsed = Method.parse(method)
    hdp = config["hdp"]
    if parsed.estimator in FORESTS:
        return {"random_forest": {"trees": config["random_forest"]["trees"]}}
    if parsed.estimator == "m":
        return {"backoff": config["backoff"]}
    if parsed.alternative_prior:
        return {
            "hdp": {k: hdp[k] for k in ("tying", "iterations", "conc_every")},
            "prior_sensitivity": {"prior": config["prior_sensitivity"]["prior"]},
        }
    if parsed.tying is not None:
        return {"hdp": {k: hdp[k] for k in ("prior", "conc_every")}}
    return {"hdp": dict(hdp)}


def _cv_records(
    frame: pd.DataFrame,
    dataset: str,
    splits: list[tuple[int, int, np.ndarray, np.ndarray]],
    methods: list[str],
    config: dict[str, Any],
    base_seed: int,
    threads: int,
) -> list[dict[str, Any]]:
    target = frame.columns[-1]
    records: list[dict[str, Any]] = []
    for r, f, train_rows, test_rows in splits:
        fold = FoldData(*encode_fold(frame, target, train_rows, test_rows))
        base = {
            "study": STUDY,
            "experiment": "cv",
            "dataset": dataset,
            "n": int(train_rows.size),
            "rep": r,
            "fold": f,
        }
        for name in methods:
            seed, metrics = evaluate_method(
                fold, Method.parse(name), (STUDY, dataset, r, f), config, base_seed, threads
            )
            records += [
                {**base, "seed": seed, "method": name, "metric": k, "value": float(v)}
                for k, v in metrics.items()
            ]
    return records


def run_cv(
    frame: pd.DataFrame,
    dataset: str,
    config: dict[str, Any],
    base_seed: int,
    threads: int = 1,
    rounds: Iterable[int] | None = None,
) -> pd.DataFrame:
    """The 5x2 CV of one data set: every method of ``cv_methods`` on every split, or on the
    splits of ``rounds`` only (a cluster job per round: a cell's rows do not depend on which
    other cells ran). ``threads`` fits a classifier's HDP trees in parallel; the numbers do
    not depend on it."""
    y = frame[frame.columns[-1]].cat.codes.to_numpy()
    chosen = range(config["rounds"]) if rounds is None else rounds
    if any(not 0 <= r < config["rounds"] for r in chosen):
        raise ValueError(f"no round {list(chosen)} in {config['rounds']}x2 CV")
    splits = cv_splits(y, dataset, chosen, base_seed)
    records = _cv_records(frame, dataset, splits, cv_methods(config), config, base_seed, threads)
    return tidy(records, {"cv": config})


def run_cv_cell(
    frame: pd.DataFrame,
    dataset: str,
    cell: tuple[int, int, str],
    config: dict[str, Any],
    base_seed: int,
    threads: int = 1,
) -> pd.DataFrame:
    """One (round, fold, method) cell of the 5x2 CV (one cluster job) with the method's
    :func:`cell_config`; its rows equal the cell's rows of :func:`run_cv`."""
    round_, fold, method = cell
    if round_ < 0 or fold not in (0, 1):
        raise ValueError(f"no split round {round_}, fold {fold} in 5x2 CV")
    y = frame[frame.columns[-1]].cat.codes.to_numpy()
    splits = [(round_, fold, *cv_split(y, dataset, round_, fold, base_seed))]
    records = _cv_records(frame, dataset, splits, [method], config, base_seed, threads)
    return tidy(records, {"cv": config})


def run_learning_curve(
    frame: pd.DataFrame,
    dataset: str,
    config: dict[str, Any],
    run: int,
    base_seed: int,
    threads: int = 1,
) -> pd.DataFrame:
    """One run of the learning curves (decision §E8, Fig. 7): a fixed random third of the rows
    is the test set; training samples of each size are nested prefixes of a random order of the
    rest (sizes beyond the pool are skipped). MDL cuts are refitted on every training sample."""
    target = frame.columns[-1]
    rng = rng_for(STUDY, "learning_curve", dataset, run, base_seed=base_seed)
    order = rng.permutation(len(frame))
    n_test = len(frame) // 3
    test_rows, pool = order[:n_test], order[n_test:]
    cv_like = {**config, "random_forest": {"trees": 0}}
    records: list[dict[str, Any]] = []
    for size in (x for x in config["sizes"] if x <= pool.size):
        fold = FoldData(*encode_fold(frame, target, pool[:size], test_rows))
        key = (STUDY, "learning_curve", dataset, run, size)
        for structure in config["structures"]:
            for estimator in ("m", "hdp"):
                method = Method(structure, estimator)
                seed, metrics = evaluate_method(fold, method, key, cv_like, base_seed, threads)
                records += [
                    {
                        "study": STUDY,
                        "experiment": "learning_curve",
                        "dataset": dataset,
                        "n": size,
                        "rep": run,
                        "seed": seed,
                        "method": method.name,
                        "metric": k,
                        "value": float(v),
                    }
                    for k, v in metrics.items()
                ]
    return tidy(records, {"learning_curve": config})


def run_timing(
    frame: pd.DataFrame, dataset: str, config: dict[str, Any], base_seed: int
) -> pd.DataFrame:
    """Timings of the paper's §6.6 (decision §E12) on one core, on the first 2-fold split (about
    half the rows for training, the other half classified): per structure and estimator the
    seconds of structure learning, fitting (HDP: tree building and sampling separately, at each
    configured iteration count) and classification. An unrecorded warm-up first loads the
    compiled kernels and grows the shared Stirling table, a one-off cost per process (paper:
    "only calculated once")."""
    target = frame.columns[-1]
    y = frame[target].cat.codes.to_numpy()
    train_rows, test_rows = cv_split(y, dataset, 0, 0, base_seed)
    fold = FoldData(*encode_fold(frame, target, train_rows, test_rows))
    records: list[dict[str, Any]] = []

    def record(method: str, metric: str, value: float, seed: int, iterations: int = 0) -> None:
        records.append(
            {
                "study": STUDY,
                "experiment": "timing",
                "dataset": dataset,
                "n": int(train_rows.size),
                "rep": 0,
                "seed": seed,
                "method": method,
                "metric": metric,
                "value": float(value),
                "iterations": iterations,
                "n_test": int(test_rows.size),
            }
        )

    # warm-up, not recorded: JIT-compiled kernels loaded and the shared Stirling table grown
    warm, warm_kept = fold.structure("nb")
    warm_estimator = hdp_estimator(min(config["iterations"]), "level", (0.0, 0.0), 5)
    fit_network(warm, fold.train, warm_estimator, seed_sequence("warm-up"), nodes=warm_kept)
    for structure_name in config["structures"]:
        key = (STUDY, "timing", dataset, structure_name)
        start = time.perf_counter()
        structure, kept = fold.structure(structure_name)
        learn = time.perf_counter() - start
        runs: list[tuple[str, CPTEstimator, int]] = [("m", m_estimator(1.0, "literal"), 0)]
        hdp = (config["tying"], tuple(config["prior"]), 5)
        runs += [("hdp", hdp_estimator(x, *hdp), x) for x in config["iterations"]]
        for estimator, cpt_estimator, iterations in runs:
            nodes = (*kept, structure.class_index)
            seeds = node_seeds((*key, iterations), nodes, base_seed)
            seed = int_seed(*key, estimator, iterations, base_seed=base_seed)
            start = time.perf_counter()
            fitted = fit_network(structure, fold.train, cpt_estimator, seeds, nodes=nodes)
            fit = time.perf_counter() - start
            start = time.perf_counter()
            fitted.predict_proba(fold.test)
            classify = time.perf_counter() - start
            method = f"{structure_name}-{estimator}"
            record(method, "structure_seconds", learn, seed, iterations)
            record(method, "fit_seconds", fit, seed, iterations)
            record(method, "classify_seconds", classify, seed, iterations)
            if estimator == "hdp":
                features = [fitted.cpts[n].info.details for n in kept]
                for part in ("tree_seconds", "sampling_seconds", "tree_nodes"):
                    record(method, part, sum(d[part] for d in features), seed, iterations)
    return tidy(records, {"timing": config})


def run_splice(config: dict[str, Any], base_seed: int, threads: int = 1) -> pd.DataFrame:
    """Splice (decision §E11, Table 4), down-sampled: SkDB5 with m-estimates and with HDP on the
    first ``train_rows`` / ``test_rows`` windows of the large-scale splice-site files. Every
    window position is an attribute over {A, C, G, T, other}; the class is splice / not."""
    train_x = read_windows(config["train_sequences"], config["train_rows"])
    train_y = read_labels(config["train_labels"], config["train_rows"])
    test_x = read_windows(config["test_sequences"], config["test_rows"])
    test_y = read_labels(config["test_labels"], config["test_rows"])
    for x, y, what in ((train_x, train_y, "train"), (test_x, test_y, "test")):
        if x.shape[0] != y.size:
            raise ValueError(
                f"splice {what}: {x.shape[0]} windows but {y.size} labels "
                f"({config[f'{what}_sequences']} vs {config[f'{what}_labels']})"
            )
    if train_x.shape[1] != test_x.shape[1]:
        raise ValueError(f"splice: train windows {train_x.shape[1]}, test {test_x.shape[1]}")
    width = train_x.shape[1]
    names = [f"pos{i + 1}" for i in range(width)] + ["splice"]
    fold = FoldData(
        np.column_stack([train_x, train_y]).astype(np.int64),
        np.column_stack([test_x, test_y]).astype(np.int64),
        names,
        [5] * width + [2],
    )
    settings = {
        "backoff": config["backoff"],
        "hdp": {
            "iterations": config["iterations"],
            "tying": "level",
            "prior": [0.0, 0.0],
            "conc_every": 5,
        },
        "random_forest": {"trees": 0},
    }
    start = time.perf_counter()
    _, kept = fold.structure("skdb")
    structure_seconds = time.perf_counter() - start
    positive = float(test_y.mean())
    records = []
    for estimator in ("m", "hdp"):
        method = Method("skdb", estimator)
        seed, metrics = evaluate_method(
            fold, method, (STUDY, "splice"), settings, base_seed, threads
        )
        metrics.update(
            structure_seconds=structure_seconds,
            attributes_kept=len(kept),
            majority_error=min(positive, 1 - positive),
        )
        records += [
            {
                "study": STUDY,
                "experiment": "splice",
                "dataset": "splice-large",
                "n": int(train_y.size),
                "rep": 0,
                "seed": seed,
                "method": method.name,
                "metric": k,
                "value": float(v),
                "n_test": int(test_y.size),
                "window": width,
            }
            for k, v in metrics.items()
        ]
    return tidy(records, {"splice": config})


def win_draw_loss(
    table: pd.DataFrame, a: str, b: str, metric: str, decimals: int = 4
) -> dict[str, Any]:
    """W/D/L of method a vs b over data sets on the 5x2-CV mean (lower is better; draws =
    equal after rounding to ``decimals``), with the two-tailed sign test (decision §4.6)."""
    means = table[table.metric == metric].groupby(["dataset", "method"])["value"].mean().unstack()
    diff = means[a].round(decimals) - means[b].round(decimals)
    wins, losses = int((diff < 0).sum()), int((diff > 0).sum())
    return {
        "a": a,
        "b": b,
        "metric": metric,
        "wins": wins,
        "draws": int((diff == 0).sum()),
        "losses": losses,
        "p_value": sign_test(wins, losses),
    }


def run_table1(config: dict[str, Any], base_seed: int) -> pd.DataFrame:
    """Table 1 (the paper's §4.6): NB HDP estimates of P(X1 | y) on the two toy count tables,
    in the setting of decision §5.1 (None tying, concentrations every iteration, improper
    prior)."""
    estimator = hdp_estimator(config["iterations"], "none", (0.0, 0.0), 1)
    records = []
    for name, table in TABLE1_COUNTS.items():
        x = np.concatenate([np.repeat(np.arange(2), c) for c in table])
        y_codes = np.concatenate([np.full(sum(c), y) for y, c in enumerate(table)])
        fam = family(np.column_stack([x, y_codes]), 0, (1,), (2, 2))
        for s in range(config["seeds"]):
            seed = int_seed(STUDY, "table1", name, s, base_seed=base_seed)
            est = estimator.fit(fam, seed_sequence(STUDY, "table1", name, s, base_seed=base_seed))
            probs = est.query(np.array([[0], [1]]))
            for y in (0, 1):
                records.append(
                    {
                        "study": STUDY,
                        "experiment": "table1",
                        "dataset": name,
                        "n": sum(table[y]),
                        "rep": s,
                        "seed": seed,
                        "method": "hdp",
                        "metric": f"p_x0_given_y{y}",
                        "value": float(probs[y, 0]),
                        "paper": TABLE1_HDP[name][y][0],
                        "m_estimate": (table[y][0] + 0.5) / (sum(table[y]) + 1),
                    }
                )
    return tidy(records, {"table1": config})
