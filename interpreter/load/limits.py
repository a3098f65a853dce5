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
MAX_GAME_WORK = 100_000_000        # items touched over a whole game: it ends ("work limit"; bundled: 150,000)
MAX_CHOICES = 10_000               # legal actions of one seat at one decision, or options of a choose (bundled: 27)
MAX_POSITION = 1_000_000           # items held in the whole position: lists, tables, long texts (play/position.py)
MAX_DEPTH = 24                     # lists and tables inside each other, in one value the rules store
MAX_ZONES = 20_000                 # zones and board spaces, over the main file and all its includes (bundled: 180)
MAX_DEFINITIONS = 20_000           # thing definitions, over the main file and all its includes (bundled: 110)
MAX_VALUES = 200_000               # YAML values (mappings, lists, scalars) over the main file and its includes
MAX_RULESET_BYTES = 4_000_000      # bytes of the main file and its includes together (bundled: 115,000 at most)
MAX_ACTION_ITEMS = 1_000           # values in one action given from outside (JSON, a scenario, a page)
MAX_ACTION_DEPTH = 8               # lists and mappings inside each other in one such action
MAX_REQUEST_BYTES = 4_096          # the body of one request to the web table (an index and a step)

LENGTH_LIMIT_REASON = "length limit"
LENGTH_DRAW_REASON = "length limit: a draw"   # limits.at_length_limit: draw (nobody wins)
WORK_LIMIT_REASON = "work limit"   # MAX_GAME_WORK: the rules did too much over the whole game
