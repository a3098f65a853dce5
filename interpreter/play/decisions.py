"""Decisions: what a waiting player may do, and doing it.

The VM waits for players at the instructions of :mod:`interpreter.machine.waits`,
which set ``state.pending``. Legal actions are enumerated from action definitions (parameters with domain
expressions, a condition, a cost); an illegal action is refused as a value.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..dsl.enumerators import choices
from ..load.limits import MAX_ACTION_DEPTH, MAX_ACTION_ITEMS, MAX_CHOICES, MAX_TEXT, MAX_WORK
from ..machine.budget import over_budget, too_many_choices
from ..machine.values import ThingRef, display, encode
from ..machine.vm import LOCALS, PC
from ..machine.waits import CHOOSE, PASS, turn_taken
from .visibility import watchers


class Action:
    """One choice a player can make. ``args`` is a tuple of (name, value) pairs.

    ``label`` is the text shown to people. It is made when first read, from
    the game the action was offered in (bots never read labels, so
    enumerating actions stays cheap); an action built by hand may be given
    its text.
    """

    __slots__ = ("player", "name", "args", "_text", "_game")

    def __init__(self, player: int, name: str, args: tuple = (), text: str | None = None, game=None):
        self.player = player
        self.name = name
        self.args = args
        self._text = text
        self._game = game

    @property
    def label(self) -> str:
        if self._text is None:
            self._text = describe(self._game, self) if self._game is not None else ""
            self._game = None
        return self._text

    def arg(self, name, default=None):
        for key, value in self.args:
            if key == name:
                return value
        return default

    def to_json(self) -> dict:
        args = {}
        for key, value in self.args:   # (a loop, not a comprehension: most actions have one choice, a thing)
            args[key] = {"thing": value.id} if value.__class__ is ThingRef else encode(value)
        return {"player": self.player, "action": self.name, "args": args}

    def __eq__(self, other):
        if not isinstance(other, Action):
            return NotImplemented
        return self.player == other.player and self.name == other.name and self.args == other.args

    def __hash__(self):
        return hash((self.player, self.name, self.args))

    def __repr__(self) -> str:
        return f"Action(player={self.player!r}, name={self.name!r}, args={self.args!r})"

    def __str__(self) -> str:
        return self.label or self.name


# a seat's key in a simultaneous step's commitments (the state's JSON keys are strings), made once
MAX_SEAT_KEYS = 64
SEAT_KEYS = tuple(str(seat) for seat in range(MAX_SEAT_KEYS))

RULE = "rule"          # a Refused kind: the rules refuse the action
UNKNOWN = "unknown"    # a Refused kind: the action names a seat, action, choice or value that exists nowhere


@dataclass(frozen=True)
class Unknown:
    """What a refused action names that does not exist in the game, so that no rule was asked."""

    what: str            # seat, action, choice, option, thing, zone, space, player, thing or zone
    name: str            # the name as the action gave it
    known: tuple = ()    # names that do exist there, for a "did you mean"


@dataclass(frozen=True)
class Refused:
    """The value :meth:`Game.apply` returns for an illegal action.

    ``kind`` is :data:`RULE` when the rules refuse it, :data:`UNKNOWN` when it names something that exists
    nowhere in the game (``unknown`` says what): such a refusal tests no rule.
    """

    action: object
    reason: str
    kind: str = RULE
    unknown: Unknown | None = None

    ok = False

    def __bool__(self):
        return False


@dataclass(frozen=True)
class Applied:
    action: Action
    ok = True

    def __bool__(self):
        return True


def malformed(action) -> str | None:
    """Why ``action`` (an :class:`Action` or its JSON form) is too big or too deep to read, or None.

    Walked with an explicit stack and stopped at the limits, so an action of any shape from
    outside (nested 3,000 deep, a million items) is refused before anything reads it recursively.
    """
    todo = [(action, 1)]
    seen = 0
    while todo:
        value, depth = todo.pop()
        seen += 1
        if isinstance(value, Action):
            value = (value.player, value.name, value.args)
        if seen > MAX_ACTION_ITEMS:
            return f"not an action: more than {MAX_ACTION_ITEMS:,} values"
        if isinstance(value, (str, bytes)):
            if len(value) > MAX_TEXT:
                return f"not an action: a text of more than {MAX_TEXT:,} characters"
            continue
        if isinstance(value, dict):
            value = [*value.keys(), *value.values()]
        elif not isinstance(value, (list, tuple)):
            continue
        if depth > MAX_ACTION_DEPTH:
            return f"not an action: lists or mappings nested more than {MAX_ACTION_DEPTH} deep"
        if len(value) > MAX_ACTION_ITEMS:
            return f"not an action: more than {MAX_ACTION_ITEMS:,} values"
        todo.extend((item, depth + 1) for item in value)
    return None


# --- enumeration ------------------------------------------------------------------

def deciding(pending) -> list[int]:
    if pending is None:
        return []
    if pending["kind"] == "simultaneous":
        commits = pending["commits"]
        if not commits:
            return list(pending["players"])
        return [s for s in pending["players"] if str(s) not in commits]
    return [pending["player"]]


def _domain(g, fn, local, loc):
    return choices(g, fn(g, local), loc)   # a zone: its things (a new list)


def _many(adef, found: list) -> None:
    """Refuse a decision of more than ``MAX_CHOICES`` actions, checked once per batch of them."""
    if len(found) > MAX_CHOICES:
        raise too_many_choices(f"action '{adef.id}'", len(found), adef.location)


def generic(g, adef, seat: int, found: list, make=Action) -> None:
    """Append to ``found`` every legal combination of ``adef``'s choices for ``seat``, made by ``make`` (as the
    generated loops make them: an :class:`Action`, or a :func:`candidate`), through the compiled domain, cost
    and condition functions: the path of an action without generated loops (see :func:`offered`)."""
    local = {"player": g.table.players[seat]}
    params = adef.params
    checked = bool(adef.costs) or adef.condition is not None
    if len(params) == 1:   # the common case, without the recursion
        name, fn = params[0]
        aid = adef.id
        values = _domain(g, fn, local, adef.location)
        if checked:   # unchecked, every value is an action, bounded by MAX_CHOICES below
            g.work += len(values)
            if g.work > MAX_WORK:
                raise over_budget(adef.location)
        for value in values:
            if checked:
                local[name] = value
                if not _legal(g, adef, local, seat):
                    continue
            found.append(make(seat, aid, ((name, value),), None, g))
        if len(found) > MAX_CHOICES:
            _many(adef, found)
        return
    _combinations(g, adef, seat, local, 0, {}, found, make)


def _legal(g, adef, local, seat) -> bool:
    """Whether the chosen values in ``local`` pass ``adef``'s costs and condition."""
    if adef.costs:
        pvars = g.state.pvars[seat]
        for counter, amount in adef.costs:
            if pvars.get(counter, 0) < amount(g, local):
                return False
    return adef.condition is None or adef.condition(g, local)


def _combinations(g, adef, seat, local, i, shared, found, make) -> None:
    """Choices ``i`` onwards. A domain that reads no earlier choice is the same
    for all of them (domains are pure), so it is worked out once, in ``shared``."""
    params = adef.params
    if i == len(params):   # no choices at all
        if _legal(g, adef, local, seat):
            found.append(make(seat, adef.id, (), None, g))
        return
    name, fn = params[i]
    if i in adef.independent:
        values = shared.get(i)
        if values is None:
            values = shared[i] = _domain(g, fn, local, adef.location)
    else:
        values = _domain(g, fn, local, adef.location)
    g.work += len(values)   # listing is work: each choice list is charged once per walk (again for each
    if g.work > MAX_WORK:   # earlier choice)
        raise over_budget(adef.location)
    if i + 1 < len(params):
        for value in values:
            local[name] = value
            _combinations(g, adef, seat, local, i + 1, shared, found, make)
    else:   # the last choice: each value completes an action, checked here without a call per value
        earlier = tuple([(n, local[n]) for n, _ in params[:i]])   # (a list first: no generator to resume per item)
        checked = bool(adef.costs) or adef.condition is not None
        for value in values:
            local[name] = value
            if not checked or _legal(g, adef, local, seat):
                found.append(make(seat, adef.id, (*earlier, (name, value)), None, g))
    local.pop(name, None)
    if len(found) > MAX_CHOICES:   # checked after each batch
        _many(adef, found)


def describe(g, action: Action) -> str:
    """The label of any action, also of one rebuilt from JSON."""
    if action._text is not None:
        return action._text
    pending = g.state.pending
    if action.name == CHOOSE and pending is not None and pending["kind"] == "choice":
        # an answer to choose(...): the option's own label, as legal_actions() gives it
        option = action.arg("option")
        labels = pending.get("labels") or [display(o) for o in pending["options"]]
        for value, text in zip(pending["options"], labels):
            if value == option:
                return text
    adef = g.ruleset.actions.get(action.name)
    if adef is None:
        return "end turn" if action.name == PASS else " ".join([action.name] + [display(v) for _, v in action.args])
    local = {"player": g.table.players[action.player], **dict(action.args)}
    return _label(g, adef, local, action.args)


def _label(g, adef, local, args):
    if adef.label_fn is not None:
        return str(adef.label_fn(g, local))
    if not args:
        return adef.label
    return adef.label + " " + " ".join(f"{display(v)}" for _, v in args)


def candidate(seat: int, name: str, args: tuple, text, game) -> tuple:
    """A legal action as the enumeration lists it: ``(name, args)``, what an :class:`Action` of ``seat`` is
    made from when one is taken or asked for (a bot takes one of a seat's several; an object each is waste)."""
    return name, args


def candidates(g, pending, seat: int) -> list:
    """The legal actions of the pending turn or simultaneous step for ``seat``, pass aside, in the order
    :func:`offered` lists them: :func:`candidate` pairs, or, in a game whose actions are asked for as
    objects (``g.offer_actions``: the public API, a search's steps), the :class:`Action` objects themselves.

    Enumerated once per decision: the wait asks (to skip a seat with nothing to do), the playout loop,
    ``legal_actions`` and ``apply`` reuse the list until the pending decision is replaced.
    """
    cache = g.offered_cache
    if cache is None or cache[0] is not pending:
        cache = g.offered_cache = (pending, {}, {})
    found = cache[1].get(seat)
    if found is None:
        # (objects asked for anyway: made at once, not twice; else the generated loops append the pairs
        # themselves, handed no maker)
        objects = g.offer_actions
        maker, make = (Action, Action) if objects else (None, candidate)
        found = []
        append, defs = found.append, g.ruleset.actions
        for aid in pending["actions"]:
            adef = defs[aid]
            listed = adef.enumerator   # the action's generated loops (interpreter/dsl/enumerators.py)
            if listed is not None:
                listed(g, seat, found, append, maker)
            else:
                generic(g, adef, seat, found, make)
        cache[1][seat] = found
        if objects:
            cache[2][seat] = found
    return found


def offered(g, pending, seat: int) -> list[Action]:
    """:func:`candidates` as :class:`Action` objects, made once per decision: the same objects each time
    they are asked for, so that ``apply`` knows one taken from ``legal_actions`` (:func:`was_offered`).
    From now on the game's enumerations make the objects at once (``g.offer_actions``)."""
    g.offer_actions = True
    found = candidates(g, pending, seat)
    made = g.offered_cache[2]
    actions = made.get(seat)
    if actions is None:
        actions = made[seat] = [Action(seat, name, args, None, g) for name, args in found]
    return actions


def legal_actions(g, seat: int | None = None) -> list[Action]:
    pending = g.state.pending
    if pending is None or g.state.over:
        return []
    waiting = deciding(pending)
    out: list[Action] = []
    for s in (waiting if seat is None else [seat]):
        if s not in waiting:
            continue
        if pending["kind"] == "choice":
            labels = pending.get("labels") or [display(o) for o in pending["options"]]
            out += [Action(s, CHOOSE, (("option", o),), f"{text}") for o, text in zip(pending["options"], labels)]
            continue
        out.extend(offered(g, pending, s))
        if pending["kind"] == "turn" and pending["pass"]:
            out.append(Action(s, PASS, (), "end turn"))
    return out


def was_offered(g, action: Action) -> bool:
    """True if ``action`` is one of the very objects enumerated for the pending decision (so it is legal)."""
    cache = g.offered_cache
    if cache is None or cache[0] is not g.state.pending or g.state.over or type(action.player) is not int:
        return False
    # in a simultaneous step the pending decision outlives a seat's commitment
    return any(a is action for a in cache[2].get(action.player, ())) and action.player in deciding(cache[0])


def check(g, action: Action) -> str | None:
    """Why ``action`` is illegal now, or None if it is legal."""
    pending = g.state.pending
    if g.state.over:
        return "the game is over"
    if pending is None:
        return "no decision is pending"
    if not isinstance(action.player, int) or not 0 <= action.player < len(g.table.players):
        return f"there is no player in seat {action.player!r} to take this decision"
    if action.player not in deciding(pending):
        waiting = ", ".join(g.player_name(s) for s in deciding(pending))
        return f"it is not {g.player_name(action.player)}'s decision (waiting for {waiting})"
    if pending["kind"] == "choice":
        if action.name != CHOOSE or action.arg("option") not in pending["options"]:
            return "not one of the offered options"
        extra = sorted({n for n, _ in action.args} - {"option"})
        # (read past, they made a saved or sent decision say more than was decided)
        return f"a choice takes only its option, not {', '.join(extra)}" if extra else None
    if action.name == PASS:
        if action.args:   # (dropped, a saved or sent decision said more than was decided)
            return f"ending the turn takes no choices, not {', '.join(sorted({n for n, _ in action.args}))}"
        return None if pending["kind"] == "turn" and pending["pass"] else "passing is not allowed here"
    if action.name not in pending["actions"]:
        offered = ", ".join(pending["actions"])
        return f"action '{action.name}' is not offered now (offered: {offered})"
    adef = g.ruleset.actions[action.name]
    local = {"player": g.table.players[action.player]}
    given = dict(action.args)
    for name, fn in adef.params:
        if name not in given:
            return f"missing choice '{name}'"
        if given[name] not in _domain(g, fn, local, adef.location):
            return f"{display(given[name])} is not a possible choice for '{name}'"
        local[name] = given[name]
    if set(given) - {n for n, _ in adef.params}:
        return f"unknown choices: {', '.join(sorted(set(given) - {n for n, _ in adef.params}))}"
    for counter, amount in adef.costs:
        need = amount(g, local)
        if g.state.pvars[action.player].get(counter, 0) < need:
            return f"it costs {need} {counter} and {g.player_name(action.player)} has " \
                   f"{g.state.pvars[action.player].get(counter, 0)}"
    for condition, reason in adef.reasons:
        if not condition(g, local):
            return reason or f"a condition of '{adef.id}' does not hold"
    if adef.condition is not None and not adef.condition(g, local):
        return adef.reason or f"the condition of '{adef.id}' does not hold"
    return None


def _who_sees_args(g, action: Action):
    """Seats that may see every thing named in the action's choices (None: everyone)."""
    seen = None
    for _, value in action.args:
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ThingRef):
                who = watchers(g, item.id, g.state.where[item.id])
                if who is not None:
                    seen = set(who) if seen is None else seen & set(who)
    if seen is None:
        return None
    return sorted(seen | {action.player})


def commit(g, action: Action) -> None:
    """Carry out a checked action: resume the VM where the decision was raised."""
    st = g.state
    pending = st.pending
    kind = pending["kind"]
    if g.record:
        event = {"e": "decide", "player": action.player, "action": action.to_json(), "label": describe(g, action)}
        if kind == "simultaneous":
            event["only"] = [action.player]
        else:
            seers = _who_sees_args(g, action)
            if seers is not None:
                event["only"] = seers
        g.emit(event)
    if kind == "turn":
        frame = st.stack[-1]
        st.pending = None
        name = action.name
        # counted actions, stages (machine/waits.py): a plain turn's action changes nothing of the turn
        if (name == PASS or "counted" in pending or "staged" in pending) and turn_taken(frame[LOCALS], pending, name):
            frame[PC] += 1
            return
        adef = g.ruleset.actions[action.name]
        if adef.costs:
            _start_action(g, action)
        elif adef.code_id is not None:   # (_start_action written out, as below)
            local = {"player": g.table.players[action.player]}
            for key, value in action.args:   # (update() of pairs costs more: most actions have one choice)
                local[key] = value
            st.stack.append([adef.code_id, 0, local, None])
        return
    if kind == "choice":
        frame = st.stack[-1]
        if pending["var"]:
            frame[LOCALS][pending["var"]] = action.arg("option")
        frame[PC] += 1
        st.pending = None
        return
    # a simultaneous step: the commitment kept until the last seat commits, then the effects of all of them
    seat = action.player
    if g.record:   # the label is only ever shown in the reveal event
        committed = action.to_json()
        committed["label"] = describe(g, action)
    else:   # (to_json written out: a step of four seats commits four times a round)
        args = {}
        for key, value in action.args:
            args[key] = {"thing": value.id} if value.__class__ is ThingRef else encode(value)
        committed = {"player": seat, "action": action.name, "args": args}
    commits = pending["commits"]
    commits[SEAT_KEYS[seat] if 0 <= seat < MAX_SEAT_KEYS else str(seat)] = committed
    # the commitments are data in the state (a game saved or cloned here keeps them); the Action objects
    # are kept beside them too, so that when the last seat commits they need not be decoded again
    held = g.committed
    if held is None or held[0] is not pending:
        held = g.committed = (pending, {})
    objects = held[1]
    objects[seat] = action
    if len(commits) < len(pending["players"]):   # only seats still deciding commit: some are left
        return
    st.pending = None
    g.committed = None
    stack = st.stack
    stack[-1][PC] += 1
    if g.record or len(objects) < len(pending["players"]):   # a reveal to tell, or commitments to decode
        seats = sorted(pending["players"])
        raw = [pending["commits"][str(s)] for s in seats]
        decoded = [objects[s] if s in objects else g.action_from_json(c) for s, c in zip(seats, raw)]
        if g.record:
            g.emit({"e": "reveal", "actions": [a.to_json() for a in decoded], "labels": [c.get("label") for c in raw]})
        objects = dict(zip(seats, decoded))
    defs, players = g.ruleset.actions, g.table.players
    for seat in sorted(objects, reverse=True):   # the effects run in seat order: the last seat's frame first
        action = objects[seat]
        adef = defs[action.name]
        if adef.costs:
            _start_action(g, action)
        elif adef.code_id is not None:   # (_start_action written out: an action without a cost, the commonest)
            local = {"player": players[action.player]}
            for key, value in action.args:
                local[key] = value
            stack.append([adef.code_id, 0, local, None])


def _start_action(g, action: Action) -> None:
    adef = g.ruleset.actions[action.name]
    local = {"player": g.table.players[action.player]}
    for key, value in action.args:
        local[key] = value
    if adef.costs:
        for counter, amount in adef.costs:
            cost = amount(g, local)
            if cost:
                g.set_attr(local["player"], counter, g.state.pvars[action.player][counter] - cost, adef.location)
    if adef.code_id is not None:
        g.state.stack.append([adef.code_id, 0, local, None])
