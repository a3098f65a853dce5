"""The work one decision may cost, and the size of the values the rules make.

``limits.max_steps`` counts instructions over a whole game, but a single
instruction can walk a list of 100,000 items, build one, sort one or square a
number. So the generated code and the built-ins charge what they touch to
``g.work``: a ``for`` loop and a comprehension the length of what they walk,
a collection built-in the length of its argument, a text or list join the
length of its result, each call of a ``value:`` function one, each
instruction one. ``Game`` sets ``work`` back to 0 when a decision is applied
and when legal actions are listed; past ``limits.MAX_WORK`` the rules stop
with a located :class:`WorkBudgetError`.

:func:`sized` and :func:`times` also refuse a whole number, text or list the
state could not keep, where it is made (in a local, an argument or an
intermediate result), so that doubling a text or squaring a number stops at
once instead of filling memory first; so is a fraction that is infinite or not a number (a product
that overflowed, ``inf - inf``), which no score, order or JSON file can hold. Both are called only for ``+``, ``-``
and ``*`` of values that are not a literal number, so the common ``n + 1``
stays plain Python, and a chain ``"r" + text(n) + s`` is checked once, as a
whole (the generator in :mod:`interpreter.dsl.expressions`).
"""
from __future__ import annotations

from math import isfinite
from typing import TYPE_CHECKING

from ..errors import GameError
from ..load.limits import MAX_CHOICES, MAX_INT_DIGITS, MAX_ITEMS, MAX_TEXT, MAX_WORK

if TYPE_CHECKING:
    from .host import GameHost

_BIG = 10 ** MAX_INT_DIGITS
MAX_SMALL_INT = _BIG   # a whole number strictly between -MAX_SMALL_INT and MAX_SMALL_INT may be made and kept


class WorkBudgetError(GameError):
    """The rules of one decision touched more items than ``limits.MAX_WORK``."""
    code = "work-budget"


class TooManyChoicesError(GameError):
    """One seat was offered more than ``limits.MAX_CHOICES`` legal actions (or options) at one decision."""
    code = "too-many-choices"


def too_many_choices(what: str, count: int, loc) -> TooManyChoicesError:
    return TooManyChoicesError(f"{what} offers more than {MAX_CHOICES:,} choices at one decision ({count:,} "
                               f"counted)", loc, hint="choose in steps (first a card, then where it goes), or narrow "
                                         "the choices with the action's `if:`")


def over_budget(loc):
    return WorkBudgetError(f"the rules touched more than {MAX_WORK:,} items for one decision", loc,
                           hint="a loop inside a loop over long lists, or a function that calls itself twice")


def charge(g: GameHost, n: int, loc=None) -> None:
    """Count ``n`` items of work for the current decision."""
    g.work += n
    if g.work > MAX_WORK:
        raise over_budget(loc)


def charged(units: int, where: str) -> list[str]:
    """Generated lines that :func:`charge` ``units`` without a call (the call cost more than the work it
    counted); past the budget, ``charge`` raises the error at ``where`` (the name of a bound location)."""
    return [f"g.work += {units!r}", f"if g.work > {MAX_WORK!r}:", f"    _charge(g, 0, {where})"]


def each(g: GameHost, items, loc):
    """``items`` after charging its length (the source of a comprehension)."""
    g.work += len(items)
    if g.work > MAX_WORK:
        raise over_budget(loc)
    return items


def too_big(value, loc, verb: str = "made") -> GameError | None:
    """The error for a number, text or list larger than the rules may make (or keep), or None."""
    kind = type(value)
    if kind is int:
        if -_BIG < value < _BIG:
            return None
        return GameError(f"a whole number of more than {MAX_INT_DIGITS} digits cannot be {verb}", loc)
    if kind is str and len(value) > MAX_TEXT:
        return GameError(f"a text of {len(value)} characters cannot be {verb} (at most {MAX_TEXT})", loc)
    if kind is list and len(value) > MAX_ITEMS:
        return GameError(f"a list of {len(value)} items cannot be {verb} (at most {MAX_ITEMS})", loc)
    if kind is float and not isfinite(value):
        return GameError(f"a fraction that is infinite or not a number ({value}) cannot be {verb}", loc)
    return None


def _refused(value, loc) -> GameError:
    """The error for ``value``, which the caller found too big by the same bounds as :func:`too_big`."""
    error = too_big(value, loc)
    assert error is not None
    return error


def sized(g: GameHost, value, loc):
    """``value`` (the result of ``+`` or ``-``) if it is small enough; a text or list is charged its length."""
    kind = type(value)
    if kind is int:
        if -_BIG < value < _BIG:
            return value
        raise _refused(value, loc)
    if kind is str:
        size = len(value)
        if size > MAX_TEXT:
            raise _refused(value, loc)
    elif kind is list:
        size = len(value)
        if size > MAX_ITEMS:
            raise _refused(value, loc)
    else:
        if kind is float and not isfinite(value):
            raise _refused(value, loc)
        return value
    g.work += size   # (each() inlined: texts are joined often, in labels and log lines)
    if g.work > MAX_WORK:
        raise over_budget(loc)
    return value


def times(g: GameHost, a, b, loc):
    """``a * b``, refused before it is made when a text or list would grow past its cap."""
    if type(a) is int and type(b) is int:   # two whole numbers, nearly always: sized() written out for them
        value = a * b
        if -_BIG < value < _BIG:
            return value
        raise _refused(value, loc)
    if type(a) is int and type(b) in (str, list):
        a, b = b, a
    if type(a) in (str, list) and type(b) is int:
        cap, what = (MAX_TEXT, "text") if type(a) is str else (MAX_ITEMS, "list")
        if len(a) * b > cap:
            raise GameError(f"a {what} of {len(a) * b} {'characters' if what == 'text' else 'items'} "
                            f"cannot be made (at most {cap})", loc)
    return sized(g, a * b, loc)
