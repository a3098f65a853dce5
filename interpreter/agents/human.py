"""A person at the terminal: the seat's own view, the question asked, numbered legal actions.

Besides a number the person may type ``help``, ``undo``, ``save FILE`` or ``quit``;
``undo`` and ``quit`` are raised as :class:`Undo` and :class:`Quit` for the loop
that runs the game (it keeps the snapshots an undo needs).
"""
from __future__ import annotations

from ..observe.narrate import describe_view

HELP = """Type the number of a choice and press Enter. Other commands:
  help         this text
  help N       what choice N does
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


def merged(actions) -> list:
    """(label, action) per choice, in order; actions that read the same are one choice (the first of them)."""
    seen: dict = {}
    for action in actions:
        seen.setdefault(action_label(str(action)), action)
    return list(seen.items())


def describe_option(game, options, text: str) -> str:
    """``help N``: choice N's words and what its action does, as the ruleset describes it."""
    if not text.isdigit() or not 1 <= int(text) <= len(options):
        return f"Type help and a number from 1 to {len(options)}."
    label, action = options[int(text) - 1]
    defn = game.ruleset.actions.get(action.name)
    about = getattr(defn, "description", None) or "(the rules give this action no description)"
    return f"{text}. {label}: {about}"


HOT_SEAT_GAP = 40   # blank lines that push the last player's hand off the screen


class HumanAgent:
    """A person at the terminal: shows the seat's own view and numbered legal actions."""
    name = "human"

    def __init__(self, seed: int = 0, input_fn=None, output=print):
        self.input = input_fn or (lambda prompt: __import__("builtins").input(prompt))
        self.output = output
        self.seen: dict = {}
        self.tables: dict = {}
        self.table_agents: list | None = None   # every seat's agent, set by the game loop: a save holds them
        self.hot_seat = None       # shared by the people of one terminal (hot seat): whose screen it is

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

    def _hand_over(self, game, seat) -> None:
        """Hot seat: when another person's seat decides, push the screen clear and wait for them."""
        shared = self.hot_seat
        if shared is None or shared.get("last") == seat:
            return
        first, shared["last"] = shared.get("last") is None, seat
        if first:
            return
        self.output("\n" * HOT_SEAT_GAP)
        who = game.player_name(seat)
        self.input(f"Pass the terminal to {who}; {who}, press Enter when the others cannot see the screen> ")

    def show_table(self, game, seat) -> None:
        view = game.view(seat)
        for line in describe_view(game, view, since=len(view["log"])):
            self.output(line)

    def choose(self, game, seat, actions):
        self._hand_over(game, seat)
        self.show_news(game, seat)
        who = game.player_name(seat)
        options = merged(actions)   # identical choices are shown once
        if len(options) == 1:
            self.output(f"{who}: {options[0][0]} (the only choice)")
            return options[0][1]
        pending = game.view(seat)["pending"] or {}
        question = pending.get("prompt") or pending.get("name") or "your move"
        self.output(f"{who}, {question}:")
        for i, (label, _) in enumerate(options, 1):
            self.output(f"  {i}. {label}")
        while True:
            answer = self.input(f"[1-{len(options)}, or help]> ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1][1]
            word, _, rest = answer.partition(" ")
            word = word.lower()
            if word in ("help", "?", "h") and rest.strip():
                self.output(describe_option(game, options, rest.strip()))
            elif word in ("help", "?", "h"):
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
                self.output(f"Please type a number from 1 to {len(options)}, or help.")
