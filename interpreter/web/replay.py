"""A saved game as a replay: the table after each decision, as a spectator sees it.

A saved game (play/saves.py) holds its seed and its decisions; playing them
again from the start, each checked, gives the table at every step. The replay
shows ``game.view(None)``: what anyone at the table could see, no hand.
"""
from __future__ import annotations

import secrets

from ..play.game import Game
from .table import seat_payload


class ReplayTable:
    """The games after 0, 1, … n decisions of a saved game, and one token for the replay page."""

    def __init__(self, ruleset, data: dict, where: str = "saved game"):
        from ..play.saves import load_save
        self.steps: list = []
        final = load_save(ruleset, data, where, on_step=lambda game: self.steps.append(game.clone()))
        # the load checked the seed and players: the game before the first decision
        self.steps.insert(0, Game(ruleset, final.num_players, seed=final.seed))
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

