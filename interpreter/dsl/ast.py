"""The DSL's own syntax tree: small immutable nodes, each with its position.

``pos`` is the (line, column) of the node inside its snippet, 1-based; the
compiler maps it to the YAML file with :func:`yaml_loader.position_in_file`.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Node:
    pos: tuple


# --- expressions -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Const(Node):
    value: object


@dataclass(frozen=True, slots=True)
class Name(Node):
    id: str


@dataclass(frozen=True, slots=True)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True, slots=True)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True, slots=True)
class Call(Node):
    func: Node
    args: tuple
    kwargs: tuple  # ((name, Node), ...)


@dataclass(frozen=True, slots=True)
class Lambda(Node):
    param: str
    body: Node


@dataclass(frozen=True, slots=True)
class ListLit(Node):
    items: tuple


@dataclass(frozen=True, slots=True)
class Comprehension(Node):
    """``[elt for var in source if cond]``; as a call argument it is a generator."""
    elt: Node
    var: str
    source: Node
    cond: Node | None


@dataclass(frozen=True, slots=True)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True, slots=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True, slots=True)
class BoolOp(Node):
    op: str  # "and" | "or"
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Compare(Node):
    first: Node
    rest: tuple  # ((op, Node), ...)


@dataclass(frozen=True, slots=True)
class IfExp(Node):
    cond: Node
    then: Node
    other: Node


@dataclass(frozen=True, slots=True)
class FormatString(Node):
    """A string literal with ``{expr}`` holes (only in narration texts)."""
    parts: tuple  # str or Node


# --- statements ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Assign(Node):
    target: Node  # Name | Attr | Index
    value: Node
    op: str | None = None  # "+", "-", "*", "//" for augmented assignment


@dataclass(frozen=True, slots=True)
class ExprStmt(Node):
    expr: Node


@dataclass(frozen=True, slots=True)
class If(Node):
    branches: tuple  # ((cond, body), ...)
    orelse: tuple


@dataclass(frozen=True, slots=True)
class For(Node):
    var: str
    source: Node
    body: tuple


@dataclass(frozen=True, slots=True)
class While(Node):
    cond: Node
    body: tuple


@dataclass(frozen=True, slots=True)
class Return(Node):
    value: Node | None


@dataclass(frozen=True, slots=True)
class Pass(Node):
    pass


@dataclass(frozen=True, slots=True)
class Break(Node):
    pass


@dataclass(frozen=True, slots=True)
class Continue(Node):
    pass


def walk(node):
    """Every node below ``node`` (itself included), without recursion."""
    todo = [node]
    while todo:
        current = todo.pop()
        cls = current.__class__
        if cls is tuple:
            todo.extend(current)
            continue
        if cls not in _NODE_CLASSES:
            if isinstance(current, tuple):
                todo.extend(current)
                continue
            if not isinstance(current, Node):
                continue
        yield current
        for name in current.__slots__:
            value = getattr(current, name)
            # by class first: most fields are text, numbers or None (the compiler walks 400,000 of them)
            if value.__class__ in _NODE_CLASSES or value.__class__ is tuple \
                    or (value.__class__ not in _LEAVES and isinstance(value, (Node, tuple))):
                todo.append(value)


def _subclasses(cls) -> set:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub} | _subclasses(sub)
    return found


_NODE_CLASSES = frozenset(_subclasses(Node) | {Node})   # every node class, for walk's test by class
_LEAVES = frozenset({str, int, float, bool, type(None)})
