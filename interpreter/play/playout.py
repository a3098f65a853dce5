"""The fused playout loop: bots that pick an index play a game out without the public API's round trips.

Through the public API every move of a game between bots costs a list of the
deciding seats, a copy of the legal actions with the pass appended, the
bot's choice of an :class:`Action`, and ``apply``'s check that the object is
one of those offered. When every seat is played by a bot that only needs
*how many* actions there are (``random``, ``first``), :func:`play_by_index`
does the same in one loop: the same enumeration in the same order (the
wait's own cached list), the pass counted as the last action, the bot's
index, and the same unchecked carrying out that ``apply`` ends with. The
games are the public path's move for move (``tests/test_playout.py`` plays
both for every bundled ruleset and compares logs and final states).
"""
from __future__ import annotations

from ..errors import GameError
from ..machine.values import display
from ..machine.waits import CHOOSE, PASS
from . import decisions
from .decisions import Action


def play_by_index(game, pickers, max_decisions: int | None = None) -> int:
    """Play ``game`` out, seat ``s`` choosing ``pickers[s](n)`` among its ``n`` legal actions; the decisions made."""
    state = game.state
    made = 0
    while not state.over:
        if not decide_by_index(game, pickers):
            raise nobody_can_act(game)
        made += 1
        if max_decisions is not None and made >= max_decisions:
            return made
    return made


def decide_by_index(game, pickers) -> bool:
    """One decision of a game not over: the first deciding seat ``s`` with a legal action takes the
    ``pickers[s](n)``-th of its ``n``; False when no deciding seat has one."""
    pending = game.state.pending
    if pending is None:   # (a damaged saved game) nobody is asked
        return False
    kind = pending["kind"]
    cache = game.offered_cache   # the wait asked for the seats' lists (any_legal): kept, no call to find them
    kept = cache[1] if cache is not None and cache[0] is pending else None
    if kind == "turn":   # one seat, the common case: without the list of deciding seats
        seat = pending["player"]
        game.work = 0
        found = kept.get(seat) if kept is not None else None
        if found is None:
            found = decisions.candidates(game, pending, seat)
        count = len(found) + pending["pass"]
        if not count:
            return False
        index = pickers[seat](count)
        if index < len(found):   # only the action taken is made an Action (if the list holds pairs)
            taken = found[index]
            game.carry_out_legal(Action(seat, taken[0], taken[1], None, game) if taken.__class__ is tuple else taken)
        else:
            game.carry_out_legal(Action(seat, PASS, (), "end turn"))
        return True
    if kind == "simultaneous":   # the seats yet to commit, in order, without the list of them
        commits = pending["commits"]
        held = game.committed   # the seats committed in this game by number, when it holds them all
        done = held[1] if commits and held is not None and held[0] is pending and len(held[1]) == len(commits) \
            else None
        for seat in pending["players"]:
            if commits and (seat in done if done is not None else str(seat) in commits):
                continue
            game.work = 0
            found = kept.get(seat) if kept is not None else None
            if found is None:
                found = decisions.candidates(game, pending, seat)   # (no pass)
            if found:
                taken = found[pickers[seat](len(found))]
                game.carry_out_legal(Action(seat, taken[0], taken[1], None, game) if taken.__class__ is tuple
                                     else taken)
                return True
        return False
    if kind == "choice":   # one seat's options (no pass): only the option taken made an Action
        seat = pending["player"]
        game.work = 0
        options, labels = pending["options"], pending.get("labels")
        count = min(len(options), len(labels)) if labels else len(options)   # (as legal_actions pairs them)
        if not count:
            return False
        index = pickers[seat](count)
        text = labels[index] if labels else display(options[index])
        game.carry_out_legal(Action(seat, CHOOSE, (("option", options[index]),), f"{text}"))
        return True
    for seat in decisions.deciding(pending):
        game.work = 0
        actions = decisions.legal_actions(game, seat)
        if actions:
            game.carry_out_legal(actions[pickers[seat](len(actions))])
            return True
    return False


def to_move(game, prefer=None):
    """The first deciding seat (``prefer`` first when it is among them) with a legal action and its actions
    as ``legal_actions`` lists them, or ``(None, [])``: a search bot's step, without the public call's copy
    of the wait's own list (the list is to be read, not changed)."""
    state = game.state
    pending = state.pending
    if pending is None or state.over:
        return None, []
    kind = pending["kind"]
    if kind == "turn":   # one seat, the common case: without the list of deciding seats
        seat = pending["player"]
        game.work = 0
        legal = decisions.offered(game, pending, seat)
        if pending["pass"]:
            legal = [*legal, Action(seat, PASS, (), "end turn")]
        return (seat, legal) if legal else (None, [])
    seats = decisions.deciding(pending)
    if prefer is not None and prefer in seats:
        seats = [prefer] + [s for s in seats if s != prefer]
    for seat in seats:
        game.work = 0
        # a choice's options, or a simultaneous step's actions: neither has a pass
        legal = decisions.legal_actions(game, seat) if kind == "choice" else decisions.offered(game, pending, seat)
        if legal:
            return seat, legal
    return None, []


PASS_PAIR = (PASS, ())   # ending the turn, among a turn's (name, args) pairs (candidates_to_move)


def candidates_to_move(game, prefer=None):
    """:func:`to_move`, but a turn's actions (the common case) as its wait holds them: (name, args) pairs while
    the game makes no objects (a search's sample), or :class:`Action` objects, and the pass as ``PASS_PAIR``.
    A search step makes an Action of the one it takes only (:func:`action_of`)."""
    pending = game.state.pending
    if pending is None or pending["kind"] != "turn" or game.state.over:
        return to_move(game, prefer)
    seat = pending["player"]
    game.work = 0
    legal = decisions.candidates(game, pending, seat)
    if pending["pass"]:
        legal = [*legal, PASS_PAIR]
    return (seat, legal) if legal else (None, [])


def action_of(game, seat: int, taken) -> Action:
    """The :class:`Action` of ``taken``, one of :func:`candidates_to_move`'s for ``seat``."""
    if taken.__class__ is not tuple:
        return taken
    if taken is PASS_PAIR:
        return Action(seat, PASS, (), "end turn")
    return Action(seat, taken[0], taken[1], None, game)


def nobody_can_act(game) -> GameError:
    """The error for a game that waits for seats none of which has a legal action (a damaged saved game):
    playing on would loop for ever."""
    waiting = ", ".join(game.player_name(s) for s in decisions.deciding(game.state.pending))
    return GameError(f"the game waits for {waiting or 'nobody'}, but no one has a legal action")
