"""reproduction/paper-scaling.yaml against the configs it scales between: every factor is the
paper's chain length or draw count over the record overlay's, and every chain of a record run
is scaled to the paper's total length of the chains it stands for."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pandas as pd
import pytest
import yaml

from hierbn.config import merged
from hierbn.report.job_scaling import RowScaling, extra_seconds, read_scaling
from hierbn.studies.petitjean2018.protocol import Method, cv_methods

ROOT = Path(__file__).resolve().parents[1]
SCALING = read_scaling(ROOT / "reproduction" / "paper-scaling.yaml")
PAPER = yaml.safe_load((ROOT / "config" / "paper.yaml").read_text())


def _record(study: str) -> dict:
    """The study's section of config/paper.yaml under its record overlay."""
    overlay = yaml.safe_load((ROOT / "reproduction" / f"{study}-medium.yaml").read_text())
    return merged(PAPER, overlay)[study]


def _factor(rows: tuple[RowScaling, ...], **row: str) -> float:
    """How many times a row of one second with these columns grows (1: kept as measured)."""
    return 1.0 + extra_seconds(pd.DataFrame([{**row, "value": 1.0}]), rows)


def test_beal2006_jobs_grow_by_the_paper_draws_over_the_records() -> None:
    paper, record = PAPER["beal2006"], _record("beal2006")
    assert SCALING["beal_scores"].job == pytest.approx(paper["instances"] / record["instances"])
    assert SCALING["beal_ais"].job == pytest.approx(paper["ais"]["runs"] / record["ais"]["runs"])
    assert SCALING["beal_schedule"].job == pytest.approx(
        paper["schedule"]["traces"] / record["schedule"]["traces"]
    )


def _iterations(method: str, cv: dict) -> tuple[tuple[str, str], int]:
    parsed = Method.parse(method)
    tying = parsed.tying or cv["hdp"]["tying"]
    return (parsed.structure, tying + ("-prior" if parsed.alternative_prior else "")), (
        parsed.iterations or cv["hdp"]["iterations"]
    )


@pytest.mark.parametrize("rule", ["pj_cv_round", "pj_cv"])
def test_petitjean2018_cv_chains_scale_to_the_paper_chains_they_stand_for(rule: str) -> None:
    """Per (structure, tying): the record's chains' sampling seconds times their factors make
    the paper's total iterations; a cell's other seconds, the m-estimates and the forest are
    kept as measured."""
    paper, record = PAPER["petitjean2018"]["cv"], _record("petitjean2018")["cv"]
    totals: dict[tuple[str, str], float] = defaultdict(float)
    for method in cv_methods(paper):
        if Method.parse(method).estimator == "hdp":
            group, iterations = _iterations(method, paper)
            totals[group] -= iterations
    for method in cv_methods(record):
        factor = _factor(SCALING[rule].rows, metric="sampling_seconds", method=method)
        assert _factor(SCALING[rule].rows, metric="seconds", method=method) == 1.0
        if Method.parse(method).estimator == "hdp":
            group, iterations = _iterations(method, record)
            totals[group] += iterations * factor
        else:
            assert factor == 1.0, method
    assert totals and all(abs(total) < 1e-6 for total in totals.values()), dict(totals)
    assert _factor(SCALING[rule].rows, metric="zero_one", method="skdb-hdp") == 1.0


def test_petitjean2018_learning_curves_and_timings_scale_by_their_iterations() -> None:
    paper, record = PAPER["petitjean2018"], _record("petitjean2018")
    curve = (
        paper["learning_curve"]["hdp"]["iterations"] / record["learning_curve"]["hdp"]["iterations"]
    )
    rows = SCALING["pj_learning_curve"].rows
    assert _factor(rows, metric="sampling_seconds", method="skdb-hdp") == pytest.approx(curve)
    assert _factor(rows, metric="seconds", method="skdb-hdp") == 1.0  # the fixed part stays
    assert _factor(rows, metric="sampling_seconds", method="skdb-m") == 1.0
    ratios = {
        p / r
        for p, r in zip(paper["timing"]["iterations"], record["timing"]["iterations"], strict=True)
    }
    assert len(ratios) == 1
    rows = SCALING["pj_timing"].rows
    assert _factor(rows, metric="sampling_seconds", method="kdb5-hdp") == pytest.approx(
        ratios.pop()
    )
    assert _factor(rows, metric="tree_seconds", method="kdb5-hdp") == 1.0


@pytest.mark.parametrize("rule", ["panel_cv_round", "panel_cv", "panel_learning_curve"])
def test_panel_chains_grow_by_the_paper_iterations_over_the_records(rule: str) -> None:
    paper, record = PAPER["panel"]["settings"], _record("panel")["settings"]
    rows = SCALING[rule].rows
    for estimator in ("hdp", "hidden"):
        expected = paper[estimator]["iterations"] / record[estimator]["iterations"]
        assert _factor(rows, metric="fit_seconds", estimator=estimator) == pytest.approx(expected)
    assert _factor(rows, metric="fit_seconds", estimator="bdeu1") == 1.0
    assert _factor(rows, metric="predict_seconds", estimator="hdp") == 1.0
