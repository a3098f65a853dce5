"""Running compiled rules: each code block as one resumable Python function, and the VM loop over frames.

The VM used to run a block one instruction at a time: take the frame, look
up the instruction, call its ``run`` method, count a step, check the budget.
:func:`compile_code` turns the whole list into one function

    run(g, frame, stack, limit, was_over) -> instructions executed

that keeps ``pc`` in a Python local and runs straight-line stretches
(basic blocks) without returning to the VM. The position stays data: the
function starts from ``frame[PC]`` and writes ``pc`` back before it returns,
so a game can still be saved, cloned and resumed at any decision, also one
raised in the middle of an effect.

Only the plain instructions are inlined (``Do``, ``Jump``, ``JumpIfNot``,
``ForInit``, ``ForNext``), those that declare a ``step`` (entering and
leaving a phase, settling triggers: the function returns only when the step
says the VM must look), and a call of a function that may wait
(``CallCode``: its frame pushed, then the function returns). Every other
instruction (a return, a decision) is run by its ``run`` method, after which the function returns so
the VM can look at the stack and the pending decision again. It counts
instructions exactly as the VM did, returns early when the game ends (or,
for a function run for its value, when it ends or starts) and when
``limit`` is passed, so the step budget keeps every loop finite. A
function that runs to the end of its block (also one entered there, a
caller whose last instruction was the call) pops its own frame, as the VM's
next look would, so that the VM's loop only calls and charges.

The blocks are tested in order (``if pc == k``), in groups behind one
``if pc < k`` each: a forward jump sets ``pc`` and falls through to the
tests below it, a backward jump (a loop) starts the tests again, skipping
whole groups. A ``for`` loop whose jumps nest (``if``/``else``,
``continue``, ``break``, inner loops) goes round in place instead, as a
Python ``while`` behind its head's test (:class:`_Nest`); its blocks keep
their own tests for a start inside the loop. A step that never hands the
game back may be written out in place of its call (``Instr.step_lines``,
``Instr.step_test``).

The source is made only of the compiler's own names and integers: the
instructions' closures are bound as objects (``_i3``), never pasted.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import GameError, RunawayGameError
from ..load.limits import MAX_STEPS_CEILING, MAX_WORK
from . import budget as work_budget
from . import code_cache, fast_paths, linetable
from .values import ZoneRef
from .vm import PC, CallCode, Code, Do, ForInit, ForNext, Jump, JumpIfNot

if TYPE_CHECKING:
    from .host import GameHost

INLINED = (Do, Jump, JumpIfNot, ForInit, ForNext)
SYNC_CALL_WORK = 100   # work units one call_sync() costs beside its instructions


def for_items(g: GameHost, items) -> list:
    """What ``ForInit`` keeps: the collection as it is now (a zone: its things), charged to the work budget."""
    if items.__class__ is ZoneRef:   # (a list, nearly always: a class test, not hasattr's failed look-up)
        items = g.zone_things(items)
    work = g.work = g.work + len(items)   # (budget.each inlined: a loop starts in every round of most flows)
    if work > MAX_WORK:
        raise work_budget.over_budget(None)
    return [tuple(items), 0]   # a tuple: never changed, so a clone shares it


def compile_code(code, bundle=None, codes: dict | None = None):
    """The function that runs ``code`` (see the module's doc); ``bundle``: its ruleset's cached code;
    ``codes``: its ruleset's blocks by id, so that a call of one is written out (without: run by the VM)."""
    codes = codes if codes is not None else {}
    instrs = code.instrs
    size = len(instrs)
    leaders = {0, size}
    for i, ins in enumerate(instrs):
        if isinstance(ins, Jump):
            leaders.update((ins.target, i + 1))
        elif isinstance(ins, JumpIfNot):
            leaders.update((ins.target, i + 1))
        elif isinstance(ins, ForNext):
            leaders.update((ins.end, i + 1))
        elif ins.step is not None:
            leaders.add(i)               # re-entered here when it handed the game back
        elif not isinstance(ins, INLINED):
            leaders.update((i, i + 1))   # re-entered here after the VM has looked at the game
    starts = sorted(p for p in leaders if p < size)
    names = {"_for_items": for_items, "_len": len, "_located": linetable.located_error, "_Exception": Exception,
             "_instrs": instrs, "_size": size}
    lines, table = [], {}

    def emit(text, loc=None):
        lines.append(text)
        if loc is not None:
            table[len(lines)] = (loc, None)

    emit("def _run(g, frame, stack, limit, was_over):")
    emit("    st = g.state")
    emit("    L = frame[2]")
    emit("    pc = frame[1]")
    emit("    n = 0")
    emit("    try:")
    emit("        while True:")
    # the blocks in groups, each behind one test of pc: a jump back to a loop's head tests the groups
    # before it, not every block before it (the blocks, and so the budget's checks, are the same)
    group = max(4, int(len(starts) ** 0.5)) if len(starts) > 8 else len(starts)
    nest = _Nest(instrs, starts, names, codes) if fast_paths.on() else None
    for b, start in enumerate(starts):
        end = next((p for p in starts[b + 1:]), size)
        last_group = b // group == (len(starts) - 1) // group
        indent = "" if last_group else "    "
        if b % group == 0 and not last_group:
            emit(f"            if pc < {starts[b + group]}:")
        emit(f"            {indent}if pc == {start}:")
        lines_of_loop = nest.loop(start, "                " + indent) if nest is not None else None
        if lines_of_loop is not None:   # a loop that goes round in place (see _Nest)
            for text, loc in lines_of_loop:
                emit(text, loc)
            continue
        emit(f"                {indent}if n > limit:")
        emit(f"                    {indent}break")
        emit(f"                {indent}n += {end - start}")
        closed = False   # whether the block's last instruction sets pc itself
        for i in range(start, end):
            ins = instrs[i]
            rest = end - i - 1   # instructions of this block not run when it stops after instruction i
            pad = "                " + indent
            if isinstance(ins, Jump):   # the last of its block
                emit(f"{pad}pc = {ins.target}", ins.loc)
                if ins.target <= start:   # back: to the top of the tests (forward, the tests below find it)
                    emit(f"{pad}continue")
                closed = True
            elif isinstance(ins, JumpIfNot):   # the last of its block
                names[f"_f{i}"] = ins.cond
                if ins.target > start:
                    emit(f"{pad}pc = {end} if _f{i}(g, L) else {ins.target}", ins.loc)
                    closed = True
                else:
                    emit(f"{pad}if not _f{i}(g, L):", ins.loc)
                    emit(f"{pad}    pc = {ins.target}")
                    emit(f"{pad}    continue")
            elif isinstance(ins, ForNext):
                names[f"_s{i}"], names[f"_v{i}"] = ins.slot, ins.var
                _emit_next_item(emit, pad, i, ins, [f"pc = {end}"])
                emit(f"{pad}else:")
                emit(f"{pad}    del L[_s{i}]")
                emit(f"{pad}    pc = {ins.end}")   # after the loop: forward, found by the tests below
                closed = True   # (the last of its block)
            else:
                _emit_plain(emit, pad, i, ins, rest, names, codes)
        if not closed:
            emit(f"                {indent}pc = {end}")
    # the end of the code, a budget that ran out, or a position inside a stretch
    # (set by an instruction the VM ran): hand back to the VM
    emit("            break")
    emit("        frame[1] = pc")
    emit("        if pc < _size:")
    emit("            if n <= limit and pc not in _starts:")
    emit("                _instrs[pc].run(g, frame, stack)", None)
    emit("                return n + 1")
    emit("            return n")
    # run to its end (nothing handed back: the frame is on top, nothing is pending, the game goes on): the
    # frame is done, popped here rather than by the VM's next look (vm.finish_frame, written out)
    emit("        stack.pop()")
    emit("        if frame[3] is not None and stack:")
    emit("            stack[-1][2][frame[3]] = None")
    emit("        g.retval = None")
    emit("        return n")
    emit("    except _Exception as _e:")
    emit("        frame[1] = pc")
    emit("        raise _located(_e, _instrs[pc].loc if pc < _size else _code_loc) from None")
    names["_starts"] = frozenset(starts)
    names["_code_loc"] = code.location
    file_name = linetable.new_file_name()
    source = "\n".join(lines)
    linetable.register(file_name, table, source)
    namespace = dict(names, __builtins__={})
    exec(code_cache.module_code(source, file_name, bundle), namespace)
    return namespace["_run"]


def _emit_plain(emit, pad: str, i: int, ins, rest: int, names: dict, codes: dict) -> None:
    """The lines of instruction ``i``, one that never jumps (``rest``: the instructions of its block after it,
    not run when it stops there): it goes on to the next, or returns from the function with ``frame[1]`` where
    the function must start again."""
    names[f"_i{i}"] = ins
    if isinstance(ins, Do):
        names[f"_f{i}"] = ins.fn
        emit(f"{pad}_f{i}(g, L)", ins.loc)
        emit(f"{pad}if st.over is not was_over:")
        emit(f"{pad}    frame[1] = {i + 1}")
        emit(f"{pad}    return n - {rest}")
    elif isinstance(ins, ForInit):
        names[f"_f{i}"], names[f"_s{i}"] = ins.source, ins.slot
        emit(f"{pad}L[_s{i}] = _for_items(g, _f{i}(g, L))", ins.loc)
    elif ins.step is not None:
        inline = ins.step_lines(i)
        if inline is not None:   # a step that never hands back, written out
            names.update(inline[1])
            for k, line in enumerate(inline[0]):
                emit(pad + line, ins.loc if k == 0 else None)
            return
        names[f"_f{i}"] = ins.step
        test = ins.step_test() or f"_f{i}(g, stack)"
        emit(f"{pad}if {test}:", ins.loc)
        emit(f"{pad}    frame[1] = {i}")
        emit(f"{pad}    return n - {rest}")
    elif isinstance(ins, CallCode) and ins.code_id in codes:
        # a call of a function that may wait, written out (CallCode.run): its locals, then the frame
        pairs = []
        for param, arg in zip(codes[ins.code_id].params, ins.args):
            k = len(names)   # a number no other bound name of this function has
            names[f"_k{k}"], names[f"_a{k}"] = param, arg
            pairs.append(f"_k{k}: _a{k}(g, L)")
        names[f"_c{i}"], names[f"_r{i}"] = ins.code_id, ins.result
        emit(f"{pad}stack.append([_c{i}, 0, {{{', '.join(pairs)}}}, _r{i}])", ins.loc)
        emit(f"{pad}frame[1] = {i + 1}")
        emit(f"{pad}return n")
    else:
        emit(f"{pad}frame[1] = {i}")
        emit(f"{pad}_i{i}.run(g, frame, stack)", ins.loc)
        emit(f"{pad}return n")


def _emit_next_item(emit, pad: str, head: int, ins, then: list[str]) -> None:
    """The lines of a ``ForNext`` (block ``head``) that take the loop's next item, if one is left, into its
    variable and then do ``then``; the lines for no item left follow them."""
    emit(f"{pad}_it = L[_s{head}]", ins.loc)
    emit(f"{pad}_k = _it[1]")   # (the place read once: a local, not two more reads of the list)
    emit(f"{pad}if _k < _len(_it[0]):")
    emit(f"{pad}    L[_v{head}] = _it[0][_k]")
    emit(f"{pad}    _it[1] = _k + 1")
    for line in then:
        emit(f"{pad}    {line}")


class _Unnested(Exception):
    """A loop whose jumps are not nested ``if``/``else``, ``continue`` and ``break``: left to the tests of pc."""


class _Nest:
    """The loops of a block that go round in place, also those whose body spans several blocks.

    A ``for`` loop (a ``ForNext`` head, a body, the jump back) entered only at its head and whose jumps
    are all nested ``if``/``else`` (a ``JumpIfNot`` over the then-part, whose last jump skips the else),
    ``continue`` and ``break`` is written as a Python ``while`` with its head on top and the body's blocks
    as nested ``if``/``else`` from those jumps, each inner loop a ``while`` of its own. Each block keeps
    its lines, its budget check and its count, run in the order the tests of ``pc`` would run them, and
    sets ``pc`` to its start (where an error is placed); the budget's stop returns there, as the way out
    after the tests would. The blocks keep their own tests too: a function that returned from inside the
    loop (a call, a step that handed back, the budget) starts again there and is back in place at the
    next jump to the head."""

    MAX_LOOPS = 8    # whiles nested in one (Python allows 20 nested blocks)
    MAX_PAD = 160    # the indentation of the deepest if (Python allows 100 levels)

    def __init__(self, instrs, starts, names: dict, codes: dict):
        self.instrs, self.names, self.codes = instrs, names, codes
        self.ends = dict(zip(starts, starts[1:] + [len(instrs)]))
        self.jumps = []   # (from, to) of every jump
        for i, ins in enumerate(instrs):
            if isinstance(ins, (Jump, JumpIfNot)):
                self.jumps.append((i, ins.target))
            elif isinstance(ins, ForNext):
                self.jumps.append((i, ins.end))

    def loop(self, head: int, pad: str) -> list | None:
        """The lines (text, location) of the loop headed at ``head`` going round in place, indented by
        ``pad``, that leave ``pc`` at its end; None: not a loop's head, or its jumps do not nest."""
        ins = self.instrs[head]
        if not isinstance(ins, ForNext):
            return None
        if any(head < to < ins.end and not head <= at < ins.end for at, to in self.jumps):
            return None   # jumped into from outside
        out: list[tuple[str, object]] = []
        try:
            self._loop(out, head, pad, 0)
        except _Unnested:
            return None
        out.append((f"{pad}pc = {ins.end}", None))
        return out

    def _loop(self, out: list, head: int, pad: str, loops: int) -> None:
        if loops >= self.MAX_LOOPS:
            raise _Unnested
        ins = self.instrs[head]
        self.names[f"_s{head}"], self.names[f"_v{head}"] = ins.slot, ins.var
        out.append((f"{pad}while True:", None))
        body = pad + "    "
        self._count(out, body, head)
        _emit_next_item(lambda text, loc=None: out.append((text, loc)), body, head, ins, [])
        out.append((f"{body}else:", None))
        out.append((f"{body}    del L[_s{head}]", None))
        out.append((f"{body}    break", None))
        self._seq(out, head + 1, ins.end, None, (head, ins.end), body, loops + 1)

    def _count(self, out: list, pad: str, start: int) -> None:
        """A block's first lines: its place, the budget's check (stopping there), its instructions counted."""
        out.append((f"{pad}pc = {start}", None))
        out.append((f"{pad}if n > limit:", None))
        out.append((f"{pad}    frame[1] = {start}", None))
        out.append((f"{pad}    return n", None))
        out.append((f"{pad}n += {self.ends[start] - start}", None))

    def _seq(self, out: list, pos: int, stop: int, join: int | None, loop: tuple, pad: str, loops: int) -> None:
        """The blocks from ``pos`` to ``stop`` one after the other, in ``loop`` (its head and end); a jump to
        ``join`` may end them (the then-part of an if, leaving it)."""
        if len(pad) > self.MAX_PAD:
            raise _Unnested
        if pos == stop:
            out.append((f"{pad}pass", None))
        head, end = loop
        emit = lambda text, loc=None: out.append((text, loc))  # noqa: E731
        while pos < stop:
            if isinstance(self.instrs[pos], ForNext):   # an inner loop (its head a block of its own)
                if self.instrs[pos].end > stop:
                    raise _Unnested
                self._loop(out, pos, pad, loops)
                pos = self.instrs[pos].end
                continue
            block_end = self.ends[pos]
            self._count(out, pad, pos)
            for i in range(pos, block_end - 1):
                _emit_plain(emit, pad, i, self.instrs[i], block_end - i - 1, self.names, self.codes)
            i = block_end - 1
            last = self.instrs[i]
            if isinstance(last, Jump):
                if last.target == head:
                    emit(f"{pad}continue", last.loc)
                elif last.target == end:   # (a break has dropped the loop's items already)
                    emit(f"{pad}break", last.loc)
                elif last.target != join or block_end != stop:
                    raise _Unnested
                pos = block_end   # (after a continue or break: blocks entered by a jump, or none)
            elif isinstance(last, JumpIfNot):
                target = last.target
                self.names[f"_f{i}"] = last.cond
                if target == head:
                    emit(f"{pad}if not _f{i}(g, L):", last.loc)
                    emit(f"{pad}    continue")
                    pos = block_end
                    continue
                if not block_end <= target <= stop:
                    raise _Unnested
                skip = self.instrs[target - 1] if target > block_end else None
                after = skip.target if isinstance(skip, Jump) and target < skip.target <= stop else target
                emit(f"{pad}if _f{i}(g, L):", last.loc)
                self._seq(out, block_end, target, after, loop, pad + "    ", loops)
                if after > target:
                    emit(f"{pad}else:")
                    self._seq(out, target, after, after, loop, pad + "    ", loops)
                pos = after
            else:
                _emit_plain(emit, pad, i, last, 0, self.names, self.codes)
                pos = block_end


def runners_at_fill(codes: dict):
    """For :attr:`code_cache.Bundle.at_fill`: compile the runner of every block in ``codes`` (by id) at once."""
    blocks = list(codes.values())   # the blocks there are now
    def fill(bundle):
        for code in blocks:
            if code.runner is None:
                code.runner = compile_code(code, bundle, codes)
    return fill


def run(g: GameHost, stack: list, sync: bool = False) -> None:
    """Run frames until the stack is empty, the game waits or ends.

    ``sync`` runs a function for its value (from a condition, a domain, a
    label): it ignores a pending decision and counts its steps apart, so that
    merely looking at the game (``legal_actions``) never changes the state.
    """
    if sync:
        _run_sync(g, stack)
        return
    state = g.state
    if state.over:   # the game itself runs only while not over
        return
    codes = g.codes
    steps = state.steps
    budget = g.ruleset.max_steps - steps
    used = 0
    # the game's steps are the steps at the start and those run here: written once, on every way out (no
    # rule reads them while the loop runs; _advance reads them after a RunawayGameError)
    try:
        while stack and state.pending is None and not state.over:
            frame = stack[-1]
            code = codes[frame[0]]   # (frame[CODE])
            runner = code.runner
            if runner is None:
                runner = code.runner = compile_code(code, g.ruleset.code_bundle, codes)
            # (a frame run to its end, also one found there, is popped by its runner)
            done = runner(g, frame, stack, budget - used, False)
            used += done
            work = g.work = g.work + done   # instructions are work too
            if work > MAX_WORK:
                raise work_budget.over_budget(_located_at(code, frame))
            if used > budget:
                raise _runaway(state, frame, code, False, g.ruleset.max_steps)
    finally:
        state.steps = steps + used


def _run_sync(g: GameHost, stack: list) -> None:
    """:func:`run` of a function for its value: its own step budget, whatever decision is pending."""
    codes = g.codes
    state = g.state
    budget = g.ruleset.max_steps
    used = 0
    # a function asked for its value still runs once the game is over (a scenario's expectation),
    # but a game that ends during it (end_game()) stops it there
    was_over = state.over
    while stack and state.over == was_over:
        frame = stack[-1]
        code = codes[frame[0]]   # (frame[CODE])
        runner = code.runner
        if runner is None:
            runner = code.runner = compile_code(code, g.ruleset.code_bundle, codes)
        done = runner(g, frame, stack, budget - used, was_over)
        used += done
        work = g.work = g.work + done   # a function asked for its value many times adds up
        if work > MAX_WORK:
            raise work_budget.over_budget(_located_at(code, frame))
        if used > budget:
            raise _runaway(state, frame, code, True, budget)


def _located_at(code, frame):
    """Where ``frame`` of ``code`` stands: its instruction's place (the last one's once it has run to its end)."""
    return code.instrs[min(frame[PC], len(code.instrs) - 1)].loc


def _runaway(state, frame, code, sync: bool, max_steps: int) -> RunawayGameError:
    """The error for rules that passed ``limits.max_steps`` (the game's, or a function's own)."""
    phase = " > ".join(state.phase) or "(no phase)"
    what = "a function did not finish" if sync else "the game did not end"
    pc = min(frame[PC], len(code.instrs) - 1)
    return RunawayGameError(
        f"{what} within {max_steps} steps; it was in phase '{phase}'", code.instrs[pc].loc,
        hint="a loop never ends" + ("; raise limits.max_steps if the game is really this long"
                                    if max_steps < MAX_STEPS_CEILING else ""))


def call_sync(g: GameHost, code: Code, args: list):
    """Run a function that cannot wait for a decision and return its result."""
    # a call on the VM (a stack, a frame, a loop) costs as much as walking a hundred items: charge it so
    # a function that calls itself twice stops in seconds, not minutes
    work_budget.charge(g, SYNC_CALL_WORK, code.location)
    stack = [[code.id, 0, dict(zip(code.params, args)), None]]
    g.retval = None
    was_over = g.state.over
    run(g, stack, sync=True)
    if stack and g.state.over == was_over:
        raise GameError(f"function '{code.id}' waited for a decision where none may be asked", code.location)
    return g.retval
