"""A person at the terminal: the seat's own view and numbered legal actions."""
from __future__ import annotations

from ..observe.narrate import describe_view


class HumanAgent:
    """A person at the terminal: shows the seat's own view and numbered legal actions."""
    name = "human"

    def __init__(self, seed: int = 0, input_fn=None, output=print):
        self.input = input_fn or (lambda prompt: __import__("builtins").input(prompt))
        self.output = output
        self.seen = {}

    def choose(self, game, seat, actions):
        view = game.view(seat)
        start = self.seen.get(seat, 0)
        for line in describe_view(game, view, since=start):
            self.output(line)
        self.seen[seat] = len(view["log"])
        self.output(f"{game.player_name(seat)}, choose:")
        for i, action in enumerate(actions, 1):
            self.output(f"  {i}. {action}")
        while True:
            answer = self.input(f"[1-{len(actions)}]> ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                return actions[int(answer) - 1]
            self.output(f"Please type a number from 1 to {len(actions)}.")
