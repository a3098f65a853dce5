"""The DSL's arithmetic and comparison operators, as the expression generator writes them.

Each operator's Python spelling is looked up here, never copied from a rule's
text. A sum, product or quotient that may grow a value past the caps (a long
text or list, a huge number, an infinite fraction) is written through
:mod:`interpreter.machine.budget`; one that cannot stays plain Python.
"""
from __future__ import annotations

from . import ast

# the Python spelling of each DSL operator (looked up, never copied from the source)
BINARY = {"+": "+", "-": "-", "*": "*", "/": "/", "//": "//", "%": "%"}
BOOLEAN = {"and": "and", "or": "or"}
COMPARE = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
# may make a long text or list, a huge number or an infinite fraction (1e308 / 0.5): checked (machine/budget.py)
GROWING = {"+", "-", "*", "/", "//"}
ADDITIVE = {"+", "-"}


def _number_literal(n) -> bool:
    return isinstance(n, ast.Const) and type(n.value) in (int, float)


def binop(gen, n, checked: bool) -> str:
    """``n``, a binary operation, written by the expression generator ``gen``.

    In a chain a + b + c only the whole sum is checked: its left part is at most 40 (the nesting
    cap) checked values long, so one check at the top costs a third of one at each `+`.
    """
    if n.op in ADDITIVE and isinstance(n.left, ast.BinOp) and n.left.op in ADDITIVE:
        left = binop(gen, n.left, checked=False)
    else:
        left = gen.expr(n.left)
    right = gen.expr(n.right)
    if not checked:
        return gen.node(n, f"{left} {BINARY[n.op]} {right}")
    return gen.node(n, arith(gen, n.op, left, right, n.left, n.right, n))


def arith(gen, op, left: str, right: str, left_node, right_node, at) -> str:
    """``left op right`` as ``gen`` writes it; where it may grow a value past the caps, through :mod:`machine.budget`.

    ``n + 1`` and ``n - 2`` stay plain: with a literal number the result is a
    number that grows by a digit at most. Any ``*`` may square a number.
    """
    plain = f"{left} {BINARY[op]} {right}"
    literal = (_number_literal(right_node) and abs(right_node.value) >= 1) if op in ("/", "//") \
        else _number_literal(left_node) or _number_literal(right_node)   # (a quotient by 1 or more: no inf)
    if op not in GROWING or (literal and op != "*") or (_number_literal(left_node) and _number_literal(right_node)):
        return plain
    where = gen.bind(gen.sn.loc(at), "_l")
    if op == "*":
        return f"_times(g, {left}, {right}, {where})"
    return f"_sized(g, {plain}, {where})"
