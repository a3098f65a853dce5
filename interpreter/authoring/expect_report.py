"""What a failed expectation compared: the value of each of its parts.

``player(0).score == 12`` failing says little; ``player(0).score is 10`` says
what to fix. The condition is parsed again, its parts (the sides of each
comparison, the operands of ``and``/``or``/``not``) are written back as DSL
text and evaluated one by one in the same game.
"""
from __future__ import annotations

import json

from ..dsl import ast
from ..dsl.parser import parse
from ..errors import DavitError

MAX_PARTS = 8


def node_text(n) -> str | None:
    """DSL text for an expression node, or None for forms not written back (lambdas, comprehensions)."""
    if isinstance(n, ast.Const):
        if isinstance(n.value, bool):
            return "true" if n.value else "false"
        if n.value is None:
            return "none"
        return json.dumps(n.value) if isinstance(n.value, str) else str(n.value)
    if isinstance(n, ast.Name):
        return n.id
    if isinstance(n, ast.Attr):
        inner = node_text(n.obj)
        return inner and f"{inner}.{n.name}"
    if isinstance(n, ast.Index):
        obj, index = node_text(n.obj), node_text(n.index)
        return obj and index and f"{obj}[{index}]"
    if isinstance(n, ast.Call):
        func = node_text(n.func)
        parts = [node_text(a) for a in n.args] + [
            (f"{k}={node_text(v)}" if node_text(v) else None) for k, v in n.kwargs]
        return None if func is None or None in parts else f"{func}({', '.join(map(str, parts))})"
    if isinstance(n, ast.ListLit):
        parts = [node_text(i) for i in n.items]
        return None if None in parts else f"[{', '.join(map(str, parts))}]"
    if isinstance(n, ast.BinOp):
        left, right = node_text(n.left), node_text(n.right)
        return left and right and f"({left} {n.op} {right})"
    if isinstance(n, ast.Neg):
        inner = node_text(n.operand)
        return inner and f"-{inner}"
    if isinstance(n, ast.Not):
        inner = node_text(n.operand)
        return inner and f"not ({inner})"
    if isinstance(n, ast.BoolOp):
        left, right = node_text(n.left), node_text(n.right)
        return left and right and f"({left} {n.op} {right})"
    if isinstance(n, ast.Compare):
        parts = [node_text(n.first)] + [node_text(o) for _, o in n.rest]
        if None in parts:
            return None
        text = str(parts[0])
        for (op, _), part in zip(n.rest, parts[1:]):
            text += f" {op} {part}"
        return f"({text})"
    return None


def _parts(n) -> list:
    """The sub-expressions worth showing, outermost first."""
    if isinstance(n, ast.Compare):
        return [n.first] + [o for _, o in n.rest]
    if isinstance(n, ast.BoolOp):
        return [n.left, n.right] + _parts(n.left) + _parts(n.right)
    if isinstance(n, ast.Not):
        return [n.operand] + _parts(n.operand)
    return []


def show_value(game, value) -> str:
    """A value as a designer reads it: names for players, ids for things and zones."""
    from ..machine.values import PlayerRef
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, PlayerRef):
        return f"player({value.seat}) ({game.player_name(value.seat)})"
    if isinstance(value, list):
        shown = [show_value(game, v) for v in value[:10]]
        return "[" + ", ".join(shown) + (", …" if len(value) > 10 else "") + "]"
    for attr in ("id",):
        if hasattr(value, attr) and not isinstance(value, (str, int, float)):
            return str(getattr(value, attr))
    return repr(value) if isinstance(value, str) else str(value)


def explain_failure(text, evaluate) -> str:
    """``"a is 10, b is 12"`` for the parts of condition ``text``; ``evaluate(text)`` gives a value."""
    try:
        node = parse(str(text), "expr")
    except DavitError:
        return ""
    shown, seen = [], set()
    for part in _parts(node):
        if isinstance(part, ast.Const):
            continue
        source = node_text(part)
        if source is None or source in seen:
            continue
        seen.add(source)
        try:
            shown.append(f"{source} is {evaluate(source)}")
        except DavitError:
            continue
        except Exception:  # a part that cannot be evaluated alone (e.g. an error the whole hides)
            continue
        if len(shown) >= MAX_PARTS:
            break
    return ", ".join(shown)
