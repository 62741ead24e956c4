"""Numba's own uniform stream read in blocks: the same numbers as ``np.random.random()`` in a
kernel, from the same per-thread generator, at a fraction of the cost per number.

Numba's ``np.random.random()`` takes two 32-bit outputs of the calling thread's Mersenne
Twister (MT19937) state and loads and stores the state's index around each; in the HDP table
sweep, one uniform per entry, that was a sixth to a fifth of the chain's time
(petitjean2018 decision §2.9). :func:`fill_uniforms` tempers the rest of the current 624-word
block at once into a buffer (a loop the compiler vectorises), and :func:`unread_uniforms`
gives back the numbers a kernel did not use, so the generator's state afterwards is the one
the single draws would have left: every later draw (``np.random.gamma`` and the rest) and the
chain are the same, bit for bit. The state is Numba's ``rnd_state_t`` (``numba/_random.c``:
the index, then the 624 words), reached through the same thread-local pointer Numba's own
draws use; ``tests/test_uniform_stream.py`` checks the stream against
``np.random.random()``, so a change of that layout fails there.

Hand-written because no library reads Numba's generator in blocks: NumPy's ``Generator`` is a
different stream and cannot be called from a kernel's inner loop without leaving Numba.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.cpython import randomimpl
from numba.extending import intrinsic

MT_WORDS = 624  # MT19937's state: 624 words, one tempered word per output
MT_SHIFT = 397
BLOCK_UNIFORMS = MT_WORDS // 2  # two words per uniform: the most one block gives
UPPER_MASK = np.uint32(0x80000000)
LOWER_MASK = np.uint32(0x7FFFFFFF)
MATRIX_A = np.uint32(0x9908B0DF)


@intrinsic
def _thread_state_pointer(typingctx):
    """The calling thread's ``np.random`` state (Numba's ``numba_get_np_random_state``)."""

    def codegen(context, builder, signature, args):
        state = randomimpl.get_state_ptr(context, builder, "np")
        return builder.bitcast(state, cgutils.voidptr_t)

    return types.voidptr(), codegen


@njit(cache=True, nogil=True)
def thread_state() -> np.ndarray:
    """The calling thread's generator state as words: ``[index, mt[0], ..., mt[623]]``."""
    return numba.carray(_thread_state_pointer(), (MT_WORDS + 1,), np.uint32)


@njit(cache=True, nogil=True, inline="always")
def _temper(word):
    word ^= word >> np.uint32(11)
    word ^= (word << np.uint32(7)) & np.uint32(0x9D2C5680)
    word ^= (word << np.uint32(15)) & np.uint32(0xEFC60000)
    return word ^ (word >> np.uint32(18))


@njit(cache=True, nogil=True, inline="always")
def _uniform(high, low):
    """A double in [0, 1) from two tempered words, as NumPy's and Numba's ``random()``."""
    return ((high >> np.uint32(5)) * 67108864.0 + (low >> np.uint32(6))) / 9007199254740992.0


@njit(cache=True, nogil=True, inline="always")
def _twisted(mt, i, j, k):
    y = (mt[i] & UPPER_MASK) | (mt[j] & LOWER_MASK)
    odd = MATRIX_A if y & np.uint32(1) else np.uint32(0)
    return mt[k] ^ (y >> np.uint32(1)) ^ odd


@njit(cache=True, nogil=True)
def _twist(state: np.ndarray) -> None:
    """The next 624 words (Numba's ``numba_rnd_shuffle``) and the index back to 0."""
    mt = state[1:]
    for i in range(MT_WORDS - MT_SHIFT):
        mt[i] = _twisted(mt, i, i + 1, i + MT_SHIFT)
    for i in range(MT_WORDS - MT_SHIFT, MT_WORDS - 1):
        mt[i] = _twisted(mt, i, i + 1, i + MT_SHIFT - MT_WORDS)
    mt[MT_WORDS - 1] = _twisted(mt, MT_WORDS - 1, 0, MT_SHIFT - 1)
    state[0] = 0


@njit(cache=True, nogil=True)
def fill_uniforms(state: np.ndarray, out: np.ndarray) -> int:
    """The next uniforms of ``state`` (:func:`thread_state`) into ``out`` (at least
    BLOCK_UNIFORMS long): the rest of the current block, after a twist when it is used up;
    returns their count (at least 1) and moves the state's index past them."""
    if state[0] >= MT_WORDS:
        _twist(state)
    i = np.int64(state[0])
    count = 0
    while i + 1 < MT_WORDS:
        out[count] = _uniform(_temper(state[1 + i]), _temper(state[2 + i]))
        count += 1
        i += 2
    if count == 0:  # an odd index: the uniform's second word is the next block's first
        high = _temper(state[MT_WORDS])
        _twist(state)
        out[0] = _uniform(high, _temper(state[1]))
        i, count = 1, 1
    state[0] = np.uint32(i)
    return count


@njit(cache=True, nogil=True)
def unread_uniforms(state: np.ndarray, unread: int) -> None:
    """Give back the last ``unread`` uniforms of a :func:`fill_uniforms` (which never twists
    after its first uniform), so the state is the one the uniforms read would have left. The
    caller reads at least the first uniform of each fill (it fills only when it needs one), so
    a uniform spanning two blocks is never given back."""
    state[0] = np.uint32(np.int64(state[0]) - 2 * unread)
