"""The DSL's built-in functions: a registry of plain Python functions.

Each primitive is ``fn(game, loc, *args, **kwargs)``; ``loc`` is the call's
location for error messages. ``@primitive(effect=True)`` marks the ones that
change the game (they are refused inside conditions). The compiler reads each
signature once to check argument counts and names.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from operator import truth
from typing import TYPE_CHECKING

from ..errors import GameError
from ..load.limits import MAX_ITEMS, MAX_WORK
from ..machine.budget import charge, over_budget
from ..machine.values import PlayerRef, ThingRef, ZoneRef, display, type_name

if TYPE_CHECKING:
    from ..machine.host import GameHost


@dataclass(frozen=True)
class Primitive:
    name: str
    fn: object
    effect: bool
    min_args: int
    max_args: int | None
    kwargs: tuple
    doc: str
    static_check: object = None
    narration: bool = False   # its only effect is a line of the event log: skipped, arguments and all, when unlogged


PRIMITIVES: dict[str, Primitive] = {}
BUILTIN_VALUES: dict = {}


def primitive(effect: bool = False, name: str | None = None, narration: bool = False):
    def register(fn):
        sig = inspect.signature(fn)
        params = list(sig.parameters.values())[2:]  # skip game, loc
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        low = sum(1 for p in positional if p.default is p.empty)
        high = None if any(p.kind == p.VAR_POSITIONAL for p in params) else len(positional)
        # any parameter but *args may also be given by name: sorted(xs, key=x -> x.value)
        kw = tuple(p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))
        key = name or fn.__name__.rstrip("_")
        PRIMITIVES[key] = Primitive(key, fn, effect, low, high, kw, inspect.getdoc(fn) or "", narration=narration)
        return fn
    return register


def builtin_value(name: str):
    def register(fn):
        BUILTIN_VALUES[name] = fn
        return fn
    return register


def _items(value, loc, what="a list"):
    if isinstance(value, list):
        return value
    if isinstance(value, ZoneRef):
        raise GameError("internal: zone not expanded", loc)
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    raise GameError(f"expected {what}, got {type_name(value)}", loc)


def collection_of(g: GameHost, value, loc):
    """A collection argument: lists as they are, zones as their things; its length is work for the budget."""
    cls = value.__class__   # a list or a zone, nearly always: asked first
    if cls is list:
        items = value
    elif cls is ZoneRef:   # its things (g.zone_things written out); an empty zone, the commonest, builds none
        ids = g.state.zones[value.id]
        if ids:
            things = g.table.things
            items = [things[t] for t in ids]
        else:
            items = []
    else:
        items = _items(value, loc)
    g.work += len(items)   # (charge() inlined: every collection built-in comes here)
    if g.work > MAX_WORK:
        raise over_budget(loc)
    return items


# --- built-in values --------------------------------------------------------

@builtin_value("players")
def _players(g: GameHost):
    """The seats still in the game, in seat order."""
    out = g.state.out   # nobody out (the common case): every seat, as a new list
    return list(g.table.players) if True not in out else [p for p in g.table.players if not out[p.seat]]


@builtin_value("all_players")
def _all_players(g: GameHost):
    return list(g.table.players)


@builtin_value("num_players")
def _num_players(g: GameHost):
    return len(g.table.players)


@builtin_value("game_over")
def _game_over(g: GameHost):
    """True once the game has ended."""
    return g.state.over


@builtin_value("winners")
def _winners(g: GameHost):
    """The players who won (empty until the game is over)."""
    return [g.table.players[s] for s in g.winners]


# --- collections --------------------------------------------------------------

@primitive()
def count(g: GameHost, loc, collection, predicate=None):
    """count(xs) — how many items; count(xs, x -> cond) — how many satisfy cond."""
    if predicate is None:   # the length alone, charged as collection_of charges it: no list made of a zone
        cls = collection.__class__
        if cls is list:
            size = len(collection)
        elif cls is ZoneRef:
            size = len(g.state.zones[collection.id])
        else:
            size = len(_items(collection, loc))
        g.work += size
        if g.work > MAX_WORK:
            raise over_budget(loc)
        return size
    items = collection_of(g, collection, loc)
    return sum(map(truth, map(predicate, items)))   # (each answer's truth, counted without a Python frame per item)


@primitive(name="sum")
def sum_(g: GameHost, loc, collection, value=None):
    """sum(xs) or sum(xs, x -> value): the total."""
    items = collection_of(g, collection, loc)
    if value is None:
        return sum(items)
    return sum(map(value, items))


@primitive(name="min")
def min_(g: GameHost, loc, collection, key=None):
    """min(xs) or min(xs, x -> key): the smallest value (none for an empty list)."""
    items = collection_of(g, collection, loc)
    if not items:
        return None
    return min(items) if key is None else min(map(key, items))


@primitive(name="max")
def max_(g: GameHost, loc, collection, key=None):
    """max(xs) or max(xs, x -> key): the largest value (none for an empty list)."""
    items = collection_of(g, collection, loc)
    if not items:
        return None
    return max(items) if key is None else max(map(key, items))


@primitive(name="any")
def any_(g: GameHost, loc, collection, predicate=None):
    """any(xs) or any(xs, x -> cond): true if at least one item is (or satisfies) true."""
    items = collection_of(g, collection, loc)
    return any(items) if predicate is None else any(map(predicate, items))   # (stops at the first, as a loop)


@primitive(name="all")
def all_(g: GameHost, loc, collection, predicate=None):
    """all(xs) or all(xs, x -> cond): true if every item is (or satisfies) true."""
    items = collection_of(g, collection, loc)
    return all(items) if predicate is None else all(map(predicate, items))


@primitive(name="filter")
def filter_(g: GameHost, loc, collection, predicate):
    """filter(xs, x -> cond): the items that satisfy cond, in order."""
    return [x for x in collection_of(g, collection, loc) if predicate(x)]


@primitive(name="sorted")
def sorted_(g: GameHost, loc, collection, key=None, *, descending=False):
    """sorted(xs) or sorted(xs, x -> key, descending=true): a sorted copy (stable)."""
    items = collection_of(g, collection, loc)
    return sorted(items, key=key, reverse=bool(descending))


@primitive()
def first(g: GameHost, loc, collection, predicate=None):
    """first(xs) or first(xs, x -> cond): the first (matching) item, or none."""
    for x in collection_of(g, collection, loc):
        if predicate is None or predicate(x):
            return x
    return None


@primitive()
def last(g: GameHost, loc, collection, predicate=None):
    """last(xs) or last(xs, x -> cond): the last (matching) item, or none."""
    found = None
    for x in collection_of(g, collection, loc):
        if predicate is None or predicate(x):
            found = x
    return found


@primitive()
def lowest(g: GameHost, loc, collection, key):
    """lowest(xs, x -> key): every item whose key is the smallest (ties included)."""
    items = collection_of(g, collection, loc)
    if not items:
        return []
    keys = list(map(key, items))
    low = min(keys)
    return [x for x, k in zip(items, keys) if k == low]


@primitive()
def highest(g: GameHost, loc, collection, key):
    """highest(xs, x -> key): every item whose key is the largest (ties included)."""
    items = collection_of(g, collection, loc)
    if not items:
        return []
    keys = list(map(key, items))
    high = max(keys)
    return [x for x, k in zip(items, keys) if k == high]


@primitive(name="list")
def list_(g: GameHost, loc, collection):
    """list(zone_or_list): the items as a list (a snapshot of a zone)."""
    return list(collection_of(g, collection, loc))


@primitive(name="range")
def range_(g: GameHost, loc, start, stop=None):
    """range(n) is 0..n-1; range(a, b) is a..b-1."""
    span = range(start) if stop is None else range(start, stop)
    if len(span) > MAX_ITEMS:   # a stranger's ruleset may not ask for a list that fills memory
        raise GameError(f"range() of {len(span)} numbers is too long (at most {MAX_ITEMS})", loc)
    charge(g, len(span), loc)
    return list(span)


@primitive(name="abs")
def abs_(g: GameHost, loc, number):
    """abs(n): the absolute value."""
    return abs(number)


def _shown(g: GameHost, value) -> str:
    cls = value.__class__
    if cls is str or cls is int:   # the common case (building an id such as "deck" + text(c)), without the tests
        return str(value)
    if isinstance(value, PlayerRef):
        return g.player_name(value.seat)
    if isinstance(value, list):
        charge(g, len(value))   # a list of long lists is a lot of text
        return "[" + ", ".join(_shown(g, v) for v in value) + "]"
    return display(value)


@primitive()
def text(g: GameHost, loc, value):
    """text(x): x as readable text (players by their seat name)."""
    return _shown(g, value)


@primitive()
def lookup(g: GameHost, loc, table, key, default=None):
    """lookup(table, key): a value from a constant table (a map), or default."""
    if not isinstance(table, dict):
        raise GameError(f"lookup() needs a table, got {type_name(table)}", loc)
    return table.get(key, table.get(str(key), default))


# --- finding things -------------------------------------------------------------

@primitive()
def zone(g: GameHost, loc, id, player=None):
    """zone("deck") or zone("hand", p): a zone by id (per-player zones need the player)."""
    return g.find_zone(id, player, loc)


@primitive()
def space(g: GameHost, loc, id):
    """space("a1"): a board space by id."""
    return g.find_zone(str(id), None, loc)


@primitive()
def thing(g: GameHost, loc, id, player=None):
    """thing("card-5@0"): a card, piece or token by id; thing("pawn", p): p's own copy of a per-player thing."""
    if player is not None:
        if not isinstance(player, PlayerRef):
            raise GameError(f"thing(id, player) needs a player, got {type_name(player)}", loc)
        id = f"{id}@{player.seat}"
    found = g.table.things.get(str(id))
    if found is None:
        raise GameError(f"no thing with id '{id}'", loc)
    return found


@primitive()
def things(g: GameHost, loc, kind=None):
    """things() or things("card"): every thing (of a kind), wherever it is."""
    found = list(g.table.thing_list if kind is None else g.table.things_by_kind.get(kind, ()))
    g.work += len(found)   # (charge() inlined: domains ask for every piece of a kind at each decision)
    if g.work > MAX_WORK:
        raise over_budget(loc)
    return found


@primitive()
def player(g: GameHost, loc, seat):
    """player(0): the player in seat 0 (seats count from 0)."""
    if not isinstance(seat, int) or not 0 <= seat < len(g.table.players):
        raise GameError(f"no player in seat {seat!r}", loc)
    return g.table.players[seat]


@primitive()
def top(g: GameHost, loc, zone_):
    """top(zone): the first thing in a zone, or none."""
    if zone_.__class__ is ZoneRef:   # the first id alone, not the list of every thing in it
        ids = g.state.zones[zone_.id]
        return g.table.things[ids[0]] if ids else None
    items = g.zone_things(zone_)
    return items[0] if items else None


@primitive()
def bottom(g: GameHost, loc, zone_):
    """bottom(zone): the last thing in a zone, or none."""
    items = g.zone_things(zone_)
    return items[-1] if items else None


@primitive()
def next_player(g: GameHost, loc, p):
    """next_player(p): the next seat clockwise that is still in the game."""
    return g.next_player(p)


@primitive()
def turn_order(g: GameHost, loc, start):
    """turn_order(p): the seats still in the game, clockwise, starting with p."""
    return g.turn_order(start)


# --- moving things -----------------------------------------------------------------

@primitive(effect=True)
def move(g: GameHost, loc, what, to, *, at="bottom", face=None):
    """move(thing_or_list, zone, at="top"|"bottom"|index, face="up"|"down")."""
    if what.__class__ is ThingRef:   # one thing, the commonest: asked first
        g.move_thing(what, to, at, face, loc)
    elif isinstance(what, list):
        for t in list(what):
            g.move_thing(t, to, at, face, loc)
    elif what is not None:
        g.move_thing(what, to, at, face, loc)


@primitive(effect=True)
def move_all(g: GameHost, loc, source, to, *, face=None):
    """move_all(from_zone, to_zone): move everything, keeping the order."""
    if source.__class__ is ZoneRef:   # its things as they are now (g.zone_things written out: a new list)
        things = list(map(g.table.things.__getitem__, g.state.zones[source.id]))
    else:
        things = list(g.zone_things(source))   # a list given is copied: a move may change it
    for t in things:
        g.move_thing(t, to, "bottom", face, loc)


@primitive(effect=True)
def draw(g: GameHost, loc, source, to, n=None, *, face=None):
    """draw(deck, hand) moves the top thing and returns it (none if empty); draw(deck, hand, n) returns a list."""
    drawn = []
    for _ in range(1 if n is None else n):
        items = g.zone_things(source)
        if not items:
            break
        t = items[0]
        g.move_thing(t, to, "bottom", face, loc)
        drawn.append(t)
    if n is None:
        return drawn[0] if drawn else None
    return drawn


@primitive(effect=True)
def shuffle(g: GameHost, loc, zone_, *, name=None):
    """shuffle(zone, name="deck"): shuffle a zone; the name lets a scenario pin the result."""
    g.shuffle_zone(zone_, name, loc)


@primitive(effect=True)
def roll(g: GameHost, loc, faces, *, name=None):
    """roll([faces...], name="die"): one face at random (pinnable by name)."""
    items = collection_of(g, faces, loc)
    if not items:
        raise GameError("roll() needs at least one face", loc)
    return g.random_pick(items, name or "roll", loc)


@primitive(effect=True)
def pick_random(g: GameHost, loc, collection, *, name=None):
    """pick_random(xs, name="draw"): one item at random (pinnable by name)."""
    items = collection_of(g, collection, loc)
    if not items:
        return None
    return g.random_pick(items, name or "pick", loc)


@primitive(effect=True)
def flip(g: GameHost, loc, what, face=None):
    """flip(thing) turns it over; flip(thing, "up") sets the side."""
    for t in what if isinstance(what, list) else [what]:
        g.set_face(t, None if face is None else face == "up", loc)


@primitive(effect=True)
def reveal(g: GameHost, loc, what):
    """reveal(thing_or_list_or_zone): turn face up for everyone."""
    if what.__class__ is ThingRef:   # one thing, the commonest: no list made for it
        g.set_face(what, True, loc)
        return
    if what.__class__ is ZoneRef:   # turning things over moves none: the zone's own list, no copy, no list
        things = g.table.things
        for tid in g.state.zones[what.id]:
            g.set_face(things[tid], True, loc)
        return
    for t in what if isinstance(what, list) else [what]:
        g.set_face(t, True, loc)


@primitive(effect=True)
def hide(g: GameHost, loc, what):
    """hide(thing_or_list_or_zone): turn face down."""
    items = g.zone_things(what) if isinstance(what, ZoneRef) else (what if isinstance(what, list) else [what])
    for t in list(items):
        g.set_face(t, False, loc)


@primitive(effect=True)
def peek(g: GameHost, loc, who, what):
    """peek(player, thing_or_list): the player may now see these face-down things."""
    g.let_see(who, what, loc)


# --- players and scores ------------------------------------------------------------

@primitive(effect=True)
def score(g: GameHost, loc, who, amount, *, reason=None):
    """score(player, n, reason="..."): add n (may be negative) to the player's score."""
    g.add_score(who, amount, reason, loc)


@primitive(effect=True)
def eliminate(g: GameHost, loc, who, *, reason=None):
    """eliminate(player): the player leaves the game (skipped in turn order)."""
    g.eliminate(who, reason, loc)


@primitive(effect=True)
def end_game(g: GameHost, loc, *, reason=None, draw=False):
    """end_game(reason="..."): the game ends after the current statement; draw=true: in a draw (nobody wins)."""
    if not isinstance(draw, bool):
        raise GameError(f"end_game(draw=...) needs true or false, got {type_name(draw)}", loc)
    g.end_game(reason, draw)


@primitive(effect=True)
def end_turn(g: GameHost, loc):
    """end_turn(): the current turn ends once this effect is done (the rest of its actions are skipped)."""
    g.state.vars["%end_turn"] = True


@primitive()
def has_effect(g: GameHost, loc, card):
    """has_effect(card): true if the card's definition carries an `effect`."""
    return isinstance(card, ThingRef) and f"effect:{card.def_id}" in g.codes


def _load_primitive_modules() -> None:
    """Import every ``prims_*.py`` beside this file: more primitives, same registry."""
    import importlib
    import pkgutil
    from pathlib import Path
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name.startswith("prims_"):
            importlib.import_module(f"{__package__}.{info.name}")


_load_primitive_modules()
