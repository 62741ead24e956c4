"""A one-pass reader of unquoted delimited text into dictionary codes (issue 45).

:func:`field_codes` splits the bytes of a file without a quote character into records and
fields, and gives each field the code of its text within its column, in order of first
appearance, in the same pass (one hash-table lookup per field). pyarrow's parser followed by
its dictionary encoding reads such a file in two passes over 1.85 million fields of a 50,000-row
ALARM table (30 ms to parse, 25 ms to encode); this pass does both in one.

It reads only what it reads exactly as pyarrow's parser does: records end at LF, CRLF or a lone
CR, an empty line is no record, and every field is kept as it is written (blanks included; the
typing step strips them). Anything else (a record whose number of fields is not ``width``)
makes it give up, and the caller reads the file with pyarrow or Python's csv module, which name
the fault. Hand-written because the one pass must run inside Numba to be fast.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LF, CR = 10, 13
MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # 2^64 / golden ratio: Fibonacci hashing


@njit(cache=True)
def _same_bytes(data: np.ndarray, start_a: int, start_b: int, length: int) -> bool:
    """Whether ``data[start_a:start_a + length]`` and ``data[start_b:start_b + length]`` match."""
    # a loop, not all() over a generator, which Numba does not compile
    for k in range(length):  # noqa: SIM110
        if data[start_a + k] != data[start_b + k]:
            return False
    return True


@njit(cache=True)
def _grown(slots: np.ndarray, mixed: np.ndarray) -> np.ndarray:
    """A table twice the size of ``slots`` holding the entries of these mixed digests."""
    bigger = np.full(slots.size * 2, -1, np.int64)
    mask = np.uint64(bigger.size - 1)
    bits = 0
    while (1 << bits) < bigger.size:
        bits += 1
    for entry in range(mixed.size):
        slot = mixed[entry] >> np.uint64(64 - bits)
        while bigger[slot] >= 0:
            slot = (slot + np.uint64(1)) & mask
        bigger[slot] = entry
    return bigger


DONE, RAGGED, FULL = 0, 1, 2  # how a scan ends: at the end of the data, or before a record


@njit(cache=True)
def _scan(data, sep, width, pos, records, entries, codes, slots, entry_column, entry_start,
          entry_end, entry_digest, entry_mixed, entry_code, per_column):  # fmt: skip
    """Read records from byte ``pos`` while the tables have room for one more record's fields
    (no array is replaced inside the loop: a replaced array costs Numba reference counting on
    every byte). Returns (``DONE``, ``RAGGED`` or ``FULL``, pos, records, entries)."""
    size = data.size
    mask = np.uint64(slots.size - 1)
    bits = 0
    while (1 << bits) < slots.size:
        bits += 1
    shift = np.uint64(64 - bits)  # the top bits of a field's mixed digest pick its slot
    column = 0
    while pos <= size:
        if column == 0 and (
            entries + width > entry_column.size or 2 * (entries + width) > slots.size
        ):
            return FULL, pos, records, entries
        start = pos
        digest = np.uint64(0)
        while pos < size:
            byte = data[pos]
            if byte in (sep, LF, CR):  # three tests: faster than a table of 256
                break
            # a cheap running digest (two operations a byte), mixed once per field below
            digest = ((digest << np.uint64(8)) | (digest >> np.uint64(56))) ^ np.uint64(byte)
            pos += 1
        byte = data[pos] if pos < size else LF
        end_of_line = byte != sep
        if end_of_line and column == 0 and pos == start:  # an empty line: no record
            if byte == CR and pos + 1 < size and data[pos + 1] == LF:
                pos += 1
            pos += 1
            continue
        if column >= width or (end_of_line and column != width - 1):
            return RAGGED, pos, records, entries
        # a field of up to 8 bytes is its own digest (its bytes side by side), so equal keys
        # and lengths are equal texts; a longer one's bytes are compared
        short = pos - start <= 8
        mixed = (digest ^ np.uint64(column)) * MULTIPLIER
        slot = mixed >> shift
        while True:
            entry = slots[slot]
            if entry < 0:
                entry_column[entries], entry_start[entries] = column, start
                entry_end[entries], entry_digest[entries] = pos, digest
                entry_mixed[entries] = mixed
                entry_code[entries] = per_column[column]
                slots[slot] = entries
                per_column[column] += 1
                entry = entries
                entries += 1
                break
            if (
                entry_digest[entry] == digest
                and entry_column[entry] == column
                and entry_end[entry] - entry_start[entry] == pos - start
                and (short or _same_bytes(data, entry_start[entry], start, pos - start))
            ):
                break
            slot = (slot + np.uint64(1)) & mask
        codes[column, records] = entry_code[entry]
        if end_of_line:
            records += 1
            column = 0
            if byte == CR and pos + 1 < size and data[pos + 1] == LF:
                pos += 1
        else:
            column += 1
        pos += 1
    return DONE, pos, records, entries


@njit(cache=True)
def field_codes(data: np.ndarray, sep: int, width: int):
    """Split ``data`` (uint8, no quote character) into records of ``width`` fields.

    Returns ``(ok, codes, entry_column, entry_start, entry_end)``: ``codes[column, record]`` is
    the code of the field's text within its column (0, 1, ... in order of first appearance) and
    entry ``e`` is the text ``data[entry_start[e]:entry_end[e]]`` of the first field with a new
    text, in ``entry_column[e]``; a column's entries come in code order. ``ok`` is False, and
    the rest empty, when a record has another number of fields.
    """
    lines = 1
    for byte in data:
        if byte in (LF, CR):
            lines += 1
    codes = np.empty((width, lines), np.int32)  # a column's codes side by side
    capacity = 1024 + 2 * width
    slots = np.full(1 << int(np.ceil(np.log2(4 * capacity))), -1, np.int64)  # a power of 2
    entry_column = np.empty(capacity, np.int64)
    entry_start = np.empty(capacity, np.int64)
    entry_end = np.empty(capacity, np.int64)
    entry_digest = np.empty(capacity, np.uint64)
    entry_mixed = np.empty(capacity, np.uint64)
    entry_code = np.empty(capacity, np.int32)
    per_column = np.zeros(width, np.int32)
    pos, records, entries = 0, 0, 0
    while True:
        status, pos, records, entries = _scan(
            data, sep, width, pos, records, entries, codes, slots, entry_column, entry_start,
            entry_end, entry_digest, entry_mixed, entry_code, per_column,
        )  # fmt: skip
        if status == DONE:
            break
        if status == RAGGED:
            return (False, codes[:, :0], entry_column[:0], entry_start[:0], entry_end[:0])
        entry_column = np.concatenate((entry_column, np.empty_like(entry_column)))
        entry_start = np.concatenate((entry_start, np.empty_like(entry_start)))
        entry_end = np.concatenate((entry_end, np.empty_like(entry_end)))
        entry_digest = np.concatenate((entry_digest, np.empty_like(entry_digest)))
        entry_mixed = np.concatenate((entry_mixed, np.empty_like(entry_mixed)))
        entry_code = np.concatenate((entry_code, np.empty_like(entry_code)))
        slots = _grown(slots, entry_mixed[:entries])
    return (True, codes[:, :records], entry_column[:entries], entry_start[:entries],
            entry_end[:entries])  # fmt: skip
