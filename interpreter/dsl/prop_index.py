"""The things of a kind by the value of one property: what a comprehension whose filter starts with
``x.prop == <the same for every item>`` walks instead of every thing of the kind.

``filter(things("pawn"), t -> t.owner_seat == p.seat and ...)`` walks every pawn and drops all but a
seat's few at the first test. Where that test is the first thing the filter works out for an item, and a
failing test makes the whole filter fail (it leads a chain of ``and``), the items it drops are dropped at
no cost but the test itself: reading a property and the other side, neither of which charges work, changes
anything or, for the other side, depends on the item. So the comprehension walks only the items whose
property equals the other side (:func:`picked`), in the table's order, and still tests each of them with the
whole filter. The other side is worked out once, before the first item, where the walk of every item
worked it out first (the property read before it cannot fail); with no item it is not worked out at all.

The lists live on the state (``State.index``: property -> (kind, default) -> value -> things), made at the
first such walk, and are dropped whenever a thing's property of that name is written (every writer does:
``RuleRuntime.set_attr`` and ``set_thing_prop``, the generated writes of :func:`.fast_reads.declared_writes`)
or any moves between things (``State.deal_props``); a clone starts with none. ``face_up`` and ``known_to``,
which moves, flips and peeks write, are never looked up so (their paths stay as cheap as they were). Only
with the fast paths on: the test is recognised on the read they write out (``props[x.id].get('owner_seat', -1)``).
"""
from __future__ import annotations

import ast as python_ast
import re
from typing import Any

from ..machine import attributes
from . import fast_reads

_UNMADE = object()
# written by the engine itself as things move, flip and are peeked at, on paths that do not drop the lists
ENGINE_WRITTEN = frozenset({"face_up", "known_to"})
_PROPS = "_props_"   # the stand-in of the held ``g.state.props`` in the parsed filter
# a node's line mark (kept in the copy of the other side), a kept read's mark, a held container's stand-in
_MARK_OR_HELD = re.compile("\x01[0-9]+\x02|\x04_m[0-9]+\x02|\x03[0-9]+\x02|g\\.state\\.props\\b")
_LINE_OR_KEPT = re.compile("\x01[0-9]+\x02|\x04_m[0-9]+\x02")
_PURE_NODES = (python_ast.Name, python_ast.Attribute, python_ast.Constant, python_ast.Subscript,
               python_ast.Tuple, python_ast.IfExp, python_ast.BoolOp, python_ast.UnaryOp, python_ast.NamedExpr,
               python_ast.Compare, python_ast.Call, python_ast.Load, python_ast.Store, python_ast.And,
               python_ast.Or, python_ast.Not, python_ast.Is, python_ast.IsNot, python_ast.Eq, python_ast.NotEq,
               python_ast.In, python_ast.NotIn, python_ast.USub)
_READER_MODULES = frozenset({attributes.__name__, fast_reads.__name__})


def picked(g: Any, found, kind: str, name: str, default, value):
    """The things of ``found`` (the table's things of ``kind``) whose property ``name`` (``default`` where
    unset) equals ``value``, in their order; ``found`` itself where no list can answer (``found`` is another
    list, a value is a list, ``value`` is no value a dict can look up)."""
    if found is not g.table.things_by_kind.get(kind) or (value.__class__ is float and value != value):
        return found
    index = g.state.index
    tables = index.get(name)
    if tables is None:
        tables = index[name] = {}
    key = (kind, default)
    table = tables.get(key, _UNMADE)
    if table is _UNMADE:
        table = tables[key] = by_value(g.state.props, found, name, default)
    if table is None:
        return found
    try:
        return table.get(value, ())
    except TypeError:   # a list or a table: equal to no value a property can be looked up by
        return found


def by_value(props: dict, things, name: str, default) -> dict | None:
    """Value -> the things of ``things`` whose property ``name`` (else ``default``) equals it, in their
    order; None where a value cannot be a key (a list)."""
    table: dict = {}
    try:
        for t in things:
            value = props[t.id].get(name, default)
            found = table.get(value)
            if found is None:
                table[value] = [t]
            else:
                found.append(t)
    except TypeError:
        return None
    return table


def selected(gen, var: str, elt: str, source: str, cond: str, kind: str | None) -> str:
    """``[<elt> for <var> in <source> if <cond>]``, walking only the things :func:`picked` answers where
    ``cond`` leads with a test of a property of ``var`` against a side that does not depend on it."""
    plain = f"[{elt} for {var} in {source} if {cond}]"
    if kind is None or gen.iterable or gen.env.layout is None:   # (no := in a comprehension's iterable)
        return plain
    test = leading_test(gen, var, cond)
    if test is None:
        return plain
    name, default, other = test
    items, picked_now = gen.fresh("_s"), gen.fresh("_q")
    pick = f"{gen.bind(picked)}(g, {items}, {kind!r}, {name!r}, {default!r}, ({other}))"
    return f"[{elt} for {items} in ({source},) if {items} and (({picked_now} := {pick}) is not None) " \
           f"for {var} in {picked_now} if {cond}]"


def picking(gen, var: str, items: str, cond: str, kind: str | None) -> list[str]:
    """Lines that, before a loop over ``items`` (a generated function's parameter) stopping at the first
    ``var`` for which ``cond`` holds (``first``, ``any``), leave in ``items`` only the things
    :func:`picked` answers where ``cond`` leads with a test it can answer; none where it does not."""
    test = None if kind is None or gen.env.layout is None else leading_test(gen, var, cond)
    if test is None:
        return []
    name, default, other = test
    return [f"if {items}:", f"    {items} = {gen.bind(picked)}(g, {items}, {kind!r}, {name!r}, {default!r}, ({other}))"]


def leading_test(gen, var: str, cond: str) -> tuple[str, Any, str] | None:
    """(property, default, the other side's source) of the test ``cond`` leads with, if it is
    ``props[<var>.id].get(<property>, <default>) == <other>`` with ``<other>`` a pure read not of ``var``."""
    held = gen.held.get("g.state.props") if gen.held else None
    plain, starts = _parsable(cond, held[0] if held else None)
    try:
        tree = python_ast.parse(plain, mode="eval").body
    except SyntaxError:
        return None
    while isinstance(tree, python_ast.BoolOp) and isinstance(tree.op, python_ast.And):
        tree = tree.values[0]
    if not (isinstance(tree, python_ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], python_ast.Eq)):
        return None
    read = _property_read(tree.left, var)
    if read is None or read[0] in ENGINE_WRITTEN:
        return None
    other = tree.comparators[0]
    bound = {n.target.id for n in python_ast.walk(tree.left) if isinstance(n, python_ast.NamedExpr)
             and isinstance(n.target, python_ast.Name)}
    if not _pure(gen, other, {var, *bound}):
        return None
    start, end = _span(plain, other)
    # the other side's own source, its line marks with it (an error in it is placed where it was)
    first, last = starts[start], starts[end - 1] + 1
    # widened to the node's own line mark (an error in the copy is placed where it was): over the marks
    # just before it (its line, a kept read) and the parentheses around it
    while first > 0:
        if cond[first - 1] == "\x02":
            mark = max(cond.rfind("\x01", 0, first), cond.rfind("\x04", 0, first))
            if mark < 0 or not _LINE_OR_KEPT.fullmatch(cond, mark, first):
                break
            first = mark
        elif cond[first - 1] == "(" and cond[last:last + 1] == ")":
            first, last = first - 1, last + 1
        else:
            break
    return read[0], read[1], cond[first:last]


def _parsable(text: str, props_stand_in: str | None) -> tuple[str, list[int]]:
    """``text`` without its marks, the held ``g.state.props`` as :data:`_PROPS` and other held containers as
    names, and where each of its characters was in ``text``."""
    out: list[str] = []
    starts: list[int] = []
    at = 0
    for m in _MARK_OR_HELD.finditer(text):
        out.append(text[at:m.start()])
        starts.extend(range(at, m.start()))
        mark = m.group()
        if mark[0] in "\x03g":
            name = _PROPS if mark == props_stand_in or mark[0] == "g" else "_held" + mark[1:-1]
            out.append(name)
            starts.extend([m.start()] * len(name))
        at = m.end()
    out.append(text[at:])
    starts.extend(range(at, len(text)))
    return "".join(out), starts


def _property_read(node, var: str) -> tuple[str, Any] | None:
    """(property, default) where ``node`` is ``props[<var>.id].get(<property>, <default>)`` (its dict maybe
    kept by ``:=``), the default a literal."""
    if not (isinstance(node, python_ast.Call) and isinstance(node.func, python_ast.Attribute)
            and node.func.attr == "get" and len(node.args) == 2 and not node.keywords
            and isinstance(node.args[0], python_ast.Constant) and isinstance(node.args[0].value, str)):
        return None
    try:
        default = python_ast.literal_eval(node.args[1])   # (-1 is a negation of a constant)
    except ValueError:
        return None
    if default.__class__ not in (str, int, bool, float, type(None)):
        return None
    held = node.func.value
    if isinstance(held, python_ast.NamedExpr):
        held = held.value
    if not (isinstance(held, python_ast.Subscript) and isinstance(held.value, python_ast.Name)
            and held.value.id == _PROPS and isinstance(held.slice, python_ast.Attribute)
            and held.slice.attr == "id" and isinstance(held.slice.value, python_ast.Name)
            and held.slice.value.id == var):
        return None
    return node.args[0].value, default


def _pure(gen, node, item_names: set) -> bool:
    """Whether ``node`` only reads (names, attributes, items, a ``dict.get``, a property reader), charges no
    work and reads no name in ``item_names`` (the item, a name bound to a read of it)."""
    for sub in python_ast.walk(node):
        if not isinstance(sub, _PURE_NODES):
            return False
        if isinstance(sub, python_ast.Name) and sub.id in item_names:
            return False
        if isinstance(sub, python_ast.Call):
            func = sub.func
            if isinstance(func, python_ast.Attribute):
                if func.attr != "get":
                    return False
            elif not (isinstance(func, python_ast.Name) and _is_reader(gen.names.get(func.id))):
                return False
    return True


def _is_reader(fn) -> bool:
    """Whether ``fn`` is a property reader (:func:`.attributes.reader`, :func:`.fast_reads.reader_for`)."""
    return getattr(fn, "__name__", None) == "read" and getattr(fn, "__module__", None) in _READER_MODULES


def _span(text: str, node) -> tuple[int, int]:
    """Where ``node`` of ``text`` (parsed as one line) starts and ends."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    # ast columns count UTF-8 bytes
    def at(line: int, col: int) -> int:
        return offsets[line - 1] + len(lines[line - 1].encode()[:col].decode())
    return at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset)
