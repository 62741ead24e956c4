"""Experiment protocols of beal2006 (decisions §3): the 136-structure class, the true structure
and its printed parameters, nested data sets, Experiment A (all scores + AIS), Experiment B
(parameter draws, no AIS), the AIS schedule-length study (Fig. 6(a)) and exact oracles."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from hierbn.scoring.ais import log_mean_exp
from hierbn.scoring.bipartite import (
    BipartiteClass,
    Structure,
    canonical,
    enumerate_structures,
    parameter_count,
)
from hierbn.scoring.scores import (
    SCORE_NAMES,
    StructureModel,
    ais_score,
    exact_score,
    score_structure,
)
from hierbn.seeds import int_seed, rng_for
from hierbn.studies.common import tidy

STUDY = "beal2006"
CLASS = BipartiteClass(hidden=(2, 2), observed=(5, 5, 5, 5))
SIZES = (
    10,
    20,
    40,
    80,
    110,
    160,
    230,
    320,
    400,
    430,
    480,
    560,
    640,
    800,
    960,
    1120,
    1280,
    2560,
    5120,
    10240,
)

# Printed true parameters (§4.1 of the paper; decisions A1, A19). Rows: P(y = 1..5 | parent
# configuration), parent order [h1 h2] = [1 1], [1 2], [2 1], [2 2].
THETA_H1 = [0.12, 0.88]
THETA_H2 = [0.08, 0.92]
THETA_Y1 = [[0.03, 0.03, 0.64, 0.02, 0.27], [0.18, 0.15, 0.22, 0.19, 0.27]]
THETA_Y2 = [
    [0.10, 0.54, 0.07, 0.14, 0.15],
    [0.04, 0.15, 0.59, 0.05, 0.16],
    [0.20, 0.08, 0.36, 0.17, 0.18],
    [0.19, 0.45, 0.10, 0.09, 0.17],
]
THETA_Y3 = [
    [0.11, 0.47, 0.12, 0.30, 0.01],
    [0.27, 0.07, 0.16, 0.25, 0.25],
    [0.52, 0.14, 0.15, 0.02, 0.17],
    [0.04, 0.00, 0.37, 0.33, 0.25],
]
THETA_Y4 = [[0.10, 0.08, 0.43, 0.03, 0.36], [0.30, 0.14, 0.07, 0.04, 0.45]]

READINGS = {
    # decision A1: h1 -> {y1, y2, y3}, h2 -> {y2, y3, y4} ("two overlapping fans")
    "fans": ((1, 1, 1, 0), (0, 1, 1, 1)),
    # alternative: the same hidden variable is the single parent of y1 and y4
    "shared": ((1, 1, 1, 1), (0, 1, 1, 0)),
}


def structures() -> list[Structure]:
    return enumerate_structures(CLASS)


def true_structure(reading: str = "fans") -> Structure:
    """The Figure 1 structure under the configured reading (decision A1)."""
    if reading not in READINGS:
        raise ValueError(f"unknown reading {reading!r}; expected one of {sorted(READINGS)}")
    masks = tuple(sum(bit << v for v, bit in enumerate(edges)) for edges in READINGS[reading])
    return Structure(canonical(masks, CLASS))


def printed_parameters(zero_floor: float = 0.0) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Printed parameters with rows renormalised (decision A19); ``zero_floor`` > 0 floors
    exact zeros before renormalising. Single-parent rows follow that parent's states, so the
    same tables serve either reading of Figure 1."""

    def norm(rows: list[list[float]]) -> np.ndarray:
        table = np.maximum(np.asarray(rows, dtype=np.float64), zero_floor)
        return table / table.sum(axis=-1, keepdims=True)

    hidden = [norm(THETA_H1), norm(THETA_H2)]
    observed = [norm(THETA_Y1), norm(THETA_Y2), norm(THETA_Y3), norm(THETA_Y4)]
    return hidden, observed


def instance_parameters(
    instance: int, model: StructureModel, base_seed: int, zero_floor: float = 0.0
):
    """Instance 0 = the printed parameters; instance i > 0 = a draw from the uniform prior."""
    if instance == 0:
        hidden, observed = printed_parameters(zero_floor=zero_floor)
        return model.log_params(hidden, observed)
    return model.sample_prior(rng_for(STUDY, "params", instance, base_seed=base_seed))


def sample_rows(
    model: StructureModel, log_params, n: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """n ancestral samples (observed rows, hidden joint states), vectorised by inverse CDF."""
    log_hid, log_obs = log_params
    prior = np.zeros(model.states.shape[0])
    for h in range(len(model.hcard)):
        prior += log_hid[h, model.states[:, h]]
    hidden = rng.choice(model.states.shape[0], size=n, p=np.exp(prior) / np.exp(prior).sum())
    rows = np.empty((n, len(model.ocard)), dtype=np.int64)
    for v, card in enumerate(model.ocard):
        probs = np.exp(log_obs[v, model.cfg[v, hidden], :card])
        cdf = np.cumsum(probs / probs.sum(axis=1, keepdims=True), axis=1)
        rows[:, v] = np.minimum((rng.random(n)[:, None] > cdf).sum(axis=1), card - 1)
    return rows, hidden


def nested_data(
    instance: int, reading: str, base_seed: int, n_max: int = max(SIZES), zero_floor: float = 0.0
) -> np.ndarray:
    """The 10240-row data set of an instance; every size uses a prefix (nested data,
    decisions §3)."""
    model = StructureModel.build(true_structure(reading), CLASS)
    params = instance_parameters(instance, model, base_seed, zero_floor)
    rows, _ = sample_rows(
        model, params, n_max, rng_for(STUDY, "data", instance, base_seed=base_seed)
    )
    return rows


def _models() -> list[StructureModel]:
    return [StructureModel.build(s, CLASS) for s in structures()]


def _base(
    experiment: str,
    instance: int,
    n: int,
    seed: int,
    index: int,
    model: StructureModel,
    truth: Structure,
) -> dict[str, Any]:
    return {
        "study": STUDY,
        "experiment": experiment,
        "dataset": f"instance{instance}",
        "n": n,
        "rep": instance,
        "seed": seed,
        "structure": index,
        "structure_label": model.structure.label(len(CLASS.observed)),
        "d": parameter_count(model.structure, model.cls),
        "is_true": model.structure == truth,
    }


def run_scores(
    instances: Iterable[int], n: int, config: dict[str, Any], base_seed: int
) -> pd.DataFrame:
    """EM/VBEM scores of all structures for the (instance, n) cells of ``instances`` at size n
    (Experiments A and B; one job per n, a cell's rows do not depend on the others)."""
    reading = config["reading"]
    truth = true_structure(reading)
    records: list[dict[str, Any]] = []
    for instance in instances:
        rows = nested_data(instance, reading, base_seed, zero_floor=config["zero_floor"])[:n]
        for index, model in enumerate(_models()):
            key = (STUDY, "scores", instance, n, index)
            seed = int_seed(*key, base_seed=base_seed)
            scores, _ = score_structure(
                model,
                rows,
                rng_for(*key, base_seed=base_seed),
                config["restarts"],
                vb_from_cs=config["vb_from_cs"],
            )
            base = _base("scores", instance, n, seed, index, model, truth)
            for name, value in scores.items():
                kind = "score" if name in SCORE_NAMES else "diagnostic"
                records.append({**base, "method": name, "metric": kind, "value": float(value)})
            if n <= config["exact_max_n"] and instance == 0:
                exact = exact_score(model, rows)
                records.append({**base, "method": "exact", "metric": "score", "value": exact})
    return tidy(records, {"scores": config})


def run_ais(n: int, runs: Iterable[int], config: dict[str, Any], base_seed: int) -> pd.DataFrame:
    """The AIS runs (batches) ``runs`` for every structure at size n, instance 0
    (Experiment A; one job per n, a run's rows do not depend on the others)."""
    reading = config["reading"]
    truth = true_structure(reading)
    rows = nested_data(0, reading, base_seed, zero_floor=config["zero_floor"])[:n]
    records: list[dict[str, Any]] = []
    for run in runs:
        for index, model in enumerate(_models()):
            key = (STUDY, "ais", n, run, index)
            result = ais_score(
                model,
                rows,
                rng_for(*key, base_seed=base_seed),
                config["steps"],
                config["strength"],
                config["e_tau"],
            )
            base = {
                **_base("ais", 0, n, int_seed(*key, base_seed=base_seed), index, model, truth),
                "run": run,
            }
            metrics = {
                "log_z": float(result.posterior["log_z"][0, 0]),
                "acceptance": float(result.sample_stats["acceptance_rate"][0, 0]),
                "seconds": result.attrs["seconds"],
            }
            metrics.update(
                {
                    f"acceptance_q{q + 1}": a
                    for q, a in enumerate(result.attrs["acceptance_quarters"])
                }
            )
            records += [
                {**base, "method": "AIS", "metric": k, "value": float(v)}
                for k, v in metrics.items()
            ]
    return tidy(records, {"ais": config})


def run_schedule_study(
    config: dict[str, Any], ais_config: dict[str, Any], base_seed: int
) -> pd.DataFrame:
    """Fig. 6(a): ln AIS estimate vs schedule length K at n = config['n'] for the true structure;
    ``traces`` prior-started traces (seed fixes theta0 for all K) and one true-parameter start."""
    reading = ais_config["reading"]
    truth = true_structure(reading)
    model = StructureModel.build(truth, CLASS)
    n = config["n"]
    rows = nested_data(0, reading, base_seed, zero_floor=ais_config["zero_floor"])[:n]
    # The printed 0.00 would freeze a Dirichlet-proposal chain, so the true start floors it
    # (decision A19).
    true_start = instance_parameters(0, model, base_seed, max(ais_config["zero_floor"], 1e-3))
    records = []
    for trace in range(config["traces"] + 1):
        init_rng = rng_for(STUDY, "schedule-init", trace, base_seed=base_seed)
        init = true_start if trace == config["traces"] else model.sample_prior(init_rng)
        for k in config["steps"]:
            key = (STUDY, "schedule", trace, k)
            result = ais_score(
                model,
                rows,
                rng_for(*key, base_seed=base_seed),
                k,
                ais_config["strength"],
                ais_config["e_tau"],
                init=init,
            )
            records.append(
                {
                    "study": STUDY,
                    "experiment": "schedule",
                    "dataset": "instance0",
                    "n": n,
                    "rep": trace,
                    "seed": int_seed(*key, base_seed=base_seed),
                    "method": "AIS",
                    "metric": "log_z",
                    "value": float(result.posterior["log_z"][0, 0]),
                    "steps": k,
                    "start": "true" if trace == config["traces"] else "prior",
                    "acceptance": float(result.sample_stats["acceptance_rate"][0, 0]),
                }
            )
    return tidy(records, {"schedule": config, "ais": ais_config})


def pooled_ais(ais: pd.DataFrame, runs: list[int] | None = None) -> pd.Series:
    """AIS^(G): log-mean-exp over the chosen runs, per (n, structure)."""
    sub = ais[ais.metric == "log_z"]
    if runs is not None:
        sub = sub[sub.run.isin(runs)]
    return sub.groupby(["n", "structure"])["value"].apply(lambda v: log_mean_exp(v.to_numpy()))


def calibrate_strength(
    grid: list[float], n: int, steps: int, runs: int, reading: str, base_seed: int
) -> pd.DataFrame:
    """Decision A9: mean MH acceptance of the true structure at size n for each proposal
    strength in ``grid`` (one constant alpha is then frozen for every n and structure)."""
    model = StructureModel.build(true_structure(reading), CLASS)
    rows = nested_data(0, reading, base_seed)[:n]
    records = []
    for strength in grid:
        for run in range(runs):
            rng = rng_for(STUDY, "calibrate", strength, run, base_seed=base_seed)
            result = ais_score(model, rows, rng, steps, strength)
            records.append(
                {
                    "strength": strength,
                    "run": run,
                    "acceptance": float(result.sample_stats["acceptance_rate"][0, 0]),
                    "log_z": float(result.posterior["log_z"][0, 0]),
                }
            )
    return pd.DataFrame(records)
