"""The rules VM: compiled statements as flat instruction lists.

A frame is plain data (``[code_id, pc, locals, return_var]``) kept in the
game state, so the game's position is never held by a Python generator: a
state can be cloned or saved at any decision, even one raised in the middle
of an effect. Expressions inside instructions are compiled closures
``fn(game, locals)``; only statements go through this loop.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import Location
from . import budget

if TYPE_CHECKING:
    from .host import Fn, GameHost

# Frame layout (a list, so cloning is a slice): [code_id, pc, locals, return_var]
CODE, PC, LOCALS, RET = 0, 1, 2, 3


class Code:
    """One compiled block: a function body, an action effect, the flow, ..."""

    __slots__ = ("id", "instrs", "params", "location", "suspends", "runner")

    def __init__(self, id: str, instrs: list, params: tuple = (), location: Location | None = None):
        self.id = id
        self.instrs = instrs
        self.params = params
        self.location = location
        self.suspends = False
        self.runner = None   # the compiled function that runs it (machine/execute.py), made on first use

    def __repr__(self):
        return f"Code({self.id!r}, {len(self.instrs)} instrs)"


class Instr:
    """One instruction. ``run`` carries it out on the VM and moves ``frame[PC]`` on (or not).

    An instruction that never jumps, never changes the frame and either moves
    on by one or hands the game back to the VM may also define
    ``step(g, stack) -> bool``: it does the work and returns True when the VM
    must look again without moving on (frames pushed, the game over). The
    compiled code runs such instructions in line (:mod:`.execute`).
    """

    __slots__ = ("loc",)
    step: Callable[..., bool] | None = None   # step(g, stack) -> bool, for the instructions that have it

    def run(self, g: GameHost, frame, stack):  # pragma: no cover - interface
        raise NotImplementedError

    def step_lines(self, i: int) -> tuple[list[str], dict] | None:
        """Python lines doing what ``step`` does, for a step that never hands the game back, and the
        objects they name (``_x{i}``), or None.

        The compiled code (:mod:`.execute`) writes them in place of a call to ``step``, with ``g``, ``st``
        (the state) and ``stack`` in scope. Only the compiler's names: whatever comes from a ruleset is
        bound as an object, never written into the lines."""
        return None

    def step_test(self) -> str | None:
        """A Python expression doing what ``step`` does and giving its answer (True: hand the game back),
        in place of a call to ``step``; None: that call."""
        return None


class Do(Instr):
    """Evaluate a closure for its effect (an assignment, an effect call)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Fn, loc: Location | None):
        self.fn = fn
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        self.fn(g, frame[LOCALS])
        frame[PC] += 1


class Jump(Instr):
    __slots__ = ("target",)

    def __init__(self, target, loc=None):
        self.target = target
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        frame[PC] = self.target


class JumpIfNot(Instr):
    __slots__ = ("cond", "target")

    def __init__(self, cond: Fn, target, loc: Location | None):   # target: None until the compiler patches it
        self.cond = cond
        self.target = target
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        if self.cond(g, frame[LOCALS]):
            frame[PC] += 1
        else:
            frame[PC] = self.target


class ForInit(Instr):
    """Snapshot the collection of a ``for`` loop into a hidden local."""

    __slots__ = ("slot", "source")

    def __init__(self, slot: str, source: Fn, loc: Location | None):
        self.slot = slot
        self.source = source
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        items = self.source(g, frame[LOCALS])
        if hasattr(items, "defn"):  # a zone: its things, as they are now
            items = g.zone_things(items)
        frame[LOCALS][self.slot] = [tuple(budget.each(g, items, self.loc)), 0]   # shared by clones: never changed
        frame[PC] += 1


class ForNext(Instr):
    __slots__ = ("slot", "var", "end")

    def __init__(self, slot, var, end, loc):
        self.slot = slot
        self.var = var
        self.end = end
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        local = frame[LOCALS]
        it = local[self.slot]
        if it[1] < len(it[0]):
            local[self.var] = it[0][it[1]]
            it[1] += 1
            frame[PC] += 1
        else:
            del local[self.slot]
            frame[PC] = self.end


class Return(Instr):
    __slots__ = ("value",)

    def __init__(self, value, loc):
        self.value = value
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        result = self.value(g, frame[LOCALS]) if self.value is not None else None
        finish_frame(g, stack, result)


class CallCode(Instr):
    """Call a ruleset function that may wait for a decision."""

    __slots__ = ("code_id", "args", "result")

    def __init__(self, code_id, args, result, loc):
        self.code_id = code_id
        self.args = args
        self.result = result
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        local = frame[LOCALS]
        code = g.codes[self.code_id]
        new_locals = {name: arg(g, local) for name, arg in zip(code.params, self.args)}
        frame[PC] += 1
        stack.append([self.code_id, 0, new_locals, self.result])


class CallEffect(Instr):
    """``resolve(card, player)``: run the effect written on a card's definition."""

    __slots__ = ("card", "player", "result")

    def __init__(self, card, player, result, loc):
        self.card = card
        self.player = player
        self.result = result
        self.loc = loc

    def run(self, g: GameHost, frame, stack):
        local = frame[LOCALS]
        card = self.card(g, local)
        code_id = f"effect:{getattr(card, 'def_id', None)}"
        frame[PC] += 1
        if code_id not in g.codes:
            if self.result is not None:
                local[self.result] = None
            return
        stack.append([code_id, 0, {"card": card, "player": self.player(g, local)}, self.result])


def finish_frame(g: GameHost, stack, result=None):
    """Pop the top frame and hand ``result`` to its caller."""
    done = stack.pop()
    if done[RET] is not None and stack:
        stack[-1][LOCALS][done[RET]] = result
    g.retval = result
