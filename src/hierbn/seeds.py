"""Deterministic random streams keyed by the experiment cell.

Every random stream of the pipeline is derived from a stable key such as
``("azzimonti2019", "e2", "iris", 20, 3)`` with :class:`numpy.random.SeedSequence`.
The key is hashed with SHA-256 (never Python's salted ``hash()``), so the same
configuration gives the same numbers whatever the number of cores or the job order.
"""

from __future__ import annotations

import hashlib

import numpy as np

KeyPart = str | int


def key_entropy(*key: KeyPart, base_seed: int = 0) -> list[int]:
    """Return SeedSequence entropy words for ``key`` (stable across runs and machines)."""
    text = "\x1f".join([str(base_seed), *(str(part) for part in key)])
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 32, 4)]


def seed_sequence(*key: KeyPart, base_seed: int = 0) -> np.random.SeedSequence:
    """SeedSequence for the cell identified by ``key``."""
    return np.random.SeedSequence(key_entropy(*key, base_seed=base_seed))


def rng_for(*key: KeyPart, base_seed: int = 0) -> np.random.Generator:
    """A fresh PCG64 generator for the cell identified by ``key``."""
    return np.random.default_rng(seed_sequence(*key, base_seed=base_seed))


def kernel_seed(seed: np.random.SeedSequence) -> int:
    """The 31-bit integer a Numba kernel or a library that takes an int (Stan) is seeded with;
    public APIs take the :class:`numpy.random.SeedSequence` and call this at the boundary."""
    return int(seed.generate_state(1)[0] & 0x7FFFFFFF)


def int_seed(*key: KeyPart, base_seed: int = 0) -> int:
    """The 31-bit integer seed of the cell identified by ``key`` (recorded in results)."""
    return kernel_seed(seed_sequence(*key, base_seed=base_seed))
