"""Numba's uniform stream read in blocks (hierbn.uniform_stream) against np.random.random()."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from hierbn.uniform_stream import (
    BLOCK_UNIFORMS,
    MT_WORDS,
    fill_uniforms,
    thread_state,
    unread_uniforms,
)


@njit
def _single_draws(seed, reads, odd_start):
    """For each entry of ``reads``: that many uniforms by np.random.random(), then one gamma
    draw; the generator's next uniform at the end."""
    np.random.seed(seed)
    if odd_start:
        thread_state()[0] = MT_WORDS - 1
    out = np.empty(reads.sum() + reads.size + 1)
    at = 0
    for r in reads:
        for _ in range(r):
            out[at] = np.random.random()
            at += 1
        out[at] = np.random.gamma(1.7, 1.0)
        at += 1
    out[at] = np.random.random()
    return out


@njit
def _block_draws(seed, reads, odd_start):
    """The same numbers as :func:`_single_draws`, the uniforms read in blocks and the unread
    ones given back before each gamma draw."""
    np.random.seed(seed)
    state = thread_state()
    if odd_start:
        state[0] = MT_WORDS - 1
    buffer = np.empty(BLOCK_UNIFORMS)
    out = np.empty(reads.sum() + reads.size + 1)
    at = 0
    for r in reads:
        filled = used = 0
        for _ in range(r):
            if used == filled:
                filled, used = fill_uniforms(state, buffer), 0
            out[at] = buffer[used]
            used += 1
            at += 1
        unread_uniforms(state, filled - used)
        out[at] = np.random.gamma(1.7, 1.0)
        at += 1
    out[at] = np.random.random()
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.lists(st.integers(0, 1_500), min_size=1, max_size=8),
    st.booleans(),
)
def test_block_reads_give_numbas_uniforms_and_leave_its_state(seed, reads, odd_start) -> None:
    """Any pattern of reads (across twists, ending mid-block, none at all, from an odd index
    whose uniform spans two blocks) gives np.random.random()'s numbers bit for bit, and the
    draws after it (gamma, uniform) are the ones the single draws would have led to."""
    reads = np.array(reads, dtype=np.int64)
    np.testing.assert_array_equal(
        _block_draws(seed, reads, odd_start), _single_draws(seed, reads, odd_start)
    )


@njit
def _fill_from(seed, index):
    np.random.seed(seed)
    state = thread_state()
    state[0] = index
    buffer = np.empty(BLOCK_UNIFORMS)
    count = fill_uniforms(state, buffer)
    return count, state[0], buffer[:count].copy()


def test_a_fill_reads_the_rest_of_the_block() -> None:
    """From index i the fill gives the (624 - i) // 2 uniforms left (a twist first at 624, the
    one spanning uniform at 623) and moves the index past them."""
    for index, count, after in [(0, 312, 624), (100, 262, 624), (622, 1, 624), (624, 312, 624)]:
        got = _fill_from(5, index)
        assert (got[0], got[1]) == (count, after)
    count, after, _ = _fill_from(5, 623)
    assert (count, after) == (1, 1)
    assert _fill_from(5, 624)[2][0] != _fill_from(5, 0)[2][0]  # the twist happened
