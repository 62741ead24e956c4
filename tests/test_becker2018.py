"""becker2018 on the real data: the data check, Table 2, the Table 3 rankings and their claims,
the CV folds; claims without their experiments are not covered."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hierbn.data.readers import DataFormatError
from hierbn.studies.becker2018.claims import Results, claim_c1, claim_c10, evaluate_claims
from hierbn.studies.becker2018.cv import fold_rows, lasso_rankings
from hierbn.studies.becker2018.data import check_turkiye
from hierbn.studies.becker2018.protocol import run_table2, run_vb
from hierbn.studies.becker2018.tables import paper_rankings, vb_rankings

REGISTRY = Path(__file__).resolve().parents[1] / "config" / "datasets.tsv"
CONFIG = {
    "hyper": dict.fromkeys(("a0", "b0", "c0", "d0", "e0", "f0"), 1e-3),
    "vb": {"variants": ["faithful", "corrected"], "tol": 1e-10, "max_iter": 1000},
}


@pytest.fixture(scope="module")
def turkiye(mirror) -> pd.DataFrame:
    from hierbn.data.convert import build_dataset
    from hierbn.data.registry import load_registry

    entry = load_registry(REGISTRY)[("becker2018", "turkiye")]
    return build_dataset(entry, [mirror / entry.parts[0].file])


def test_the_data_check_names_what_differs(turkiye: pd.DataFrame) -> None:
    assert check_turkiye(turkiye, "turkiye.parquet")["shape"] == [5820, 33]
    changed = turkiye.copy()
    changed.loc[10, "Q5"] = 5.0 if changed.loc[10, "Q5"] != 5 else 4.0
    with pytest.raises(DataFormatError, match=r"bad\.parquet is not .* column sums .*Q5"):
        check_turkiye(changed, "bad.parquet")
    with pytest.raises(DataFormatError, match=r"columns \['difficulty'\] are missing"):
        check_turkiye(turkiye.drop(columns="difficulty"), "cut.parquet")


def test_table2_and_its_significant_questions_reproduce_the_paper(turkiye: pd.DataFrame) -> None:
    results = Results(table2=run_table2(turkiye))
    assert claim_c1(results)["status"] == "pass"
    assert claim_c10(results)["ours"] == ["Q1", "Q10", "Q16", "Q17", "Q25", "Q26"]


def test_rankings_reproduce_table3(turkiye: pd.DataFrame) -> None:
    vb = pd.concat([run_vb(turkiye, v, CONFIG) for v in ("faithful", "corrected")])
    rankings = pd.concat([vb_rankings(vb, "vb-faithful"), vb_rankings(vb, "vb-corrected"),
                          lasso_rankings(turkiye), paper_rankings()])  # fmt: skip
    by_id = {c["id"]: c for c in evaluate_claims(Results(vb=vb, rankings=rankings))}
    assert [by_id[c]["status"] for c in ("C2", "C3", "C4")] == ["pass"] * 3
    assert by_id["C5"]["status"] == "not covered" and by_id["C8"]["status"] == "not covered"
    # the paper's updates lower the correct ELBO on the real data; exact coordinate ascent does not
    assert by_id["C9"]["status"] == "fail"
    steps = by_id["C9"]["ours"]["min_elbo_step"]
    assert steps["vb-faithful"] < -1e-8 <= steps["vb-corrected"]


def test_cv_folds_are_the_specs_and_partition_the_rows() -> None:
    tests = [fold_rows(100, 0, k, 10)[1] for k in range(10)]
    assert np.array_equal(np.sort(np.concatenate(tests)), np.arange(100))
    from sklearn.model_selection import KFold

    expected = list(KFold(10, shuffle=True, random_state=1).split(np.arange(100)))[3][1]
    assert np.array_equal(fold_rows(100, 0, 3, 10)[1], expected)  # decision 14: random_state r
    assert np.rint(2.5) == 2 and np.rint(3.5) == 4  # R's round: half to even


def test_claims_without_experiments_are_not_covered() -> None:
    claims = evaluate_claims(Results())
    assert [c["id"] for c in claims] == [f"C{i}" for i in range(1, 13)]
    assert {c["status"] for c in claims} == {"not covered"}
