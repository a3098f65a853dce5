"""What differs section by section (a part of :class:`Differ`): players, constants, zones, board, things, ..."""
from __future__ import annotations

from .changes import (
    MISSING,
    DiffParts,
    _condition_text,
    _one_line,
    _same,
    constant_value,
    same_dsl,
    show_dsl,
    show_list,
)


class SectionDiffs(DiffParts):
    """Mixin: one method per top-level section of a ruleset."""

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
            out: dict = {}
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
