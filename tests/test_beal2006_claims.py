"""Claims logic of beal2006 (H1–H12): each claim passes on the paper's own numbers (Tables 2–3
and Section 5 of beal2006, from ``paper.py``) or, where the paper gives none, on a small frame
that satisfies its sentence, and fails on a perturbed input that breaks the sentence; the
"not covered" and "reported, not judged" statuses are tested too. Synthetic frames only."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from hierbn.studies import readings as R
from hierbn.studies.beal2006 import claims as C
from hierbn.studies.beal2006 import paper as P
from hierbn.studies.claims import DOES_NOT_HOLD, FAIL, NOT_COVERED, PASS, REDUCED_SCALE, REPORTED

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
def test_h1_reads_almost_all_as_18_of_20_sizes_and_the_papers_table_misses_it() -> None:
    record = C.claim_h1(C.Results(paper_wide()))
    assert record["status"] == FAIL and "Table 2 does not meet it" in record["deviation"]

    # VB better than every score at every size but k sizes, where it ranks last
    def worse_at(k: int) -> dict[str, dict[str, int]]:
        return {
            f"n{n}": ({"VB": 136} if i < k else {"VB": 1}) | {"BIC": 2, "BICp": 2, "CS": 2}
            for i, n in enumerate(P.SIZES)
        }

    inside = round(len(P.SIZES) * (1 - R.ALMOST_ALL_SHARE))  # 2 of 20: 18 of 20 = 90 %
    assert C.claim_h1(C.Results(paper_wide(**worse_at(inside))))["status"] == PASS
    assert C.claim_h1(C.Results(paper_wide(**worse_at(inside + 1))))["status"] == FAIL


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


def test_h2_without_ais_at_the_largest_size_is_not_covered_and_does_not_fail() -> None:
    wide = paper_wide()
    wide.loc[wide.n == P.LARGEST_N, "AIS"] = np.nan  # AIS ran at the other sizes only
    sizes = [n for n in P.SIZES if n != P.LARGEST_N]
    record = C.claim_h2(C.Results(wide, ais_frame(sizes=sizes)))
    assert record["status"] == NOT_COVERED and "AIS" not in record["ours"]["ranks"]


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


def test_h3_needs_the_factor_at_more_than_half_of_the_sizes() -> None:
    sizes = list(P.SIZES)
    half = len(sizes) // 2

    def kl(k: int, factor: float) -> pd.DataFrame:
        vb = [1.0] * len(sizes)
        other = [factor if i < k else 1.5 for i in range(len(sizes))]
        return pd.DataFrame({"VB": vb, "BIC": other, "BICp": other, "CS": other}, index=sizes)

    assert C.h3_verdict(kl(half + 1, C.H3_FACTOR))
    assert not C.h3_verdict(kl(half, C.H3_FACTOR))
    assert not C.h3_verdict(kl(half + 1, C.H3_FACTOR * 0.99))


# ----------------------------------------------------------------------------- H4
def fig2_rows(vb_up: int = 0, cs_last_down: bool = True) -> dict[int, dict[str, dict]]:
    """Fig. 2 rows as fig2_trends would give them: VB trends up at ``vb_up`` rows."""
    sizes = P.FIG2_SIZES
    rows = {}
    for i, n in enumerate(sizes):

        def row(up: bool, down: bool, rho: float = 0.0) -> dict:
            return {"rho": rho, "rho_se": 0.05, "up": up, "down": down}

        cs_rho = -0.9 + 0.1 * i
        rows[n] = {
            "MAP": row(True, False), "BIC": row(False, True), "BICp": row(False, True),
            "CS": row(False, cs_last_down or n != P.LARGEST_N, cs_rho),
            "VB": row(i < vb_up, False), "AIS": row(False, False),
        }  # fmt: skip
    return rows


def test_h4_reads_a_trend_in_the_figure_as_one_at_most_rows() -> None:
    half = len(P.FIG2_SIZES) // 2  # 3 of 7
    assert all(C.h4_holds(fig2_rows(vb_up=half)).values())
    assert not C.h4_holds(fig2_rows(vb_up=half + 1))["VB, AIS flat"]
    assert not C.h4_holds(fig2_rows(cs_last_down=False))["CS still down at the largest n"]


def test_fig2_trends_ties_within_two_standard_errors() -> None:
    d = pd.Series(np.repeat(np.arange(4), 34))
    noise_only = pd.Series(np.tile([-1.0, 1.0], 68))
    flat = C.fig2_trends(d, noise_only)
    assert not flat["up"] and not flat["down"]
    rising = C.fig2_trends(d, noise_only + d)
    assert rising["up"] and not rising["down"]


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


def test_h5_reads_the_printed_rate_with_two_standard_errors() -> None:
    paper_rate = P.VB_BELOW_CS["count"] / P.VB_BELOW_CS["total"]
    at_paper_rate = round(paper_rate * 10000)
    assert C.claim_h5(C.Results(bound_wide(at_paper_rate)))["status"] == PASS
    assert C.claim_h5(C.Results(bound_wide(at_paper_rate, 1)))["status"] == FAIL
    # 0.06 % + 0.005 + 2 SE of ours: 11 of 10,000 is inside (0.11 <= 0.131), 14 is not
    assert C.h5_verdict(11, 10000) and not C.h5_verdict(14, 10000)
    failed = C.claim_h5(C.Results(bound_wide(200)))
    assert failed["status"] == FAIL and failed["cause"] == DOES_NOT_HOLD


# ----------------------------------------------------------------------------- H6
def test_h6_reads_the_printed_bound_at_small_n_and_most_at_the_largest() -> None:
    cells = 136 * 26
    small = {n: (round(0.057 * cells), cells) for n in P.SIZES if n <= P.SMALL_N_MAX}
    half = cells // 2
    assert all(C.h6_holds({**small, P.LARGEST_N: (half + 1, cells)}).values())
    assert not C.h6_holds({**small, P.LARGEST_N: (half, cells)})[P.LARGEST_N]
    # 5.7 + 0.05 + 2 SE (about 0.78 points at 6.5 %): 6.5 % inside, 7.0 % outside
    assert C.h6_holds({160: (round(0.065 * cells), cells)})[160]
    assert not C.h6_holds({160: (round(0.07 * cells), cells)})[160]


def test_h6_is_not_covered_when_ais_used_a_shorter_schedule() -> None:
    record = C.claim_h6(C.Results(paper_wide(), ais_frame(steps=1024)))
    assert record["status"] == NOT_COVERED and "the run used 1,024" in record["note"]


# ----------------------------------------------------------------------------- H7
def quarters_frame(falls: list[float], se: float = 0.00146) -> pd.DataFrame:
    sizes = list(P.SIZES[: len(falls)])
    return pd.DataFrame(
        {"acceptance_q1": 0.8, "acceptance_q2": [0.8 - f / 3 for f in falls],
         "acceptance_q3": [0.8 - 2 * f / 3 for f in falls],
         "acceptance_q4": [0.8 - f for f in falls], "fall": falls, "se": se},
        index=sizes,
    )  # fmt: skip


def test_h7_reads_tends_to_as_most_sizes_and_ties_within_two_se() -> None:
    # our n = 10 and 20 (-0.0027, -0.00025 with SE 0.00146) are ties, not falls
    rising = [-0.0027, -0.00025, *np.linspace(0.02, 0.5, 18)]
    assert all(C.h7_holds(quarters_frame(rising)).values())
    half = len(P.SIZES) // 2
    flat_half = [0.0] * half + list(np.linspace(0.02, 0.5, len(P.SIZES) - half))
    parts = C.h7_holds(quarters_frame(flat_half))
    assert not parts["acceptance falls along the schedule"]
    shrinking = list(np.linspace(0.5, 0.02, 20))
    assert not C.h7_holds(quarters_frame(shrinking))["the fall grows with n"]


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
    assert C.about_precision(1000) == 500 and C.about_precision(5000) == 500
    # VB* first reached at 8,192: the interval (4,096, 8,192] holds 5,000
    assert C.claim_h8(schedule_results(8192))["status"] == PASS
    # first reached at 16,384: (8,192, 16,384] is 3,192 from 5,000 (bound 500, traces agree)
    failed = C.claim_h8(schedule_results(16384))
    assert failed["status"] == FAIL and "crossing VB" in failed["note"]
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


def test_h10_very_slightly_for_cs() -> None:
    def changes(cs: int, vb: int) -> dict[str, dict[str, int]]:
        return {"BIC": {"improved": 0}, "BICp": {"improved": 0},
                "CS": {"improved": cs}, "VB": {"improved": vb}}  # fmt: skip

    sizes = len(P.SIZES)
    assert C.h10_holds(changes(1, 2), sizes)["very slightly for CS"]
    assert not C.h10_holds(changes(0, 2), sizes)["very slightly for CS"]
    assert not C.h10_holds(changes(5, 5), sizes)["very slightly for CS"]
    assert C.h10_holds(changes(10, 12), sizes)["very slightly for CS"]  # half: not most
    assert not C.h10_holds(changes(11, 12), sizes)["very slightly for CS"]


# ----------------------------------------------------------------------------- H11
def gap_wide(gaps: dict[int, float]) -> pd.DataFrame:
    return pd.DataFrame(
        {"rep": 0, "n": list(gaps), "is_true": True, "vb_map_gap": list(gaps.values())}
    )


def test_h11_passes_when_the_gap_vanishes_and_fails_when_it_does_not() -> None:
    shrinking = {10: 0.1, 160: 0.9, 2560: 0.07, 10240: 0.03}
    assert C.claim_h11(C.Results(gap_wide(shrinking)))["status"] == PASS
    assert C.claim_h11(C.Results(gap_wide({**shrinking, 10240: 0.5})))["status"] == FAIL
    assert (
        C.claim_h11(C.Results(gap_wide({10: 0.1, 160: 0.2, 2560: 0.3, 10240: 0.05})))["status"]
        == PASS
    )
    assert (
        C.claim_h11(C.Results(gap_wide({10: 0.1, 160: 0.01, 2560: 0.3, 10240: 0.05})))["status"]
        == FAIL
    )  # a smaller gap than the largest n's
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


def test_the_scale_of_a_reduced_run_is_on_every_verdict_it_depends_on() -> None:
    from hierbn.studies.beal2006.workflow import run_scale

    section = {"sizes": list(P.SIZES), "instances": 10, "restarts": 3,
               "ais": {"sizes": list(P.SIZES), "runs": 5, "steps": P.AIS_STEPS},
               "schedule": {"traces": 3}}  # fmt: skip
    records = {c["id"]: c for c in C.evaluate_claims(C.Results(paper_wide()), run_scale(section))}
    assert records["H1"]["scale"] == "paper"
    assert records["H2"]["scale"] == "5 of the paper's 26 AIS runs"
    assert records["H8"]["scale"] == "3 of the paper's 10 schedule traces"
    assert records["H12"]["scale"] == "10 of the paper's 106 parameter draws"
    assert records["H12"]["cause"] == REDUCED_SCALE
    assert {k for k in C.SCALE_KEYS} == {f"H{i}" for i in range(1, 13)}
