"""The paper plan's batches (hierbn.report.batches): every cached job in exactly one batch, no
batch over a session's length unless one job alone is, the heaviest job in the first batch."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hierbn.report.batches import batch_targets, pack, plan_batches


def _costed(seconds: list[float | None], rule: str = "pj_cv_round") -> pd.DataFrame:
    return pd.DataFrame(
        {
            "rule": rule,
            "study": "toy",
            "output": [f"results/toy/cv/d{i}.parquet" for i in range(len(seconds))],
            "threads": 1,
            "shell": "hierbn toy cv",
            "cached": True,
            "seconds": [math.nan if s is None else s for s in seconds],
            "max_rss_mb": 100.0,
            "probe": False,
        }
    )


@given(st.lists(st.floats(min_value=1.0, max_value=20_000.0), min_size=1, max_size=60))
def test_every_job_is_in_exactly_one_batch_within_capacity(estimates: list[float]) -> None:
    jobs = pd.DataFrame({"estimate": sorted(estimates, reverse=True)})
    capacity = 7_200.0
    batches = pack(jobs, capacity)
    positions = sorted(p for batch in batches for p in batch)
    assert positions == list(range(len(estimates)))
    for batch in batches:
        load = jobs["estimate"].iloc[batch].sum()
        assert load <= capacity or len(batch) == 1


def test_the_heaviest_job_opens_the_first_batch_and_a_long_job_stands_alone() -> None:
    plan = plan_batches(_costed([9_000.0, 100.0, 5_000.0, 3_000.0, 200.0]), "toy", 1.0, 2)
    assert plan[0]["targets"] == ["results/toy/cv/d0.parquet"]  # 2.5 h: over one batch
    assert plan[0]["wall_hours"] == 2.5
    # 5,000 opens the second; 3,000 no longer fits beside it; 200 and 100 still do
    assert [b["name"] for b in plan] == ["toy-1", "toy-2", "toy-3"]
    assert plan[1]["core_hours"] == pytest.approx(5_300 / 3600, abs=0.01)
    assert batch_targets({"toy": plan}, "toy-2") == [
        "results/toy/cv/d1.parquet", "results/toy/cv/d2.parquet", "results/toy/cv/d4.parquet",
    ]  # fmt: skip
    assert batch_targets({"toy": plan}, "toy-3") == ["results/toy/cv/d3.parquet"]


def test_an_unmeasured_job_costs_its_rules_mean() -> None:
    plan = plan_batches(_costed([1_000.0, 3_000.0, None]), "toy", 10.0, 2)
    assert plan[0]["core_hours"] == pytest.approx(6_000 / 3600, abs=0.01)
    assert plan[0]["measured"] == 2


def test_a_rule_nobody_measured_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="pj_timing"):
        plan_batches(_costed([None, None], rule="pj_timing"), "toy", 2.0, 2)


def test_an_unknown_batch_is_named_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="toy-1"):
        batch_targets({"toy": [{"name": "toy-1", "targets": []}]}, "toy-9")
