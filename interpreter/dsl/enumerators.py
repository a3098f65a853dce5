"""An action's legal combinations as one generated loop nest.

The generic enumeration (:mod:`interpreter.play.decisions`) walks an action's
choices through its compiled functions: a domain function per choice, and per
candidate a write of the value into a shared locals dict and a call of each
cost and of the condition. Listing legal actions is a large part of every
game, so each action is also generated as one Python function
``_f(g, seat, found, append, Action)``: the domains, the cost checks and the
condition written out inside the loops from the same syntax trees, with the
choices as Python locals (the generator's ``lexical`` names), appending, for
a legal candidate only, what the maker it is handed as ``Action`` makes of it
(an ``Action``), or, handed None, the ``(name, args)`` candidate itself (play/decisions.py).

It does exactly what the generic path does, in the same order: the same
results, the same work charged to ``g.work`` at the same points (and
``MAX_WORK`` and ``MAX_CHOICES`` checked where it checks them), a domain that
reads no earlier choice worked out once, when first needed, and every error
at the same ``file:line:col`` (each snippet keeps its own default location).
An action it cannot write out this way (:func:`uncovered`) keeps the generic
path, and so does every action with the fast paths off.
"""
from __future__ import annotations

import re

from ..errors import DavitError, GameError
from ..load.limits import MAX_CHOICES, MAX_WORK
from ..machine import fast_paths
from ..machine.budget import over_budget, too_many_choices
from ..machine.values import ZoneRef, display
from . import ast
from .compiler import Snippet
from .expressions import Generator
from .parser import parse
from .read_memo import start as start_memo


def choices(g, items, loc) -> list:
    """A choice's domain value as the list of its candidates (a zone: its things); anything else is an error."""
    if items.__class__ is ZoneRef:
        return g.zone_things(items)
    if isinstance(items, (list, tuple)):
        return list(items)
    raise GameError(f"an action parameter's choices must be a list or a zone, got {display(items)}", loc)


def snippet_lines(gen, text, what: str, lexical: dict, out: str) -> list[str]:
    """Lines that set ``out`` to the value of the DSL ``text`` (``what`` it is), which sees only the Python
    names ``lexical`` (no locals dict), located as its own compiled function locates its errors: a DavitError
    without a place at the snippet's, any other error at the place of the node that raised it."""
    node = parse(text, "expr")
    gen.sn = Snippet(text, what)
    gen.scope = set(lexical) | gen.c._assigned_names((node,))
    gen.lexical = dict(lexical)
    first = len(gen.lines)
    start_memo(gen, node)   # one expression, which changes nothing: a read it repeats is kept (read_memo)
    code = gen.expr(node)
    gen.memo = None
    if any(local is not None for _, local in gen.lines[first:]):
        raise DavitError("reads a local the generated code does not hold")   # never happens: all are lexical
    where = gen.bind(gen.sn.loc(node), "_l")
    return ["try:", f"    {out} = {code}", "except _DavitError as _e:", "    if _e.location is None:",
            f"        _e.location = {where}", "    raise", "except _Exception as _e:",
            f"    raise _located(_e, {where}) from None"]


def uncovered(spec) -> str | None:
    """Why the action ``spec`` (its YAML mapping) is not generated, or None when it is."""
    texts = [*(spec.get("choose") or {}).values(), *_conditions(spec)]
    texts += [a for a in (spec.get("cost") or {}).values() if not isinstance(a, (int, float))]
    if any(not isinstance(t, str) for t in texts):
        return "a choice, cost or condition that is not DSL text"
    return None


def _conditions(spec) -> list:
    """The condition texts, as the builder reads ``if``: one text, or a list of ``when``s (all must hold)."""
    if isinstance(spec.get("if"), list):
        return [item["when"] for item in spec["if"]]
    return [spec["if"]] if spec.get("if") else []


def enumerator(compiler, spec, adef):
    """``_f(g, seat, found, append, Action)`` listing ``adef``'s legal actions, or None (the generic path)."""
    if not fast_paths.on() or uncovered(spec) is not None:
        return None
    try:
        return _Writer(compiler, spec, adef).function()
    except DavitError:   # the snippet's error is reported by its own compilation; the build fails there
        return None


class _Writer:
    """The source of one action's enumerator."""

    def __init__(self, compiler, spec, adef):
        self.adef = adef
        self.spec = spec
        self.gen = Generator(compiler, None, set(), True)
        self.gen.hold_containers(looping=True)   # its checks run once per candidate
        self.compiler = compiler
        gen = self.gen
        self.seat, self.found, self.append, self.action = (gen.fresh("_a") for _ in range(4))
        self.player = gen.fresh()
        gen.proven[self.player] = "_PR"   # g.table.players[seat]: always a player, read with no class test
        self.where = gen.bind(adef.location, "_l")   # the action's own place: domains, budget, too many choices
        self.choices = gen.bind(choices)
        self.len, self.list = gen.bind(len), gen.bind(list)
        self.over = gen.bind(over_budget)
        self.names = [str(name) for name in (spec.get("choose") or {})]
        self.values = [gen.fresh() for _ in self.names]
        self.kept_names: list[str] = []   # a kept condition's answer and work (see kept), None until first asked

    def function(self):
        adef, gen = self.adef, self.gen
        if [name for name, _ in adef.params] != self.names:
            return None
        shared = {i: gen.fresh() for i in sorted(adef.independent) if i > 0}
        if not self.names:
            loops = self.checks("return") + [f"{self.append}({self.made(0)})"]
        else:
            loops = self.level(0, shared)
        # the player is read only where a domain, cost or condition names it (the lines hold every use)
        body = [f"{self.player} = g.table.players[{self.seat}]"] \
            if re.search(rf"\b{self.player}\b", "\n".join(loops)) else []
        body += [f"{var} = None" for var in [*shared.values(), *self.kept_names]] + loops
        return gen.function(body, adef.location, ", ".join(["g", self.seat, self.found, self.append, self.action]),
                            wrapped=False)

    def lexical(self, count: int) -> dict:
        """The Python names of ``player`` and the first ``count`` choices (a later one shadows ``player``)."""
        return {"player": self.player, **dict(zip(self.names[:count], self.values[:count]))}

    def snippet(self, text, what: str, count: int, out: str) -> list[str]:
        """Lines that set ``out`` to the value of ``text``, which sees ``player`` and ``count`` choices, located
        as its own compiled function locates its errors."""
        return snippet_lines(self.gen, text, what, self.lexical(count), out)

    def checked(self) -> bool:
        return bool(self.adef.costs) or self.adef.condition is not None

    def costs(self) -> list:
        """The (counter, amount) costs, as the builder lists them."""
        costs = [(str(c), a) for c, a in (self.spec.get("cost") or {}).items()]
        if [c for c, _ in costs] != [c for c, _ in self.adef.costs]:
            raise DavitError("a cost the builder left out")   # its error fails the build
        return costs

    def affordable(self) -> str | None:
        """A test of every cost at once, when each is a number and no condition can change the game: then the
        costs answer the same for every candidate of a walk of the last choice's list (only conditions run
        between them), asked once before it as at its first candidate (the same error, if any, at the same
        point). None: they are tested per candidate."""
        costs = self.costs()
        if not costs or any(not isinstance(a, (int, float)) for _, a in costs) or \
                any(not self.gen._changes_nothing(parse(text, "expr")) for text in _conditions(self.spec)):
            return None
        return " and ".join(f"not g.state.pvars[{self.seat}].get({counter!r}, 0) < {self.gen.literal(amount)}"
                            for counter, amount in costs)

    def checks(self, skip: str, costs: bool = True) -> list[str]:
        """The costs (unless ``costs`` is False: tested before), then the conditions, each leaving the candidate
        with ``skip`` when it fails."""
        adef, gen, count = self.adef, self.gen, len(self.names)
        aid = adef.id
        out = []
        for counter, amount in self.costs() if costs else ():
            have = f"g.state.pvars[{self.seat}].get({counter!r}, 0)"
            if isinstance(amount, (int, float)):
                out += [f"if {have} < {gen.literal(amount)}:", f"    {skip}"]
                continue
            need = gen.fresh()
            out += self.snippet(amount, f"action {aid} cost", count, need)
            out += [f"if {have} < {need}:", f"    {skip}"]
        if adef.condition is not None:
            for text in _conditions(self.spec):
                holds = gen.fresh()
                lines = self.snippet(text, f"action {aid} condition", count, holds)
                out += self.kept(text, holds, lines) if count else lines
                out += [f"if not {holds}:", f"    {skip}"]
        return out

    def kept(self, text, holds: str, lines: list[str]) -> list[str]:
        """``lines`` (setting ``holds`` to the condition ``text``) for a condition asked once per candidate: where
        it reads no choice and changes nothing, its answer and the work it charged are kept from the first
        candidate and, for each later one, that work charged again at once (a function whose answers are kept
        charges the same every time: nothing, state_free.uncharged). Nothing changes the game while
        actions are listed, so it would answer the same and charge the same; the budget is checked as it
        would be (with the kept charge the walk could not cross the limit, else it is asked again: it fails
        at its own place)."""
        node = parse(text, "expr")
        names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        if names & set(self.names) or not self.gen._changes_nothing(node):
            return lines
        answer, work, start = self.gen.fresh(), self.gen.fresh(), self.gen.fresh()
        self.kept_names += [answer, work]
        return [f"if {work} is not None and g.work + {work} <= {MAX_WORK!r}:", f"    g.work += {work}",
                f"    {holds} = {answer}", "else:", f"    {start} = g.work", *("    " + line for line in lines),
                f"    {answer}, {work} = {holds}, g.work - {start}"]

    def made(self, count: int) -> str:
        """The source making the action of the first ``count`` choices: what the maker handed as ``Action`` makes,
        or, handed None, the ``(name, args)`` candidate itself (no call per candidate: play/decisions.py)."""
        pairs = "".join(f"({n!r}, {v}), " for n, v in zip(self.names[:count], self.values[:count]))
        aid = repr(self.adef.id)
        return f"({aid}, ({pairs})) if {self.action} is None else {self.action}({self.seat}, {aid}, ({pairs}), None, g)"

    def charge(self, values: str) -> list[str]:
        """Each walk of a choice list is work, charged once per walk (as the generic path charges it)."""
        return [f"g.work += {self.len}({values})", f"if g.work > {MAX_WORK!r}:", f"    raise {self.over}({self.where})"]

    def level(self, i: int, shared: dict) -> list[str]:
        """Choice ``i`` and those after it, as :func:`interpreter.play.decisions._combinations` walks them."""
        adef, gen = self.adef, self.gen
        name, domain = self.names[i], (self.spec.get("choose") or {})[self.names[i]]
        values = gen.fresh()
        what = f"action {adef.id} choice {name}"
        # a list is walked as it is (nothing changes it while the pure snippets run), anything else made one
        worked_out = self.snippet(domain, what, i, values) + [
            f"if {values}.__class__ is not {self.list}:", f"    {values} = {self.choices}(g, {values}, {self.where})"]
        if i in shared:   # reads no earlier choice: the same for every one of them, worked out when first needed
            out = [f"if {shared[i]} is None:", *("    " + line for line in worked_out),
                   f"    {shared[i]} = {values}", f"{values} = {shared[i]}"]
        else:
            out = worked_out
        last = i + 1 == len(self.names)
        if len(self.names) > 1 or self.checked():   # one unchecked choice is bounded by MAX_CHOICES alone
            out += self.charge(values)
        affordable = self.affordable() if last else None
        body = self.level(i + 1, shared) if not last else [
            *self.checks("continue", costs=affordable is None), f"{self.append}({self.made(len(self.names))})"]
        loop = [f"for {self.values[i]} in {values}:", *("    " + line for line in body)]
        if affordable is not None:   # the costs asked once a walk: when they fail, no candidate is looked at
            out.append(f"if {values} and {affordable}:")
            loop = ["    " + line for line in loop]
        out += loop
        many, what = gen.bind(too_many_choices), repr(f"action '{adef.id}'")
        out += [f"if {self.len}({self.found}) > {MAX_CHOICES!r}:",
                f"    raise {many}({what}, {self.len}({self.found}), {self.where})"]
        return out
