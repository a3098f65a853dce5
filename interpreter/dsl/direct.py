"""A ``do:`` function that never asks a player, as one plain Python function.

Such a function is only ever run for its value, from an expression (a
domain, a condition, a label, another function, a step's statement). On the
VM every call built a stack and a frame and went round the VM loop once per
basic block, which cost more than most of these functions do. Since nothing
can suspend it, it needs no resumable position: its statements become Python
statements (``if``/``for``/``while``/``return``) with its locals in a dict
``L``, exactly as the VM keeps them, and it becomes the function's ``fast``
form, called directly like a ``value:`` function.

A function that changes the game may also end it (``end_game()``, or a
primitive whose effect ends it). The VM stops a function run for its value
after the statement that ended the game; the plain function does the same,
testing ``g.state.over`` after each statement that could have changed it.
Where no condition or loop source of the function can end the game, a
statement that calls no effect and no function that changes the game (a
property set to a literal) cannot have ended it either, and is not followed
by the test. The state's containers are read once, at the function's top
(:meth:`Generator.container`), as an expression's function reads them.

Loops count their rounds against the ruleset's step limit, so a loop that
never ends stops with the same kind of error as on the VM. Work is charged
to the decision's budget (:mod:`interpreter.machine.budget`) as on the VM: a
call, each round of a ``while``, and the items a ``for`` walks. Expressions and
assignments are the generator's own (:mod:`interpreter.dsl.expressions`), so
the source is still built only from the compiler's names and ``repr``'d
literals, and every node keeps its line in the line table.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..errors import RunawayGameError
from ..machine import budget
from . import ast
from .fast_reads import declared_writes, in_place_write

if TYPE_CHECKING:
    from ..machine.host import GameHost

INDENT = "    "
CALL_WORK = 10   # work units a call costs beside what it walks (a VM call costs 100: a stack and a frame)


class Shape(NamedTuple):
    """What every statement of one function's body is generated with."""
    limit: str          # the step limit, as a literal: rounds of its loops past it are a runaway
    stops_at_end: bool  # the function may end the game and must then stop, as on the VM
    # no condition or loop source can end the game: it ends only within a statement, each of which is
    # followed by the test, so a statement that can change nothing needs none
    tests_change_nothing: bool = False


def loop_items(g: GameHost, items, loc) -> list:
    """What a ``for`` walks: the collection as it is when the loop starts (a zone: its things), charged as work."""
    if hasattr(items, "defn"):
        return budget.each(g, g.zone_things(items), loc)
    return list(budget.each(g, items, loc))


def runaway(g: GameHost, max_steps, loc):
    phase = " > ".join(g.state.phase) or "(no phase)"
    raise RunawayGameError(f"a function did not finish within {max_steps} steps; it was in phase '{phase}'", loc,
                           hint="a loop never ends; raise limits.max_steps if the game is really this long")


def direct_function(gen, body, params: tuple, max_steps: int, changes_game: bool = False):
    """``fast(g, *args)`` running statements ``body`` of a function with ``params``."""
    gen.hold_containers()   # the state's containers are the same objects for the whole call (Generator.container)
    names = [gen.fresh("_a") for _ in params]
    locals_ = ", ".join(f"{name!r}: {arg}" for name, arg in zip(params, names))
    # a call is work: a function that calls itself twice stops within the budget
    lines = [*budget.charged(CALL_WORK, "_loc"), "L = {" + locals_ + "}", "n = 0"]
    if changes_game:
        lines.append("was_over = g.state.over")
    quiet = changes_game and all(gen._changes_nothing(test) for test in _tests(body))
    _block(gen, body, lines, 0, Shape(gen.literal(max_steps), changes_game, quiet))
    lines.append("return None")
    return gen.function(lines, gen.sn.loc((1, 1)), ", ".join(["g", *names]))


def _block(gen, stmts, out, depth, shape):
    start, i = len(out), 0
    while i < len(stmts):
        run = _literal_writes(gen, stmts, i, shape)
        if len(run) > 1:
            _grouped_writes(gen, run, out, depth, shape)
            i += len(run)
            continue
        _statement(gen, stmts[i], out, depth, shape)
        i += 1
    if len(out) == start:
        out.append(INDENT * depth + "pass")


def _statement(gen, s, out, depth, shape):
    pad = INDENT * depth
    if isinstance(s, ast.Pass):
        out.append(pad + "pass")
    elif isinstance(s, ast.ExprStmt):
        out.append(pad + gen.expr(s.expr))
        _stop_if_ended(gen, s, out, pad, shape)
    elif isinstance(s, ast.Assign):
        out.extend(pad + line for line in gen.assignment(s))
        _stop_if_ended(gen, s, out, pad, shape)
    elif isinstance(s, ast.If):
        keyword = "if"
        for cond, branch in s.branches:
            out.append(f"{pad}{keyword} {gen.expr(cond)}:")
            _block(gen, branch, out, depth + 1, shape)
            keyword = "elif"
        if s.orelse:
            out.append(pad + "else:")
            _block(gen, s.orelse, out, depth + 1, shape)
    elif isinstance(s, ast.For):
        item = gen.fresh()
        where = gen.bind(gen.sn.loc(s.source), "_l")
        out.append(f"{pad}for {item} in {gen.bind(loop_items)}(g, {gen.expr(s.source)}, {where}):")
        _count_round(gen, s, out, depth + 1, shape)
        out.append(f"{pad}{INDENT}L[{s.var!r}] = {item}")
        _loop_body(gen, s.body, out, depth + 1, shape)
    elif isinstance(s, ast.While):
        out.append(f"{pad}while {gen.expr(s.cond)}:")
        out.extend(f"{pad}{INDENT}{line}" for line in budget.charged(1, gen.bind(gen.sn.loc(s), "_l")))
        _count_round(gen, s, out, depth + 1, shape)
        _loop_body(gen, s.body, out, depth + 1, shape)
    elif isinstance(s, ast.Break):
        out.append(pad + "break")
    elif isinstance(s, ast.Continue):
        out.append(pad + "continue")
    elif isinstance(s, ast.Return):
        out.append(pad + "return " + (gen.expr(s.value) if s.value is not None else "None"))
    else:
        raise gen.c._error(f"unsupported statement {type(s).__name__}", gen.sn, s)


def _literal_writes(gen, stmts, i, shape) -> list:
    """The statements from ``stmts[i]`` on that set a property of the one object a bare name holds to a literal,
    in place (``d.face = ""``, ``d.held = false``: :func:`.fast_reads.in_place_write`), with no test for the
    end between them (:func:`_stop_if_ended`): one statement, or none, where there is no such run."""
    run: list[ast.Assign] = []
    holder = None   # the name the run's object is held by
    for s in stmts[i:]:
        target = s.target if isinstance(s, ast.Assign) and not s.op else None
        if not (isinstance(target, ast.Attr) and isinstance(target.obj, ast.Name)
                and holder in (None, target.obj.id)
                and in_place_write(gen, target.name, s.value)
                and target.name not in gen.env.fixed_thing_props and target.name not in gen.env.fixed_zone_props):
            break
        run.append(s)
        holder = target.obj.id
        if _tests_end(gen, s, shape):   # the test comes after it: the run ends here
            break
    return run


def _grouped_writes(gen, run, out, depth, shape):
    """Statements ``run`` (:func:`_literal_writes`) as one: the object read and the thing's dict found once.
    Each is still checked as its own statement (:func:`.assignments.assignment`), for its errors."""
    pad = INDENT * depth
    for s in run:
        gen.assignment(s)   # what it reports at compile time, reported as before (its lines are not used)
    obj = gen.expr(run[0].target.obj)
    writes = [(s.target.name, gen.expr(s.value), gen.bind(gen.sn.loc(s.target), "_l")) for s in run]
    out.extend(pad + line for line in declared_writes(gen, obj, writes))
    _stop_if_ended(gen, run[-1], out, pad, shape)


def _loop_body(gen, stmts, out, depth, shape):
    gen.looping += 1   # what it reads, it reads once per round: worth holding (Generator.container)
    try:
        _block(gen, stmts, out, depth, shape)
    finally:
        gen.looping -= 1


def _tests(stmts):
    """The conditions and loop sources of statements ``stmts``, at any depth."""
    for s in stmts:
        if isinstance(s, ast.If):
            for cond, branch in s.branches:
                yield cond
                yield from _tests(branch)
            yield from _tests(s.orelse)
        elif isinstance(s, ast.For):
            yield s.source
            yield from _tests(s.body)
        elif isinstance(s, ast.While):
            yield s.cond
            yield from _tests(s.body)


def _tests_end(gen, s, shape) -> bool:
    # where the VM tests for the end of the game: after each statement of its own (a Do); one that calls
    # no effect nor any function that changes the game cannot end it, and nothing before it has (see Shape)
    return shape.stops_at_end and not (shape.tests_change_nothing and gen._changes_nothing(s))


def _stop_if_ended(gen, s, out, pad, shape):
    if _tests_end(gen, s, shape):
        out.append(f"{pad}if g.state.over is not was_over:")
        out.append(f"{pad}{INDENT}return None")


def _count_round(gen, s, out, depth, shape):
    pad = INDENT * depth
    out.append(f"{pad}n += 1")
    out.append(f"{pad}if n > {shape.limit}:")
    out.append(f"{pad}{INDENT}{gen.bind(runaway)}(g, {shape.limit}, {gen.bind(gen.sn.loc(s), '_l')})")
