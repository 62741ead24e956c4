import numpy as np
import pytest

from hierbn.bn.counting import validate_codes
from hierbn.bn.structures import BNStructure, maximum_spanning_tree, naive_bayes, orient_tree, tan


def test_maximum_spanning_tree_on_known_weights() -> None:
    w = np.array([[0, 5, 1, 0], [5, 0, 4, 2], [1, 4, 0, 3], [0, 2, 3, 0]], dtype=float)
    assert sorted(maximum_spanning_tree(w)) == [(0, 1), (1, 2), (2, 3)]


def test_ties_are_broken_by_column_order() -> None:
    assert maximum_spanning_tree(np.ones((3, 3))) == [(0, 1), (0, 2)]


def test_orient_tree_from_root() -> None:
    assert orient_tree(4, [(0, 1), (1, 2), (1, 3)], root=0) == [None, 0, 1, 1]
    with pytest.raises(ValueError):
        orient_tree(3, [(0, 1)], root=0)


def test_tan_recovers_a_known_chain() -> None:
    """Features form the chain F0 - F1 - F2 - F3 given the class: TAN must find it."""
    rng = np.random.default_rng(1)
    n = 4000
    c = rng.integers(0, 2, n)
    f = [(c + (rng.random(n) < 0.3)) % 3]
    for _ in range(3):
        f.append((f[-1] + (rng.random(n) < 0.1) * rng.integers(1, 3, n)) % 3)
    codes = validate_codes(np.column_stack([*f, c]), np.array([3, 3, 3, 3, 2]))
    structure = tan(codes, ["f0", "f1", "f2", "f3", "class"], [3, 3, 3, 3, 2], class_index=4)
    assert structure.parents == ((4,), (4, 0), (4, 1), (4, 2), ())
    assert structure.parent_cardinality(3) == 6


def test_naive_bayes_and_cycle_detection() -> None:
    nb = naive_bayes(["a", "b", "c"], [2, 2, 3], class_index=2)
    assert nb.parents == ((2,), (2,), ())
    assert BNStructure.from_dict(nb.to_dict()) == nb
    with pytest.raises(ValueError, match="cycle"):
        BNStructure(("a", "b"), (2, 2), ((1,), (0,)))
