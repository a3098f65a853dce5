"""What differs between two rulesets, stated in rule terms.

``davit diff A B`` (or ``davit diff A --variant V``) prints what
:func:`format_diff` makes of :func:`diff`. The merged YAML of both rulesets
is compared section by section, knowing each section's shape: lists of items
with ids are matched by id, mappings by key, rule snippets after normalising
their layout (so re-indenting or a changed comment is no difference), and the
flow step by step. Notes (``description``, ``source``, ``reconstructed``) are
left out unless asked for. Nothing here knows any particular game.

Example (``my-game`` stands for any ruleset id or folder)::

    from interpreter.loading import load_ruleset
    diff(load_ruleset("my-game"), load_ruleset("my-game"))   # -> []
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .explain import value_text

from .yaml_loader import plain

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

class Differ:
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

    def players(self, old, new):
        old, new = self._dict(old), self._dict(new)
        lo_a, lo_b = old.get("min", 1), new.get("min", 1)
        self.value("players.min", "players: min", lo_a, lo_b)
        self.value("players.max", "players: max", old.get("max", lo_a), new.get("max", lo_b))
        self.value("players.names", "players: seat names", old.get("names", []), new.get("names", []),
                   fmt=show_list)
        self.fields("players", "players", old, new, handled=("min", "max", "names"))

    def limits(self, old, new):
        self.fields("limits", "limits:", self._dict(old), self._dict(new))

    def constants(self, old, new):
        old, new = self._dict(old), self._dict(new)
        for name in dict.fromkeys(list(old) + list(new)):
            a = constant_value(old[name]) if name in old else MISSING
            b = constant_value(new[name]) if name in new else MISSING
            what = f"constant `{name}`"
            if a is MISSING or b is MISSING:
                self.value(f"constants.{name}", what, a, b)
            elif isinstance(a, dict) and "by_players" in a and isinstance(b, dict) and "by_players" in b:
                ta = {str(k): v for k, v in self._dict(a["by_players"]).items()}
                tb = {str(k): v for k, v in self._dict(b["by_players"]).items()}
                for n in dict.fromkeys(list(ta) + list(tb)):
                    self.value(f"constants.{name}.by_players.{n}", f"{what} for {n} players",
                               ta.get(n, MISSING), tb.get(n, MISSING))
                self.value(f"constants.{name}.otherwise", f"{what} otherwise", a.get("otherwise", MISSING),
                           b.get("otherwise", MISSING))
            else:
                self.value(f"constants.{name}", what, a, b)
            if name in old and name in new:
                self.note_keys(f"constants.{name}", what, old[name], new[name])

    def variables(self, old, new):
        old, new = self._dict(old), self._dict(new)
        for name in dict.fromkeys(list(old) + list(new)):
            def start(spec):
                return spec.get("initial") if isinstance(spec, dict) else spec
            a = start(old[name]) if name in old else MISSING
            b = start(new[name]) if name in new else MISSING
            what = f"variable `{name}`"
            if a is MISSING or b is MISSING:
                self.value(f"variables.{name}", what, a, b)
            else:
                self.value(f"variables.{name}.initial", f"{what} starts at", a, b)
                self.note_keys(f"variables.{name}", what, old[name], new[name])

    def player(self, old, new):
        old, new = self._dict(old), self._dict(new)
        self.value("player.score", "the score counter", old.get("score", "score"), new.get("score", "score"))
        va, vb = self._dict(old.get("vars")), self._dict(new.get("vars"))
        defaults = {"initial": 0, "visibility": "everyone"}
        for name in dict.fromkeys(list(va) + list(vb)):
            what = f"player counter `{name}`"
            if name not in va or name not in vb:
                self.value(f"player.vars.{name}", what, va.get(name, MISSING), vb.get(name, MISSING))
                continue
            a = va[name] if isinstance(va[name], dict) else {"initial": va[name]}
            b = vb[name] if isinstance(vb[name], dict) else {"initial": vb[name]}
            self.fields(f"player.vars.{name}", what, a, b, defaults=defaults)
        self.fields("player", "player", old, new, handled=("score", "vars"))

    def props(self, old, new):
        old, new = self._dict(old), self._dict(new)
        for part in ("things", "zones"):
            self.mapping(f"props.{part}", f"{part[:-1]} property", self._dict(old.get(part)),
                         self._dict(new.get(part)))
        self.fields("props", "props", old, new, handled=("things", "zones"))

    ZONE_DEFAULTS = {"per_player": False, "visibility": "everyone"}

    def _zone(self, path, what, a, b):
        self.fields(path, what, a, b, dsl_keys=("admit",), defaults=self.ZONE_DEFAULTS)

    def zones(self, old, new):
        self.by_id("zones", "zone", self._list(old), self._list(new), self._zone,
                   lambda z: f" (capacity {z['capacity']})" if "capacity" in z else "")

    def board(self, old, new):
        old, new = self._dict(old), self._dict(new)
        self.by_id("board.spaces", "space", self._list(old.get("spaces")), self._list(new.get("spaces")),
                   self._space)
        self.edges(self._list(old.get("edges")), self._list(new.get("edges")))
        self.fields("board", "board", old, new, handled=("spaces", "edges"))

    def _space(self, path, what, a, b):
        self.fields(path, what, a, b, handled=("pos",), dsl_keys=("admit",), defaults=self.ZONE_DEFAULTS)
        if self.notes:   # where a space is drawn is no rule
            self.value(f"{path}.pos", f"{what} drawn at", a.get("pos", MISSING), b.get("pos", MISSING))

    @staticmethod
    def edge_text(e) -> str:
        arrow = "→" if e.get("one_way") else "–"
        kind = str(e.get("kind", "path"))
        return f"edge {e.get('from')} {arrow} {e.get('to')} ({kind}{', one-way' if e.get('one_way') else ''})"

    def edges(self, old, new):
        """Edges have no ids: matched by the pair of spaces they join (either way round)."""
        def key(e):
            return frozenset((str(e.get("from")), str(e.get("to"))))

        def group(edges):
            out = {}
            for e in edges:
                if isinstance(e, dict):
                    out.setdefault(key(e), []).append(e)
            return out
        ga, gb = group(old), group(new)
        for k in dict.fromkeys(list(ga) + list(gb)):
            ea, eb = ga.get(k, []), gb.get(k, [])
            if len(ea) == 1 and len(eb) == 1:
                self._edge(ea[0], eb[0])
                continue
            rest_b = list(eb)
            for e in ea:
                match = next((f for f in rest_b if self._edge_same(e, f)), None)
                if match is not None:
                    rest_b.remove(match)
                    if self.notes:
                        self.note_keys(f"board.edges.{e.get('from')}-{e.get('to')}", self.edge_text(e), e, match)
                else:
                    self.add(f"board.edges.{e.get('from')}-{e.get('to')}", "removed", e, None,
                             f"{self.edge_text(e)} removed")
            for e in rest_b:
                self.add(f"board.edges.{e.get('from')}-{e.get('to')}", "added", None, e, f"{self.edge_text(e)} added")

    @staticmethod
    def _edge_shape(e):
        one_way = bool(e.get("one_way"))
        ends = (str(e.get("from")), str(e.get("to"))) if one_way else tuple(sorted((str(e.get("from")),
                                                                                   str(e.get("to")))))
        return ends, one_way, str(e.get("kind", "path"))

    def _edge_same(self, a, b) -> bool:
        return self._edge_shape(a) == self._edge_shape(b)

    def _edge(self, a, b):
        path = f"board.edges.{a.get('from')}-{a.get('to')}"
        (ends_a, ow_a, kind_a), (ends_b, ow_b, kind_b) = self._edge_shape(a), self._edge_shape(b)
        what = f"edge {a.get('from')} {'→' if ow_a else '–'} {a.get('to')}"
        if kind_a != kind_b:
            self.add(f"{path}.kind", "changed", kind_a, kind_b, f"{what} kind {kind_a} → {kind_b}")
        if ow_a != ow_b:
            text = f"{what} becomes one-way ({b.get('from')} → {b.get('to')})" if ow_b else \
                f"{what} becomes two-way"
            self.add(f"{path}.one_way", "changed", ow_a, ow_b, text)
        elif ow_a and ends_a != ends_b:
            self.add(f"{path}.direction", "changed", ends_a, ends_b,
                     f"{what} now runs the other way ({b.get('from')} → {b.get('to')})")
        self.fields(path, what, a, b, handled=("from", "to", "kind", "one_way"))

    THING_DEFAULTS = {"count": 1, "per_player": False}

    def _thing(self, path, what, a, b):
        ea, eb = self._dict(a.get("each")), self._dict(b.get("each"))
        for attr in dict.fromkeys(list(ea) + list(eb)):
            self.value(f"{path}.each.{attr}", f"{what} values of `{attr}`", ea.get(attr, MISSING),
                       eb.get(attr, MISSING), fmt=show_list)
        self.fields(path, what, a, b, handled=("each",), defaults=self.THING_DEFAULTS)

    def things(self, old, new):
        def copies(t):
            n = int(t.get("count", 1))
            for values in self._dict(t.get("each")).values():
                n *= len(values) if isinstance(values, list) else 1
            return f" ({n}{' per player' if t.get('per_player') else ''} {t.get('kind', t.get('id'))})"
        self.by_id("things", "thing", self._list(old), self._list(new), self._thing, copies)

    def functions(self, old, new):
        old, new = self._dict(old), self._dict(new)
        for name in dict.fromkeys(list(old) + list(new)):
            what = f"function `{name}`"
            path = f"functions.{name}"
            if name not in old:
                self.add(path, "added", None, new[name], f"{what} added")
                continue
            if name not in new:
                self.add(path, "removed", old[name], None, f"{what} removed")
                continue
            a, b = self._dict(old[name]), self._dict(new[name])
            pa, pb = a.get("params") or [], b.get("params") or []
            if pa != pb:
                self.add(f"{path}.params", "changed", pa, pb,
                         f"{what} parameters ({', '.join(map(str, pa))}) → ({', '.join(map(str, pb))})")
            body_a = ("do", a["do"]) if "do" in a else ("value", a.get("value"))
            body_b = ("do", b["do"]) if "do" in b else ("value", b.get("value"))
            if body_a[0] != body_b[0] or not same_dsl(body_a[1], body_b[1]):
                if body_a[0] == body_b[0] == "value" and "\n" not in f"{body_a[1]}{body_b[1]}".strip():
                    text = f"{what} changed (value {show_dsl(body_a[1])} → {show_dsl(body_b[1])})"
                else:
                    text = f"{what} changed (body)"
                self.add(f"{path}.{body_b[0]}", "changed", body_a[1], body_b[1], text)
            self.fields(path, what, a, b, handled=("params", "do", "value"))

    def actions(self, old, new):
        self.by_id("actions", "action", self._list(old), self._list(new), self._action)

    def _action(self, path, what, a, b):
        self.value(f"{path}.label", f"{what} label", a.get("label", MISSING), b.get("label", MISSING),
                   fmt=lambda v: f"“{v}”")
        ca, cb = self._dict(a.get("choose")), self._dict(b.get("choose"))
        for name in dict.fromkeys(list(ca) + list(cb)):
            p = f"{path}.choose.{name}"
            if name not in cb:
                self.add(p, "removed", ca[name], None, f"{what} no longer chooses `{name}`")
            elif name not in ca:
                self.add(p, "added", None, cb[name], f"{what} also chooses `{name}` from {show_dsl(cb[name])}")
            elif not same_dsl(ca[name], cb[name]):
                self.add(p, "changed", ca[name], cb[name],
                         f"{what} chooses `{name}` from {show_dsl(ca[name])} → {show_dsl(cb[name])}")
        if list(ca) != list(cb) and set(ca) == set(cb):
            self.add(f"{path}.choose", "changed", list(ca), list(cb),
                     f"{what} choice order {', '.join(ca)} → {', '.join(cb)}")
        ia, ib = _condition_text(a.get("if", MISSING)), _condition_text(b.get("if", MISSING))
        if ia is MISSING and ib is not MISSING:
            reason = f" (“{_one_line(b['reason'])}”)" if b.get("reason") else ""
            self.add(f"{path}.if", "added", None, ib, f"{what} gains a condition: {show_dsl(ib)}{reason}")
        elif ib is MISSING and ia is not MISSING:
            self.add(f"{path}.if", "removed", ia, None, f"{what} loses its condition {show_dsl(ia)}")
        elif ia is not MISSING and not same_dsl(ia, ib):
            self.add(f"{path}.if", "changed", ia, ib, f"{what} condition {show_dsl(ia)} → {show_dsl(ib)}")
        if (ia is MISSING) == (ib is MISSING):   # a new or dropped condition already says its reason
            self.value(f"{path}.reason", f"{what} refusal reason", a.get("reason", MISSING),
                       b.get("reason", MISSING), fmt=lambda v: f"“{_one_line(v)}”")
        ka, kb = self._dict(a.get("cost")), self._dict(b.get("cost"))
        if not (ka.keys() == kb.keys() and all(same_dsl(ka[k], kb[k]) if isinstance(ka[k], str)
                                               else _same(ka[k], kb[k]) for k in ka)):
            def cost(c):
                return ", ".join(f"{v} {k}" for k, v in c.items()) or "nothing"
            self.add(f"{path}.cost", "changed", ka or None, kb or None, f"{what} cost {cost(ka)} → {cost(kb)}")
        da, db = a.get("do", MISSING), b.get("do", MISSING)
        if da is MISSING or db is MISSING or not same_dsl(da, db):
            if not (da is MISSING and db is MISSING):
                word = "gains an effect" if da is MISSING else "loses its effect" if db is MISSING \
                    else "effect changed"
                self.add(f"{path}.do", "changed", da, db, f"{what} {word}")
        self.fields(path, what, a, b, handled=("label", "choose", "if", "reason", "cost", "do"))

    def setup(self, old, new):
        if old is MISSING and new is MISSING:
            return
        if old is MISSING:
            self.add("setup", "added", None, new, "setup added")
        elif new is MISSING:
            self.add("setup", "removed", old, None, "setup removed")
        elif not same_dsl(old, new):
            self.add("setup", "changed", old, new, "setup changed")

    def triggers(self, old, new):
        self.by_id("triggers", "trigger", self._list(old), self._list(new), self._trigger,
                   id_of=lambda t, i: t.get("id", f"trigger{i + 1}") if isinstance(t, dict) else i)

    def _trigger(self, path, what, a, b):
        self.value(f"{path}.when", f"{what} condition", a.get("when", MISSING), b.get("when", MISSING), dsl=True)
        self.value(f"{path}.for", f"{what} checked for each", a.get("for", MISSING), b.get("for", MISSING),
                   dsl=True)
        da, db = a.get("do", MISSING), b.get("do", MISSING)
        if not (da is MISSING and db is MISSING) and (da is MISSING or db is MISSING or not same_dsl(da, db)):
            self.add(f"{path}.do", "changed", da, db, f"{what} effect changed")
        self.fields(path, what, a, b, handled=("when", "for", "do"))

    def end(self, old, new):
        old, new = self._dict(old), self._dict(new)
        a, b = old.get("when", MISSING), new.get("when", MISSING)
        if a is MISSING and b is not MISSING:
            self.add("end.when", "added", a, b, f"end condition added: the game ends when {show_dsl(b)}")
        elif b is MISSING and a is not MISSING:
            self.add("end.when", "removed", a, b,
                     f"end condition removed (was {show_dsl(a)}): the game ends only when the flow is done")
        else:
            self.value("end.when", "end: the game ends when", a, b, dsl=True)
        self.fields("end", "end", old, new, handled=("when",))

    def scoring(self, old, new):
        old, new = self._dict(old), self._dict(new)
        fa, fb = old.get("final", MISSING), new.get("final", MISSING)
        if not (fa is MISSING and fb is MISSING) and (fa is MISSING or fb is MISSING or not same_dsl(fa, fb)):
            word = "added" if fa is MISSING else "removed" if fb is MISSING else "changed"
            self.add("scoring.final", word, fa, fb, f"final scoring {word}")

        def ranks(s):
            r = s.get("rank", ["p.score"])
            return [r] if isinstance(r, str) else list(r)
        ra, rb = ranks(old), ranks(new)
        if len(ra) != len(rb) or not all(same_dsl(x, y) for x, y in zip(ra, rb)):
            self.add("scoring.rank", "changed", ra, rb, "scoring: players ranked by "
                     f"{', then '.join(map(show_dsl, ra))} → {', then '.join(map(show_dsl, rb))}")
        wa, wb = old.get("winners", True), new.get("winners", True)
        if bool(wa) != bool(wb):
            self.add("scoring.winners", "changed", wa, wb,
                     "scoring: " + ("the best-ranked players win → nobody is named winner" if wa
                                    else "nobody is named winner → the best-ranked players win"))
        self.fields("scoring", "scoring", old, new, handled=("final", "rank", "winners"))

    # -- flow ----------------------------------------------------------------------------------

    FLOW_KINDS = ("phase", "repeat", "while", "until", "each_player", "for", "if", "turn", "simultaneous")

    @classmethod
    def flow_key(cls, node):
        if not isinstance(node, dict):
            return ("?", str(node))
        for kind in cls.FLOW_KINDS:
            if kind in node:
                spec = node[kind] if isinstance(node[kind], dict) else {}
                ident = {"phase": node.get("phase"), "repeat": node.get("as"), "each_player": node.get("each_player"),
                         "for": node.get("for"), "turn": spec.get("name"),
                         "simultaneous": spec.get("name")}.get(kind)
                return (kind, None if ident is None else str(ident))
        return ("step", node.get("step"))

    @classmethod
    def flow_label(cls, node) -> str:
        kind, ident = cls.flow_key(node)
        if kind == "step":
            return f"step `{ident}`" if ident else f"unnamed step {show_dsl(node.get('do', ''))}"
        if kind == "repeat":
            return f"repeat ({ident})" if ident else f"repeat {show(node.get('repeat'))} times"
        if kind == "each_player":
            return f"each-player loop (`{ident}`)"
        if kind == "for":
            return f"for `{ident}` in {show_dsl(node.get('in', ''))}"
        if kind in ("while", "until", "if"):
            return f"{kind} {show_dsl(node.get(kind))}"
        if kind in ("turn", "simultaneous"):
            word = "turn" if kind == "turn" else "simultaneous choice"
            return f"{word} “{ident}”" if ident else word
        return f"{kind} `{ident}`" if ident else kind

    def flow(self, old, new, path="flow", ctx=()):
        old, new = self._list(old), self._list(new)
        ka = [self.flow_key(n) for n in old]
        kb = [self.flow_key(n) for n in new]
        where = f" (in {' › '.join(ctx)})" if ctx else ""
        matcher = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                pairs = list(zip(range(i1, i2), range(j1, j2)))
            elif op == "replace" and i2 - i1 == j2 - j1 and \
                    all(ka[i][0] == kb[j][0] for i, j in zip(range(i1, i2), range(j1, j2))):
                pairs = list(zip(range(i1, i2), range(j1, j2)))
            else:
                pairs = []
                for i in range(i1, i2):
                    self.add(f"{path}[{i}]", "removed", old[i], None,
                             f"flow: {self.flow_label(old[i])} removed{where}")
                for j in range(j1, j2):
                    self.add(f"{path}[{j}]", "added", None, new[j],
                             f"flow: {self.flow_label(new[j])} added{where}")
            for i, j in pairs:
                self.flow_node(f"{path}[{j}]", old[i], new[j], ctx)

    @staticmethod
    def count_text(count, consts) -> str:
        """A repeat count; a constant's name is shown with its value."""
        name = str(count).strip()
        if not isinstance(count, int) and name in consts:
            value = constant_value(consts[name])
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return f"{value} (`{name}`)"
        return show(count) if isinstance(count, int) else show_dsl(count)

    def flow_node(self, path, a, b, ctx):
        if not isinstance(a, dict) or not isinstance(b, dict):
            if a != b:
                self.add(path, "changed", a, b, f"flow: step {show(a)} → {show(b)}")
            return
        label = self.flow_label(b)
        where = f" (in {' › '.join(ctx)})" if ctx else ""
        kind, _ = self.flow_key(b)
        head = f"flow: {label}"

        def change(key, text, old, new):
            self.add(f"{path}.{key}", "changed", old, new, f"{head}: {text}{where}")

        def dsl_field(key, word, old, new, default=MISSING):
            x, y = old.get(key, default), new.get(key, default)
            if x is MISSING and y is MISSING:
                return
            if x is MISSING or y is MISSING or not same_dsl(x, y):
                change(key, f"{word} {show_dsl(x)} → {show_dsl(y)}", x, y)

        inner = ctx + (label,)
        if kind == "step":
            if not same_dsl(a.get("do", ""), b.get("do", "")):
                self.add(f"{path}.do", "changed", a.get("do"), b.get("do"), f"{head} changed{where}")
        elif kind == "repeat":
            x, y = a.get("repeat"), b.get("repeat")
            if not same_dsl(x, y):
                counter = f" (as {b['as']})" if b.get("as") else ""
                self.add(f"{path}.repeat", "changed", x, y, f"flow: repeat {self.count_text(x, self.consts_a)} → "
                         f"{self.count_text(y, self.consts_b)} times{counter}{where}")
            self.flow(a.get("steps"), b.get("steps"), f"{path}.steps", inner)
        elif kind in ("while", "until"):
            dsl_field(kind, "condition", a, b)
            self.flow(a.get("steps"), b.get("steps"), f"{path}.steps", inner)
        elif kind == "each_player":
            dsl_field("from", "starts from", a, b, "player(0)")
            self.flow(a.get("steps"), b.get("steps"), f"{path}.steps", inner)
        elif kind == "for":
            dsl_field("in", "goes through", a, b)
            self.flow(a.get("steps"), b.get("steps"), f"{path}.steps", inner)
        elif kind == "phase":
            self.flow(a.get("steps"), b.get("steps"), f"{path}.steps", inner)
        elif kind == "if":
            dsl_field("if", "condition", a, b)
            self.flow(a.get("then"), b.get("then"), f"{path}.then", inner + ("then",))
            self.flow(a.get("else"), b.get("else"), f"{path}.else", inner + ("else",))
        elif kind in ("turn", "simultaneous"):
            sa, sb = self._dict(a.get(kind)), self._dict(b.get(kind))
            who = "player" if kind == "turn" else "players"
            dsl_field(who, "for" if kind == "turn" else "players", sa, sb, who)
            x, y = sa.get("actions") or [], sb.get("actions") or []
            if x != y:
                change("actions", f"actions {show_list(x)} → {show_list(y)}", x, y)
            if kind == "turn":
                pa, pb = bool(sa.get("pass", True)), bool(sb.get("pass", True))
                if pa != pb:
                    change("pass", "may pass → may not pass" if pa else "may not pass → may pass", pa, pb)
                dsl_field("until", "ends when", sa, sb)
            for key in dict.fromkeys(list(sa) + list(sb)):
                if key not in (who, "actions", "pass", "until", "name", *NOTE_KEYS):
                    self.value(f"{path}.{key}", f"{head} {key}", sa.get(key, MISSING), sb.get(key, MISSING))
            self.note_keys(path, head, sa, sb)
        self.note_keys(path, head, a, b)


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
