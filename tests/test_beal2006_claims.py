"""Claims logic of beal2006 (H1–H12): each claim passes on the paper's own numbers (Tables 2–3
and Section 5 of beal2006, from ``paper.py``) or, where the paper gives none, on a small frame
that satisfies its sentence, and fails on a perturbed input that breaks the sentence; the
"not covered" and "reported, not judged" statuses are tested too. Synthetic frames only."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from hierbn.studies.beal2006 import claims as C
from hierbn.studies.beal2006 import paper as P
from hierbn.studies.claims import FAIL, NOT_COVERED, PASS, REPORTED

N_STRUCT = 136


def wide_from_ranks(ranks: dict[int, dict[str, int]], rep: int = 0) -> pd.DataFrame:
    """A wide score table in which the true structure (structure 0) has the given rank for
    each (n, method): rank - 1 structures score above it, the rest below."""
    frames = []
    for n, by_method in ranks.items():
        frame = pd.DataFrame(
            {"rep": rep, "n": n, "structure": range(N_STRUCT), "d": 18 + np.arange(N_STRUCT) % 49}
        )
        frame["is_true"] = frame.structure == 0
        for m, rank in by_method.items():
            score = np.where(frame.structure.between(1, rank - 1), 1.0, -1.0)
            score[0] = 0.0
            frame[m] = score
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def paper_wide(**changes: dict[str, int]) -> pd.DataFrame:
    """Table 2 of the paper as a wide table; ``changes`` maps 'n<size>' to ranks to replace."""
    ranks = {n: dict(zip(P.TABLE2_METHODS, row, strict=True)) for n, row in P.TABLE2.items()}
    for key, new in changes.items():
        ranks[int(key[1:])].update(new)
    return wide_from_ranks(ranks)


def ais_frame(sizes=P.SIZES, steps: int = P.AIS_STEPS) -> pd.DataFrame:
    """A minimal AIS table: the sizes run and the configured schedule length."""
    config = json.dumps({"ais": {"steps": steps}})
    return pd.DataFrame({"n": list(sizes), "metric": "log_z", "value": 0.0, "config": config})


# ----------------------------------------------------------------------------- H1
def test_h1_passes_on_table2_and_fails_when_vb_ranks_worse() -> None:
    assert C.claim_h1(C.Results(paper_wide()))["status"] == PASS
    worse = {f"n{n}": {"VB": 136} for n in P.SIZES[-6:]}
    assert C.claim_h1(C.Results(paper_wide(**worse)))["status"] == FAIL


def test_h1_is_not_covered_on_a_subset_of_the_sizes() -> None:
    wide = paper_wide()
    record = C.claim_h1(C.Results(wide[wide.n.isin([10, 160, 480, 2560])]))
    assert record["status"] == NOT_COVERED
    assert "needs scores at n = 20" in record["note"]
    assert record["statement"]["paper"] == "beal2006"


# ----------------------------------------------------------------------------- H2
def test_h2_passes_on_table2_and_fails_when_ais_misses_the_truth() -> None:
    assert C.claim_h2(C.Results(paper_wide(), ais_frame()))["status"] == PASS
    failed = C.claim_h2(C.Results(paper_wide(n10240={"AIS": 2}), ais_frame()))
    assert failed["status"] == FAIL and "AIS" in failed["note"]


def test_h2_does_not_judge_ais_run_with_a_shorter_schedule() -> None:
    record = C.claim_h2(C.Results(paper_wide(n10240={"AIS": 2}), ais_frame(steps=1024)))
    assert record["status"] == NOT_COVERED and "K = 16,384" in record["note"]


# ----------------------------------------------------------------------------- H3
def kl_wide(vb_noise: float) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    frames = []
    for n in P.SIZES:
        ais = rng.normal(0, 3, N_STRUCT)
        frame = pd.DataFrame({"rep": 0, "n": n, "structure": range(N_STRUCT), "AIS": ais})
        frame["is_true"] = frame.structure == 0
        frame["d"] = 18
        frame["VB"] = ais + rng.normal(0, vb_noise, N_STRUCT)
        for m in ("BIC", "BICp", "CS"):
            frame[m] = ais + rng.normal(0, 3, N_STRUCT)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def test_h3_passes_when_vb_is_closest_by_a_long_way_and_fails_otherwise() -> None:
    assert C.claim_h3(C.Results(kl_wide(0.1), ais_frame()))["status"] == PASS
    assert C.claim_h3(C.Results(kl_wide(3.0), ais_frame()))["status"] == FAIL


# ----------------------------------------------------------------------------- H4
def fig2_rho(vb: float = 0.05) -> dict[int, dict[str, float]]:
    sizes = P.FIG2_SIZES
    cs = np.linspace(-0.9, -0.3, len(sizes))
    return {
        n: {"MAP": 0.8, "BIC": -0.9, "BICp": -0.8, "CS": c, "VB": vb, "AIS": -0.1}
        for n, c in zip(sizes, cs, strict=True)
    }


def test_h4_holds_on_the_figure2_trends_and_not_when_vb_trends() -> None:
    assert all(C.h4_holds(fig2_rho()).values())
    assert not C.h4_holds(fig2_rho(vb=0.6))["VB, AIS flat"]
    weakening_reversed = fig2_rho()
    weakening_reversed[P.LARGEST_N]["CS"] = -0.95
    assert not C.h4_holds(weakening_reversed)["CS weakens"]


def test_h4_fails_on_a_counterexample_even_below_the_paper_scale() -> None:
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"rep": 0, "n": 10, "structure": range(N_STRUCT)})
    frame["d"] = rng.integers(18, 67, N_STRUCT)
    frame["is_true"] = frame.structure == 0
    for m, sign in (("MAP", 1), ("BIC", -1), ("BICp", -1), ("CS", -1), ("VB", 1)):
        frame[m] = sign * frame["d"] + rng.normal(0, 1, N_STRUCT)  # VB trends up: broken
    record = C.claim_h4(C.Results(frame))
    assert record["status"] == FAIL and "VB, AIS flat" in record["note"]


# ----------------------------------------------------------------------------- H5
def bound_wide(violations: int, from_cs_violations: int = 0, cells: int = 10000) -> pd.DataFrame:
    cs = np.zeros(cells)
    vb = np.full(cells, 1.0)
    vb[:violations] = -1.0
    from_cs = np.full(cells, 0.5)
    from_cs[:from_cs_violations] = -0.5
    return pd.DataFrame({"rep": 1, "n": 10, "CS*": cs, "VB*": vb, "VBfromCS*": from_cs})


def test_h5_passes_at_the_papers_rate_and_fails_above_the_tolerance() -> None:
    paper_rate = P.VB_BELOW_CS["count"] / P.VB_BELOW_CS["total"]
    at_paper_rate = round(paper_rate * 10000)
    assert C.claim_h5(C.Results(bound_wide(at_paper_rate)))["status"] == PASS
    assert C.claim_h5(C.Results(bound_wide(200)))["status"] == FAIL
    assert C.claim_h5(C.Results(bound_wide(at_paper_rate, 1)))["status"] == FAIL


# ----------------------------------------------------------------------------- H6
def test_h6_holds_at_the_paper_levels_and_not_away_from_them() -> None:
    small, large = P.TABLE3[C.H6_ROW][0], P.TABLE3[C.H6_ROW][-1]
    levels = {n: small for n in P.SIZES if n <= P.SMALL_N_MAX} | {P.LARGEST_N: large}
    assert all(C.h6_holds(levels).values())
    assert not C.h6_holds({**levels, P.LARGEST_N: 30.0})[P.LARGEST_N]
    assert not C.h6_holds({**levels, 160: 40.0})[160]


def test_h6_is_not_covered_when_ais_used_a_shorter_schedule() -> None:
    record = C.claim_h6(C.Results(paper_wide(), ais_frame(steps=1024)))
    assert record["status"] == NOT_COVERED and "the run used 1,024" in record["note"]


# ----------------------------------------------------------------------------- H7
def test_h7_holds_on_the_papers_rejection_row_and_not_when_broken() -> None:
    sizes = [P.SMALL_N_MAX, *P.TABLE3_HEADER]
    rejection = pd.Series(P.TABLE3["% MH rejection"], index=sizes)
    drop = np.linspace(0.05, 0.4, len(sizes))
    quarters = pd.DataFrame({"q1": 0.8, "q4": 0.8 - drop}, index=sizes)
    assert all(C.h7_holds(rejection, quarters).values())
    falling = rejection.copy()
    falling.iloc[3] -= 5
    assert not C.h7_holds(falling, quarters)["rejection rises with n"]
    flat = pd.DataFrame({"q1": 0.8 - drop, "q4": 0.8}, index=sizes)
    assert not C.h7_holds(rejection, flat)["acceptance falls along the schedule"]


# ----------------------------------------------------------------------------- H8
def schedule_results(crossing_vb: int, longest: int = 65536) -> C.Results:
    """A schedule study whose median reaches BIC* at K = 1,024 and VB* at ``crossing_vb``."""
    grid = [2**i for i in range(5, int(np.log2(longest)) + 1)]
    value = [-3.0 if k < 1024 else (-1.0 if k < crossing_vb else 0.5) for k in grid]
    rows = [
        {"n": P.SCHEDULE_N, "steps": k, "value": v + off, "start": "prior", "rep": t}
        for t, off in enumerate((-0.1, 0.0, 0.1))
        for k, v in zip(grid, value, strict=True)
    ]
    wide = pd.DataFrame(
        {"rep": [0], "n": [P.SCHEDULE_N], "is_true": [True], "BIC*": [-2.0], "VB*": [0.0]}
    )
    return C.Results(wide, schedule=pd.DataFrame(rows))


def test_h8_passes_at_the_papers_crossings_and_fails_far_from_them() -> None:
    assert C.crossing(pd.Series([-1.0, 1.0], index=[2048, 4096]), 0.0) == 4096
    assert C.claim_h8(schedule_results(P.CROSSINGS["VB"] - 904))["status"] == PASS  # 4,096
    assert C.claim_h8(schedule_results(65536 * 2))["status"] == FAIL  # never within 4x
    assert C.claim_h8(schedule_results(65536 * 2, longest=2048))["status"] == NOT_COVERED


# ----------------------------------------------------------------------------- H9
def test_h9_is_reported_not_judged() -> None:
    timing = {"n": 480, "em_seconds": 2.0, "vb_seconds": 5.75, "ais_seconds": 550.0}
    record = C.claim_h9(C.Results(paper_wide(), ais_frame(), timing=timing))
    assert record["status"] == REPORTED and record["timing"]
    assert record["criterion"].startswith("reported, not judged")
    assert record["ours"]["vb_em"] == pytest.approx(P.VB_EM_RATIO)


# ----------------------------------------------------------------------------- H10
def test_h10_passes_on_table2_and_fails_when_vb_gains_nothing() -> None:
    assert C.claim_h10(C.Results(paper_wide()))["status"] == PASS
    no_gain = {f"n{n}": {"VB": row[P.TABLE2_METHODS.index("VB*")]} for n, row in P.TABLE2.items()}
    assert C.claim_h10(C.Results(paper_wide(**no_gain)))["status"] == FAIL


# ----------------------------------------------------------------------------- H11
def gap_wide(gaps: dict[int, float]) -> pd.DataFrame:
    return pd.DataFrame(
        {"rep": 0, "n": list(gaps), "is_true": True, "vb_map_gap": list(gaps.values())}
    )


def test_h11_passes_when_the_gap_vanishes_and_fails_when_it_does_not() -> None:
    shrinking = {10: 0.1, 160: 0.9, 2560: 0.07, 10240: 0.03}
    assert C.claim_h11(C.Results(gap_wide(shrinking)))["status"] == PASS
    assert C.claim_h11(C.Results(gap_wide({**shrinking, 10240: 0.5})))["status"] == FAIL
    assert C.claim_h11(C.Results(gap_wide({10: 0.1, 20: 0.05})))["status"] == NOT_COVERED


# ----------------------------------------------------------------------------- H12
def test_h12_passes_when_vb_has_the_best_median_rank_and_fails_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(P, "INSTANCES_B", 2)

    def draws(vb: int) -> pd.DataFrame:
        ranks = {n: {"BIC": 40, "BICp": 30, "CS": 20, "VB": vb} for n in P.SIZES}
        return pd.concat([wide_from_ranks(ranks, rep) for rep in (1, 2)], ignore_index=True)

    assert C.claim_h12(C.Results(draws(vb=5)))["status"] == PASS
    assert C.claim_h12(C.Results(draws(vb=60)))["status"] == FAIL


def test_every_claim_quotes_its_statement_and_has_a_deviation_field() -> None:
    results = C.Results(paper_wide())
    for record in C.evaluate_claims(results):
        assert record["statement"]["text"], record["id"]
        assert isinstance(record["deviation"], str)


def test_the_eq61_gap_is_zero_between_a_fit_and_its_alias_and_positive_otherwise() -> None:
    from hierbn.scoring.scores import StructureModel, relabelled, vb_map_gap
    from hierbn.studies.beal2006.protocol import CLASS, true_structure

    model = StructureModel.build(true_structure(), CLASS)
    fit = model.sample_prior(np.random.default_rng(0))
    counts = (np.where(np.isfinite(fit[0]), 1.0, 0.0), np.where(np.isfinite(fit[1]), 1.0, 0.0))
    alias = relabelled(model, fit, ((1, 0), (1, 0)))
    assert not np.allclose(alias[1][np.isfinite(alias[1])], fit[1][np.isfinite(fit[1])])
    assert vb_map_gap(model, alias, fit, counts) == pytest.approx(0.0, abs=1e-12)
    other = model.sample_prior(np.random.default_rng(1))
    assert vb_map_gap(model, other, fit, counts) > 0.1
