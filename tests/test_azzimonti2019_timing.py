"""azzimonti2019 E4 (computing time on Adult) and the NUTS wall-time cap."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from hierbn.draws import Draws
from hierbn.stan.runner import NutsSettings, StanDraws, sample_nuts
from hierbn.studies.azzimonti2019 import protocol, timing
from hierbn.studies.azzimonti2019.protocol import coded, tan_structure

TIME_METRICS = {"seconds", "fit_seconds"}
SEED = np.random.SeedSequence(5)


def _prepared(n_rows: int = 300) -> pd.DataFrame:
    """Four categorical features (2-4 levels) tied to a binary class, the class last."""
    rng = np.random.default_rng(7)
    c = rng.integers(0, 2, n_rows)
    a = (c + (rng.random(n_rows) < 0.25)) % 2
    b = (a + c + rng.integers(0, 2, n_rows)) % 3
    d = (b + rng.integers(0, 2, n_rows)) % 4
    e = 2 * ((c + (rng.random(n_rows) < 0.15)) % 2) + rng.integers(0, 2, n_rows)
    cat = lambda v, k: pd.Categorical.from_codes(v, [f"v{i}" for i in range(k)])  # noqa: E731
    return pd.DataFrame(
        {"a": cat(a, 2), "b": cat(b, 3), "d": cat(d, 4), "e": cat(e, 4), "class": cat(c, 2)}
    )


def _config(**over: Any) -> dict[str, Any]:
    config = {
        "n": [60, 120],
        "full": True,
        "reps": 2,
        "methods": ["vi"],
        "nuts_cpts": 2,
        "nuts_reps": 1,
        "nuts": {"chains": 1, "warmup": 10, "draws": 10, "max_seconds": 1.0},
        "rf_check": {"n": 100, "reps": 2, "test_size": 100},
    }
    return {**config, **over}


@pytest.fixture(scope="module")
def e4_vi() -> pd.DataFrame:
    return timing.run_e4_adult(_prepared(), _config(), None, None, base_seed=3)


def test_cap_is_soft_between_pystan_chains() -> None:
    pytest.importorskip("stan")
    data = {"X": 2, "Y": 2, "n": [[3, 1], [0, 4]], "s": 2.0, "alpha0": [1.0, 1.0]}
    base = {"chains": 4, "warmup": 50, "draws": 50}
    capped = sample_nuts(
        "hier_md", data, ["theta"], SEED, "pystan", NutsSettings(**base, max_seconds=1e-9)
    )
    assert capped.capped and capped.chains_done == 1
    assert capped.draws.posterior["theta"].shape == (1, 50, 2, 2) and capped.seconds > 0
    full = sample_nuts("hier_md", data, ["theta"], SEED, "pystan", NutsSettings(**base))
    assert not full.capped and full.chains_done == 4
    assert full.draws.posterior["theta"].shape == (4, 50, 2, 2)
    assert np.array_equal(
        full.draws.posterior["theta"][0], capped.draws.posterior["theta"][0]
    )  # same first chain


def test_cap_settings_are_checked_and_draws_count_their_chains() -> None:
    with pytest.raises(ValueError, match="max_seconds"):
        NutsSettings(max_seconds=0.0)
    assert StanDraws(Draws({"theta": np.zeros((3, 5, 2))}), 1.0, 0, "x").chains_done == 3
    stopped = StanDraws(None, 1.0, 0, "x", capped=True)
    assert stopped.capped and stopped.chains_done == 0


def test_every_cpt_of_every_table_is_timed_once(e4_vi: pd.DataFrame) -> None:
    structure = tan_structure(coded(_prepared()))
    sizes = {
        node: structure.cardinalities[node] * structure.parent_cardinality(node)
        for node in range(5)
    }
    e4 = e4_vi[e4_vi.experiment == "e4"]
    vi = e4[(e4.method == "vi") & (e4.metric == "seconds")]
    tables = e4[["n", "rep", "full"]].drop_duplicates()
    assert len(tables) == 2 * 2 + 1 and tables.full.sum() == 1
    assert tables[tables.full].n.item() == 300 and tables[tables.full].rep.item() == 0
    assert len(vi) == 5 * len(tables)
    assert all(
        sorted(nodes) == list(range(5)) for _, nodes in vi.groupby(["n", "rep", "full"]).node
    )
    assert dict(zip(vi.node, vi.cpt_size, strict=True)) == sizes
    assert (vi.cpt_size == vi.n_states * vi.n_parent_configs).all()
    klass = vi[vi.is_class]
    assert (klass.n_parent_configs == 1).all() and (klass.node == structure.class_index).all()
    whole = e4[e4.method == "vi_tan"]
    assert set(whole.metric) == {"seconds", "converged", "failed"}
    assert (whole.node == -1).all() and len(whole[whole.metric == "seconds"]) == len(tables)
    assert (whole.cpt_size == sum(sizes.values())).all()
    converged = e4[e4.metric == "converged"].value
    assert (converged == 1).all() and (e4[e4.metric == "failed"].value == 0).all()
    assert (e4.value[e4.metric == "seconds"] > 0).all()
    assert set(e4.method) == {"vi", "vi_tan"}  # no Stan without a backend
    assert e4.node.dtype == np.int64 and e4.full.dtype == bool


def test_rf_check_pairs_hier_and_rf(e4_vi: pd.DataFrame) -> None:
    rf = e4_vi[e4_vi.experiment == "e4_rf"]
    assert set(rf.method) == {"hier", "rf", "rf_sklearn"} and set(rf.rep) == {0, 1}
    assert (rf.n == 100).all()
    assert set(rf.metric) == {"accuracy", "auc", "fit_seconds"}
    scores = rf[rf.metric.isin(["accuracy", "auc"])].value
    assert scores.between(0, 1).all()
    assert rf[rf.metric == "accuracy"].value.min() > 0.6  # the class is learnable from a and e
    per_rep = rf.groupby("rep").seed.nunique()
    assert (per_rep == 1).all()  # paired: both methods on the same split
    assert (rf.node == -1).all() and not rf.full.any()


def test_e4_is_deterministic_apart_from_times(e4_vi: pd.DataFrame) -> None:
    again = timing.run_e4_adult(_prepared(), _config(), None, None, base_seed=3)
    assert again.drop(columns="value").equals(e4_vi.drop(columns="value"))
    keep = ~e4_vi.metric.isin(TIME_METRICS)
    assert np.array_equal(again[keep].value.to_numpy(), e4_vi[keep].value.to_numpy())
    other = timing.run_e4_adult(
        _prepared(), _config(full=False, rf_check=None), None, None, base_seed=4
    )
    assert not other.full.any() and set(other.experiment) == {"e4"}
    assert set(other.seed) != set(e4_vi.seed)


def test_missing_key_and_unknown_method_are_refused() -> None:
    config = _config()
    del config["nuts_reps"]
    with pytest.raises(KeyError, match="nuts_reps"):
        timing.run_e4_adult(_prepared(), config, None, None, 0)
    with pytest.raises(ValueError, match="mcmc"):
        timing.run_e4_adult(_prepared(), _config(methods=["vi", "mcmc"]), None, None, 0)


def test_nuts_nodes_span_sizes_from_smallest_to_largest() -> None:
    structure = tan_structure(coded(_prepared()))
    sizes = {
        node: structure.cardinalities[node] * structure.parent_cardinality(node)
        for node in range(5)
        if structure.parents[node]
    }
    picked = timing.nuts_nodes(structure, 2)
    assert [sizes[node] for node in picked] == [min(sizes.values()), max(sizes.values())]
    assert sorted(timing.nuts_nodes(structure, 10)) == sorted(sizes)
    assert structure.class_index not in timing.nuts_nodes(structure, 10)


BIG = 12  # CPTs with more cells than this "crash"


def _fake_advi(
    model: str, data: dict, variables: list, seed: int, backend: str, compiled: Any
) -> StanDraws:
    if data["X"] * data["Y"] > BIG:
        raise RuntimeError("Stan ADVI failed (exit 70)")
    theta = np.full((1, 4, data["Y"], data["X"]), 1.0 / data["X"])
    return StanDraws(Draws({"theta": theta}), 0.01, 0, backend)


def _fake_nuts(
    model: str,
    data: dict,
    variables: list,
    seed: int,
    backend: str,
    settings: NutsSettings,
    compiled: Any,
):
    rng = np.random.default_rng(seed)
    theta = rng.dirichlet(np.ones(data["X"]), size=(settings.chains, 40, data["Y"]))
    capped = data["X"] * data["Y"] > BIG
    return StanDraws(
        Draws({"theta": theta[:1] if capped else theta}),
        0.5,
        0,
        backend,
        1 if capped else settings.chains,
        capped,
    )


def test_advi_failures_are_counted_per_cpt_with_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "variational_meanfield", _fake_advi)
    monkeypatch.setattr(protocol, "sample_nuts", _fake_nuts)
    config = _config(n=[100], reps=2, full=False, rf_check=None, methods=["vi", "advi", "nuts"])
    config["nuts"] = {"chains": 2, "warmup": 10, "draws": 40, "max_seconds": 1.0}
    e4 = timing.run_e4_adult(_prepared(), config, "pystan", {"advi_exe": "fake"}, base_seed=1)
    failed = e4[(e4.method == "advi") & (e4.metric == "failed")]
    assert len(failed) == 5 * 2  # every CPT of both tables
    assert (failed.value == (failed.cpt_size > BIG)).all()
    assert failed.value.sum() > 0 and (failed.value == 0).any()
    advi_seconds = e4[(e4.method == "advi") & (e4.metric == "seconds")]
    assert (advi_seconds.cpt_size <= BIG).all()  # a crash has no time
    assert (e4[(e4.method == "vi") & (e4.metric == "failed")].value == 0).all()
    nuts = e4[e4.method == "nuts"]
    assert set(nuts.rep) == {0} and nuts.node.nunique() == 2  # nuts_reps = 1, nuts_cpts = 2
    capped = nuts.pivot_table(index="node", columns="metric", values="value")
    assert ((capped.capped == 1) == (nuts.groupby("node").cpt_size.first() > BIG)).all()
    assert capped[capped.capped == 1].rhat_max.isna().all()  # no diagnostics on a capped run
    assert capped[capped.capped == 0].rhat_max.notna().all()
    assert (capped.chains_done == np.where(capped.capped == 1, 1, 2)).all()
    assert nuts.seed.nunique() == 2 and not nuts.seed.isin(e4[e4.method == "vi"].seed).any()


def test_advi_is_not_recorded_without_an_executable() -> None:
    config = _config(n=[60], reps=1, full=False, rf_check=None, methods=["vi", "advi"])
    e4 = timing.run_e4_adult(_prepared(), config, "pystan", {}, base_seed=1)
    assert set(e4.method) == {"vi", "vi_tan"}
