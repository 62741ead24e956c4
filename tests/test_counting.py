import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hierbn.bn.counting import (
    conditional_mutual_information,
    family_counts,
    parent_configurations,
    validate_codes,
)


@st.composite
def coded_data(draw):
    n_vars = draw(st.integers(2, 5))
    cards = np.array(draw(st.lists(st.integers(1, 4), min_size=n_vars, max_size=n_vars)))
    n_rows = draw(st.integers(0, 60))
    seed = draw(st.integers(0, 2**31))
    data = np.random.default_rng(seed).integers(0, cards, size=(n_rows, n_vars))
    return validate_codes(data, cards), cards


@settings(max_examples=100, deadline=None)
@given(coded_data(), st.data())
def test_family_counts_match_brute_force(sample, data) -> None:
    codes, cards = sample
    child = data.draw(st.integers(0, len(cards) - 1))
    others = [j for j in range(len(cards)) if j != child]
    parents = data.draw(st.permutations(others)).copy()[: data.draw(st.integers(0, len(others)))]
    counts = family_counts(codes, child, parents, cards)
    n_rows = int(np.prod(cards[parents])) if parents else 1
    expected = np.zeros((n_rows, cards[child]), dtype=np.int64)  # [y, x]
    for row in codes:
        y = np.ravel_multi_index(tuple(row[parents]), tuple(cards[parents])) if parents else 0
        expected[y, row[child]] += 1
    assert counts.shape == expected.shape and np.array_equal(counts, expected)
    if parents:
        configs = parent_configurations(
            codes, np.asarray(parents, dtype=np.int64), cards.astype(np.int64)
        )
        assert np.array_equal(np.bincount(configs, minlength=n_rows), expected.sum(axis=1))


def test_cmi_matches_direct_formula() -> None:
    rng = np.random.default_rng(0)
    c = rng.integers(0, 2, 500)
    a = (c + rng.integers(0, 2, 500)) % 3
    b = (a + (rng.random(500) < 0.2)) % 3
    codes = validate_codes(np.column_stack([a, b, c]), np.array([3, 3, 2]))
    cmi = conditional_mutual_information(codes, [0, 1], 2, np.array([3, 3, 2]))
    joint = np.zeros((3, 3, 2))
    np.add.at(joint, (a, b, c), 1)
    p = joint / joint.sum()
    pc = p.sum(axis=(0, 1))
    pac = p.sum(axis=1)
    pbc = p.sum(axis=0)
    mask = p > 0
    direct = np.sum(
        p[mask] * np.log((p * pc[None, None, :] / (pac[:, None, :] * pbc[None, :, :]))[mask])
    )
    assert cmi[0, 1] == pytest.approx(direct, rel=1e-12)
    assert cmi[1, 0] == cmi[0, 1] and cmi[0, 0] == 0


def test_validate_codes_names_the_bad_column() -> None:
    with pytest.raises(ValueError, match=r"data\[0, 1\] = 3 \(cardinality 3\)"):
        validate_codes(np.array([[0, 3], [1, 0]]), np.array([2, 3]))
    with pytest.raises(ValueError, match="1 variable"):
        validate_codes(np.zeros((2, 2)), np.array([2]))
    with pytest.raises(ValueError, match=r"data\[1, 0\] = nan"):
        validate_codes(np.array([[0.0], [np.nan]]), np.array([2]))
