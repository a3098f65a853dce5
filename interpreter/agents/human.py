"""A person at the terminal: the seat's own view, the question asked, numbered legal actions.

Besides a number the person may type ``help``, ``undo``, ``save FILE`` or ``quit``;
``undo`` and ``quit`` are raised as :class:`Undo` and :class:`Quit` for the loop
that runs the game (it keeps the snapshots an undo needs).
"""
from __future__ import annotations

from ..observe.narrate import describe_view

HELP = """Type the number of a choice and press Enter. Other commands:
  help         this text
  table        the whole table as you see it (otherwise only what changed is shown)
  undo         take back your last decision (not when something hidden was drawn or revealed since)
  save FILE    save the game to FILE (resume with: davit play RULESET --resume FILE)
  quit         stop; you are offered to save first (Ctrl-C saves automatically)"""


class Undo(Exception):
    """The person asked to take back their last decision."""


class Quit(Exception):
    """The person asked to stop the game."""


def action_label(label: str) -> str:
    """An action's text for people: a choice written as a list ``[a, b]`` reads ``a — b``."""
    text = str(label)
    if text.startswith("[") and text.endswith("]"):
        text = " — ".join(part.strip() for part in text[1:-1].split(","))
    return text


def save_game(game, path: str, agents=None) -> None:
    """Write ``game`` to ``path`` as a save (play/saves.py: the seed, the agents, the decisions), atomically."""
    from ..play.saves import write_save
    write_save(game, path, agents)


class HumanAgent:
    """A person at the terminal: shows the seat's own view and numbered legal actions."""
    name = "human"

    def __init__(self, seed: int = 0, input_fn=None, output=print):
        self.input = input_fn or (lambda prompt: __import__("builtins").input(prompt))
        self.output = output
        self.seen = {}
        self.tables = {}
        self.table_agents = None   # every seat's agent, set by the game loop: a save holds them

    def show_news(self, game, seat) -> None:
        """Print what ``seat`` has not seen yet: new log lines, then the table the first time and
        afterwards only its lines that changed (a big board is not reprinted at every question)."""
        view = game.view(seat)
        start = min(self.seen.get(seat, 0), len(view["log"]))
        news = describe_view(game, view, since=start)
        table = describe_view(game, view, since=len(view["log"]))   # the same, without log lines
        for line in news[:len(news) - len(table)]:
            self.output(line)
        before = self.tables.get(seat)
        if before is None:
            for line in table:
                self.output(line)
        else:
            changed = [line for line in table if line and line not in before]
            # a place that emptied is no longer listed: say so
            now = {line.partition(":")[0] for line in table}
            changed += sorted(f"{key}: now empty" for key in {line.partition(":")[0] for line in before
                                                              if line.startswith("  ") and line not in table} - now)
            if changed:
                self.output("")
                self.output("Changed on the table (type table for all of it):")
                for line in changed:
                    self.output(line)
        self.tables[seat] = set(table)
        self.seen[seat] = len(view["log"])

    def show_table(self, game, seat) -> None:
        view = game.view(seat)
        for line in describe_view(game, view, since=len(view["log"])):
            self.output(line)

    def choose(self, game, seat, actions):
        self.show_news(game, seat)
        who = game.player_name(seat)
        if len(actions) == 1:
            self.output(f"{who}: {action_label(str(actions[0]))} (the only choice)")
            return actions[0]
        pending = game.view(seat)["pending"] or {}
        question = pending.get("prompt") or pending.get("name") or "your move"
        self.output(f"{who}, {question}:")
        for i, action in enumerate(actions, 1):
            self.output(f"  {i}. {action_label(str(action))}")
        while True:
            answer = self.input(f"[1-{len(actions)}, or help]> ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                return actions[int(answer) - 1]
            word, _, rest = answer.partition(" ")
            word = word.lower()
            if word in ("help", "?", "h"):
                self.output(HELP)
            elif word == "table":
                self.show_table(game, seat)
            elif word == "undo":
                raise Undo()
            elif word in ("quit", "q", "exit"):
                raise Quit()
            elif word == "save":
                if not rest.strip():
                    self.output("Type save and a file name, e.g.: save mygame.json")
                    continue
                try:
                    save_game(game, rest.strip(), self.table_agents)
                except OSError as exc:
                    self.output(f"Could not save to {rest.strip()}: {exc.strerror or exc}")
                    continue
                self.output(f"Saved to {rest.strip()}; resume with: davit play {game.ruleset.id} "
                            f"--resume {rest.strip()}")
                if [getattr(a, "name", "") for a in self.table_agents or ()].count("human") > 1:
                    from ..play.saves import HOT_SEAT_WARNING
                    self.output(f"Warning: {HOT_SEAT_WARNING}.")
            else:
                self.output(f"Please type a number from 1 to {len(actions)}, or help.")
