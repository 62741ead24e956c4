"""An array copy for Numba kernels, by explicit loops (issue 46).

Numba compiles an assignment of an array into a slice (``target[i] = source``,
``target[:, :] = source``) together with a formatted shape-mismatch error message, and that
message alone costs about 1-3 s of compile on the first call of a kernel on a machine (its string
formatting pulls in much of Numba's unicode support). :func:`copy_into` does the same copy
without it; the values are the same."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def copy_into(source: np.ndarray, target: np.ndarray) -> None:
    """``target[...] = source`` for arrays of one shape, element by element."""
    for index in np.ndindex(source.shape):
        target[index] = source[index]
