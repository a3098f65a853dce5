"""A ruleset explained for people: a short rulebook in Markdown.

``davit explain RULESET`` prints what :func:`explain` returns. Everything is
read from the compiled :class:`Ruleset` and its merged YAML tree (``rs.data``),
so every rule snippet is shown exactly as its designer wrote it, with the
``file:line`` it comes from. Nothing here knows any particular game.

Example (``my-game`` stands for any ruleset id or folder)::

    from interpreter.loading import load_ruleset
    print(explain(load_ruleset("my-game")))
"""
from __future__ import annotations

import re
from math import prod

from .yaml_loader import LocMap, plain

INDENT = "   "          # nested Markdown list items and their code blocks


# -- small text helpers ------------------------------------------------------------------

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


# -- the explainer ------------------------------------------------------------------------

class Explainer:
    def __init__(self, rs):
        self.rs = rs
        self.d = rs.data if isinstance(rs.data, dict) else {}
        self.out: list[str] = []
        self.offered: dict = {}          # action id -> where the flow offers it

    def emit(self, *lines):
        self.out.extend(lines)

    def heading(self, level, text):
        if self.out and self.out[-1] != "":
            self.out.append("")
        self.out.extend(["#" * level + " " + text, ""])

    def notes(self, node, indent=""):
        """The description and source of a YAML object, when it has them."""
        if not isinstance(node, dict):
            return
        if node.get("description"):
            self.emit(indent + " ".join(str(node["description"]).split()), "")
        if node.get("source"):
            self.emit(indent + f"*Source:* {' '.join(str(node['source']).split())}", "")

    # -- sections --------------------------------------------------------------

    def run(self) -> str:
        self.title()
        self.players()
        self.components()
        self.zones_and_board()
        self.setup()
        self.flow()
        self.actions()
        self.functions()
        self.triggers()
        self.ending()
        self.constants()
        self.reconstructed()
        text = "\n".join(self.out)
        return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"

    def title(self):
        rs, d = self.rs, self.d
        title = rs.name or rs.id
        if rs.variant:
            title += f" — variant {rs.variant}"
        self.emit(f"# {title}", "")
        if rs.description:
            self.emit(" ".join(rs.description.split()), "")
        if d.get("source"):
            self.emit(f"*Source:* {' '.join(str(d['source']).split())}", "")
        if rs.variant:
            self.variant_note()
        facts = [f"Ruleset `{rs.id}`"]
        others = [v for v in rs.variants if v != rs.variant]
        if others:
            facts.append("variants: " + ", ".join(f"`{v}`" for v in others))
        self.emit("; ".join(facts) + ".", "")

    def variant_note(self):
        """The variant file's own description (a variant's notes are not merged into the base)."""
        rs = self.rs
        path = rs.variants.get(rs.variant) if rs.variants else None
        if path is None and rs.files:
            path = rs.files[-1]
        text = f"This is the variant **{rs.variant}** of the rules"
        try:
            from .files import display_path
            from .yaml_loader import load_yaml_file
            vdata = load_yaml_file(path, display_path(path)) if path else None
        except Exception:  # the ruleset loaded, so this is only a missing nicety
            vdata = None
        if isinstance(vdata, dict):
            text += f" ({display_path(path)})"
            self.emit(text + ".", "")
            for key, label in (("description", ""), ("source", "*Source:* "),
                               ("reconstructed", "*Reconstructed:* ")):
                if vdata.get(key):
                    self.emit("> " + label + " ".join(str(vdata[key]).split()), ">")
            if self.out[-1] == ">":
                self.out[-1] = ""
        else:
            self.emit(text + ".", "")

    def players(self):
        rs, d = self.rs, self.d
        self.heading(2, "Players")
        lo, hi = rs.min_players, rs.max_players
        count = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
        self.emit(f"For {count}.")
        if rs.player_names:
            self.emit(f"Seats in order: {', '.join(rs.player_names)}.")
        self.emit("")
        if rs.player_vars:
            self.emit("Every player has:", "")
            for name, spec in rs.player_vars.items():
                bits = [f"starts at {value_text(spec.initial)}"]
                if spec.min is not None and spec.max is not None:
                    bits.append(f"between {value_text(spec.min)} and {value_text(spec.max)}")
                elif spec.min is not None:
                    bits.append(f"at least {value_text(spec.min)}")
                elif spec.max is not None:
                    bits.append(f"at most {value_text(spec.max)}")
                if spec.visibility != "everyone":
                    bits.append("seen only by its owner" if spec.visibility == "owner" else "seen by nobody")
                line = f"- `{name}`" + (" (the score)" if name == rs.score_counter else "") + ": " + ", ".join(bits)
                if spec.description:
                    line += ". " + " ".join(spec.description.split())
                self.emit(line)
            self.emit("")
        variables = d.get("variables") or {}
        if variables:
            self.emit("Shared values that change during play:", "")
            for name, spec in variables.items():
                start = spec.get("initial") if isinstance(spec, dict) else spec
                line = f"- `{name}`: starts at {value_text(plain(start))}"
                if isinstance(spec, dict) and spec.get("description"):
                    line += ". " + " ".join(str(spec["description"]).split())
                self.emit(line)
            self.emit("")

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
                each = [f"{attr} {value_text(plain(values))}" for attr, values in (thing.get("each") or {}).items()]
                if len(each) == 1:
                    bits.append(f"one for each {each[0]}")
                elif each:
                    bits.append("one for each combination of " + " × ".join(each))
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

    # -- setup and flow ------------------------------------------------------------------

    def setup(self):
        d = self.d
        self.heading(2, "Setup")
        starts = sum(1 for t in d.get("things") or [] if t.get("start") is not None)
        if starts:
            self.emit("Every component starts where listed under Components.", "")
        if d.get("setup"):
            self.emit(f"Then, before play begins ({where(d, 'setup')}):", "")
            self.emit(*block(d["setup"]))
        elif not starts:
            self.emit("Nothing to prepare.")

    def flow(self):
        nodes = self.d.get("flow") or []
        self.heading(2, "Course of play")
        self.emit(*self.flow_list(nodes, 0))
        self.emit("")
        after = []
        if self.d.get("triggers"):
            after.append("the triggers below are checked")
        if (self.d.get("end") or {}).get("when"):
            after.append("the game ends at once if its end condition holds")
        if after:
            self.emit("After every step " + " and ".join(after) + ".")
        self.emit("When the course of play is done, the game ends.")

    def flow_list(self, nodes, depth) -> list[str]:
        lines = []
        pad = INDENT * depth
        for n, node in enumerate(nodes or [], 1):
            if not isinstance(node, dict):
                lines.append(f"{pad}{n}. {code(node)}")
                continue
            head, body, children = self.flow_item(node, depth + 1)
            lines.append(f"{pad}{n}. {head}")
            lines.extend(body)
            for title, steps in children:
                if title:
                    lines.append(f"{pad}{INDENT}{title}")
                lines.extend(self.flow_list(steps, depth + 1))
        return lines

    def repeat_text(self, count) -> str:
        if isinstance(count, int):
            return str(count)
        name = str(count).strip()
        if name in self.rs.constants:
            value, text = constant_value(self.rs.constants[name])
            if value is None:
                return f"{code(name)} ({text})"
            return text
        return code(name)

    def flow_item(self, node, depth):
        """(headline, lines under it, [(title, child steps)]) for one flow node."""
        pad = INDENT * depth
        src = f" ({where(node)})" if hasattr(node, "loc") else ""   # goes before the headline's colon
        if "phase" in node:
            return f"Phase **{node['phase']}**{src}:", [], [(None, node.get("steps"))]
        if "repeat" in node:
            count = node["repeat"]
            times = self.repeat_text(count)
            var = node.get("as")
            if var:
                upto = str(count) if isinstance(count, int) else "…"
                value = constant_value(self.rs.constants.get(str(count).strip()))[0] \
                    if not isinstance(count, int) and str(count).strip() in self.rs.constants else None
                if isinstance(value, int):
                    upto = str(value)
                times += f" times ({var} = 1..{upto}"
            else:
                times += " times ("
            if not isinstance(count, int) and str(count).strip() in self.rs.constants:
                times += f"{', ' if var else ''}the constant {code(str(count).strip())}"
            times = (times + ")").replace(" ()", "")
            return f"Repeat {times}{src}:", [], [(None, node.get("steps"))]
        if "while" in node or "until" in node:
            key = "while" if "while" in node else "until"
            word = "As long as" if key == "while" else "Until"
            return f"{word} {code(node[key])}, repeat{src}:", [], [(None, node.get("steps"))]
        if "each_player" in node:
            var = node["each_player"]
            start = node.get("from")
            first = f"clockwise from {code(start)}" if start else "clockwise from the first seat"
            steps = node.get("steps") or []
            if len(steps) == 1 and isinstance(steps[0], dict) and "turn" in steps[0] \
                    and str((steps[0]["turn"] or {}).get("player", "player")).strip() == str(var):
                spec = steps[0]["turn"] or {}
                name = f" “{spec['name']}”" if spec.get("name") else ""
                return f"Each player ({code(var)}), {first}, takes a turn{name}{src}: {self.turn_text(spec)}.", \
                    [], []
            return f"Each player in turn, {first} (as {code(var)}){src}:", [], [(None, steps)]
        if "for" in node:
            return f"For each {code(node['for'])} in {code(node.get('in', ''))}{src}:", [], \
                [(None, node.get("steps"))]
        if "if" in node:
            children = [("Then:", node.get("then"))]
            if node.get("else"):
                children.append(("Otherwise:", node.get("else")))
            return f"If {code(node['if'])}{src}:", [], children
        if "turn" in node:
            spec = node["turn"] or {}
            who = code(spec.get("player", "player"))
            name = f" “{spec['name']}”" if spec.get("name") else ""
            return f"{who} takes a turn{name}{src}: {self.turn_text(spec)}.", [], []
        if "simultaneous" in node:
            spec = node["simultaneous"] or {}
            who = spec.get("players", "players")
            subject = "All players" if str(who).strip() == "players" else f"The players {code(who)}"
            name = f" “{spec['name']}”" if spec.get("name") else ""
            actions = self.action_names(spec.get("actions"), f"the simultaneous step{name}")
            return f"{subject} at once secretly choose{name}{src}: {actions}; the choices are revealed together.", \
                [], []
        if "do" in node:
            name = node.get("step")
            label = f"Step **{name}**" if name else "Do"
            text, extra = snippet(node["do"], pad)
            return f"{label}{src}: {text}".rstrip(), extra, []
        return code(plain(node)), [], []

    def turn_text(self, spec) -> str:
        context = f"the turn “{spec['name']}”" if spec.get("name") else "a turn"
        text = f"actions {self.action_names(spec.get('actions'), context)}, one after another"
        if spec.get("until"):
            text += f", until {code(spec['until'])}"
        if spec.get("pass", True):
            return text + "; may pass to end the turn"
        return text + "; may not pass (the turn ends when no action is legal)"

    def action_names(self, ids, context) -> str:
        ids = [str(a) for a in ids or []]
        for aid in ids:
            self.offered.setdefault(aid, []).append(context)
        return ", ".join(f"**{a}**" for a in ids) or "nothing"

    # -- actions, functions, triggers, end ------------------------------------------------

    def actions(self):
        actions = self.d.get("actions") or []
        if not actions:
            return
        self.heading(2, "Actions")
        for i, spec in enumerate(actions):
            aid = str(spec.get("id"))
            label = f" — “{spec['label']}”" if spec.get("label") else ""
            self.heading(3, f"{aid}{label}")
            self.notes(spec)
            choose = spec.get("choose") or {}
            for pname, domain in choose.items():
                self.emit(f"- Choose {code(pname)} from {code(domain)}.")
            cost = spec.get("cost") or {}
            if cost:
                self.emit("- Costs " + ", ".join(f"{value_text(plain(v)) if isinstance(v, (int, float)) else code(v)}"
                                               f" {k}" for k, v in cost.items()) + ".")
            for item in spec["if"] if isinstance(spec.get("if"), list) else []:
                text, extra = snippet(item["when"], INDENT)
                reason = f" — otherwise: “{' '.join(str(item['reason']).split())}”" if item.get("reason") else ""
                self.emit(f"- Allowed only if {text or ':'}{reason}", *extra)
            if spec.get("if") and not isinstance(spec.get("if"), list):
                text, extra = snippet(spec["if"], INDENT)
                line = f"- Allowed only if {text or ':'}"
                if spec.get("reason"):
                    line += f" — otherwise: “{' '.join(str(spec['reason']).split())}”"
                self.emit(line + ("." if text and not spec.get("reason") else ""), *extra)
            if spec.get("do"):
                text, extra = snippet(spec["do"], INDENT)
                self.emit(f"- Effect: {text}" if text else "- Effect:", *extra)
            else:
                self.emit("- Effect: none beyond its cost." if cost else "- Effect: none (choosing it is the move).")
            if aid in self.offered:
                self.emit("- Offered in " + "; ".join(dict.fromkeys(self.offered[aid])) + ".")
            else:
                self.emit("- Not offered by any step of the course of play.")
            self.emit(f"- Defined at {where(actions, i)}.", "")

    def functions(self):
        funcs = self.d.get("functions") or {}
        if not funcs:
            return
        self.heading(2, "Functions")
        self.emit("Named rules that the others use.", "")
        for name, spec in funcs.items():
            params = ", ".join(str(p) for p in spec.get("params") or [])
            head = f"- `{name}({params})`"
            if "value" in spec and "do" not in spec:
                text, extra = snippet(spec["value"], INDENT)
                self.emit(f"{head} = {text or ''}".rstrip() + f" ({key_where(funcs, name)})", *extra)
            else:
                self.emit(f"{head} ({key_where(funcs, name)}):", *block(spec.get("do", ""), INDENT))
            if spec.get("description"):
                self.emit(INDENT + " ".join(str(spec["description"]).split()))
        self.emit("")

    def triggers(self):
        triggers = self.d.get("triggers") or []
        if not triggers:
            return
        self.heading(2, "Triggers")
        self.emit("Checked in this order after every step; each fires whenever its condition holds.", "")
        for i, spec in enumerate(triggers):
            tid = spec.get("id", f"trigger{i + 1}")
            per = f" for each {code(spec['for'])}" if spec.get("for") else ""
            self.emit(f"- **{tid}**{per}: when {code(spec.get('when', 'true'))} ({where(triggers, i)})")
            if spec.get("description"):
                self.emit(INDENT + " ".join(str(spec["description"]).split()))
            if spec.get("do"):
                text, extra = snippet(spec["do"], INDENT)
                self.emit(f"{INDENT}Then: {text}".rstrip(), *extra)
        self.emit("")

    def ending(self):
        rs, d = self.rs, self.d
        self.heading(2, "End of the game and scoring")
        end = d.get("end") or {}
        if end.get("when"):
            self.emit(f"The game ends as soon as {code(end['when'])} holds (checked after every step, "
                      f"{where(end, 'when')}), or when the course of play is done.", "")
        else:
            self.emit("The game ends when the course of play is done.", "")
        self.notes(end)
        scoring = d.get("scoring") or {}
        self.notes(scoring)
        if scoring.get("final"):
            self.emit(f"Final scoring ({where(scoring, 'final')}):", "", *block(scoring["final"]), "")
        ranks = scoring.get("rank") or [f"p.{rs.score_counter}"]
        if isinstance(ranks, str):
            ranks = [ranks]
        text = f"Players are ranked by {code(ranks[0])}, highest first"
        for r in ranks[1:]:
            text += f"; ties are broken by {code(r)}"
        self.emit(text + ".")
        if scoring.get("winners", True):
            self.emit("The best-ranked player wins; players still tied share the win.")
        else:
            self.emit("Nobody is named winner (the ranking only orders the players).")

    # -- constants and provenance ------------------------------------------------------------

    def constants(self):
        consts = self.d.get("constants") or {}
        if not consts:
            return
        self.heading(2, "Constants")
        self.emit("| name | value | where it comes from |", "| --- | --- | --- |")
        for name, raw in consts.items():
            _, text = constant_value(plain(raw))
            note = ""
            if isinstance(raw, dict) and ("value" in raw or "by_players" in raw):
                note = " ".join(str(raw.get("description") or raw.get("source") or "").split())
                if raw.get("reconstructed"):
                    note = (note + " " if note else "") + "(reconstructed)"
            note = (note + " " if note else "") + f"({key_where(consts, name)})"
            self.emit(f"| `{name}` | {cell(text)} | {cell(note)} |")
        self.emit("")

    def reconstructed(self):
        self.heading(2, "Reconstructed rules")
        prov = list(self.rs.provenance or [])
        if not prov:
            self.emit("None: every rule here is taken from the source.")
            return
        self.emit("These are our reconstruction, not the printed rules:", "")
        names = describe_paths(self.d)
        for entry in prov:
            loc, reason = entry[0], entry[1]
            ident = entry[2] if len(entry) > 2 else None
            what = names.get(_loc_key(loc)) if loc else None
            if what is None:
                what = f"`{ident}`" if ident is not None else "the rules"
            at = f" ({loc.file}:{loc.line})" if loc else ""
            self.emit(f"- **{what}**{at}: {' '.join(str(reason).split())}")


def _loc_key(loc):
    return (loc.file, loc.line, loc.column)


def describe_paths(data) -> dict:
    """Location of each `reconstructed` value -> what it is about, in words."""
    out = {}
    todo = [(data, ())]
    while todo:
        node, path = todo.pop()
        if isinstance(node, dict):
            if "reconstructed" in node and isinstance(node, LocMap):
                out[_loc_key(node.loc_of("reconstructed"))] = describe(path, node)
            todo.extend((v, path + (k,)) for k, v in node.items())
        elif isinstance(node, list):
            todo.extend((v, path + (i,)) for i, v in enumerate(node))
    return out


SECTION_WORDS = {"zones": "zone", "things": "thing", "actions": "action", "triggers": "trigger",
                 "constants": "constant", "functions": "function", "variables": "variable", "spaces": "space"}


def describe(path, node) -> str:
    """A YAML path in words: ``("things", 3)`` -> ``thing `boat-I```."""
    if not path:
        return "the ruleset as a whole"
    names = [k for k in path if isinstance(k, str)]
    if isinstance(node, dict) and "id" in node:
        word = SECTION_WORDS.get(names[-1] if names else "", "")
        return f"{word} `{node['id']}`".strip() if word else f"`{node['id']}`"
    if isinstance(node, dict) and "from" in node and "to" in node:
        return f"edge {node['from']} → {node['to']}"
    if path[0] == "flow":
        name = (node.get("step") or node.get("phase") or node.get("name")) if isinstance(node, dict) else None
        return f"flow step `{name}`" if name else "a flow step"
    if path[:2] == ("player", "vars") and len(path) > 2:
        return f"player counter `{path[2]}`"
    if path[0] in ("constants", "functions", "variables") and len(path) > 1:
        return f"{SECTION_WORDS[path[0]]} `{path[1]}`"
    return " ".join(str(k).replace("_", " ") for k in names)


def explain(rs) -> str:
    """The rules of ``rs`` as Markdown that reads like a short rulebook."""
    return Explainer(rs).run()
