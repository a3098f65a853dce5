"""A ruleset explained for people: a short rulebook in Markdown.

``davit explain RULESET`` prints what :func:`explain` returns. Everything is
read from the compiled :class:`Ruleset` and its merged YAML tree (``rs.data``),
so every rule snippet is shown exactly as its designer wrote it, with the
``file:line`` it comes from. Nothing here knows any particular game.

Example (``my-game`` stands for any ruleset id or folder)::

    from interpreter.rules.loading import load_ruleset
    print(explain(load_ruleset("my-game")))
"""
from __future__ import annotations

import re

from ...load.yaml_reader import LocMap, plain
from .components import ComponentsText
from .markdown import (
    cell,
    constant_value,
    key_where,
    value_text,
)
from .rules_text import RulesText

# -- the explainer ------------------------------------------------------------------------

class Explainer(ComponentsText, RulesText):
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
            from ...load.files import display_path
            from ...load.yaml_reader import load_yaml_file
            vdata = load_yaml_file(path, display_path(path)) if path else None
        except Exception:  # the ruleset loaded, so this is only a missing nicety
            vdata = None
        if isinstance(vdata, dict):
            text += f" ({display_path(path)})"   # type: ignore[arg-type]  # vdata is read only when there is a path
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
    todo: list[tuple[object, tuple]] = [(data, ())]
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
