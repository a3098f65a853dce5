"""A ruleset's own counts for analysis: the ``metrics:`` section, read after a game and never during it.

Each metric has one name and one of three forms::

    metrics:
      boats_lost:   {value: "count(capsized)"}               # a DSL number or condition on the final position
      capsizes:     {count: {e: move, to: capsized}}          # events of the game's log with these fields
      joker_round:  {first: {e: flip, thing: joker},          # the first such event ...
                     at: round}                               # ... as the flow variable ``round`` then
      boats_so_far: {value: "count(capsized)", every: round}  # also as each round begins

``every: VAR`` reads a ``value`` metric also before the first decision made
with the flow variable ``VAR`` at each new value (:func:`round_watch`), so a
designer sees it round by round.

``count`` and ``first`` read the game's event log (:mod:`interpreter.play`
keeps one when asked; a game with or without it is the same game). An event
field matches a value when it is that value, a copy of it (``joker`` matches
the thing ``joker.2``) or one seat's zone of it (``used`` matches
``used@1``); ``action`` matches the action id of a ``decide`` event. ``first``
without ``at`` gives the decisions made before the event; a game in which
the event never happened has no value for it. A metric only reads: it
changes no game, so declaring one keeps every seeded game as it was.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import GameError, did_you_mean
from ..load.yaml_reader import LocMap, plain
from ..machine.values import type_name

FORMS = ("value", "count", "first")
EVENTS = ("start", "shuffle", "move", "flip", "peek", "phase", "decide", "reveal", "score", "set", "log", "trigger",
          "eliminate", "random", "board", "end")
FIELDS = ("e", "thing", "from", "to", "zone", "player", "name", "reason", "id", "text", "face_up", "action", "space")
ZONE_FIELDS = ("from", "to", "zone")


@dataclass(frozen=True)
class Metric:
    name: str
    form: str                 # value, count or first
    value: object = None      # value: fn(game, locals)
    match: tuple = ()         # count, first: (field, wanted) pairs
    at: str | None = None     # first: the flow variable to read, else decisions before the event
    description: str = ""
    every: str | None = None  # value: also read when this flow variable (a round) takes a new value


def _at(spec, key, default):
    return spec.loc_of(key) if isinstance(spec, LocMap) and key in spec else default


def build_metrics(builder) -> None:
    """Compile ``builder.data['metrics']`` into ``builder.rs.metrics`` (problems go to ``builder.error``)."""
    rs, data = builder.rs, builder.data
    section = data.get("metrics") or {}
    rs.metrics = []
    zones = set(rs.zones)
    things = {str(t.get("id")) for t in rs.things} | set(getattr(builder.env, "thing_ids", ()))
    for name, spec in section.items():
        loc = _at(section, name, builder.root_loc)
        spec = spec if isinstance(spec, dict) else {}
        given = [form for form in FORMS if form in spec]
        if len(given) != 1:
            builder.error(f"metric '{name}' needs exactly one of value, count or first", loc, code="bad-value")
            continue
        form = given[0]
        if form == "value":
            fn = builder.compiler.expression(spec["value"], f"metric {name}")
            if fn is not None:
                rs.metrics.append(Metric(str(name), form, value=fn, description=str(spec.get("description", "")),
                                         every=str(spec["every"]) if spec.get("every") else None))
            continue
        if "every" in spec:
            builder.error(f"metric '{name}': 'every' goes with 'value' only", _at(spec, "every", loc),
                          code="bad-value")
            continue
        pattern = spec[form] if isinstance(spec[form], dict) else {}
        ok = _check_pattern(builder, name, pattern, _at(spec, form, loc), zones, things)
        if "at" in spec and form != "first":
            builder.error(f"metric '{name}': 'at' goes with 'first' only", _at(spec, "at", loc), code="bad-value")
            ok = False
        if ok:
            match = tuple((str(k), plain(v)) for k, v in pattern.items())
            rs.metrics.append(Metric(str(name), form, match=match, at=str(spec["at"]) if "at" in spec else None,
                                     description=str(spec.get("description", ""))))


def _check_pattern(builder, name, pattern, loc, zones, things) -> bool:
    ok = True
    if pattern.get("e") not in EVENTS:
        builder.error(f"metric '{name}' needs the kind of event as e: one of {', '.join(EVENTS)}", loc,
                      did_you_mean(str(pattern.get("e")), EVENTS), code="bad-value")
        ok = False
    for key, value in pattern.items():
        where = _at(pattern, key, loc)
        if key not in FIELDS:
            builder.error(f"metric '{name}': events have no field '{key}'", where, did_you_mean(str(key), FIELDS),
                          code="bad-value")
            ok = False
        elif key in ZONE_FIELDS and str(value) not in zones:
            builder.error(f"metric '{name}': no zone '{value}'", where, did_you_mean(str(value), zones),
                          code="unknown-reference")
            ok = False
        elif key == "thing" and str(value) not in things:
            builder.error(f"metric '{name}': no thing '{value}'", where, did_you_mean(str(value), things),
                          code="unknown-reference")
            ok = False
    return ok


def needs_log(ruleset) -> bool:
    """Whether reading the ruleset's metrics needs the game's event log."""
    return any(m.form != "value" for m in getattr(ruleset, "metrics", ()))


def _field(event, key):
    value = event.get(key)
    if key == "action" and isinstance(value, dict):
        return value.get("action")
    return value


def _matches(event, match) -> bool:
    for key, wanted in match:
        got = _field(event, key)
        if got == wanted:
            continue
        if isinstance(got, str) and isinstance(wanted, str) and got.startswith((wanted + "@", wanted + ".")):
            continue
        return False
    return True


def _number(m, game):
    value = m.value(game, {})
    if value is not None and not isinstance(value, (bool, int, float)):
        raise GameError(f"metric '{m.name}' must give a number or a condition, not {type_name(value)}")
    return None if value is None else float(value)   # none: no value in this game


def round_watch(ruleset):
    """For metrics with ``every: VAR``: a ``watch(game, seen)`` to call before each decision, which reads
    each such metric the first time ``VAR`` has a new value (as a round begins) into ``seen[name][value]``;
    None when the ruleset has no such metric."""
    every = [m for m in getattr(ruleset, "metrics", ()) if m.every]
    if not every:
        return None

    def watch(game, seen: dict) -> None:
        for m in every:
            at = game.state.vars.get(m.every)
            if isinstance(at, int) and not isinstance(at, bool) and at not in seen.setdefault(m.name, {}):
                seen[m.name][at] = _number(m, game)
    return watch


def read_metrics(ruleset, game) -> dict:
    """Every metric of a finished ``game``: name -> number (or None: a ``first`` event that never came)."""
    out = {}
    for m in ruleset.metrics:
        if m.form == "value":
            out[m.name] = _number(m, game)
        elif m.form == "count":
            out[m.name] = sum(1 for e in game.log if _matches(e, m.match))
        else:
            out[m.name] = _first(game.log, m)
    return out


def _first(log, m):
    decisions = 0
    phase_vars: dict = {}
    for event in log:
        kind = event.get("e")
        if kind == "decide":
            decisions += 1
        elif kind == "phase":
            phase_vars = event.get("vars") or {}
        if _matches(event, m.match):
            if m.at is None:
                return decisions
            value = phase_vars.get(m.at)
            return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    return None
