"""One rule difference (:class:`Change`) and the helpers that compare and show values and snippets."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..explain import value_text

NOTE_KEYS = ("description", "source", "reconstructed")
MISSING = object()


@dataclass
class Change:
    """One difference: where (a dotted path), what happened, and a sentence for people."""
    path: str
    kind: str          # added | removed | changed
    old: object
    new: object
    text: str

    def __str__(self) -> str:
        return self.text


class DiffParts:
    """What the section and flow mixins (sections.py, flow.py) call on the :class:`Differ` they are part of.

    Declared here, once, so each mixin states what it needs; ``Differ`` (differ.py) defines them.
    """

    notes: bool        # whether descriptions and sources are compared too
    consts_a: dict     # each side's constants, to show a value by name
    consts_b: dict

    if TYPE_CHECKING:
        def add(self, path, kind, old, new, text) -> None: ...
        def note_keys(self, path, what, old, new) -> None: ...
        def value(self, path, what, old, new, dsl=False, fmt=None) -> None: ...
        def fields(self, path, what, old, new, handled=(), dsl_keys=(), defaults=None) -> None: ...
        def mapping(self, path, what, old, new, dsl=False) -> None: ...
        def by_id(self, path, word, old, new, compare, describe_new=None, id_of=None) -> None: ...
        @staticmethod
        def _dict(value) -> dict: ...
        @staticmethod
        def _list(value) -> list: ...


# -- normalising and showing values -------------------------------------------------------

_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|#|\d+(?:\.\d+)?|\w+|->|[=!<>/+\-*]=|//|\S')


def normalise_dsl(text) -> str:
    """A rule snippet without comments and layout, keeping its block structure."""
    lines = []
    for raw in str(text).replace("\\\n", " ").split("\n"):
        tokens = []
        for tok in _TOKEN.findall(raw):
            if tok == "#":
                break
            tokens.append(tok)
        if tokens:
            lines.append((len(raw) - len(raw.lstrip()), " ".join(tokens)))
    widths = sorted({w for w, _ in lines})
    return "\n".join("  " * widths.index(w) + t for w, t in lines)


def same_dsl(a, b) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return normalise_dsl(a) == normalise_dsl(b)
    return _same(a, b)


def _same(a, b) -> bool:
    """Equal values, with 2 and "2" keys of a table counted as the same."""
    if isinstance(a, dict) and isinstance(b, dict):
        ka, kb = {str(k): v for k, v in a.items()}, {str(k): v for k, v in b.items()}
        return ka.keys() == kb.keys() and all(_same(ka[k], kb[k]) for k in ka)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def _condition_text(value):
    """An action's `if` as one text: a list of {when, reason} reads `a (“why”); b (“why”)`."""
    if not isinstance(value, list):
        return value
    return "; ".join(f"{item.get('when')}" + (f" (“{item['reason']}”)" if item.get("reason") else "")
                     for item in value)


def show(value) -> str:
    """A value as a designer would write it (notes left out of tables)."""
    if value is MISSING:
        return "none"
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if k not in NOTE_KEYS}
    return value_text(value)


def show_dsl(text) -> str:
    """A snippet inline: in backticks when short and on one line."""
    if text is MISSING or text is None:
        return "none"
    flat = " ".join(str(text).split())
    if "\n" in str(text).strip() or len(flat) > 70:
        return f"`{flat[:60]}…`"
    return f"`{flat}`"


def show_list(values) -> str:
    if values is MISSING or values is None:
        return "none"
    return ", ".join(show(v) for v in values) if isinstance(values, list) else show(values)


def _one_line(text) -> str:
    return " ".join(str(text).split())


def constant_value(value):
    """A constant as what it stands for: ``{value: 9, source: …}`` is 9."""
    if isinstance(value, dict) and "value" in value and "by_players" not in value:
        return value["value"]
    if isinstance(value, dict) and "by_players" in value:
        return {k: v for k, v in value.items() if k in ("by_players", "otherwise")}
    return value


# -- the differ ---------------------------------------------------------------------------------
