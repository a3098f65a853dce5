"""Setup, flow, actions, functions, triggers and the end of a ruleset, explained (a part of :class:`Explainer`)."""
from __future__ import annotations

from ...load.yaml_reader import plain
from .markdown import (
    INDENT,
    ExplainParts,
    block,
    code,
    constant_value,
    key_where,
    snippet,
    value_text,
    where,
)


class RulesText(ExplainParts):
    """Mixin: the sections about how the game is played."""

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
        if "repeat" in node and node["repeat"] == "until_end":
            counted = f" ({node['as']} = 1, 2, …)" if node.get("as") else ""
            return f"Repeat until the game ends{counted}{src}:", [], [(None, node.get("steps"))]
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
        if spec.get("stages"):
            text += ", in stages: " + "; then ".join(_stage_text(st) for st in spec["stages"])
            if spec.get("first_stage"):
                text += f" (starting at {code(spec['first_stage'])})"
        if spec.get("until"):
            text += f", until {code(spec['until'])}"
        limit = spec.get("max_actions")
        if limit is not None:
            many = "one action" if limit == 1 else f"{self.repeat_text(limit)} actions"
            text += f"; the turn ends after {many}"
            if spec.get("free"):
                text += f" ({', '.join(code(a) for a in spec['free'])} not counted)"
            if not spec.get("pass", False):
                return text
        if spec.get("pass", limit is None):
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
            drawn = ", in a draw: nobody wins" if end.get("outcome") == "draw" else ""
            self.emit(f"The game ends as soon as {code(end['when'])} holds{drawn} (checked after every step, "
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
        if scoring.get("winners", True) and scoring.get("tie") == "draw":
            self.emit("The best-ranked player wins; a tie for the best rank is a draw: nobody wins.")
        elif scoring.get("winners", True):
            self.emit("The best-ranked player wins; players still tied share the win.")
        payoffs = scoring.get("payoffs")
        if payoffs == "scores":
            self.emit("Each player's payoff is their final score.")
        elif isinstance(payoffs, dict):
            self.emit("Payoffs: " + ", ".join(f"{k} {payoffs[k]}" for k in ("win", "draw", "loss") if k in payoffs)
                      + ".")
        else:
            self.emit("Nobody is named winner (the ranking only orders the players).")


def _stage_text(stage) -> str:
    """One stage of a turn: its name, what it offers and what moves the turn on."""
    offered = ", ".join(f"**{a}**" for a in stage.get("actions") or [])
    ends = stage.get("ends_after")
    over = f"; over after {', '.join(f'**{a}**' for a in ends)})" if ends else ")"
    return f"“{stage.get('stage')}” ({offered}" + over
