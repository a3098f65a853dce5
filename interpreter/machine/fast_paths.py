"""One switch for every fast path: ``DAVIT_FAST_PATHS=off`` plays the same games the slow, plain way.

A fast path is a second way of doing what a plain path already does, chosen
because the rules' declarations prove the two agree. Each is a place where a
mistake would make a game differ only when it is fast, so each can be turned
off, and the recorded seeded games (``tests/fixtures/game_hashes.json``) are
checked in both modes (``tests/test_fast_paths_off.py``). Off turns off:

- attribute reads written out where the declarations leave one place a name
  can live, and readers that look in the printed attributes first
  (:mod:`interpreter.dsl.fast_reads`): every read goes through
  :func:`interpreter.machine.attributes.reader`;
- the same written-out reads as generated readers for any receiver
  (``pawn_of(p).zone``), and declared thing properties set without
  ``set_attr``'s search (``set_thing_prop``, literals set in place): every
  write goes through ``set_attr``;
- declared properties no rule sets read as their printed value
  (:mod:`interpreter.rules.layout`), and the state's containers
  (``g.state.props``, ``zprops``, ``where``, ``pvars``, ``g.table.zones``)
  read once at the top of a generated function: every read looks them up;
- ruleset functions as plain Python functions (``value:`` closures,
  :mod:`interpreter.dsl.direct`), the answers kept for those that read
  only their arguments (:mod:`interpreter.dsl.state_free`) and small ones
  written out at their calls (:mod:`interpreter.dsl.inline_calls`): every
  call runs the function's code on the VM;
- each action's legal combinations as one generated loop nest
  (:mod:`interpreter.dsl.enumerators`): every action is listed by the
  generic walk of :mod:`interpreter.play.decisions`;
- the state triggers and the end condition as one generated scan
  (:mod:`interpreter.dsl.trigger_scan`): every settle takes the generic
  look of ``Game.first_to_fire``;
- the fused playout loop of index-picking bots
  (:mod:`interpreter.play.playout`): every game goes through the public
  ``legal_actions``/``apply``;
- the board's kept neighbour lists and breadth-first trees
  (:mod:`interpreter.rules.board`): each question walks the graph again.

What stays is representation, not a second path: copy-on-write properties,
the board's adjacency table (made from its networkx graph) and the compiled
code cache (keyed by the generated source, which differs between the modes).

The switch is read once, at its first question, so one process plays in one
mode; a value other than ``on`` or ``off`` is an error then (inside the
command, which reports it in one line).
"""
from __future__ import annotations

import functools
import os

from ..errors import DavitError

VARIABLE = "DAVIT_FAST_PATHS"


@functools.cache
def on() -> bool:
    """Whether the fast paths are on in this process (``DAVIT_FAST_PATHS``, default ``on``)."""
    value = os.environ.get(VARIABLE, "on").strip().lower()
    if value not in ("on", "off"):
        raise DavitError(f"{VARIABLE} must be 'on' or 'off', not {value!r}")
    return value == "on"
