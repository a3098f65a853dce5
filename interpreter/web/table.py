"""One game at a web table: the seats' secret tokens, the bots, and what each seat is shown.

The page of a seat is built only from ``game.view(seat)`` and the narration of
that view, so a seat learns in the browser exactly what it would at the terminal.
"""
from __future__ import annotations

import secrets
import threading

from ..agents import HumanAgent, make_agents
from ..agents.human import action_label
from ..observe.narrate import event_text
from ..observe.status import grouped, status


class Refused(Exception):
    """A request the table does not accept (a stale or unknown action); the text says why."""


class WebTable:
    """A game, its agents (``human`` seats are played in the browser) and one token per human seat."""

    def __init__(self, game, agents: str | list = "human,random", seed: int = 0, tokens: dict | None = None,
                 on_change=None):
        self.game = game
        self.agents = make_agents(agents, game.num_players, seed) if isinstance(agents, str) else list(agents)
        self.humans = [s for s, a in enumerate(self.agents) if isinstance(a, HumanAgent)]
        # a token is the only key to a seat's view: long, random, one per seat (kept ones: a restored table)
        self.tokens = dict(tokens) if tokens else {secrets.token_urlsafe(18): seat for seat in self.humans}
        if sorted(self.tokens.values()) != self.humans:
            raise ValueError("the table's links do not match its human seats")
        self.lock = threading.Lock()
        self.on_change = on_change   # called after every decision (web/store.py writes it down)
        self.decisions = game.decisions   # a restored game goes on at its step
        self.games = 1          # how many games this table has begun (davit serve --watch begins new ones)
        self.board_svg: str | None = None   # the drawing of the board, public; set by the server
        with self.lock:
            self._play_bots()

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens, or None; compared in constant time."""
        for known, seat in self.tokens.items():
            if secrets.compare_digest(known.encode(), str(token).encode()):
                return seat
        return None

    def token_of(self, seat: int) -> str:
        return next(t for t, s in self.tokens.items() if s == seat)

    @property
    def step(self) -> int:
        """Grows with every applied decision: a page acts only on the step it has seen."""
        return self.decisions

    def _play_bots(self) -> None:
        """Let bot seats decide until a human seat must decide or the game ends."""
        try:
            self._bots_decide()
        finally:
            if self.on_change is not None:
                self.on_change(self)

    def _bots_decide(self) -> None:
        game = self.game
        while not game.is_over:
            for seat in game.deciding_players:
                if seat in self.humans:
                    continue
                actions = game.legal_actions(seat)
                if actions:
                    result = game.apply(self.agents[seat].choose(game, seat, actions))
                    if not result:
                        raise RuntimeError(f"a bot chose an illegal action: {result.reason}")
                    self.decisions += 1
                    break
            else:
                return

    def act(self, seat: int, index: int, step: int) -> None:
        """Apply the seat's ``index``-th legal action, if the page saw the current step."""
        with self.lock:
            if self.game.is_over:
                raise Refused("the game is over")
            if step != self.step:
                raise Refused("the table has moved on since this page was drawn; it reloads")
            actions = self.game.legal_actions(seat) if seat in self.game.deciding_players else []
            if not 0 <= index < len(actions):
                raise Refused("that is not one of your actions now")
            result = self.game.apply(actions[index])
            if not result:
                raise Refused(f"refused: {result.reason}")
            self.decisions += 1
            self._play_bots()   # and the decision is written down (on_change)

    def restart(self, game, board_svg: str | None = None) -> None:
        """Begin ``game`` (same seats, same links, same bots): the ruleset was edited."""
        with self.lock:
            if game.num_players != self.game.num_players:
                raise ValueError(f"the table has {self.game.num_players} seats, the new game {game.num_players}")
            self.game = game
            self.board_svg = board_svg
            self.games += 1
            self.decisions += 1   # every page sees a new step and redraws
            self._play_bots()

    def seat_state(self, seat: int, since: int = 0) -> dict:
        """What the page of ``seat`` shows: built from ``game.view(seat)`` only."""
        with self.lock:
            payload = seat_payload(self.game, seat, self.step, since,
                                   bots=set(range(self.game.num_players)) - set(self.humans))
            payload["game"] = self.games
            return payload


def seat_payload(game, seat: int | None, step: int, since: int = 0, bots=()) -> dict:
    """What a page shows of ``game`` for ``seat`` (None: a spectator), from ``game.view(seat)`` only;
    the table part is the seat's status (:func:`interpreter.observe.status.status`), as at the terminal."""
    view = game.view(seat)
    names = [p["name"] for p in view["players"]]
    log = view["log"]
    since = max(0, min(since, len(log)))
    lines = [text for e in log[since:] if (text := event_text(game, e))]
    pending = view["pending"] or {}
    scores = game.scores
    shown = status(game, view)
    if shown["declared"]:
        public = dict(shown["vars"])
        values = {p["seat"]: dict(p["values"]) for p in shown["players"]}
    else:
        public = _scalars(view["vars"])
        values = {p["seat"]: _scalars(p["vars"]) for p in view["players"]}
    return {
        "ruleset": game.ruleset.name, "seat": seat, "you": names[seat] if seat is not None else None,
        "step": step, "over": view["over"], "winners": [names[s] for s in view["winners"]],
        "draw": view["draw"],
        # co-operative: the team's one score, and whether it reached the goal (None: the rules set none)
        "team": game.ruleset.team_var is not None,
        "team_won": bool(view["winners"]) if game.ruleset.team_var is not None and game.ruleset.win_if is not None
        else None,
        "phase": view["phase"], "vars": public,
        "players": [{"name": p["name"], "you": p["seat"] == seat, "out": p["out"],
                     "score": scores.get(p["seat"]), "vars": values[p["seat"]],
                     "bot": p["seat"] in bots} for p in view["players"]],
        "waiting_for": [names[s] for s in pending.get("deciding", [])],
        "question": pending.get("prompt") or pending.get("name"),
        "actions": [{"index": i, "label": action_label(a["label"])}
                    for i, a in enumerate(view["legal_actions"])],
        "zones": [_zone(z, names) for z in shown["zones"]],
        "log": lines, "log_size": len(log),
    }


def _scalars(values: dict) -> dict:
    return {k: v for k, v in values.items() if isinstance(v, (int, float, str, bool)) or v is None}


def _zone(z: dict, names: list) -> dict:
    if z["count_only"]:
        things = [str(z["count"])]
    else:
        things = grouped([text or f"a hidden {back or 'thing'}" for text, back in zip(z["things"], z["backs"])])
    owner = z["owner"]
    return {"id": z["id"], "name": z["name"], "owner": names[owner] if owner is not None else None,
            "mine": z["mine"], "count": z["count"], "things": things}
