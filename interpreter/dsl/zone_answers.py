"""Ruleset functions whose answer is one of the table's zones whenever they answer, found from their syntax trees.

``here(p) == home()`` compares the answers of two ruleset functions; where each
answer is certain to be one of the table's zone objects (the table holds one object
per zone, and no other is ever made: ``rules/table.py``), the two are equal exactly when
they are the same object, so the comparison is written as ``is`` and no Python
``__eq__`` runs (:func:`.fast_reads.zone_identity`). A function answers such a zone
when its one expression is:

* a zone named as such (``harbour``, not a parameter of that name);
* ``a if c else b`` with both ``a`` and ``b`` such zones;
* the ``.zone`` of a thing, where no declared property or printed attribute takes the
  name: ``thing(...)`` (the built-in answers a thing or fails) or a ruleset function
  whose expression is one (``pawn_of(p)``);
* ``space(text)`` of a text that starts with a literal (``"r" + text(lvl) + s``: a text
  or an error), which the built-in looks up in the table or fails;
* a call of a ruleset function that answers such a zone.

A function that may come back to itself on the way is not counted as one (its
answer is not proven). Found once per ruleset and function, with the fast paths on
(the layout); what is found holds for every table of the ruleset.
"""
from __future__ import annotations

from . import ast
from .primitives import BUILTIN_VALUES


def answers_table_zone(env, node, shadowed) -> bool:
    """Whether expression ``node`` (with the names ``shadowed`` bound by the rule: parameters, locals) is
    one of the table's zones whenever it is worked out without failing."""
    if isinstance(node, ast.Name):
        return node.id not in shadowed and node.id in env.zones and node.id not in BUILTIN_VALUES \
            and node.id not in env.globals and node.id not in env.constants
    if isinstance(node, ast.IfExp):
        return answers_table_zone(env, node.then, shadowed) and answers_table_zone(env, node.other, shadowed)
    layout = env.layout
    if isinstance(node, ast.Attr):
        return node.name == "zone" and layout is not None and "zone" not in layout.thing_props \
            and "zone" not in layout.thing_attrs and _answers_thing(env, node.obj)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return False
    name = node.func.id
    if name in env.functions:
        return _function_answers(env, name, "zone")
    return name == "space" and len(node.args) == 1 and not node.kwargs and _text(node.args[0])


def _answers_thing(env, node) -> bool:
    """Whether ``node`` is a thing whenever it is worked out without failing: ``thing(...)`` or a ruleset
    function whose expression is one."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return False
    name = node.func.id
    if name in env.functions:
        return _function_answers(env, name, "thing")
    return name == "thing"


def _function_answers(env, name: str, what: str) -> bool:
    """Whether ruleset function ``name`` answers ``what`` ("zone": one of the table's zones, "thing": a thing),
    decided once per ruleset (kept with the compiler's names)."""
    found = env.answers.get((what, name))
    if found is None:
        env.answers[(what, name)] = False   # while it is decided: a call back to itself proves nothing
        info = env.functions[name]
        body = info.body[0].value if info.value and not info.suspends and len(info.body) == 1 \
            and isinstance(info.body[0], ast.Return) else None
        shadowed = frozenset(info.params)
        found = body is not None and (answers_table_zone(env, body, shadowed) if what == "zone"
                                      else _answers_thing(env, body))
        env.answers[(what, name)] = found
    return found


def _text(node) -> bool:
    """Whether ``node`` is a text whenever it is worked out without failing: a literal text, or ``+`` whose left
    side is one (Python adds nothing but a text to a text)."""
    while isinstance(node, ast.BinOp) and node.op == "+":
        node = node.left
    return isinstance(node, ast.Const) and node.value.__class__ is str
