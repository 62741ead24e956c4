"""A verdict's scale, generated from the config (hierbn.studies.scale), and the cause every
miss carries (hierbn.studies.claims.finished)."""

from __future__ import annotations

import pytest

from hierbn.studies.claims import (
    DOES_NOT_HOLD,
    ERRATUM,
    REDUCED_SCALE,
    claim,
    evaluate,
    not_covered,
    reported,
)
from hierbn.studies.scale import Dimension, RunScale, reductions, run_scale_of

DIMENSIONS = (
    Dimension("iterations", 50_000, "HDP chains of {ours} of the paper's {paper} iterations"),
    Dimension("datasets", 68, "{ours} of the paper's {paper} data sets"),
)


def test_only_the_reductions_are_written_with_the_runs_and_the_papers_numbers() -> None:
    assert reductions(DIMENSIONS, {"iterations": 50_000, "datasets": 68}) == {}
    assert reductions(DIMENSIONS, {"iterations": 1000, "datasets": 70}) == {
        "iterations": "HDP chains of 1,000 of the paper's 50,000 iterations"
    }
    with pytest.raises(ValueError, match=r"lacks \['datasets'\]"):
        reductions(DIMENSIONS, {"iterations": 1000})
    with pytest.raises(ValueError, match=r"has \['draws'\]"):
        reductions(DIMENSIONS, {"iterations": 1, "datasets": 1, "draws": 3})


def test_a_claim_gets_the_reductions_of_its_own_dimensions_or_paper() -> None:
    scale = run_scale_of(DIMENSIONS, {"iterations": 1000, "datasets": 66},
                         {"H1": ("datasets",), "H2": ()})  # fmt: skip
    assert scale.of("H1") == "66 of the paper's 68 data sets"
    assert scale.of("H2") == "paper"
    assert scale.of("H3") == (
        "HDP chains of 1,000 of the paper's 50,000 iterations; 66 of the paper's 68 data sets"
    )
    with pytest.raises(ValueError, match="not dimensions"):
        run_scale_of(DIMENSIONS, {"iterations": 1, "datasets": 1}, {"H1": ("draws",)})


def test_every_miss_has_a_cause_with_evidence_and_a_pass_has_none() -> None:
    functions = [
        lambda r: claim("H1", "t", 1, 2, "c", "fail"),
        lambda r: claim("H2", "t", 1, 2, "c", "fail", cause=ERRATUM, evidence="eq. (3) is wrong"),
        lambda r: claim("H3", "t", 1, 1, "c", "pass", cause=ERRATUM, evidence="x"),
        lambda r: not_covered(
            "H4",
            "t",
            1,
            "c",
            "needs 50,000",
            ours=0.3,
            cause=REDUCED_SCALE,
            evidence="1,000 iterations run",
        ),
        lambda r: reported("H5", "t", 1, 2, "seconds", ours_check=True),
    ]
    at_paper = evaluate(functions, None)
    assert [c["scale"] for c in at_paper] == ["paper"] * 5
    h1, h2, h3, h4, h5 = at_paper
    assert (h1["cause"], h1["evidence"]) == (DOES_NOT_HOLD, "ours 2 against the paper's 1")
    assert (h2["cause"], h2["evidence"]) == (ERRATUM, "eq. (3) is wrong")
    assert (h3["cause"], h3["evidence"]) == (None, "")
    assert h4["ours_text"] == "0.3" and h4["cause"] == REDUCED_SCALE
    assert h5["origin"] == "ours" and h1["origin"] == "paper" and h5["cause"] is None
    reduced = evaluate(functions, None, RunScale({"iterations": "1,000 of 50,000 iterations"}))
    assert (reduced[0]["cause"], reduced[0]["evidence"]) == (
        REDUCED_SCALE, "judged on 1,000 of 50,000 iterations")  # fmt: skip
    assert reduced[1]["cause"] == ERRATUM  # a known cause is kept at any scale
    with pytest.raises(ValueError, match="unknown cause"):
        claim("H1", "t", 1, 2, "c", "fail", cause="bad luck")
    with pytest.raises(ValueError, match="needs its cause's evidence"):
        evaluate([lambda r: claim("H1", "t", 1, 2, "c", "fail", cause=ERRATUM)], None)


def test_a_miss_robust_to_every_reduction_of_its_claim_is_the_claims_not_holding() -> None:
    """A claim function may show a miss ``robust_to`` a reduced dimension (no outcome of what
    the run left out turns it): the miss is then the paper's claim not holding, but only when
    that covers every reduction the claim depends on; ``robust_to`` is never written."""
    why = "no way the 2 unmirrored data sets fall turns 28-4-34"
    functions = [
        lambda r: claim("H1", "t", 1, 2, "c", "fail", robust_to={"datasets": why}),
        lambda r: claim("H2", "t", 1, 1, "c", "pass", robust_to={"datasets": why}),
    ]
    keys = {"H1": ("iterations", "datasets"), "H2": ("datasets",)}
    only_sets = evaluate(functions, None, run_scale_of(
        DIMENSIONS, {"iterations": 50_000, "datasets": 66}, keys))  # fmt: skip
    assert (only_sets[0]["cause"], only_sets[0]["evidence"]) == (DOES_NOT_HOLD, why)
    assert only_sets[0]["scale"] == "66 of the paper's 68 data sets"
    assert only_sets[1]["cause"] is None
    assert all("robust_to" not in c for c in only_sets)
    both = evaluate(functions, None, run_scale_of(
        DIMENSIONS, {"iterations": 1000, "datasets": 66}, keys))  # fmt: skip
    assert both[0]["cause"] == REDUCED_SCALE and "1,000" in both[0]["evidence"]
    at_paper = evaluate(functions, None)
    assert at_paper[0]["evidence"] == "ours 2 against the paper's 1"
