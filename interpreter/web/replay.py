"""A saved game as a replay: the table after each decision, as a spectator sees it.

A saved game (``Game.to_json``) holds its seed and its whole event log; playing
its decisions again from the start gives the table at every step. The replay
shows ``game.view(None)``: what anyone at the table could see, no hand.
"""
from __future__ import annotations

import secrets

from ..errors import SaveError
from ..play.game import Game
from .table import seat_payload


class ReplayTable:
    """The games after 0, 1, … n decisions of a saved game, and one token for the replay page."""

    def __init__(self, ruleset, data: dict):
        saved = Game.from_json(ruleset, data)   # checks ruleset, version and player count
        game = Game(ruleset, saved.num_players, seed=saved.seed)
        self.steps = [game.clone()]
        for e in saved.log:
            if e.get("e") != "decide":
                continue
            try:
                result = game.apply(game.action_from_json(e["action"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise SaveError(f"the saved game cannot be replayed: {type(exc).__name__} {exc}") from None
            if not result:
                raise SaveError(f"the saved game cannot be replayed: decision {len(self.steps)} is refused "
                                f"({result.reason})")
            self.steps.append(game.clone())
        if _events(game.log) != _events(saved.log):
            raise SaveError("the saved game cannot be replayed: playing its decisions again gives another game")
        self.token = secrets.token_urlsafe(18)
        self.title = f"{ruleset.name} (replay)"

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def state_at(self, step: int) -> dict:
        step = max(0, min(step, self.last))
        payload = seat_payload(self.steps[step], None, step)
        payload["last"] = self.last
        return payload


def _events(log: list) -> list:
    # a decision's label may be worded differently when the action comes back from JSON
    return [{k: v for k, v in e.items() if k != "label"} if e.get("e") == "decide" else e for e in log]
