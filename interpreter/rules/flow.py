"""Compile a ruleset's ``flow`` (nested phases, loops, turns) into VM code.

The flow is one :class:`vm.Code`; its position is the flow frame's ``pc`` plus
hidden loop slots in that frame's locals, so it is saved with the state.
Loop variables (``as: round``) are global variables, visible to every rule.
``repeat: until_end`` loops until the game ends; a turn with ``max_actions``
ends by itself after that many actions. After every step a ``Settle``
instruction fires triggers and checks the end.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dsl.compiler import Snippet
from ..dsl.parser import parse
from ..dsl.typecheck import ANY, NUMBER
from ..errors import DavitError, GameError, RulesetError, did_you_mean
from ..load.limits import MAX_ITEMS
from ..load.yaml_reader import LocMap, located
from ..machine.values import display, resolve_constant
from ..machine.vm import PC, Do, ForInit, ForNext, Instr, Jump, JumpIfNot
from ..machine.waits import CountedOffer, Offer, Simultaneous, Stages
from .display import shown_values

if TYPE_CHECKING:
    from ..machine.host import GameHost

UNTIL_END = "until_end"   # `repeat: until_end`: the steps again and again until the game ends
FLOW_KINDS = ("step", "do", "phase", "repeat", "while", "until", "each_player", "for", "turn",
              "simultaneous", "if")


class Settle(Instr):
    """Fire triggers and check the end condition before going on."""

    __slots__ = ()

    def __init__(self, loc=None):
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        if not self.step(g, stack):
            frame[PC] += 1

    def step(self, g: GameHost, stack) -> bool:
        return g.settle(stack)

    def step_test(self) -> str:
        return "g.settle(stack)"   # one call, not two


class PhaseEnter(Instr):
    __slots__ = ("name",)

    def __init__(self, name, loc):
        self.name = name
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        self.step(g, stack)
        frame[PC] += 1

    def step(self, g: GameHost, stack) -> bool:
        g.state.phase.append(self.name)
        if g.record:
            shown = {k: v for k, v in g.state.vars.items() if isinstance(v, (int, str)) and not k.startswith("%")}
            # the display section's expressions, as they read when the phase begins
            shown.update((k, v) for k, v in shown_values(g).items() if isinstance(v, (int, str)))
            g.emit({"e": "phase", "name": self.name, "vars": shown})
        return False

    def step_lines(self, i: int) -> tuple[list[str], dict]:
        # without a log, entering a phase is one append: written out, not called
        return (["if g.record:", f"    _f{i}(g, stack)", "else:", f"    st.phase.append(_n{i})"],
                {f"_f{i}": self.step, f"_n{i}": self.name})


class PhaseExit(Instr):
    __slots__ = ()

    def __init__(self, loc=None):
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        self.step(g, stack)
        frame[PC] += 1

    def step(self, g: GameHost, stack) -> bool:
        if g.state.phase:
            g.state.phase.pop()
        return False

    def step_lines(self, i: int) -> tuple[list[str], dict]:
        return ["if st.phase:", "    st.phase.pop()"], {}


class FlowCompiler:
    def __init__(self, compiler, env, ruleset=None):
        self.compiler = compiler
        self.env = env
        self.ruleset = ruleset   # its constants, to check a `max_actions` that names one
        self.endless: list = []   # where a `repeat: until_end` stands (ending.py: something must end the game)
        self.out: list = []
        self.slot = 0

    def _slot(self) -> str:
        self.slot += 1
        return f"%flow{self.slot}"

    def compile(self, nodes) -> list:
        self._nodes(nodes)
        return self.out

    def _nodes(self, nodes):
        for i, node in enumerate(nodes or []):
            try:
                self._node(node, located(node, getattr(nodes, "loc_of", lambda _: None)(i)))
            except DavitError as exc:
                self.env.errors.append(exc)

    def _expr(self, text, what, local=frozenset()):
        fn = self.compiler.expression(text, what, local)
        return fn if fn is not None else (lambda g, L: None)

    def _node(self, node, loc):
        if not isinstance(node, dict):
            raise RulesetError("a flow step must be a mapping", loc)
        kinds = [k for k in FLOW_KINDS if k in node and k not in ("step",)]
        if len(kinds) > 1 and not (set(kinds) <= {"repeat", "each_player", "for"} and len(kinds) == 1):
            raise RulesetError(f"a flow step has one kind; this one has {', '.join(kinds)}", loc,
                               code="flow-kind")
        out = self.out
        if "phase" in node:
            name = str(node["phase"])
            out.append(PhaseEnter(name, loc))
            self._nodes(node.get("steps"))
            out.append(PhaseExit(loc))
            return
        if "repeat" in node or "for" in node or "each_player" in node:
            self._loop(node, loc)
            return
        if "while" in node or "until" in node:
            key = "while" if "while" in node else "until"
            head = len(out)
            cond = self._expr(node[key], f"flow {key}")
            test = cond if key == "while" else (lambda g, L, c=cond: not c(g, L))
            jump = JumpIfNot(test, None, node.loc_of(key) if isinstance(node, LocMap) else loc)
            out.append(jump)
            self._nodes(node.get("steps"))
            out.append(Jump(head, loc))
            jump.target = len(out)
            return
        if "if" in node:
            cond = self._expr(node["if"], "flow if")
            test = JumpIfNot(cond, None, loc)
            out.append(test)
            self._nodes(node.get("then"))
            skip = Jump(None, loc)
            out.append(skip)
            test.target = len(out)
            self._nodes(node.get("else"))
            skip.target = len(out)
            return
        if "turn" in node:
            spec = node["turn"]
            player = self._expr(spec.get("player", "player"), "turn player")
            until = self._expr(spec["until"], "turn until") if spec.get("until") else None
            name = str(spec.get("name", "turn"))
            ids = self._action_ids(spec, loc)
            if spec.get("max_actions") is None:
                stages = self._stages(spec, ids, loc) if spec.get("stages") else None
                out.append(Offer(player, ids, bool(spec.get("pass", True)), until, name, loc, stages))
                return
            if spec.get("stages"):
                self.env.errors.append(RulesetError("a turn of max_actions cannot also have stages",
                                                    _at(spec, "stages", loc), code="bad-value"))
            # a turn of so many actions: no passing unless the designer allows it
            count, count_loc = self._action_count(spec, loc)
            free = self._free_ids(spec, ids, loc)
            out.append(CountedOffer(player, ids, bool(spec.get("pass", False)), until, name, loc,
                                    count, self._slot(), free, count_loc))
            return
        if "simultaneous" in node:
            spec = node["simultaneous"]
            players = self._expr(spec.get("players", "players"), "simultaneous players")
            name = str(spec.get("name", "simultaneous"))
            out.append(Simultaneous(players, self._action_ids(spec, loc), name, loc))
            return
        if "do" in node:
            text = node["do"]
            name = str(node.get("step", "step"))
            if name != "step":
                out.append(PhaseEnter(name, loc))
            self._inline(text, f"step {name}")
            if name != "step":
                out.append(PhaseExit(loc))
            out.append(Settle(loc))
            return
        raise RulesetError(f"unknown flow step; expected one of: {', '.join(FLOW_KINDS)}", loc)

    def _action_ids(self, spec, loc) -> list:
        ids = list(spec.get("actions") or [])
        for i, aid in enumerate(ids):
            if aid not in self.env.action_ids:
                where = spec["actions"].loc_of(i) if hasattr(spec.get("actions"), "loc_of") else loc
                self.env.errors.append(RulesetError(f"unknown action '{aid}'", where,
                                                    did_you_mean(str(aid), self.env.action_ids),
                                                    code="unknown-reference"))
        return [str(a) for a in ids]

    def _stages(self, spec, ids, loc) -> Stages:
        """``stages``: the turn's actions in ordered stages, each ``{stage, actions, ends_after}``; every action
        named is one of the turn's, and the last stage ends only with the turn."""
        entries = spec["stages"]
        names, offered, ends = [], [], []
        for i, entry in enumerate(entries):
            where = _at(entries, i, loc)
            name = str(entry.get("stage"))
            if name in names:
                self.env.errors.append(RulesetError(f"the turn has two stages '{name}'", where, code="duplicate-id"))
            listed = [str(a) for a in entry.get("actions") or []]
            ending = [str(a) for a in entry.get("ends_after") or []]
            for aid in listed:
                if aid not in ids:
                    self.env.errors.append(RulesetError(
                        f"stage '{name}' offers '{aid}', which is not one of the turn's actions",
                        _at(entry, "actions", where), did_you_mean(aid, ids), code="unknown-reference"))
            for aid in ending:
                if aid not in listed:
                    self.env.errors.append(RulesetError(
                        f"stage '{name}' ends after '{aid}', which it does not offer", _at(entry, "ends_after", where),
                        did_you_mean(aid, listed), code="unknown-reference"))
            if ending and i == len(entries) - 1:
                self.env.errors.append(RulesetError(
                    f"the last stage '{name}' has no stage to move on to: it ends with the turn",
                    _at(entry, "ends_after", where), code="bad-value"))
            names.append(name)
            offered.append(tuple(a for a in ids if a in listed))   # in the turn's order, as a turn without stages
            ends.append(tuple(ending))
        first = self._expr(spec["first_stage"], "turn first_stage") if spec.get("first_stage") else None
        return Stages(tuple(names), tuple(offered), tuple(ends), first, self._slot(), loc)

    def _action_count(self, spec, loc):
        """``max_actions``: a whole number of at least 1, a constant holding one, or an expression (checked
        when each turn starts); returns ``(fn(g, L), its location)``."""
        value = spec["max_actions"]
        where = spec.loc_of("max_actions") if isinstance(spec, LocMap) else loc
        bad = "max_actions must be a whole number of at least 1 (or a constant or expression giving one)"
        if isinstance(value, bool) or not isinstance(value, (int, str)) or (isinstance(value, int) and value < 1):
            raise RulesetError(f"{bad}, not {value!r}", where, code="bad-count")
        if isinstance(value, int):
            return (lambda g, L, n=value: n), where
        rs, name = self.ruleset, str(value).strip()
        if rs is not None and name in rs.constants:
            for players in range(rs.min_players, rs.max_players + 1):
                held = resolve_constant(rs.constants[name], players)
                if isinstance(held, bool) or not isinstance(held, int) or held < 1:
                    raise RulesetError(f"{bad}; constant '{name}' is {held!r} for {players} players", where,
                                       code="bad-count")
        kind = self.compiler.infer(value, "turn max_actions")
        if kind not in (ANY, NUMBER):
            raise RulesetError(f"{bad}; this is {kind}", where, code="bad-count")
        return self._expr(value, "turn max_actions"), where

    def _free_ids(self, spec, ids, loc) -> tuple:
        """``free``: actions of the turn that do not count against ``max_actions``."""
        free = spec.get("free") or []
        for i, aid in enumerate(free):
            if str(aid) not in ids:
                where = free.loc_of(i) if hasattr(free, "loc_of") else loc
                self.env.errors.append(RulesetError(f"free action '{aid}' is not one of this turn's actions",
                                                    where, did_you_mean(str(aid), ids),
                                                    code="unknown-reference"))
        return tuple(str(a) for a in free)

    def _until_end(self, node, loc):
        """``repeat: until_end``: the steps over and over; the end condition (checked after every step),
        ``end_game()`` or the length limit ends the game, and with it the loop."""
        out = self.out
        self.endless.append(node.loc_of("repeat") if isinstance(node, LocMap) else loc)
        var = str(node["as"]) if node.get("as") else None
        if var:
            out.append(Do(lambda g, L: g.set_var(var, 0), loc))
        head = len(out)
        if var:
            out.append(Do(lambda g, L: g.set_var(var, g.state.vars[var] + 1), loc))
        self._nodes(node.get("steps"))
        out.append(Jump(head, loc))

    def _inline(self, text, what):
        snippet = Snippet(text, what)
        try:
            body = parse(text, "block")
        except DavitError as exc:
            self.env.errors.append(exc)
            return
        local = self.compiler._assigned_names(body) - self.env.globals
        if self.compiler.checker is not None:
            self.compiler.checker.block(body, snippet, {})
        try:
            self.compiler._stmts(body, snippet, local, False, self.out, loops=[])
        except DavitError as exc:
            self.env.errors.append(exc)

    def _loop(self, node, loc):
        out = self.out
        var = node.get("as")
        if "repeat" in node and node["repeat"] == UNTIL_END:
            self._until_end(node, loc)
            return
        source: Any   # fn(g, L) -> the items to walk
        if "repeat" in node:
            count = node["repeat"]
            if isinstance(count, int):
                source = lambda g, L, n=count: list(range(1, n + 1))  # noqa: E731
            else:
                n_fn = self._expr(count, "repeat count")
                where = _at(node, "repeat", loc)
                source = lambda g, L, f=n_fn, w=where: list(range(1, repeat_count(f(g, L), w) + 1))  # noqa: E731
        elif "each_player" in node:
            var = var or node["each_player"]
            start = self._expr(node.get("from", "player(0)"), "each_player from")
            source = lambda g, L, f=start: g.turn_order(f(g, L))  # noqa: E731
        else:
            source = self._expr(node["in"], "for source") if "in" in node else (lambda g, L: [])
            var = var or node["for"]
        slot = self._slot()
        tmp = slot + "v"
        out.append(ForInit(slot, source, loc))
        head = len(out)
        nxt = ForNext(slot, tmp, None, loc)
        out.append(nxt)
        if "each_player" in node:
            # players eliminated during the round lose their turn
            out.append(JumpIfNot(lambda g, L: not g.state.out[L[tmp].seat], head, loc))
        if var:
            name = str(var)
            out.append(Do(lambda g, L: g.set_var(name, L[tmp]), loc))
        self._nodes(node.get("steps"))
        out.append(Jump(head, loc))
        nxt.end = len(out)


def repeat_count(value, where) -> int:
    """A ``repeat:`` count worked out in play: a whole number from 0 to MAX_ITEMS (as one written as a number
    must be, rules/checks.py). Unchecked, ``rounds - 10`` played no round, ``rounds / 4`` one (int(1.5)),
    and ``rounds * 10**9`` ran out of memory."""
    if value.__class__ is int and 0 <= value <= MAX_ITEMS:   # (the common case, asked first)
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == value and 0 <= value <= MAX_ITEMS \
            and int(value) == value:   # a whole fraction (rounds / 3 where it divides): taken
        return int(value)
    raise GameError(f"the repeat count is {display(value)}, but a repeat count must be a whole number from 0 to "
                    f"{MAX_ITEMS:,}", where)


def _at(node, key, default):
    """Where ``key`` of a YAML mapping or list stands (``default`` when unknown)."""
    if hasattr(node, "loc_of") and (isinstance(key, int) or key in node):
        return node.loc_of(key)
    return default
