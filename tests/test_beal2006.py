import numpy as np
import pandas as pd
import pytest

from hierbn.scoring.scores import StructureModel
from hierbn.studies.beal2006.protocol import (
    CLASS,
    instance_parameters,
    nested_data,
    printed_parameters,
    run_ais,
    run_scores,
    sample_rows,
    structures,
    true_structure,
)
from hierbn.studies.beal2006.tables import posterior, table2, true_ranks


def test_true_structure_readings() -> None:
    fans, shared = true_structure("fans"), true_structure("shared")
    assert fans in structures() and shared in structures() and fans != shared
    with pytest.raises(ValueError):
        true_structure("other")


def test_printed_parameters_are_renormalised_rows() -> None:
    hidden, observed = printed_parameters()
    for table in [*hidden, *observed]:
        assert np.allclose(np.sum(table, axis=-1), 1.0)
    assert observed[2][3, 1] == 0.0  # the printed 0.00 is kept as an exact zero (A19)
    assert printed_parameters(zero_floor=1e-3)[1][2][3, 1] > 0


def test_ancestral_sampling_matches_the_hidden_prior() -> None:
    model = StructureModel.build(true_structure(), CLASS)
    params = instance_parameters(0, model, base_seed=0)
    rows, hidden = sample_rows(model, params, 20000, np.random.default_rng(0))
    assert rows.shape == (20000, 4) and rows.max() <= 4
    assert np.mean(hidden == 3) == pytest.approx(0.88 * 0.92, abs=0.01)  # state [2 2] ~ 81%
    y1_given_h1_1 = np.bincount(rows[model.states[hidden, 0] == 0, 0], minlength=5)
    assert np.allclose(
        y1_given_h1_1 / y1_given_h1_1.sum(), [0.03, 0.03, 0.64, 0.02, 0.27], atol=0.03
    )


def test_data_sets_are_nested_and_reproducible() -> None:
    a = nested_data(0, "fans", base_seed=1)
    b = nested_data(0, "fans", base_seed=1)
    assert a.shape == (10240, 4) and np.array_equal(a, b)
    assert not np.array_equal(nested_data(1, "fans", base_seed=1), a)


def _wide(true_scores: dict[str, float]) -> pd.DataFrame:
    rows = []
    for structure in range(5):
        row = {
            "rep": 0,
            "n": 10,
            "structure": structure,
            "d": 18 + 4 * structure,
            "is_true": structure == 2,
        }
        for method in ("VB", "BIC", "MAP"):
            row[method] = true_scores[method] if structure == 2 else -float(structure)
        rows.append(row)
    return pd.DataFrame(rows)


def test_rank_counts_strictly_better_structures() -> None:
    ranks = true_ranks(
        _wide({"VB": 0.5, "BIC": -1.0, "MAP": -10.0}), ["VB", "BIC", "MAP"]
    ).set_index("method")
    assert ranks.loc["VB", "rank"] == 1 and ranks.loc["BIC", "rank"] == 2  # a tie is not "better"
    assert ranks.loc["MAP", "rank"] == 5 and ranks.loc["MAP", "gap"] == pytest.approx(-10.0)
    assert np.isclose(posterior(np.array([0.0, np.log(3.0)])), [0.25, 0.75]).all()
    assert (
        "VB paper"
        in table2(
            _wide({"VB": 0.5, "BIC": -1.0, "MAP": -10.0}).assign(
                **{m: 0.0 for m in ("BIC*", "BICp*", "CS*", "VB*", "BICp", "CS")}
            )
        ).columns
    )


def test_a_job_per_size_writes_the_rows_of_its_single_instance_and_run_jobs() -> None:
    """Issue 24: one job per n runs every instance (and every AIS run); each cell keeps its own
    random stream, so the grouped rows equal the single cells' rows, in order."""
    config = {"reading": "fans", "zero_floor": 0.0, "restarts": 1, "vb_from_cs": False,
              "exact_max_n": 0}  # fmt: skip
    untimed = "not method.str.endswith('_seconds')"
    grouped = run_scores(range(3), 12, config, base_seed=5).query(untimed)
    single = pd.concat([run_scores([i], 12, config, base_seed=5) for i in (0, 1, 2)])
    assert set(grouped.dataset) == {"instance0", "instance1", "instance2"}
    pd.testing.assert_frame_equal(grouped, single.set_axis(range(len(single))).query(untimed))
    ais = {"reading": "fans", "zero_floor": 0.0, "steps": 8, "strength": 3000.0, "e_tau": 0.2}
    grouped = run_ais(12, range(2), ais, base_seed=5).query("metric != 'seconds'")
    single = pd.concat([run_ais(12, [r], ais, base_seed=5) for r in (0, 1)])
    single = single.set_axis(range(len(single))).query("metric != 'seconds'")
    pd.testing.assert_frame_equal(grouped, single)
