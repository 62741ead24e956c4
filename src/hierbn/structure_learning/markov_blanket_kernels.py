"""Numba kernel of the conditional G² test of :mod:`hierbn.structure_learning.markov_blanket`
(dombowsky2025 decision A17): the statistics of one target against several candidates given the
same conditioning set, sharing the strata of that set and the target's counts within them.

Data are ``codes_t[column, row]`` dense codes over observed levels
(:func:`hierbn.structure_learning.levels.observed_levels`); a stratum is an observed
configuration of the conditioning set (an empty stratum adds 0 to G²), numbered as in
:func:`hierbn.structure_learning.search_kernels.configuration_ids`, so every table is at most
``n_rows x levels`` in size.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hierbn.structure_learning.search_kernels import configuration_ids


@njit(cache=True)
def g2_statistics(
    codes_t: np.ndarray, levels: np.ndarray, x: int, given: np.ndarray, candidates: np.ndarray
) -> np.ndarray:
    """``G² = 2 sum_{x,y,z} n_xyz log(n_xyz n_z / (n_xz n_yz))`` of column ``x`` against each
    column of ``candidates`` given the columns ``given`` (clipped at 0 against rounding)."""
    n_rows = codes_t.shape[1]
    strata, n_strata = configuration_ids(codes_t, levels, given)
    r_x = levels[x]
    x_row = codes_t[x]
    lookup = np.full(n_strata * r_x, -1, dtype=np.int64)
    cell_xz = np.empty(n_rows, dtype=np.int64)  # id of each row's (z, x) cell
    stratum_of = np.empty(min(n_rows, n_strata * r_x), dtype=np.int64)
    n_xz_cells = 0
    for i in range(n_rows):
        key = strata[i] * r_x + x_row[i]
        if lookup[key] < 0:
            lookup[key] = n_xz_cells
            stratum_of[n_xz_cells] = strata[i]
            n_xz_cells += 1
        cell_xz[i] = lookup[key]
    n_z = np.zeros(n_strata)
    n_xz = np.zeros(n_xz_cells)
    for i in range(n_rows):
        n_z[strata[i]] += 1.0
        n_xz[cell_xz[i]] += 1.0
    statistics = np.empty(candidates.shape[0])
    for c in range(candidates.shape[0]):
        y = candidates[c]
        r_y = levels[y]
        y_row = codes_t[y]
        n_yz = np.zeros(n_strata * r_y)
        n_xyz = np.zeros(n_xz_cells * r_y)
        for i in range(n_rows):
            n_yz[strata[i] * r_y + y_row[i]] += 1.0
            n_xyz[cell_xz[i] * r_y + y_row[i]] += 1.0
        total = 0.0
        for j in range(n_xz_cells):
            z = stratum_of[j]
            for k in range(r_y):
                count = n_xyz[j * r_y + k]
                if count > 0:
                    total += count * np.log(count * n_z[z] / (n_xz[j] * n_yz[z * r_y + k]))
        statistics[c] = max(0.0, 2.0 * total)
    return statistics
