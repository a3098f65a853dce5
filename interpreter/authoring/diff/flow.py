"""What differs in the flow, step by step (a part of :class:`Differ`)."""
from __future__ import annotations

import difflib

from .changes import (
    MISSING,
    NOTE_KEYS,
    DiffParts,
    constant_value,
    same_dsl,
    show,
    show_dsl,
    show_list,
)


class FlowDiffs(DiffParts):
    """Mixin: the flow tree compared node by node."""

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
                # a turn of max_actions may not pass unless it says so
                pa, pb = (bool(s.get("pass", s.get("max_actions") is None)) for s in (sa, sb))
                if pa != pb:
                    change("pass", "may pass → may not pass" if pa else "may not pass → may pass", pa, pb)
                dsl_field("until", "ends when", sa, sb)
            for key in dict.fromkeys(list(sa) + list(sb)):
                if key not in (who, "actions", "pass", "until", "name", *NOTE_KEYS):
                    self.value(f"{path}.{key}", f"{head} {key}", sa.get(key, MISSING), sb.get(key, MISSING))
            self.note_keys(path, head, sa, sb)
        self.note_keys(path, head, a, b)
