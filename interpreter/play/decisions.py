"""Decisions: what a waiting player may do, and doing it.

The VM waits for players at the instructions of :mod:`interpreter.machine.waits`,
which set ``state.pending``. Legal actions are enumerated from action definitions (parameters with domain
expressions, a condition, a cost); an illegal action is refused as a value.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import GameError
from ..machine.values import ThingRef, display, encode
from ..machine.vm import LOCALS, PC
from ..machine.waits import PASS
from .visibility import watchers


@dataclass(frozen=True)
class Action:
    """One choice a player can make. ``args`` is a tuple of (name, value) pairs.

    ``text`` is the label shown to people: a string, or a function that
    renders it when first read (bots never read labels, so enumerating
    actions stays cheap).
    """

    player: int
    name: str
    args: tuple = ()
    text: object = field(default="", compare=False, repr=False)

    @property
    def label(self) -> str:
        text = self.text
        if callable(text):
            text = str(text())
            object.__setattr__(self, "text", text)
        return text

    def arg(self, name, default=None):
        for key, value in self.args:
            if key == name:
                return value
        return default

    def to_json(self) -> dict:
        return {"player": self.player, "action": self.name, "args": {k: encode(v) for k, v in self.args}}

    def __str__(self) -> str:
        return self.label or self.name


@dataclass(frozen=True)
class Refused:
    """The value :meth:`Game.apply` returns for an illegal action."""

    action: object
    reason: str

    ok = False

    def __bool__(self):
        return False


@dataclass(frozen=True)
class Applied:
    action: Action
    ok = True

    def __bool__(self):
        return True




# --- enumeration ------------------------------------------------------------------

def deciding(pending) -> list[int]:
    if pending is None:
        return []
    if pending["kind"] == "simultaneous":
        return [s for s in pending["players"] if str(s) not in pending["commits"]]
    return [pending["player"]]


def _domain(g, fn, local, loc):
    items = fn(g, local)
    if hasattr(items, "defn"):  # a zone: its things
        return list(g.zone_things(items))
    if isinstance(items, (list, tuple)):
        return list(items)
    raise GameError(f"an action parameter's choices must be a list or a zone, got {display(items)}", loc)


def _enumerate(g, adef, seat: int, stop_at_first=False):
    player = g.table.players[seat]
    local = {"player": player}
    pvars = g.state.pvars[seat]
    found = []

    def affordable():
        return all(pvars.get(counter, 0) >= amount(g, local) for counter, amount in adef.costs)

    def rec(i):
        if i == len(adef.params):
            if affordable() and (adef.condition is None or adef.condition(g, local)):
                args = tuple((name, local[name]) for name, _ in adef.params)
                found.append(Action(seat, adef.id, args, _lazy_label(g, adef, dict(local), args)))
                return stop_at_first
            return False
        name, fn = adef.params[i]
        for value in _domain(g, fn, local, adef.location):
            local[name] = value
            if rec(i + 1):
                return True
        local.pop(name, None)
        return False

    rec(0)
    return found


def _lazy_label(g, adef, local, args):
    return lambda: _label(g, adef, local, args)


def describe(g, action: Action) -> str:
    """The label of any action, also of one rebuilt from JSON."""
    if action.text:
        return action.label
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


def legal_actions(g, seat: int | None = None) -> list[Action]:
    pending = g.state.pending
    if pending is None or g.state.over:
        return []
    seats = deciding(pending) if seat is None else [seat]
    out = []
    for s in seats:
        if s not in deciding(pending):
            continue
        if pending["kind"] == "choice":
            labels = pending.get("labels") or [display(o) for o in pending["options"]]
            out.extend(Action(s, "choose", (("option", o),), f"{text}")
                       for o, text in zip(pending["options"], labels))
            continue
        for aid in pending["actions"]:
            out.extend(_enumerate(g, g.ruleset.actions[aid], s))
        if pending["kind"] == "turn" and pending["pass"]:
            out.append(Action(s, PASS, (), "end turn"))
    return out


def any_legal(g, pending, seat) -> bool:
    for aid in pending["actions"]:
        if _enumerate(g, g.ruleset.actions[aid], seat, stop_at_first=True):
            return True
    return False


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
        if action.name != "choose" or action.arg("option") not in pending["options"]:
            return "not one of the offered options"
        return None
    if action.name == PASS:
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
    pending = g.state.pending
    stack = g.state.stack
    frame = stack[-1]
    kind = pending["kind"]
    event = {"e": "decide", "player": action.player, "action": action.to_json(), "label": describe(g, action)}
    if kind == "simultaneous":
        event["only"] = [action.player]
    else:
        seers = _who_sees_args(g, action)
        if seers is not None:
            event["only"] = seers
    g.emit(event)
    if kind == "choice":
        if pending["var"]:
            frame[LOCALS][pending["var"]] = action.arg("option")
        frame[PC] += 1
        g.state.pending = None
        return
    if kind == "turn":
        g.state.pending = None
        if action.name == PASS:
            frame[PC] += 1
            return
        _start_action(g, action)
        return
    pending["commits"][str(action.player)] = action.to_json() | {"label": describe(g, action)}
    if deciding(pending):
        return
    g.state.pending = None
    frame[PC] += 1
    raw = [pending["commits"][str(s)] for s in sorted(pending["players"])]
    commits = [g.action_from_json(c) for c in raw]
    g.emit({"e": "reveal", "actions": [a.to_json() for a in commits], "labels": [c["label"] for c in raw]})
    for act in reversed(commits):
        _start_action(g, act)


def _start_action(g, action: Action) -> None:
    adef = g.ruleset.actions[action.name]
    local = {"player": g.table.players[action.player]}
    local.update(action.args)
    for counter, amount in adef.costs:
        cost = amount(g, local)
        if cost:
            g.set_attr(local["player"], counter, g.state.pvars[action.player][counter] - cost, adef.location)
    if adef.code_id is not None:
        g.state.stack.append([adef.code_id, 0, local, None])
