"""ALARM with the true graph (dombowsky2025 decisions §4.6, App. F.2; Figure 10) and its structure
(App. F.3; Tables 10-11): the seven variables of Table 9 from bnlearn's ``alarm`` (20,000 rows),
random subsamples of 200 rows (decision A15: R's ``set.seed(1); sample()`` cannot be replayed, so
subsample 0 is the headline one and the others show the spread), Algorithm 1 on each child of Figure
9 and Algorithm 3 over the candidate parent sets of F.3."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from hierbn.diagnostics import ess_ar_spectral
from hierbn.estimators.hidden import fit_fixed_parents
from hierbn.seeds import rng_for, seed_sequence
from hierbn.structure_learning.hidden_parents import nonempty_subsets, sample_parent_sets
from hierbn.studies.common import tidy
from hierbn.studies.dombowsky2025.protocol import (
    STUDY,
    chain_diagnostics,
    hidden_settings,
    trace_table,
)

BINARY = ("FALSE", "TRUE")
LEVELS3 = ("LOW", "NORMAL", "HIGH")
LEVELS = {"LVF": BINARY, "HYP": BINARY, "HIST": BINARY, "LVV": LEVELS3, "STKV": LEVELS3,
          "PCWP": LEVELS3, "CVP": LEVELS3}  # fmt: skip
# Figure 9: the true parents of each child (the diagnoses LVF and HYP are roots)
PARENTS = {"HIST": ("LVF",), "LVV": ("LVF", "HYP"), "STKV": ("LVF", "HYP"), "PCWP": ("LVV",),
           "CVP": ("LVV",)}  # fmt: skip
ROWS = 20000


def code_alarm(frame: pd.DataFrame, source: str) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The Table 9 columns as zero-based codes in the order FALSE/TRUE and LOW/NORMAL/HIGH
    (the R factor levels are alphabetical, so they are mapped by name, never by code), and a
    check of the shape and levels."""
    missing = [c for c in LEVELS if c not in frame.columns]
    if missing:
        raise ValueError(f"{source}: ALARM columns {missing} not found; has {list(frame.columns)}")
    if len(frame) != ROWS:
        raise ValueError(f"{source}: expected {ROWS} rows (bnlearn::alarm), found {len(frame)}")
    coded = {}
    for name, levels in LEVELS.items():
        values = frame[name].astype(str)
        unknown = sorted(set(values) - set(levels))
        if unknown:
            raise ValueError(f"{source}: column {name} has levels {unknown}; expected {levels}")
        coded[name] = values.map({level: i for i, level in enumerate(levels)}).astype(np.int64)
    table = pd.DataFrame(coded)
    check = {"source": source, "rows": len(table),
             "levels": {n: dict(zip(lv, np.bincount(table[n], minlength=len(lv)).tolist(),
                                    strict=True)) for n, lv in LEVELS.items()}}  # fmt: skip
    return table, check


def subsample(table: pd.DataFrame, index: int, size: int, seed: int) -> pd.DataFrame:
    """Subsample ``index`` (0 = the headline one): ``size`` rows without replacement."""
    rows = rng_for(STUDY, "alarm", index, base_seed=seed).choice(len(table), size, replace=False)
    return table.iloc[np.sort(rows)].reset_index(drop=True)


def dense_table(child: np.ndarray, parents: np.ndarray, cards: tuple[int, ...], k: int):
    """Counts [configuration, x] over every parent configuration (last parent fastest), so the
    eq. (14) predictive covers unobserved configurations too (t/beta there; their empty rows
    add exactly 0 to the sampler, decision A20)."""
    config = np.ravel_multi_index(tuple(parents.T), cards) if parents.shape[1] else 0
    counts = np.zeros((int(np.prod(cards)), k), dtype=np.int64)
    np.add.at(counts, (config, child), 1)
    return counts


def run_alarm_subsample(
    table: pd.DataFrame, index: int, config: dict[str, Any], seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Algorithm 1 ([code] order, t^(0) per the config ([code]: Exp(1), decision A4), burn-in
    decision A3) for HIST, LVV, STKV, PCWP and CVP on one subsample: eq. (14) predictive per parent
    configuration, the coda ESS of each cell's sampled predictive, acceptance and log-posterior
    ESS."""
    section = config["alarm"]
    data = subsample(table, index, section["n"], seed)
    records, traces = [], []
    for node, parents in PARENTS.items():
        cards = tuple(len(LEVELS[p]) for p in parents)
        k = len(LEVELS[node])
        counts = dense_table(data[node].to_numpy(), data[list(parents)].to_numpy(), cards, k)
        seeds = [seed_sequence(STUDY, "alarm", index, node, base_seed=seed)]
        fit = fit_fixed_parents([counts], section["eps"][node], seeds,
                                n_iter=section["iterations"], burn=section["burn"],
                                init=section["init"], order="code", keep_predictive_draws=True,
                                **hidden_settings(config))  # fmt: skip
        ess = ess_ar_spectral(fit.draws(0), ["predictive"])["predictive"].reshape(-1)
        base = {"study": STUDY, "experiment": "alarm", "dataset": "alarm", "n": section["n"],
                "rep": index, "seed": seed, "node": node}  # fmt: skip
        for cell, parent_codes in enumerate(np.ndindex(*cards)):
            labels = ", ".join(f"{p}={LEVELS[p][c]}" for p, c in zip(parents, parent_codes,
                                                                     strict=True))  # fmt: skip
            for x in range(k):
                cell_base = {**base, "parents": labels, "level": LEVELS[node][x]}
                records += [{**cell_base, "method": "HiDDeN", "metric": metric,
                             "value": float(v)} for metric, v in
                            (("predictive", fit.predictive[0, cell, x]),
                             ("count", counts[cell, x]), ("ess", ess[cell * k + x]))]  # fmt: skip
        diagnostics = chain_diagnostics(fit.acceptance[0], fit.log_posterior[0], section["burn"])
        diagnostics |= {f"step_t{x + 1}": s for x, s in enumerate(fit.step_sizes[0])}
        records += [{**base, "method": "HiDDeN", "metric": m, "value": float(v)}
                    for m, v in diagnostics.items()]  # fmt: skip
        traces.append(trace_table(fit.log_posterior[0], fit.t[0], experiment="alarm", node=node,
                                  rep=index))  # fmt: skip
    frame = tidy(records, {"alarm": section, **hidden_settings(config)})
    return frame, pd.concat(traces, ignore_index=True)


# App. F.3: the sequential ordering LVF, HYP, HIST, LVV, STKV; each child's candidates are the
# non-empty subsets of its predecessors (the diagnoses LVF and HYP are never children)
STRUCTURE_ORDER = ("LVF", "HYP", "HIST", "LVV", "STKV")
STRUCTURE_CHILDREN = ("HIST", "LVV", "STKV")


def set_label(names: tuple[str, ...]) -> str:
    """A parent set as Table 10 writes it, e.g. '{LVF,HYP}' (variables in the ordering)."""
    ordered = sorted(names, key=STRUCTURE_ORDER.index)
    return "{" + ",".join(ordered) + "}"


def run_alarm_structure(
    table: pd.DataFrame, index: int, config: dict[str, Any], seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """App. F.3 on subsample ``index`` (the same rows as F.2's): Algorithm 3 for HIST, LVV and STKV
    over every non-empty subset of their predecessors, uniform prior, t^(0) = 1 (decision A4), F.2's
    step sizes; parent-set probabilities (visit frequency and Rao–Blackwellised, decision A5), the
    MAP set, and edge probabilities from the parent-set samples (decision A14)."""
    section, structure = config["alarm"], config["alarm_structure"]
    data = subsample(table, index, section["n"], seed)[list(STRUCTURE_ORDER)].to_numpy()
    records, traces = [], []
    for child in STRUCTURE_CHILDREN:
        j = STRUCTURE_ORDER.index(child)
        sets = nonempty_subsets(range(j))
        seeds = [seed_sequence(STUDY, "alarm_structure", index, child, base_seed=seed)]
        fit, (post,) = sample_parent_sets([data], j, sets, section["eps"][child], seeds,
                                          n_iter=structure["iterations"], burn=structure["burn"],
                                          init="ones", **hidden_settings(config))  # fmt: skip
        base = {"study": STUDY, "experiment": "alarm_structure", "dataset": "alarm",
                "n": section["n"], "rep": index, "seed": seed, "node": child}  # fmt: skip
        truth = set_label(PARENTS[child])
        for s, freq, rb in zip(sets, post.frequency, post.rao_blackwell, strict=True):
            label = set_label(tuple(STRUCTURE_ORDER[v] for v in s))
            records += [{**base, "method": "HiDDeN", "parent_set": label, "metric": m, "value": float(v)}
                        for m, v in (("set_probability", freq), ("set_probability_rb", rb),
                                     ("is_truth", label == truth))]  # fmt: skip
        for v, prob in post.edge_probability.items():
            records.append({**base, "method": "HiDDeN", "parent": STRUCTURE_ORDER[v],
                            "metric": "edge_probability", "value": prob})  # fmt: skip
        map_label = set_label(tuple(STRUCTURE_ORDER[v] for v in post.map_set))
        diagnostics = chain_diagnostics(
            fit.acceptance[0, 0], fit.log_posterior[0], structure["burn"]
        )
        diagnostics |= {
            "map_is_truth": map_label == truth,
            "sets_visited": int((post.frequency > 0).sum()),
        }
        records += [
            {**base, "method": "HiDDeN", "metric": m, "value": float(v)}
            for m, v in diagnostics.items()
        ]
        records.append(
            {**base, "method": "HiDDeN", "parent_set": map_label, "metric": "map", "value": 1.0}
        )
        traces.append(trace_table(fit.log_posterior[0], fit.t[0, :, 0], experiment="alarm_structure",
                                  node=child, rep=index))  # fmt: skip
    frame = tidy(records, {"alarm": {k: section[k] for k in ("n", "eps")}, "alarm_structure": structure,
                           **hidden_settings(config)})  # fmt: skip
    return frame, pd.concat(traces, ignore_index=True)
