"""Generic helpers for dice pools: choosing several dice out of a pool.

Registered in the same table as ``primitives.py`` (it imports every
``prims_*.py``). Nothing here names a game: a die is any item, a face any value.
"""
from __future__ import annotations

from itertools import combinations as _combinations
from typing import TYPE_CHECKING

from ..errors import GameError
from .primitives import collection_of, primitive

if TYPE_CHECKING:
    from ..machine.host import GameHost


@primitive()
def combinations(g: GameHost, loc, collection, k):
    """combinations(xs, k): every way to pick k items of xs, each a list in the original order.

    Example: ``combinations([1, 2, 3], 2)`` -> ``[[1, 2], [1, 3], [2, 3]]``.
    """
    items = collection_of(g, collection, loc)
    if not isinstance(k, int) or isinstance(k, bool) or k < 0:
        raise GameError(f"combinations() needs a whole number k >= 0, got {k!r}", loc)
    if k > len(items):
        return []
    if len(items) > 16:
        raise GameError(f"combinations() takes at most 16 items, got {len(items)}", loc)
    return [list(c) for c in _combinations(items, k)]


@primitive()
def matches(g: GameHost, loc, faces, need, count, wild=None):
    """matches(faces, need, count, wild=none): true if at least `count` of `faces` equal `need`, a `wild` face
    counting as any.

    Example: ``matches(["black", "white"], "black", 2, "white")`` -> ``true``.
    """
    items = collection_of(g, faces, loc)
    if not isinstance(count, int) or isinstance(count, bool):
        raise GameError(f"matches() needs a whole number count, got {count!r}", loc)
    hits = sum(1 for f in items if f == need or (wild is not None and f == wild))
    return hits >= count
