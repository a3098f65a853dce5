"""Compile DSL syntax trees into closures (expressions) and VM code (statements).

Compiling happens once, when the ruleset is built; a playout never parses or
walks a tree. Every name is resolved here: an unknown name, a wrong number of
arguments or an effect inside a condition is a :class:`DslError` at the exact
position in the YAML file.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import DavitError, DslError, Location
from ..load.yaml_reader import position_in_file
from ..machine import vm
from ..machine.waits import Choose
from . import ast
from .direct import direct_function
from .expressions import ExpressionCompiler
from .parser import parse
from .primitives import BUILTIN_VALUES, PRIMITIVES
from .snippet_memo import local_key, shape, text_key

if TYPE_CHECKING:
    from ..machine.host import GameHost
    from .snippet_memo import Recorder
    from .typecheck import TypeChecker


@dataclass
class FunctionInfo:
    """What callers need to know about a ruleset-defined function."""
    name: str
    params: tuple
    code_id: str
    location: Location | None = None
    suspends: bool = False
    changes_game: bool = False   # calls an effect or sets state: not allowed in a condition
    body: tuple = ()
    fast: object = None          # a `value:` function as one closure fn(g, locals): no VM frame needed
    value_location: Location | None = None
    used: bool = False
    source: object = None        # the text ``body`` was parsed from (for snippet_memo), if known
    value: bool = False          # a `value:` function (one expression), not a `do:` block
    inlinable: bool | None = None   # written out at its calls (dsl/inline_calls.py); None: not decided yet
    charged_inline: bool = False    # would be but for the unit it charges: written out as a first call
    keeps_answers: bool | None = None   # its answers kept on the table (dsl/state_free.py); None: not decided
    recursive: bool = False      # may call itself, through other functions or not: its calls are counted


@dataclass
class Env:
    """The names a ruleset defines, as seen by the compiler."""
    globals: set = field(default_factory=set)
    constants: set = field(default_factory=set)
    zones: set = field(default_factory=set)          # zones reachable by bare name
    player_attrs: set = field(default_factory=set)   # counters, player vars, per-player zones
    thing_props: set = field(default_factory=set)    # dynamic thing properties (assignable)
    zone_props: set = field(default_factory=set)     # dynamic zone properties (assignable)
    functions: dict = field(default_factory=dict)    # name -> FunctionInfo
    codes: dict = field(default_factory=dict)        # code id -> vm.Code
    errors: list = field(default_factory=list)
    used_names: set = field(default_factory=set)
    used_functions: set = field(default_factory=set)   # ruleset functions some snippet calls (by name)
    thing_ids: set = field(default_factory=set)      # every thing id, at the largest player count
    zone_ids: set = field(default_factory=set)       # every zone and space id (per-player ones as id@seat)
    layout: object = None                            # a fast_reads.Layout: where attribute names live
    action_ids: set = field(default_factory=set)     # every action id (set by rules/build.py)
    # declared thing and zone properties no rule sets (rules/layout.py): read as printed, and never settable
    fixed_thing_props: frozenset = frozenset()
    fixed_zone_props: frozenset = frozenset()
    answers: dict = field(default_factory=dict)   # ("zone" or "thing", function) -> proven (dsl/zone_answers.py)

    def all_names(self, local: set) -> list:
        return sorted(set(local) | self.globals | self.constants | self.zones | set(self.functions)
                      | set(PRIMITIVES) | set(BUILTIN_VALUES) | {"choose", "resolve"})


class Snippet:
    """A DSL text with its YAML origin; ``loc(node)`` maps a node to the file."""

    def __init__(self, text, what: str):
        self.text = text
        self.what = what

    def loc(self, node_or_pos) -> Location:
        pos = node_or_pos.pos if isinstance(node_or_pos, ast.Node) else node_or_pos
        return position_in_file(self.text, pos[0], pos[1])


class Compiler(ExpressionCompiler):
    """Compiles the snippets of one ruleset against its :class:`Env`."""

    def __init__(self, env: Env):
        self.env = env
        self._slot = 0
        self.checker: TypeChecker | None = None  # once the ruleset's vocabulary is known
        self.memo: Recorder | None = None   # while a ruleset is built: the snippets its base compiled

    def _remembered(self, key: tuple, work, tree=None):
        """``work()``, or what it gave an earlier clean build of the same context (:mod:`.snippet_memo`)."""
        if self.memo is None:
            return work()
        return self.memo.compile(self, key, work, tree)

    def _types(self, local) -> dict:
        """Local name -> static type; ``local`` is a set of names or already such a dict."""
        if isinstance(local, dict):
            return dict(local)
        return {name: ("player" if name in ("player", "p") else "any") for name in local}

    def infer(self, text, what: str, local=frozenset()):
        """The static type of an expression (``any`` when unsure or on errors)."""
        if self.checker is None:
            return "any"
        return self._remembered(("infer", text_key(text), what, local_key(local)),
                                lambda: self._infer(text, what, local))

    def _infer(self, text, what, local):
        assert self.checker is not None   # infer() asks only once the checker exists
        try:
            node = parse(text, "expr")
        except DavitError:
            return "any"
        return self.checker.expr(node, Snippet(text, what), self._types(local))

    # -- entry points -------------------------------------------------------

    def expression(self, text, what: str, local: Collection[str] = frozenset(), pure: bool = True):
        """Compile a condition or value; returns ``fn(game, locals)`` or None on error."""
        return self._remembered(("expression", text_key(text), what, local_key(local), pure),
                                lambda: self._expression(text, what, local, pure))

    def _expression(self, text, what, local, pure):
        snippet = Snippet(text, what)
        try:
            node = parse(text, "expr")
            if self.checker is not None:
                self.checker.expr(node, snippet, self._types(local))
            # lambda parameters and comprehension variables are locals of the expression
            return self._expr(node, snippet, set(local) | self._assigned_names((node,)), pure)
        except DavitError as exc:
            self.env.errors.append(exc)
            return None

    def block(self, text, code_id: str, what: str, params: tuple = (), local: Collection[str] = frozenset(),
              pure: bool = False):
        """Compile statements into a :class:`vm.Code` registered under ``code_id``."""
        snippet = Snippet(text, what)
        try:
            body = parse(text, "block")
        except DavitError as exc:
            self.env.errors.append(exc)
            return None
        return self.code_from_ast(body, snippet, code_id, params, local, pure)

    def code_from_ast(self, body, snippet, code_id, params=(), local=frozenset(), pure=False):
        """Compile parsed statements ``body`` of ``snippet`` into a :class:`vm.Code` registered under ``code_id``."""
        key = ("code", text_key(snippet.text), shape(body), snippet.what, code_id, tuple(params), local_key(local),
               pure)
        return self._remembered(key, lambda: self._code_from_ast(body, snippet, code_id, params, local, pure), body)

    def _code_from_ast(self, body, snippet, code_id, params, local, pure):
        scope = set(local) | set(params) | self._assigned_names(body)
        clash = scope & self.env.globals
        errors_before = len(self.env.errors)
        if self.checker is not None:
            types = self._types(local)
            types.update({name: "any" for name in params})
            self.checker.block(body, snippet, types)
        scope -= clash  # names declared global are never locals
        instrs: list = []
        try:
            self._stmts(body, snippet, scope, pure, instrs, loops=[])
        except DavitError as exc:
            self.env.errors.append(exc)
        if len(self.env.errors) > errors_before:
            return None
        code = vm.Code(code_id, instrs, tuple(params), snippet.loc((1, 1)))
        self.env.codes[code_id] = code
        return code

    def direct(self, body, snippet, params, max_steps, changes_game=False):
        """A ``do:`` function that cannot wait as ``fast(g, *args)`` (see :mod:`.direct`)."""
        key = ("direct", text_key(snippet.text), shape(body), snippet.what, tuple(params), max_steps, changes_game)
        return self._remembered(key, lambda: self._direct(body, snippet, params, max_steps, changes_game), body)

    def _value_function(self, n, sn, params):
        key = ("value", text_key(sn.text), type(n).__name__, sn.what, tuple(params))
        return self._remembered(key, lambda: super(Compiler, self)._value_function(n, sn, params), n)

    def _direct(self, body, snippet, params, max_steps, changes_game):
        scope = (set(params) | self._assigned_names(body)) - self.env.globals
        try:
            return direct_function(self._generator(snippet, scope, False), body, tuple(params), max_steps,
                                   changes_game)
        except DavitError:
            return None   # already reported when the function was compiled for the VM

    # -- helpers ------------------------------------------------------------

    def _assigned_names(self, body) -> frozenset:
        """The names a snippet gives values to (locals, loop, lambda and comprehension variables).

        Parsed trees are shared by every identical snippet (a variant repeats
        its base's), so the answer is kept per tree, by identity."""
        tree = body[0] if isinstance(body, tuple) and len(body) == 1 else body
        kept = _ASSIGNED.get(id(tree))
        if kept is not None and kept[0] is tree:
            return kept[1]
        names = set()
        for node in ast.walk(body):
            if isinstance(node, ast.Assign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.For):
                names.add(node.var)
            elif isinstance(node, (ast.Comprehension,)):
                names.add(node.var)
            elif isinstance(node, ast.Lambda):
                names.add(node.param)
        if len(_ASSIGNED) > 20_000:
            _ASSIGNED.clear()
        _ASSIGNED[id(tree)] = (tree, frozenset(names))
        return frozenset(names)

    def _check_arity(self, name, low, high, call, sn):
        given = len(call.args)
        if given < low or (high is not None and given > high):
            if low == high:
                want = f"{low}"
            elif high is None:
                want = f"at least {low}"
            else:
                want = f"{low} to {high}"
            raise self._error(f"{name}() takes {want} argument{'' if want.split()[-1] == '1' else 's'}, "
                              f"{given} given", sn, call, code="arity")

    def _new_slot(self) -> str:
        self._slot += 1
        return f"%{self._slot}"

    def _error(self, message, snippet, node, hint=None, code=None):
        return DslError(message, snippet.loc(node), hint, code=code)

    # -- statements ---------------------------------------------------------

    def _stmts(self, body, sn, scope, pure, out, loops):
        # report every statement's error, not only the first one of a block
        failed = None
        for stmt in body:
            try:
                self._stmt(stmt, sn, scope, pure, out, loops)
            except DavitError as exc:
                if failed is not None:
                    self.env.errors.append(failed)
                failed = exc
        if failed is not None:
            raise failed

    def _stmt(self, s, sn, scope, pure, out, loops):
        loc = sn.loc(s)
        if isinstance(s, ast.Pass):
            return
        if isinstance(s, ast.ExprStmt):
            if isinstance(s.expr, ast.Call) and isinstance(s.expr.func, ast.Name):
                special = self._special_call(s.expr, sn, scope, pure, None)
                if special is not None:
                    out.append(special)
                    return
            fn = self._expr(s.expr, sn, scope, pure)
            out.append(vm.Do(fn, loc))
            return
        if isinstance(s, ast.Assign):
            if s.op is None and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) \
                    and isinstance(s.target, ast.Name):
                name = s.target.id
                # a decision's answer lands in a local; a global gets it from there afterwards
                into = name if name in scope else self._new_slot()
                special = self._special_call(s.value, sn, scope, pure, into)
                if special is not None:
                    out.append(special)
                    if into != name:
                        if name not in self.env.globals:
                            raise self._error(f"cannot assign to '{name}'", sn, s.target)
                        out.append(vm.Do(_global_from_local(name, into), loc))
                    return
            out.append(vm.Do(self._assignment(s, sn, scope, pure), loc))
            return
        if isinstance(s, ast.If):
            end_jumps = []
            for cond, body in s.branches:
                c = self._expr(cond, sn, scope, pure)
                test = vm.JumpIfNot(c, None, sn.loc(cond))
                out.append(test)
                self._stmts(body, sn, scope, pure, out, loops)
                jump = vm.Jump(None, loc)
                out.append(jump)
                end_jumps.append(jump)
                test.target = len(out)
            self._stmts(s.orelse, sn, scope, pure, out, loops)
            for jump in end_jumps:
                jump.target = len(out)
            return
        if isinstance(s, ast.For):
            slot = self._new_slot()
            source = self._expr(s.source, sn, scope, pure)
            out.append(vm.ForInit(slot, source, sn.loc(s.source)))
            head = len(out)
            nxt = vm.ForNext(slot, s.var, None, loc)
            out.append(nxt)
            loop: dict[str, Any] = {"continue": head, "breaks": [], "slot": slot}
            self._stmts(s.body, sn, scope, pure, out, loops + [loop])
            out.append(vm.Jump(head, loc))
            nxt.end = len(out)
            for brk in loop["breaks"]:
                brk.target = len(out)
            return
        if isinstance(s, ast.While):
            head = len(out)
            c = self._expr(s.cond, sn, scope, pure)
            test = vm.JumpIfNot(c, None, sn.loc(s.cond))
            out.append(test)
            loop = {"continue": head, "breaks": [], "slot": None}
            self._stmts(s.body, sn, scope, pure, out, loops + [loop])
            out.append(vm.Jump(head, loc))
            test.target = len(out)
            for brk in loop["breaks"]:
                brk.target = len(out)
            return
        if isinstance(s, ast.Break):
            if not loops:
                raise self._error("'break' outside a loop", sn, s)
            loop = loops[-1]
            if loop["slot"]:
                out.append(vm.Do(_drop_slot(loop["slot"]), loc))
            jump = vm.Jump(None, loc)
            loop["breaks"].append(jump)
            out.append(jump)
            return
        if isinstance(s, ast.Continue):
            if not loops:
                raise self._error("'continue' outside a loop", sn, s)
            out.append(vm.Jump(loops[-1]["continue"], loc))
            return
        if isinstance(s, ast.Return):
            value = self._expr(s.value, sn, scope, pure) if s.value is not None else None
            out.append(vm.Return(value, loc))
            return
        raise self._error(f"unsupported statement {type(s).__name__}", sn, s)

    def _special_call(self, call: ast.Call, sn, scope, pure, result_var):
        """``choose(...)`` and calls of waiting functions become their own instructions."""
        name = call.func.id   # type: ignore[attr-defined]  # only a call of a name comes here (_stmts)
        if name == "choose" and name not in scope:
            if pure:
                raise self._error("choose(...) asks a player and cannot be used here", sn, call)
            args = [self._expr(a, sn, scope, pure) for a in call.args]
            kwargs = {k: (self._lambda(v, sn, scope, pure) if isinstance(v, ast.Lambda) and k == "label"
                          else self._expr(v, sn, scope, pure)) for k, v in call.kwargs}
            if len(args) < 2 or len(args) > 3 or set(kwargs) - {"prompt", "label"}:
                raise self._error("choose(player, options, prompt) takes a player, a list of options, an "
                                  "optional prompt and an optional label=o -> text for each option", sn, call,
                                  code="arity")
            if "label" in kwargs and not any(isinstance(v, ast.Lambda) for k, v in call.kwargs if k == "label"):
                raise self._error("choose(..., label=o -> text): label must be a lambda", sn, call, code="arity")
            prompt = kwargs.get("prompt") or (args[2] if len(args) > 2 else None)
            return Choose(args[0], args[1], prompt, result_var, sn.loc(call), kwargs.get("label"))
        if name == "resolve" and name not in scope:
            if pure:
                raise self._error("resolve(card, player) runs a card's effect and cannot be used here", sn, call,
                                  code="effect-in-condition")
            self._check_arity(name, 2, 2, call, sn)
            card, who = (self._expr(a, sn, scope, pure) for a in call.args)
            return vm.CallEffect(card, who, result_var, sn.loc(call))
        info = self.env.functions.get(name)
        if info is not None and info.suspends and name not in scope:
            if pure:
                raise self._error(f"function '{name}' asks a player and cannot be used here", sn, call)
            self._check_arity(name, len(info.params), len(info.params), call, sn)
            info.used = True
            self.env.used_functions.add(name)
            args = [self._expr(a, sn, scope, pure) for a in call.args]
            return vm.CallCode(info.code_id, args, result_var, sn.loc(call))
        return None


# a parsed tree (by identity; the entry keeps it alive) -> (the tree, the names it assigns)
_ASSIGNED: dict = {}


def _global_from_local(name, slot):
    def assign(g: GameHost, L):
        g.set_var(name, L.pop(slot, None))
    return assign


def _drop_slot(slot):
    def drop(g: GameHost, L):
        L.pop(slot, None)
    return drop


_BODY_FACTS: dict = {}


def _body_facts(body) -> tuple:
    """(functions and primitives it calls, whether it asks a player, effect primitives it calls, the targets
    it assigns: ``None`` for a property or item, else the name) of a function body.

    Parsed trees are shared by every identical snippet, so a variant (which repeats its base's functions)
    reads the walk its base made; kept per tree, by identity, as ``_assigned_names`` keeps its answer."""
    kept = _BODY_FACTS.get(id(body))
    if kept is not None and kept[0] is body:
        return kept[1]
    callees, effects, targets, asks = set(), set(), set(), False
    for node in ast.walk(body):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("choose", "resolve"):
                asks = True
            prim = PRIMITIVES.get(node.func.id)
            if prim is not None and prim.effect:
                effects.add(node.func.id)
            callees.add(node.func.id)
        elif isinstance(node, ast.Assign):
            targets.add(node.target.id if isinstance(node.target, ast.Name) else None)
    facts = (frozenset(callees), asks, frozenset(effects), frozenset(targets))
    if len(_BODY_FACTS) > 20_000:
        _BODY_FACTS.clear()
    _BODY_FACTS[id(body)] = (body, facts)
    return facts


def _comes_back(name: str, calls: dict) -> bool:
    """Whether function ``name`` may call itself, directly or through other functions."""
    seen, todo = set(), list(calls[name])
    while todo:
        callee = todo.pop()
        if callee == name:
            return True
        if callee in calls and callee not in seen:
            seen.add(callee)
            todo.extend(calls[callee])
    return False


def compute_suspending(functions: dict, global_names=frozenset()) -> None:
    """Mark the functions that (directly or through calls) ask a player or change the game."""
    calls = {}
    for name, info in functions.items():
        callees, asks, effects, targets = _body_facts(info.body)
        if asks:
            info.suspends = True
        if any(e not in info.params for e in effects) \
                or any(t is None or t in global_names for t in targets):
            info.changes_game = True
        calls[name] = callees
    for name, info in functions.items():   # (dsl/inline_calls.py counts the calls of these, in both modes)
        info.recursive = _comes_back(name, calls)
    changed = True
    while changed:
        changed = False
        for name, info in functions.items():
            called = [functions[c] for c in calls[name] if c in functions]
            if not info.suspends and any(c.suspends for c in called):
                info.suspends = True
                changed = True
            if not info.changes_game and any(c.changes_game or c.suspends for c in called):
                info.changes_game = True
                changed = True
