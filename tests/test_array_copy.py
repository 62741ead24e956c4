"""hierbn.array_copy: the loop copy equals numpy's assignment, and the kernels that use it compile
no slice-assignment error message (the message's string formatting cost seconds of every cold
start, issue 46)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from hierbn.array_copy import copy_into
from hierbn.estimators.hier_regression import GroupedData, fit_vb
from hierbn.estimators.hier_regression_gibbs import sample_gibbs
from hierbn.estimators.hier_regression_gibbs_kernels import gibbs_chain
from hierbn.estimators.hier_regression_kernels import vb_sweeps
from hierbn.scoring.ais_kernels import ais_run
from hierbn.scoring.bipartite import BipartiteClass, enumerate_structures
from hierbn.scoring.scores import StructureModel, ais_score
from hierbn.structure_learning.group_lasso import fit_path, lambda_path, one_hot, standardise
from hierbn.structure_learning.group_lasso_kernels import collapse_rows, design_gram, grouped_path
from hierbn.structure_learning.search import hill_climbing, tabu_search
from hierbn.structure_learning.search_kernels import search

SLICE_ERROR = "cannot assign slice"  # Numba's message for a shape mismatch in a slice assignment


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float64, array_shapes(min_dims=1, max_dims=3, max_side=5), elements=st.floats(-9, 9))
)
def test_copy_into_equals_numpy_assignment(source: np.ndarray) -> None:
    target = np.zeros((2, *source.shape))
    copy_into(source, target[1])  # into a view, as the kernels do
    assert np.array_equal(target[1], source) and not target[0].any()


def test_copy_into_keeps_booleans() -> None:
    source = np.array([[True, False], [False, True]])
    target = np.zeros((2, 2), dtype=np.bool_)
    copy_into(source, target)
    assert np.array_equal(target, source)


def _compiles_slice_error(kernel) -> bool:
    assert kernel.signatures, "the kernel was not compiled in this process"
    return any(SLICE_ERROR in ir for ir in kernel.inspect_llvm().values())


@pytest.mark.parametrize("learner", [hill_climbing, tabu_search])
def test_structure_search_compiles_no_slice_error(learner) -> None:
    codes = np.random.default_rng(0).integers(0, 2, size=(200, 4))
    learner(codes)
    assert not _compiles_slice_error(search)


def test_becker_kernels_compile_no_slice_error() -> None:
    rng = np.random.default_rng(0)
    groups = np.arange(60) % 3
    x = rng.normal(size=(60, 2))
    data = GroupedData.from_arrays(x, x @ [1.0, -1.0] + rng.normal(size=60), groups, 3)
    fit_vb(data)
    sample_gibbs(data, 10, 20, seed=np.random.SeedSequence(0))
    assert not _compiles_slice_error(vb_sweeps)
    assert not _compiles_slice_error(gibbs_chain)


def test_beal_ais_compiles_no_slice_error() -> None:
    kind = BipartiteClass(hidden=(2,), observed=(3, 3))
    model = StructureModel.build(enumerate_structures(kind)[-1], kind)
    rows = np.random.default_rng(0).integers(0, 3, size=(20, 2))
    ais_score(model, rows, np.random.default_rng(0), 16, 100.0)
    assert not _compiles_slice_error(ais_run)


def test_group_lasso_kernels_compile_no_slice_error() -> None:
    rng = np.random.default_rng(0)
    z = standardise((rng.random((100, 4)) < 0.4).astype(float))[0]
    y = one_hot(rng.integers(0, 3, size=100), np.arange(3))
    fit_path(z, y, lambda_path(z, y, 5), stop_early=False)
    assert not any(map(_compiles_slice_error, (collapse_rows, design_gram, grouped_path)))
