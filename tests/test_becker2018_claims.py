"""The claims logic of becker2018 on small synthetic result tables: every claim passes on the
paper's own numbers (Tables 2–4) or, where the paper prints none, on values that satisfy its
sentence, and fails on a perturbation that breaks the sentence; C11 is "reported, not judged"
and a claim without its experiment "not covered"."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml

from hierbn.studies.becker2018 import claims as C
from hierbn.studies.becker2018 import paper as P
from hierbn.studies.becker2018.protocol import TABLE2_METRICS
from hierbn.studies.becker2018.synthetic import TOY_DELTA
from hierbn.studies.becker2018.tables import kendall, legible_classes, spec_classes
from hierbn.studies.becker2018.workflow import run_scale
from hierbn.studies.claims import (
    DOES_NOT_HOLD,
    ERRATUM,
    FAIL,
    NOT_COVERED,
    OUR_DECISION,
    OUR_ORIGIN,
    PASS,
    REDUCED_SCALE,
    REPORTED,
)
from hierbn.studies.readings import ROUNDING, STANDARD_ERRORS
from hierbn.studies.scale import FULL_SCALE

Results = C.Results
SPEC_LASSO_CLASSES = [int(c.split()[1]) for c in spec_classes("lasso")]
SPEC_VB_CLASSES = [int(c.split()[1]) for c in spec_classes("vb")]


# --------------------------------------------------------------------- builders
def table2(changes: dict[tuple[str, str], float] | None = None) -> pd.DataFrame:
    """Table 2 as run_table2 writes it, our values = the printed ones (a printed p bound
    '< b' gets 0.0001), with ``changes`` to (term, metric)."""
    rows = []
    for term, printed in P.TABLE2.items():
        for metric, value in zip(TABLE2_METRICS, printed, strict=True):
            below = isinstance(value, str)
            paper = float(value.lstrip("< ")) if below else value
            ours = (changes or {}).get((term, metric), 0.0001 if below else paper)
            rows.append({"term": term, "metric": metric, "value": ours, "paper": paper,
                         "paper_below": below})  # fmt: skip
    return pd.DataFrame(rows)


def rankings(columns: dict[tuple[str, str], list]) -> pd.DataFrame:
    """A Table 3 frame: (method, kind) -> items in rank order (class numbers as ints)."""
    return pd.DataFrame([
        {"method": m, "kind": k, "rank": r + 1, "item": f"class {i}" if k == "class" else i}
        for (m, k), items in columns.items() for r, i in enumerate(items)
    ])  # fmt: skip


def paper_rankings(**replace: list) -> pd.DataFrame:
    """Ours = Table 3 as printed (the class columns: the spec's reconstruction, which holds
    every legible cell)."""
    columns = {("vb-faithful", "question"): list(P.VB_QUESTIONS),
               ("vb-corrected", "question"): list(P.VB_QUESTIONS),
               ("lasso-exact", "question"): list(P.LASSO_QUESTIONS),
               ("vb-faithful", "class"): list(SPEC_VB_CLASSES),
               ("lasso-exact", "class"): list(SPEC_LASSO_CLASSES)}  # fmt: skip
    for key, items in replace.items():
        method, kind = key.rsplit("_", 1)
        columns[(method.replace("_", "-"), kind)] = items
    return rankings(columns)


TERMS = ("nb.repeat", "attendance", "Q1", "intercept")


ELBO = -9439.4  # the size of the real data's bound (results/becker2018/vb/faithful.parquet)


def vb_table(shift: float = 0.0, sd: float = 0.01, min_step: float = 1e-12) -> pd.DataFrame:
    """Both VB variants' fits: Delta (mean, sd), sigma, and the fit's diagnostics."""
    rows = []
    for method in ("vb-faithful", "vb-corrected"):
        for d, term in enumerate(TERMS):
            rows += [
                (method, "delta", term, "mean", 0.1 * d + shift),
                (method, "delta", term, "sd", sd),
            ]
        rows += [(method, "sigma", "", "mean", 0.744)]
        fit = {"elbo_min_step": min_step if method == "vb-faithful" else 1e-12, "converged": 1.0,
               "n_iter": 500.0, "a_n": 2910.001, "elbo": ELBO}  # fmt: skip
        rows += [(method, "fit", "", k, v) for k, v in fit.items()]
    return pd.DataFrame(
        [{"method": m, "parameter": p, "term": t, "class": 0, "metric": k, "value": v}
         for m, p, t, k, v in rows]
    )  # fmt: skip


def gibbs_table(
    sd: float = 0.03, sigma: float = 0.744, rhat: float = 1.002, ess: float = np.inf
) -> pd.DataFrame:
    rows = [{"parameter": f"delta[{t}]", "mean": 0.1 * d, "sd": sd, "q025": 0.1 * d - 1.96 * sd,
             "q975": 0.1 * d + 1.96 * sd, "rhat": rhat, "ess_bulk": ess}
            for d, t in enumerate(TERMS)]  # fmt: skip
    rows += [{"parameter": "sigma", "mean": sigma, "sd": 0.01, "q025": 0.72, "q975": 0.76,
              "rhat": rhat}, {"parameter": "s", "mean": 556.0, "sd": 50.0, "q025": 460.0,
                              "q975": 660.0, "rhat": rhat}]  # fmt: skip
    return pd.DataFrame(rows).assign(method="gibbs")


def cv_table(mse: dict[str, float], coverage: float = 0.95, jitter: float = 0.0) -> pd.DataFrame:
    """Ten folds of one repeat at the given mean rounded MSE, each model's folds spread by
    ``jitter`` times fixed centred normal draws (0: every fold at the mean)."""
    offsets = np.random.default_rng(7).normal(size=(len(mse), 10))
    offsets = jitter * (offsets - offsets.mean(axis=1, keepdims=True))
    rows = [{"method": m, "metric": metric, "rep": 0, "fold": f, "value": v + offsets[i, f]}
            for i, (m, v) in enumerate(mse.items()) for f in range(10)
            for metric in ("mse_rounded", "mse_raw")]  # fmt: skip
    rows += [{"method": "vb-faithful", "metric": "coverage95", "rep": 0, "fold": f,
              "value": coverage} for f in range(10)]  # fmt: skip
    return pd.DataFrame(rows)


PAPER_CV = {**{m: P.TABLE4[k] for m, k in C.TABLE4_KEY.items()}, "ridge-noclass": P.TABLE4["ridge"]}


def timing(vb: float, chain: float, sweeps: int = 6000) -> pd.DataFrame:
    return pd.DataFrame([
        {"method": "vb-faithful", "sweeps": 0, "value": vb},
        {"method": "vb-corrected", "sweeps": 0, "value": vb / 2},
        {"method": "gibbs", "sweeps": 1000, "value": chain / 6},
        {"method": "gibbs", "sweeps": sweeps, "value": chain},
    ])  # fmt: skip


def toy(shift: float = 0.0, methods: tuple[str, ...] = ("vb-faithful", "vb-corrected", "gibbs")):
    slope, intercept = TOY_DELTA
    return pd.DataFrame(
        [{"method": m, "metric": k, "value": v} for m in methods
         for k, v in (("delta_slope", slope + 0.001), ("delta_intercept", intercept + shift))]
    )  # fmt: skip


# --------------------------------------------------------------------- the paper's values
def test_the_paper_values_hang_together() -> None:
    """Table 2's printed p values give the paper's six significant questions; the legible
    class cells agree with the spec's reconstruction; Table 3's columns hold every item once."""
    printed_p = {t: v[3] for t, v in P.TABLE2.items() if t.startswith("Q")}
    below = [t for t, p in printed_p.items() if isinstance(p, str) or p < 0.05]
    assert below == list(P.SIGNIFICANT)
    for model in (
        "lasso",
        "vb",
    ):  # the reconstruction fills the garbled cells with every class once
        assert sorted(spec_classes(model)) == sorted(f"class {c}" for c in range(1, 14))
    assert sorted(P.VB_QUESTIONS) == sorted(P.LASSO_QUESTIONS) == sorted(P.PREDICTORS)
    assert len(legible_classes("lasso")) == 11 and len(legible_classes("vb")) == 10


# --------------------------------------------------------------------- claims
def _status(function, **results) -> str:
    return function(Results(**results))["status"]


def test_c1_table2_within_the_printed_precision() -> None:
    assert _status(C.claim_c1, table2=table2()) == PASS
    # the estimate 0.065 printed to three decimals: 0.0005 either side, and no more
    assert _status(C.claim_c1, table2=table2({("Q1", "estimate"): 0.065 + 0.00049})) == PASS
    assert _status(C.claim_c1, table2=table2({("Q1", "estimate"): 0.065 + 0.00051})) == FAIL
    # t to two decimals (2.36): 0.005
    assert _status(C.claim_c1, table2=table2({("Q1", "t_value"): 2.36 + 0.0049})) == PASS
    assert _status(C.claim_c1, table2=table2({("Q1", "t_value"): 2.36 + 0.0051})) == FAIL
    # the SE one printed unit more (decisions §3.3): 0.0015
    assert _status(C.claim_c1, table2=table2({("Q1", "std_error"): 0.027 + 0.0014})) == PASS
    assert _status(C.claim_c1, table2=table2({("Q1", "std_error"): 0.027 + 0.0016})) == FAIL
    # a p printed "< 0.001" must be below it
    assert _status(C.claim_c1, table2=table2({("Q16", "p_value"): 0.0015})) == FAIL


def _swapped_until(items: tuple[str, ...], keep: int, stop) -> tuple[list[str], list[str]]:
    """Adjacent swaps (after the first ``keep``), one at a time, of ``items``: the last
    ranking before ``stop(ranking)`` holds and the first at which it does."""
    current = list(items)
    for i in range(keep, len(items) - 1):
        before = list(current)
        current[i], current[i + 1] = current[i + 1], current[i]
        current = current[: i + 1] + current[i + 1 :]
        if stop(current):
            return before, current
    raise AssertionError("no swap crossed the boundary")


def test_c2_question_rankings_similar_within_the_margin() -> None:
    record = C.claim_c2(Results(rankings=paper_rankings()))
    assert record["status"] == PASS
    assert record["paper"]["top10_overlap"] == 7
    paper_tau = record["paper"]["tau_vb_vs_lasso"]
    assert paper_tau == pytest.approx(0.74, abs=0.005)  # decisions §3.6
    swapped = list(P.VB_QUESTIONS)
    swapped[3], swapped[4] = swapped[4], swapped[3]
    assert _status(C.claim_c2, rankings=paper_rankings(vb_faithful_question=swapped)) == FAIL
    # the lasso column moved away from VB's, swap by swap: passes while tau stays within 10 %
    inside, outside = _swapped_until(
        P.LASSO_QUESTIONS, 3, lambda lasso: kendall(list(P.VB_QUESTIONS), lasso) < 0.9 * paper_tau
    )
    assert _status(C.claim_c2, rankings=paper_rankings(lasso_exact_question=inside)) == PASS
    assert _status(C.claim_c2, rankings=paper_rankings(lasso_exact_question=outside)) == FAIL


def test_c3_lasso_ranking() -> None:
    assert _status(C.claim_c3, rankings=paper_rankings()) == PASS
    classes = list(SPEC_LASSO_CLASSES)
    classes[2], classes[3] = classes[3], classes[2]  # ranks 3 and 4 are legible in the paper
    result = C.claim_c3(Results(rankings=paper_rankings(lasso_exact_class=classes)))
    assert result["status"] == FAIL and result["ours"]["class_ranks_differing"] == [3, 4]
    # ranks 5 and 6 are garbled in the paper: not judged
    classes = list(SPEC_LASSO_CLASSES)
    classes[4], classes[5] = classes[5], classes[4]
    assert _status(C.claim_c3, rankings=paper_rankings(lasso_exact_class=classes)) == PASS
    # the question column: equivalent while tau >= 0.9 (10 % of a ranking with itself)
    inside, outside = _swapped_until(
        P.LASSO_QUESTIONS, 0, lambda ours: kendall(ours, list(P.LASSO_QUESTIONS)) < 0.9
    )
    assert _status(C.claim_c3, rankings=paper_rankings(lasso_exact_question=inside)) == PASS
    assert _status(C.claim_c3, rankings=paper_rankings(lasso_exact_question=outside)) == FAIL


def test_c4_class_rankings_differ() -> None:
    assert _status(C.claim_c4, rankings=paper_rankings()) == PASS
    # the lasso ranking the classes as VB does: they no longer differ, class 13 is not second
    same = list(SPEC_VB_CLASSES)
    assert _status(C.claim_c4, rankings=paper_rankings(lasso_exact_class=same)) == FAIL
    moved = [7, 13, *(c for c in SPEC_VB_CLASSES if c not in (7, 13))]  # VB puts 13 second
    assert _status(C.claim_c4, rankings=paper_rankings(vb_faithful_class=moved)) == FAIL


def test_c5_vb_close_to_gibbs_within_a_tenth_of_the_interval() -> None:
    assert _status(C.claim_c5, vb=vb_table(), gibbs=gibbs_table()) == PASS
    width = 3.92 * 0.03  # the Gibbs 95% interval of gibbs_table()
    assert _status(C.claim_c5, vb=vb_table(shift=0.099 * width), gibbs=gibbs_table()) == PASS
    assert _status(C.claim_c5, vb=vb_table(shift=0.101 * width), gibbs=gibbs_table()) == FAIL
    assert _status(C.claim_c5, vb=vb_table(), gibbs=gibbs_table(rhat=1.05)) == FAIL
    # the noise precision within ±10 % of Gibbs'
    assert _status(C.claim_c5, vb=vb_table(), gibbs=gibbs_table(sigma=0.744 / 1.09)) == PASS
    assert _status(C.claim_c5, vb=vb_table(), gibbs=gibbs_table(sigma=0.744 / 1.11)) == FAIL


def test_c6_vb_underestimates_variance_beyond_noise() -> None:
    assert _status(C.claim_c6, vb=vb_table(sd=0.01), gibbs=gibbs_table(sd=0.03)) == PASS
    assert _status(C.claim_c6, vb=vb_table(sd=0.04), gibbs=gibbs_table(sd=0.03)) == FAIL
    # ESS 50: the Gibbs SD's noise is 2 x 0.03 / sqrt(100) = 0.006
    noisy = gibbs_table(sd=0.03, ess=50.0)
    assert _status(C.claim_c6, vb=vb_table(sd=0.0235), gibbs=noisy) == PASS
    assert _status(C.claim_c6, vb=vb_table(sd=0.0245), gibbs=noisy) == FAIL


def test_c7_vb_an_order_of_magnitude_faster() -> None:
    record = C.claim_c7(Results(timing=timing(vb=1.0, chain=18.0)))
    assert record["status"] == PASS and record["timing"]
    assert record["ours"]["ratio_to_1000_sweeps"] == pytest.approx(1 / 3)
    assert _status(C.claim_c7, timing=timing(vb=1.0, chain=10.01)) == PASS
    assert _status(C.claim_c7, timing=timing(vb=1.0, chain=9.99)) == FAIL
    record = C.claim_c7(Results(timing=timing(1.0, 18.0, sweeps=2000)))
    assert record["status"] == NOT_COVERED and record["cause"] == REDUCED_SCALE


def _problems(mse: dict[str, float], jitter: float = 0.0) -> list[str]:
    return C.claim_c8(Results(cv=cv_table(mse, jitter=jitter)))["ours"]["problems"]


def _pair_noise(a: str, b: str, jitter: float) -> float:
    cv = cv_table(PAPER_CV, jitter=jitter)
    folds = cv[cv.metric == "mse_rounded"].pivot_table(
        index=["rep", "fold"], columns="method", values="value"
    )
    return C._fold_noise(folds, a, b)


def test_c8_table4_order_ties_within_noise() -> None:
    assert C.claim_c8(Results(cv=cv_table(PAPER_CV)))["status"] == PASS
    jitter = 0.02
    # lasso above the regression: a tie within 2 SE of their fold differences
    tol = _pair_noise("ols", "lasso", jitter)
    assert tol > 0
    inside = {**PAPER_CV, "lasso": PAPER_CV["ols"] + 0.9 * tol}
    outside = {**PAPER_CV, "lasso": PAPER_CV["ols"] + 1.1 * tol}
    assert not [p for p in _problems(inside, jitter) if p.startswith("ridge >")]
    assert [p for p in _problems(outside, jitter) if p.startswith("ridge >")]
    # LME below the regression: tied within noise (ours differ by 0.0003)
    tol = _pair_noise("lme", "ols", jitter)
    inside = {**PAPER_CV, "lme": PAPER_CV["ols"] - 0.9 * tol}
    outside = {**PAPER_CV, "lme": PAPER_CV["ols"] - 1.1 * tol}
    assert not [p for p in _problems(inside, jitter) if p.startswith("lme >")]
    assert [p for p in _problems(outside, jitter) if p.startswith("lme >")]


def test_c8_table4_comparable_and_levels() -> None:
    # VB comparable to LME: the paper's precision, one unit of Table 4's two decimals
    assert pytest.approx(0.01) == C.TABLE4_PRECISION
    assert "|VB - LME| > 0.01" not in _problems({**PAPER_CV, "vb-faithful": 1.4549, "lme": 1.4451})
    assert "|VB - LME| > 0.01" in _problems({**PAPER_CV, "vb-faithful": 1.4552, "lme": 1.4451})
    # a level within the printed precision plus 2 SE of ours (exact folds: 0.005)
    assert not _problems({**PAPER_CV, "lasso": 1.4349})
    assert _problems({**PAPER_CV, "lasso": 1.4351}) == [
        "lasso off the printed 1.43 (|ours − paper| = 0.0051 (bound 0.005))"
    ]
    jitter = 0.02
    cv = cv_table(PAPER_CV, jitter=jitter)
    se = cv[(cv.method == "lasso") & (cv.metric == "mse_rounded")]["value"].std() / np.sqrt(10)
    bound = 0.005 + STANDARD_ERRORS * se
    assert not _problems({**PAPER_CV, "lasso": 1.43 - 0.99 * bound}, jitter)
    assert _problems({**PAPER_CV, "lasso": 1.43 - 1.01 * bound}, jitter)[0].startswith("lasso off")


def test_c8_table4_miss_causes() -> None:
    # only decision 15's ridge (with class indicators) breaks it: our decision
    ridge = {**PAPER_CV, "ridge": 1.42}
    record = C.claim_c8(Results(cv=cv_table(ridge)))
    assert record["status"] == FAIL and record["cause"] == OUR_DECISION
    # the pilot of decisions §3.7: VB and LME 0.021 apart as well, which no design explains
    pilot = {"ols": 1.439, "lasso": 1.436, "vb-faithful": 1.460, "lme": 1.439, "ridge": 1.424,
             "ridge-noclass": 1.556}  # fmt: skip
    record = C.claim_c8(Results(cv=cv_table(pilot)))
    assert record["status"] == FAIL and record["cause"] == DOES_NOT_HOLD
    assert "|VB - LME| > 0.01" in record["evidence"]
    level = {m: v + 0.07 for m, v in PAPER_CV.items()}  # order kept, every level off
    assert C.claim_c8(Results(cv=cv_table(level)))["status"] == FAIL


def test_c9_the_papers_updates_maximise_the_bound() -> None:
    assert _status(C.claim_c9, vb=vb_table()) == PASS
    rounding = ROUNDING * abs(ELBO)
    assert _status(C.claim_c9, vb=vb_table(min_step=-0.9 * rounding)) == PASS
    record = C.claim_c9(Results(vb=vb_table(min_step=-1.1 * rounding)))
    assert record["status"] == FAIL and record["cause"] == ERRATUM
    synthetic = pd.DataFrame([{"method": "vb-faithful", "metric": "elbo_min_step", "value": -1e-3},
                              {"method": "vb-corrected", "metric": "elbo_min_step", "value": 0.0}])  # fmt: skip
    assert _status(C.claim_c9, vb=vb_table(), synthetic=synthetic) == FAIL
    unconverged = vb_table()
    unconverged.loc[unconverged.metric == "converged", "value"] = 0.0
    assert _status(C.claim_c9, vb=unconverged) == FAIL


def test_c10_significant_questions_at_the_papers_level() -> None:
    printed = table2({(t, "p_value"): 0.0001 if isinstance(v[3], str) else v[3]
                      for t, v in P.TABLE2.items()})  # fmt: skip
    assert _status(C.claim_c10, table2=printed) == PASS
    assert _status(C.claim_c10, table2=table2({("Q8", "p_value"): 0.0501})) == PASS
    assert _status(C.claim_c10, table2=table2({("Q8", "p_value"): 0.05})) == FAIL


def test_c11_is_reported_not_judged() -> None:
    for coverage in (0.95, 0.5):
        record = C.claim_c11(Results(cv=cv_table(PAPER_CV, coverage), vb=vb_table()))
        assert record["status"] == REPORTED
        assert record["criterion"].startswith("reported, not judged")
    assert record["ours"]["coverage95"] == 0.5 and record["ours"]["two_a_n"] == pytest.approx(
        5820.002
    )


def test_c12_toy_recovery_is_our_check() -> None:
    record = C.claim_c12(Results(toy=toy()))
    assert record["status"] == PASS and record["origin"] == OUR_ORIGIN
    assert _status(C.claim_c12, toy=toy(shift=0.03)) == FAIL
    assert _status(C.claim_c12, toy=toy(methods=("vb-faithful", "vb-corrected"))) == FAIL
    assert all(c["origin"] != OUR_ORIGIN for c in C.evaluate_claims(Results()) if c["id"] != "C12")


def test_every_claim_quotes_the_paper_and_is_not_covered_without_its_experiment() -> None:
    claims = C.evaluate_claims(Results())
    assert {c["status"] for c in claims} == {NOT_COVERED}
    assert {c["cause"] for c in claims} == {REDUCED_SCALE} and all(c["evidence"] for c in claims)
    quoted = {c.quote.text for c in P.PAPER.citations}
    assert all(c["statement"]["text"] in quoted for c in claims)
    assert all(c["deviation"] for c in claims if c["id"] != "C11")


def _section(*files: str) -> dict:
    section: dict = {}
    for name in files:
        with open(name, encoding="utf-8") as handle:
            _merge(section, yaml.safe_load(handle).get("becker2018", {}))
    return section


def _merge(into: dict, extra: dict) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


@pytest.mark.parametrize(
    ("files", "folds"),
    [(("config/config.yaml",), 10), (("config/config.yaml", "config/paper.yaml"), 10),
     (("tests/e2e/tiny/becker2018.yaml",), 3)],
)  # fmt: skip
def test_run_scale_on_every_config(files: tuple[str, ...], folds: int) -> None:
    """The default and paper configs run the paper's one 10-fold CV (its only stated scale);
    the tiny e2e config's 3 folds are a reduction, in the scale of the CV claims only."""
    run = run_scale(_section(*files))
    assert run == {"cv_folds": folds}
    claims = {c["id"]: c for c in C.evaluate_claims(Results(), run)}
    expected = FULL_SCALE if folds == 10 else "CV of 3 of the paper's 10 folds"
    assert claims["C8"]["scale"] == claims["C11"]["scale"] == expected
    assert claims["C1"]["scale"] == FULL_SCALE
