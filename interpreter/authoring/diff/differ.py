"""What differs between two rulesets, stated in rule terms.

``davit diff A B`` (or ``davit diff A --variant V``) prints what
:func:`format_diff` makes of :func:`diff`. The merged YAML of both rulesets
is compared section by section, knowing each section's shape: lists of items
with ids are matched by id, mappings by key, rule snippets after normalising
their layout (so re-indenting or a changed comment is no difference), and the
flow step by step. Notes (``description``, ``source``, ``reconstructed``) are
left out unless asked for. Nothing here knows any particular game.

Example (``my-game`` stands for any ruleset id or folder)::

    from interpreter.rules.loading import load_ruleset
    diff(load_ruleset("my-game"), load_ruleset("my-game"))   # -> []
"""
from __future__ import annotations

from ...load.yaml_reader import plain
from .changes import (
    MISSING,
    NOTE_KEYS,
    Change,
    _one_line,
    _same,
    same_dsl,
    show,
    show_dsl,
)
from .flow import FlowDiffs
from .sections import SectionDiffs


class Differ(SectionDiffs, FlowDiffs):
    def __init__(self, include_notes: bool):
        self.notes = include_notes
        self.changes: list[Change] = []
        self.consts_a: dict = {}
        self.consts_b: dict = {}

    def add(self, path, kind, old, new, text):
        self.changes.append(Change(path, kind, None if old is MISSING else old,
                                   None if new is MISSING else new, text))

    def note_keys(self, path, what, old, new):
        """Changed descriptions and sources, only when notes are wanted."""
        if not self.notes:
            return
        old = old if isinstance(old, dict) else {}
        new = new if isinstance(new, dict) else {}
        for key in NOTE_KEYS:
            a, b = old.get(key, MISSING), new.get(key, MISSING)
            if a is MISSING and b is MISSING or (a is not MISSING and b is not MISSING
                                                and _one_line(a) == _one_line(b)):
                continue
            word = {"reconstructed": "reconstruction note"}.get(key, key)
            if a is MISSING:
                self.add(f"{path}.{key}", "added", a, b, f"{what} gains a {word}: “{_one_line(b)}”")
            elif b is MISSING:
                self.add(f"{path}.{key}", "removed", a, b, f"{what} loses its {word} (“{_one_line(a)}”)")
            else:
                self.add(f"{path}.{key}", "changed", a, b,
                         f"{what} {word} “{_one_line(a)}” → “{_one_line(b)}”")

    def value(self, path, what, old, new, dsl=False, fmt=show):
        """One field: added, removed or changed; DSL compared without layout."""
        if old is MISSING and new is MISSING:
            return
        if dsl and old is not MISSING and new is not MISSING:
            if same_dsl(old, new):
                return
        elif old is not MISSING and new is not MISSING and _same(old, new):
            return
        fmt = show_dsl if dsl else fmt
        if old is MISSING:
            self.add(path, "added", old, new, f"{what} added: {fmt(new)}")
        elif new is MISSING:
            self.add(path, "removed", old, new, f"{what} removed (was {fmt(old)})")
        else:
            self.add(path, "changed", old, new, f"{what} {fmt(old)} → {fmt(new)}")

    def fields(self, path, what, old, new, handled=(), dsl_keys=(), defaults=None):
        """Every key of two objects not handled by the caller, compared one by one."""
        defaults = defaults or {}
        keys = list(dict.fromkeys(list(old) + list(new)))
        for key in keys:
            if key in handled or key == "id" or key in NOTE_KEYS:
                continue
            a = old.get(key, defaults.get(key, MISSING))
            b = new.get(key, defaults.get(key, MISSING))
            if key == "attrs" and (isinstance(a, dict) or isinstance(b, dict)):
                self.mapping(f"{path}.attrs", f"{what} attribute", a if isinstance(a, dict) else {},
                             b if isinstance(b, dict) else {})
                continue
            self.value(f"{path}.{key}", f"{what} {key.replace('_', ' ')}", a, b, dsl=key in dsl_keys)
        self.note_keys(path, what, old, new)

    def mapping(self, path, what, old, new, dsl=False):
        for key in dict.fromkeys(list(old) + list(new)):
            self.value(f"{path}.{key}", f"{what} `{key}`", old.get(key, MISSING), new.get(key, MISSING), dsl=dsl)

    def by_id(self, path, word, old, new, compare, describe_new=None, id_of=None):
        """Lists of objects matched by id: added, removed, or compared with ``compare``."""
        id_of = id_of or (lambda item, i: item.get("id") if isinstance(item, dict) else None)
        a = {str(id_of(x, i)): x for i, x in enumerate(old or [])}
        b = {str(id_of(x, i)): x for i, x in enumerate(new or [])}
        for key in a:
            if key not in b:
                self.add(f"{path}.{key}", "removed", a[key], None, f"{word} `{key}` removed")
        for key in b:
            if key not in a:
                extra = describe_new(b[key]) if describe_new else ""
                self.add(f"{path}.{key}", "added", None, b[key], f"{word} `{key}` added{extra}")
            else:
                compare(f"{path}.{key}", f"{word} `{key}`", a[key], b[key])

    # -- sections ------------------------------------------------------------------------------

    def run(self, a: dict, b: dict) -> list[Change]:
        self.consts_a = self._dict(a.get("constants"))
        self.consts_b = self._dict(b.get("constants"))
        if self.notes:   # the game's id and title are no rules
            for key in ("id", "name"):
                self.value(key, key, a.get(key, MISSING), b.get(key, MISSING))
        self.note_keys("ruleset", "the ruleset", a, b)
        sections = {
            "players": self.players, "limits": self.limits, "constants": self.constants,
            "variables": self.variables, "player": self.player, "props": self.props, "zones": self.zones,
            "board": self.board, "things": self.things, "functions": self.functions, "actions": self.actions,
            "setup": self.setup, "flow": self.flow, "triggers": self.triggers, "end": self.end,
            "scoring": self.scoring,
        }
        for key, method in sections.items():
            method(a.get(key, MISSING), b.get(key, MISSING))
        skip = set(sections) | {"id", "name", "include", *NOTE_KEYS}
        for key in dict.fromkeys(list(a) + list(b)):
            if key not in skip:
                self.value(key, key.replace("_", " "), a.get(key, MISSING), b.get(key, MISSING))
        return self.changes

    @staticmethod
    def _dict(value) -> dict:
        return value if isinstance(value, dict) else {}

    @staticmethod
    def _list(value) -> list:
        return value if isinstance(value, list) else []


def diff(a, b, include_notes: bool = False) -> list[Change]:
    """The rule differences from ruleset ``a`` to ruleset ``b`` (compiled :class:`Ruleset` objects)."""
    return Differ(include_notes).run(plain(a.data) or {}, plain(b.data) or {})


def ruleset_label(rs) -> str:
    text = rs.id or rs.name
    return f"{text} + variant {rs.variant}" if rs.variant else text


def format_diff(changes, a, b) -> str:
    """A header ``A → B`` and one bullet per change (or ``no rule differences``)."""
    lines = [f"{ruleset_label(a)} → {ruleset_label(b)}", ""]
    if not changes:
        lines.append("no rule differences")
    else:
        lines.extend(f"- {c.text}" for c in changes)
    return "\n".join(lines)
