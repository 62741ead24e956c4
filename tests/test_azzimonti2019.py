import numpy as np
import pandas as pd

from hierbn.seeds import rng_for
from hierbn.studies.azzimonti2019.protocol import (
    run_e1_cell,
    run_e2_dataset,
    simulate_cpt,
    stan_data,
    truth_cpts,
)
from hierbn.studies.azzimonti2019.tables import e2_summary


def test_simulated_counts_have_n_rows_and_valid_truth() -> None:
    theta, counts = simulate_cpt(rng_for("t", 1), 4, 6, 80)  # |X| = 4, |Y| = 6
    assert counts.sum() == 80 and counts.shape == (6, 4) and theta.shape == (6, 4)
    assert np.allclose(theta.sum(axis=1), 1.0)


def test_stan_data_has_one_row_of_counts_per_parent_configuration() -> None:
    counts = np.array([[3, 0, 1], [1, 4, 0]])  # |Y| = 2, |X| = 3
    data = stan_data(counts)
    assert data["X"] == 3 and data["Y"] == 2 and data["s"] == 3.0
    assert data["n"] == [[3, 0, 1], [1, 4, 0]] and data["alpha0"] == [1.0] * 3


def test_e1_without_stan_is_deterministic_and_tidy() -> None:
    config = {"n": [20, 40], "reps": 2, "methods": ["vi", "exact"], "exact_max_n": 20, "nuts": {}}
    a = run_e1_cell(3, 2, config, None, None, base_seed=5)
    b = run_e1_cell(3, 2, config, None, None, base_seed=5)
    pd.testing.assert_frame_equal(
        a.drop(columns="value").reset_index(drop=True),
        b.drop(columns="value").reset_index(drop=True),
    )
    keep = ~a.metric.isin(["seconds"])
    assert np.array_equal(a[keep]["value"].to_numpy(), b[keep]["value"].to_numpy())
    assert set(a.method) == {"vi", "exact"}
    assert a[(a.method == "exact")]["n"].max() == 20  # exact only up to exact_max_n
    assert {
        "study",
        "experiment",
        "n",
        "rep",
        "seed",
        "method",
        "metric",
        "value",
        "config",
    } <= set(a.columns)


def _toy_prepared(n_rows: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    c = rng.integers(0, 2, n_rows)
    f = (c + (rng.random(n_rows) < 0.2)) % 2
    g = (f + rng.integers(0, 2, n_rows)) % 3
    cat = lambda v, k: pd.Categorical.from_codes(v, [str(i) for i in range(k)])  # noqa: E731
    return pd.DataFrame({"f": cat(f, 2), "g": cat(g, 3), "class": cat(c, 2)})


def test_e2_pairs_methods_on_the_same_split_and_skips_large_n() -> None:
    config = {
        "n": [20, 400],
        "reps": 2,
        "test_size": 50,
        "methods": ["bdeu1", "bdeu10", "hier"],
        "root_estimator": "laplace",
    }
    table = run_e2_dataset(_toy_prepared(), "toy", config, base_seed=1)
    assert set(table["n"]) == {20}  # N = 300 <= 400 is skipped (decision A15)
    seeds = table.groupby(["n", "rep"])["seed"].nunique()
    assert (seeds == 1).all()
    assert table[table.metric == "accuracy"]["value"].between(0, 1).all()
    summary = e2_summary(table.assign(dataset="toy"))
    assert set(summary["baseline"]) == {"bdeu1", "bdeu10"}


def test_truth_falls_back_to_bdeu_for_unseen_configurations() -> None:
    from hierbn.bn.structures import BNStructure

    structure = BNStructure(("f", "c"), (2, 3), ((1,), ()), class_index=1)
    codes = np.array([[0, 0], [1, 0], [1, 1]], dtype=np.int32)
    truth = truth_cpts(structure, codes)
    assert truth[0].shape == (3, 2)  # [c, f]
    assert np.allclose(truth[0][0], 0.5) and np.allclose(truth[0][1], [0, 1])
    assert np.allclose(truth[0][2], 0.5)  # unseen configuration: BDeu(1) = uniform
    assert np.allclose(truth[1], [[2 / 3, 1 / 3, 0]])  # the class: ML of its counts
