"""Skill depth: does a bot with twice the search budget win more often than one with the budget?

Browne (2008) asks of a game whether skill pays; TAG and Ludii measure it
by playing a stronger agent against weaker ones. Here one seat gets
``KIND:2B`` and every other seat ``KIND:B``; the strong seat moves round the
table (each seat in turn, the same seeds for each), so a seat's own
advantage cancels out. The figure is the strong bot's win rate minus the
average seat's, in points, with the Wilson interval of its win rate shifted
by that average: 0 means twice the thinking buys nothing.
"""
from __future__ import annotations

import re

from ..errors import DavitError
from . import stats

BUDGET = re.compile(r"^(?P<kind>mcts|ismcts):(?P<amount>\d+(?:\.\d+)?)(?P<unit>s?)$")


def doubled(bot: str) -> str:
    """``ismcts:50`` → ``ismcts:100``, ``mcts:1.5s`` → ``mcts:3s``."""
    m = BUDGET.match(bot.strip())
    if not m:
        raise DavitError(f"davit: --skill-depth needs a search bot with its budget, as ismcts:50 or mcts:0.5s, "
                         f"not {bot!r}")
    amount = float(m["amount"]) * 2
    text = f"{amount:g}" if m["unit"] else str(int(amount))
    return f"{m['kind']}:{text}{m['unit']}"


def skill_depth(ref, bot: str, games: int, players: int, seed: int = 0, workers: int = 1,
                variant: str | None = None, max_length: int | None = None, backend: str = "local",
                address: str | None = None) -> dict:
    """``games`` games with the strong bot in each seat in turn (rounded up to a multiple of the seats)."""
    from .runner import RunSpec
    from .simulate import play
    if players < 2:
        raise DavitError("davit: --skill-depth needs two or more players")
    strong = doubled(bot)
    per_seat = -(-games // players)
    specs = [RunSpec(str(ref), variant, players, ",".join(strong if s == seat else bot for s in range(players)),
                     max_length) for seat in range(players)]
    run = play(specs, per_seat, seed, workers, None, backend, address)
    n = wins = all_wins = 0
    for seat in range(players):
        for record in run.games(seat):
            n += 1
            wins += seat in record["winners"]
            all_wins += len(record["winners"])
    fair = all_wins / (players * n) if n else 0.0
    low, high = stats.wilson(wins, n)
    return {"strong": strong, "weak": bot, "games": n, "win_rate": wins / n if n else 0.0, "fair": fair,
            "mean": (wins / n if n else 0.0) - fair, "ci": [low - fair, high - fair]}
