import itertools

import numpy as np

from hierbn.bn.classifier import predict_proba
from hierbn.bn.counting import validate_codes
from hierbn.bn.parameters import EstimatorSpec, fit_cpts
from hierbn.bn.structures import BNStructure


def test_posterior_matches_brute_force_joint() -> None:
    """P(c | x) from the log-space classifier equals the normalised joint of a tiny TAN."""
    rng = np.random.default_rng(3)
    structure = BNStructure(("f0", "f1", "c"), (2, 3, 3), ((2,), (2, 0), ()), class_index=2)
    cpts = [
        rng.dirichlet(np.ones(2), size=3).T,
        rng.dirichlet(np.ones(3), size=6).T,
        rng.dirichlet(np.ones(3))[:, None],
    ]
    rows = np.array([[a, b, 0] for a, b in itertools.product(range(2), range(3))])
    proba = predict_proba(structure, cpts, rows)
    for row, p in zip(rows, proba, strict=True):
        joint = np.array(
            [cpts[2][c, 0] * cpts[0][row[0], c] * cpts[1][row[1], c * 2 + row[0]] for c in range(3)]
        )
        assert np.allclose(p, joint / joint.sum())


def test_fit_cpts_hier_uses_laplace_root_and_vi_elsewhere() -> None:
    rng = np.random.default_rng(0)
    codes = validate_codes(
        np.column_stack([rng.integers(0, 3, 50), rng.integers(0, 2, 50)]), np.array([3, 2])
    )
    structure = BNStructure(("f", "c"), (3, 2), ((1,), ()), class_index=1)
    cpts, infos = fit_cpts(structure, codes, EstimatorSpec("hier"))
    n_c = np.bincount(codes[:, 1], minlength=2)
    assert np.allclose(cpts[1][:, 0], (n_c + 1) / (50 + 2))
    assert infos[0]["converged"] and all(np.allclose(t.sum(axis=0), 1) for t in cpts)
    bdeu_root, _ = fit_cpts(structure, codes, EstimatorSpec("hier", iss=4.0, root="bdeu"))
    assert np.allclose(bdeu_root[1][:, 0], (n_c + 2) / (50 + 4))
