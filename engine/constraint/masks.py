"""Conversions between the three forms a token mask takes here: a Python-int bitset (bit i =
token i; cheap set algebra while building), a numpy bool row (what the host applies with one
``np.copyto``; numpy's per-call cost is a fraction of torch's for [B, V] rows this small) and a
packed int32 row (XGrammar's layout, what the Triton kernel applies on a GPU).

>>> row = bits_to_row(0b1010, 5)
>>> row.tolist()
[False, True, False, True, False]
>>> pack_rows(row[None]).tolist(), row_to_bits(row)
([[10]], 10)
"""

from __future__ import annotations

import numpy as np


def width(size: int) -> int:
    """int32 words per packed row of ``size`` token bits."""
    return (size + 31) // 32


def bits_to_row(bits: int, size: int) -> np.ndarray:
    """A bitset as a bool row [size] (True = in the set)."""
    raw = np.frombuffer(bits.to_bytes(width(size) * 4, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size].astype(bool)


def row_to_bits(row: np.ndarray) -> int:
    """A bool row as a bitset."""
    return int.from_bytes(pack_rows(row[None])[0].tobytes(), "little")


def pack_rows(rows: np.ndarray) -> np.ndarray:
    """bool [R, V] -> packed int32 [R, ceil(V/32)], least-significant bit first."""
    r, v = rows.shape
    padded = np.zeros((r, width(v) * 32), dtype=bool)
    padded[:, :v] = rows
    return np.packbits(padded, axis=1, bitorder="little").view("<i4")
