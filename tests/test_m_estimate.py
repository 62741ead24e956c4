import numpy as np
import pytest

from hierbn.bn.counting import family_counts, validate_codes
from hierbn.estimators.m_estimate import BACKOFF_RULES, m_estimate_theta
from hierbn.estimators.m_estimate_tree import fit_m_estimate


def m_estimate_backoff(  # dense reference: every parent configuration enumerated
    codes: np.ndarray,
    child: int,
    parents: tuple[int, ...],
    cards: np.ndarray,
    m: float,
    rule: str = "literal",
) -> np.ndarray:
    """CPT ``theta[y, x]`` over every full parent configuration y, with back-off (spec §1.7)."""
    if rule not in BACKOFF_RULES:
        raise ValueError(f"unknown back-off rule {rule!r}; expected one of {BACKOFF_RULES}")
    if not parents:
        return m_estimate_theta(family_counts(codes, child, (), cards), m)
    card = np.asarray(cards, dtype=np.int64)
    sizes = card[list(parents)]
    n_full = int(np.prod(sizes))
    configs = np.arange(n_full)
    theta = None
    for depth in range(1, len(parents) + 1):
        counts = family_counts(codes, child, parents[:depth], card).astype(np.float64)  # [y, x]
        n_x = counts.shape[1]
        prefix = configs // int(np.prod(sizes[depth:]))
        joint = counts[prefix, :]
        context = counts.sum(axis=1)[prefix][:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            estimate = (joint + m / n_x) / (context + m)
        if theta is None:
            theta = np.where(context + m > 0, estimate, 1.0 / n_x)
            if m == 0:
                marginal = family_counts(codes, child, (), card)[0, :].astype(np.float64)
                smooth = (marginal + 1.0 / n_x) / (marginal.sum() + 1.0)
                theta = np.where(joint > 0, theta, smooth[None, :])
            continue
        keep = joint >= 1 if rule == "literal" else np.broadcast_to(context >= 1, joint.shape)
        theta = np.where(keep, estimate, theta)
    return theta


def test_table1_m_estimates() -> None:
    """petitjean2018 Table 1, m = 1: (2 + 0.5)/3 = 0.833, 20.5/26 = 0.788, 4.5/14 = 0.321."""
    theta = m_estimate_theta(np.array([[2, 0], [20, 5], [4, 9]]), m=1.0)  # [y, x]
    assert np.allclose(theta[:, 0], [2.5 / 3, 20.5 / 26, 4.5 / 14])
    assert np.allclose(theta.sum(axis=1), 1.0)
    assert np.allclose(m_estimate_theta(np.array([[0, 0]]), 0.0), 0.5)  # m = 0, empty row


def _toy():
    # columns: x (child, 3 states), c (class, 2), p (parent, 2)
    rows = np.array([[0, 0, 0], [0, 0, 0], [1, 0, 1], [2, 1, 0], [2, 1, 1], [1, 1, 1]])
    return validate_codes(rows, np.array([3, 2, 2])), np.array([3, 2, 2])


def test_literal_backoff_uses_the_deepest_prefix_with_a_count() -> None:
    codes, cards = _toy()
    theta = m_estimate_backoff(codes, 0, (1, 2), cards, m=1.0)
    # config (c=0, p=0): counts x = [2, 0, 0] over 2 rows -> x=0 at full depth, x=1,2 back off to c=0
    assert theta[0, 0] == pytest.approx((2 + 1 / 3) / (2 + 1))
    assert theta[0, 1] == pytest.approx((1 + 1 / 3) / (3 + 1))  # count(x=1, c=0) = 1
    assert theta[0, 2] == pytest.approx((0 + 1 / 3) / (3 + 1))  # count(x=2, c=0) = 0 -> class level
    assert theta.shape == (4, 3)


def test_context_backoff_keeps_rows_normalised() -> None:
    codes, cards = _toy()
    theta = m_estimate_backoff(codes, 0, (1, 2), cards, m=0.2, rule="context")
    assert np.allclose(theta.sum(axis=1), 1.0)
    with pytest.raises(ValueError):
        m_estimate_backoff(codes, 0, (1, 2), cards, m=1.0, rule="other")


def test_m_zero_never_gives_zero_probability() -> None:
    codes, cards = _toy()
    theta = m_estimate_backoff(codes, 0, (1, 2), cards, m=0.0)
    assert np.all(theta > 0)


@pytest.mark.parametrize(
    ("m", "rule"), [(1.0, "literal"), (0.2, "context"), (0.0, "literal"), (5.0, "context")]
)
def test_trie_queries_match_the_dense_table(m: float, rule: str) -> None:
    rng = np.random.default_rng(3)
    cards = np.array([3, 2, 3, 2])
    codes = validate_codes(rng.integers(0, cards, size=(40, 4)), cards)
    dense = m_estimate_backoff(codes, 0, (1, 2, 3), cards, m=m, rule=rule)
    trie = fit_m_estimate(codes[:, 0], codes[:, 1:], cards[1:], 3, m, rule)
    grid = np.array(np.meshgrid(range(2), range(3), range(2), indexing="ij")).reshape(3, -1).T
    assert np.allclose(trie.query(grid), dense)
