import numpy as np
import pytest

from hierbn.bn.counting import validate_codes
from hierbn.bn.structures import (
    BNStructure,
    kdb,
    maximum_spanning_tree,
    naive_bayes,
    orient_tree,
    prim_tree_parents,
    tan,
)


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


def test_prim_and_kruskal_agree_without_ties_and_prim_breaks_ties_by_index() -> None:
    rng = np.random.default_rng(5)
    w = rng.random((6, 6))
    w = w + w.T
    prim = prim_tree_parents(w, root=0)
    assert prim == orient_tree(6, maximum_spanning_tree(w), root=0)
    # all weights equal: Prim from 0 attaches every vertex to 0 in index order
    assert prim_tree_parents(np.ones((4, 4)), root=0) == [None, 0, 0, 0]
    # 0-1 and 0-2 tie with 1-2; 2 attaches to 0 (earliest attachment), 3 hangs on its best
    w = np.array([[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 2], [0, 0, 2, 0]], dtype=float)
    assert prim_tree_parents(w, root=0) == [None, 0, 0, 2]


def test_naive_bayes_and_cycle_detection() -> None:
    nb = naive_bayes(["a", "b", "c"], [2, 2, 3], class_index=2)
    assert nb.parents == ((2,), (2,), ())
    assert BNStructure.from_dict(nb.to_dict()) == nb
    with pytest.raises(ValueError, match="cycle"):
        BNStructure(("a", "b"), (2, 2), ((1,), (0,)))


def test_mutual_information_with_class_closed_form() -> None:
    codes = validate_codes(np.array([[0, 0], [0, 0], [1, 1], [1, 1]]), np.array([2, 2]))
    from hierbn.bn.counting import mutual_information_with_class

    assert mutual_information_with_class(codes, [0], 1, np.array([2, 2]))[0] == pytest.approx(
        np.log(2)
    )


def test_kdb_orders_by_mi_and_picks_highest_cmi_parents() -> None:
    """f2 copies the class (highest MI); f0 is a noisy copy of f2; f1 is noise."""
    rng = np.random.default_rng(2)
    n = 3000
    c = rng.integers(0, 2, n)
    f2 = c.copy()
    f0 = np.where(rng.random(n) < 0.7, f2, rng.integers(0, 2, n))
    f1 = rng.integers(0, 2, n)
    codes = validate_codes(np.column_stack([f0, f1, f2, c]), np.array([2, 2, 2, 2]))
    names, cards = ["f0", "f1", "f2", "c"], [2, 2, 2, 2]
    k1 = kdb(codes, names, cards, 3, k=1)
    assert k1.parents[2] == (3,)  # the top-MI feature has only the class
    assert k1.parents[0] == (3, 2)  # f0 depends on f2 given c
    assert len(k1.parents[1]) == 2  # every later feature gets min(u-1, k) parents
    k5 = kdb(codes, names, cards, 3, k=5)
    assert sorted(len(p) for p in k5.parents) == [0, 1, 2, 3]
    assert kdb(codes, names, cards, 3, k=0).parents == naive_bayes(names, cards, 3).parents
    with pytest.raises(ValueError):
        kdb(codes, names, cards, 3, k=-1)
