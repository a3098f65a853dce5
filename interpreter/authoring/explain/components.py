"""The components, zones and board of a ruleset, explained (a part of :class:`Explainer`)."""
from __future__ import annotations

from math import prod

from ...load.yaml_reader import plain
from .markdown import (
    INDENT,
    ExplainParts,
    attrs_text,
    plural,
    snippet,
    value_text,
    where,
)


class ComponentsText(ExplainParts):
    """Mixin: the sections about what is on the table."""

    # -- components --------------------------------------------------------------

    def copies(self, thing) -> tuple[int, bool]:
        """Copies a thing definition makes: (number, per player?)."""
        each = thing.get("each") or {}
        n = int(thing.get("count", 1)) * prod(len(v) for v in each.values() if isinstance(v, list))
        return n, bool(thing.get("per_player"))

    def amount(self, fixed: int, per_player: int) -> str:
        rs = self.rs
        parts = []
        if fixed:
            parts.append(str(fixed))
        if per_player:
            parts.append(f"{per_player} per player")
        text = " + ".join(parts) or "0"
        if per_player:
            lo, hi = fixed + per_player * rs.min_players, fixed + per_player * rs.max_players
            text += f" ({lo} in all)" if lo == hi else f" ({lo} to {hi} in all, by player count)"
        return text

    def place(self, zid) -> str:
        """Where things start, with its preposition."""
        if zid is None:
            return "in the box (out of play until a rule brings them in)"
        zdef = self.rs.zones.get(str(zid))
        if zdef is None:
            return f"in `{zid}`"
        if zdef.per_player:
            return f"in their owner's {zdef.name} (`{zid}`)"
        return f"{'on' if zdef.kind == 'space' else 'in'} the {zdef.name} (`{zid}`)"

    def components(self):
        things = self.d.get("things") or []
        if not things:
            return
        self.heading(2, "Components")
        kinds: dict = {}
        for i, thing in enumerate(things):
            kinds.setdefault(str(thing.get("kind", thing.get("id"))), []).append((i, thing))
        for kind, members in kinds.items():
            fixed = sum(self.copies(t)[0] for _, t in members if not self.copies(t)[1])
            each = sum(self.copies(t)[0] for _, t in members if self.copies(t)[1])
            self.heading(3, f"{kind.replace('_', ' ').capitalize()}: {self.amount(fixed, each)}")
            for i, thing in members:
                n, per_player = self.copies(thing)
                name = f" “{thing['name']}”" if thing.get("name") else ""
                bits = [f"- `{thing.get('id')}`{name}: {n}{' per player' if per_player else ''}"]
                each_of = [f"{attr} {value_text(plain(values))}" for attr, values in (thing.get("each") or {}).items()]
                if len(each_of) == 1:
                    bits.append(f"one for each {each_of[0]}")
                elif each_of:
                    bits.append("one for each combination of " + " × ".join(each_of))
                if thing.get("attrs"):
                    bits.append(attrs_text(plain(thing["attrs"])))
                if thing.get("public"):
                    bits.append("visible even face down: " + ", ".join(map(str, thing["public"])))
                bits.append(f"start {self.place(thing.get('start'))}")
                line = "; ".join(bits)
                line += f" ({where(things, i)})"
                self.emit(line)
                if thing.get("description"):
                    self.emit(INDENT + " ".join(str(thing["description"]).split()))
            self.emit("")
        props = self.d.get("props") or {}
        for what in ("things", "zones"):
            table = props.get(what) or {}
            if table:
                self.emit(f"Properties rules may change on every {what[:-1]} (with their default): "
                          + ", ".join(f"`{k}` ({value_text(plain(v))})" for k, v in table.items()) + ".", "")

    # -- zones and board -------------------------------------------------------------

    def zone_line(self, zid, spec, container: bool) -> list[str]:
        zdef = self.rs.zones.get(zid)
        name = zdef.name if zdef else zid
        bits = []
        if spec.get("per_player"):
            bits.append("one per player")
        vis = spec.get("visibility", "everyone")
        if vis == "owner":
            bits.append("only its owner sees what is in it")
        elif vis == "nobody":
            bits.append("nobody sees what is in it")
        if zdef is not None and zdef.face == "down":
            bits.append("things lie face down")
        if container:
            if spec.get("seats") is not None:
                bits.append("seats in order: " + ", ".join(value_text(s) for s in plain(spec["seats"])))
            if zdef is not None and zdef.capacity is not None:
                bits.append(f"capacity {zdef.capacity}")
        if spec.get("attrs"):
            bits.append(attrs_text(plain(spec["attrs"])))
        line = f"- **{name}** (`{zid}`)" + (": " + "; ".join(bits) if bits else "")
        line += f" ({where(spec)})"
        lines = [line]
        if spec.get("admit"):
            text, extra = snippet(spec["admit"], INDENT)
            admit = f"{INDENT}Admits a thing only if {text or 'this holds:'}"
            if spec.get("admit_reason"):
                admit += f"; otherwise: “{' '.join(str(spec['admit_reason']).split())}”"
            lines += [admit] + extra
        if spec.get("description"):
            lines.append(INDENT + " ".join(str(spec["description"]).split()))
        return lines

    @staticmethod
    def is_container(spec) -> bool:
        return any(spec.get(k) is not None for k in ("capacity", "seats", "admit"))

    def zones_and_board(self):
        zones = list(self.d.get("zones") or [])
        board = self.d.get("board") or {}
        spaces = list(board.get("spaces") or [])
        edges = list(board.get("edges") or [])
        if not zones and not spaces:
            return
        self.heading(2, "Zones and board")
        containers = [s for s in zones + spaces if self.is_container(s)]
        if containers:
            self.heading(3, "Containers")
            for spec in containers:
                self.emit(*self.zone_line(str(spec.get("id")), spec, True))
            self.emit("")
        others = [s for s in zones if not self.is_container(s)]
        if others:
            self.heading(3, "Zones")
            for spec in others:
                self.emit(*self.zone_line(str(spec.get("id")), spec, False))
            self.emit("")
        if spaces:
            self.board(board, spaces, edges)

    def board(self, board, spaces, edges):
        self.heading(3, "Board")
        one_way = [e for e in edges if e.get("one_way")]
        kinds: dict = {}
        for e in edges:
            kinds.setdefault(str(e.get("kind", "path")), []).append(e)
        kind_text = ", ".join(f"{len(es)} {k}" for k, es in kinds.items())
        line = f"{plural(len(spaces), 'space')} and {plural(len(edges), 'edge')}"
        if kind_text:
            line += f" ({kind_text})"
        if not edges:
            line += "."
        elif not one_way:
            line += "; every edge can be followed both ways."
        else:
            line += f"; {len(one_way)} of the edges {'is' if len(one_way) == 1 else 'are'} one-way."
        self.emit(line, "")
        self.notes(board)
        for spec in spaces:
            name = spec.get("name", str(spec.get("id")).replace("_", " "))
            bits = attrs_text(plain(spec.get("attrs") or {}))
            text = f"- **{name}** (`{spec.get('id')}`)" + (f": {bits}" if bits else "")
            if self.is_container(spec):
                text += "; a container (see above)"
            self.emit(text)
        self.emit("")
        if edges:
            self.emit("Edges (– both ways, → one way only):", "")
            for kind, es in kinds.items():
                links = [f"{e.get('from')} {'→' if e.get('one_way') else '–'} {e.get('to')}" for e in es]
                self.emit(f"- {kind}: " + ", ".join(links))
            self.emit("")
