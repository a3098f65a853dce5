"""Small Markdown helpers for explaining a ruleset: code spans, blocks, values, locations."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...load.yaml_reader import LocMap

INDENT = "   "          # nested Markdown list items and their code blocks


class ExplainParts:
    """What the section mixins (components.py, rules_text.py) use of the :class:`Explainer` they are part of.

    Declared here, once, so each mixin states what it needs; ``Explainer`` (explainer.py) defines them.
    """

    rs: Any         # the compiled Ruleset explained
    d: dict         # its merged YAML tree
    offered: dict   # action id -> where the flow offers it

    if TYPE_CHECKING:
        def emit(self, *lines) -> None: ...
        def heading(self, level, text) -> None: ...
        def notes(self, node, indent="") -> None: ...


def code(text) -> str:
    """Inline code that survives backticks inside the text."""
    text = " ".join(str(text).split())
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def block(text, indent: str = "") -> list[str]:
    """A fenced code block (kept exactly as written), indented for a list item."""
    body = str(text).rstrip("\n").split("\n")
    runs = [len(m) for m in re.findall(r"`+", str(text))]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return [indent + fence] + [(indent + line) if line.strip() else "" for line in body] + [indent + fence]


def snippet(text, indent: str = "") -> tuple[str, list[str]]:
    """A DSL snippet: inline when it is one line, else a code block under the line."""
    text = str(text)
    if "\n" not in text.strip():
        return code(text.strip()), []
    return "", block(text, indent)


def value_text(value) -> str:
    """A plain value as a reader would write it (YAML-like, compact)."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    if isinstance(value, list):
        if len(value) > 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value) \
                and value == list(range(value[0], value[0] + len(value))):
            return f"{value[0]}–{value[-1]}"
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {value_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def attrs_text(attrs: dict) -> str:
    return ", ".join(f"{k} {value_text(v)}" for k, v in attrs.items())


def where(node, key=None) -> str:
    """``file:line`` of a node of the YAML tree (or of one of its values)."""
    loc = None
    if key is not None and hasattr(node, "loc_of"):
        loc = node.loc_of(key)
    elif hasattr(node, "loc"):
        loc = node.loc
    return f"{loc.file}:{loc.line}" if loc else ""


def key_where(mapping, key) -> str:
    loc = mapping.key_loc(key) if isinstance(mapping, LocMap) else None
    return f"{loc.file}:{loc.line}" if loc else ""


def cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def plural(n, word, many=None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def constant_value(value):
    """What a constant stands for: its plain value, its `value`, or a per-player-count table."""
    if isinstance(value, dict) and "by_players" in value:
        table = ", ".join(f"{k} players: {value_text(v)}" for k, v in value["by_players"].items())
        if "otherwise" in value:
            table += f", otherwise {value_text(value['otherwise'])}"
        return None, table
    if isinstance(value, dict) and "value" in value:
        return value["value"], value_text(value["value"])
    return value, value_text(value)
