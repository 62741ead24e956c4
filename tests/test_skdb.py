import numpy as np
import pytest

from hierbn.bn.counting import validate_codes
from hierbn.bn.skdb import select_skdb
from hierbn.bn.structures import kdb_order_and_parents


def _data(n: int, seed: int):
    rng = np.random.default_rng(seed)
    c = rng.integers(0, 2, n)
    f0 = np.where(rng.random(n) < 0.85, c, 1 - c)
    f1 = np.where(rng.random(n) < 0.7, f0, rng.integers(0, 2, n))
    noise = rng.integers(0, 3, (n, 2))
    cards = np.array([2, 2, 3, 3, 2])
    return validate_codes(np.column_stack([f0, f1, noise, c]), cards), cards


def _brute_force_rmse(codes, cards, k_max, u, k):
    """Refit the m = 1 estimates without each instance (explicit leave-one-out)."""
    names = [str(i) for i in range(codes.shape[1])]
    order, parents = kdb_order_and_parents(codes, names, list(cards), 4, k_max)
    errors = []
    for j in range(codes.shape[0]):
        rest = np.delete(codes, j, axis=0)
        row = codes[j]
        log_p = np.log((np.bincount(rest[:, 4], minlength=2) + 0.5) / (len(rest) + 1.0))
        for child, pa in zip(order[:u], parents[:u], strict=True):
            depth = 0
            for d in range(1, min(k, len(pa)) + 1):  # back-off: node count incl. itself >= 2
                if (
                    np.all(codes[:, list(pa[:d])] == row[list(pa[:d])], axis=1)[
                        codes[:, child] == row[child]
                    ].sum()
                    < 2
                ):
                    break
                depth = d
            for yv in range(2):
                mask = (rest[:, 4] == yv) & np.all(
                    rest[:, list(pa[:depth])] == row[list(pa[:depth])], axis=1
                )
                log_p[yv] += np.log(
                    ((rest[mask, child] == row[child]).sum() + 1 / cards[child]) / (mask.sum() + 1)
                )
        post = np.exp(log_p - log_p.max())
        errors.append((1 - post[row[4]] / post.sum()) ** 2)
    return np.sqrt(np.mean(errors))


def test_incremental_loocv_matches_explicit_leave_one_out() -> None:
    codes, cards = _data(40, 1)
    selection = select_skdb(codes, [str(i) for i in range(5)], list(cards), 4, k_max=2)
    for u, k in [(1, 0), (2, 1), (3, 2), (4, 2)]:
        assert selection.rmse[k, u] == pytest.approx(
            _brute_force_rmse(codes, cards, 2, u, k), rel=1e-10
        )


def test_selection_keeps_informative_attributes() -> None:
    codes, cards = _data(600, 2)
    selection = select_skdb(codes, [str(i) for i in range(5)], list(cards), 4)
    assert 0 in selection.kept and selection.n_star >= 1
    assert selection.rmse[selection.k_star, selection.n_star] <= selection.rmse[0, 0]
    for node in range(4):
        pa = selection.structure.parents[node]
        assert (pa == ()) == (node not in selection.kept)
        assert len(pa) <= 1 + selection.k_star
