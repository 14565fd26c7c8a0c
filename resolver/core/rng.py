"""Deterministic random streams built on HMAC-SHA256.

Every stream is named by a label. Two streams with different labels never share
draws, so adding a roll in one place cannot shift the rolls anywhere else. The
global ``random`` module is never used: its sequence depends on call order.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_WORD = 8  # bytes per raw draw
_SPAN = 1 << (8 * _WORD)


def derive_key(*parts: object) -> bytes:
    """Hash any number of parts into a 32-byte key; the separator keeps ("ab", "c") != ("a", "bc")."""
    h = hashlib.sha256()
    for part in parts:
        data = str(part).encode("utf-8")
        h.update(len(data).to_bytes(4, "big"))
        h.update(data)
    return h.digest()


class Stream:
    """An endless sequence of uniform integers for one label.

    Draw ``i`` is ``HMAC(key, label#i)``; integers in ``[0, n)`` use rejection
    sampling so that every value is exactly equally likely.
    """

    __slots__ = ("_counter", "key", "label")

    def __init__(self, key: bytes, label: str) -> None:
        self.key = key
        self.label = label
        self._counter = 0

    def _raw(self) -> int:
        msg = f"{self.label}#{self._counter}".encode()
        self._counter += 1
        digest = hmac.new(self.key, msg, hashlib.sha256).digest()
        return int.from_bytes(digest[:_WORD], "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = _SPAN - (_SPAN % n)
        while True:
            x = self._raw()
            if x < limit:
                return x % n

    def between(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both ends included."""
        return low + self.below(high - low + 1)

    def unit(self) -> float:
        """A float in ``[0, 1)`` with 53 bits of precision (for world generation only)."""
        return (self._raw() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def stream(seed: object, label: str) -> Stream:
    """A stream keyed by a plain seed (campaign seed, test seed) rather than a turn key."""
    return Stream(derive_key("stream", seed), label)
