"""What a ruleset, perhaps written by a stranger, may ask of davit.

Every bound here is enforced where the thing is made: at load (a located
error) or in play (a located :class:`GameError`, or the game's end by length).
A ruleset may lower ``max_steps`` and set ``max_decisions``, never raise them
above the ceilings. ``MAX_WORK`` counts work, not instructions: one
instruction may walk a list of 100,000 items, so the items each loop,
comprehension, built-in and text or list join touches are charged to it
(:mod:`interpreter.machine.budget`).
"""
from __future__ import annotations

MAX_FILE_BYTES = 2_000_000         # one YAML file; read no further, whatever its size seemed
MAX_STEPS_CEILING = 1_000_000      # rule steps over a whole game; also the default
DEFAULT_MAX_DECISIONS = 10_000     # a game of this many decisions ends ("length limit")
MAX_DECISIONS_CEILING = 1_000_000
MAX_PLAYERS = 100
MAX_THINGS = 100_000               # copies one ruleset makes, at its largest player count
MAX_INT_DIGITS = 100               # a whole number of more digits is refused (repeated squaring)
MAX_TEXT = 100_000                 # characters in one text the rules make or store
MAX_ITEMS = 100_000                # items in one list the rules make or store (range() included)
MAX_WORK = 2_000_000               # items touched for one decision (the bundled games: 27,000 at most)

LENGTH_LIMIT_REASON = "length limit"
LENGTH_DRAW_REASON = "length limit: a draw"   # limits.at_length_limit: draw (nobody wins)
