"""Inline ``x.name`` reads where the ruleset's declarations say where ``name`` lives.

A read ``t.seat`` normally calls the reader for ``seat``
(:mod:`interpreter.machine.attributes`), which asks what kind of object it
was given and then looks in every place an attribute can live: dynamic
properties, static attributes, built-ins. Reads are the commonest operation
of the rules (a filter over every piece reads several attributes of
each), and the call costs more than the read.

The compiler knows, for the whole ruleset, which names are declared thing,
zone and player properties and which static attributes any thing or zone
carries. Where that leaves exactly one place a name can live for an object
of a given class, the generated code reads that place directly, guarded by
a class test, and falls back to the reader for anything else::

    (X.kind if X.__class__ is _TR else _r3(g, X, _l4))

``X`` is used several times, so it must be a name: a lambda parameter or a
function argument is one already; any other receiver (a rule's local
``L['s']``, a call ``thing("pawn", p)``) is worked out once by the first
class test and kept in a fresh name (``(_w5 := L['s']).__class__``), except
inside a comprehension's iterable, where Python refuses ``:=``: there a
local is looked up at each use and any other receiver goes to a generated
reader (:func:`receiver_reader`). The class the static checker gives the
receiver is tested first. The Python text of every access comes from the
tables below, chosen by the name; a ruleset's text only ever reaches the
source through ``repr`` as a dictionary key.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..machine import attributes
from ..machine.attributes import ENGINE_PROPS, THING_BUILTINS, ZONE_BUILTINS
from ..machine.budget import MAX_SMALL_INT
from ..machine.values import ThingRef, ZoneRef
from . import ast
from .primitives import BUILTIN_VALUES
from .read_memo import keep_local, props_of
from .zone_answers import answers_table_zone

if TYPE_CHECKING:
    from ..machine.host import GameHost

# names every object of a class answers itself: the access is fixed text, looked up, never built from the name
THING_FIELD = {"id": "{x}.id", "kind": "{x}.kind", "name": "{x}.name"}
THING_ZONE = "{zones}[{where}[{x}.id]]"
THING_OWNER = "(g.table.players[{x}.owner] if {x}.owner is not None else None)"
THING_FACE_UP = "{props}.get('face_up', False)"
# what a zone answers itself, where no declared property or printed attribute of any zone takes the name
# ({len} is Python's, bound: generated code runs without builtins); `removed` is kept in the zone's
# properties by the engine, so it is never written out here
ZONE_FIELD = {"count": "{len}({zones}[{x}.id])", "empty": "not {zones}[{x}.id]",
              "id": "{x}.id", "name": "{x}.name",
              "full": "({x}.defn.capacity is not None and {len}({zones}[{x}.id]) >= {x}.defn.capacity)",
              "top": "({things}[{zones}[{x}.id][0]] if {zones}[{x}.id] else None)",
              "bottom": "({things}[{zones}[{x}.id][-1]] if {zones}[{x}.id] else None)",
              "things": "[*{map}({things}.__getitem__, {zones}[{x}.id])]"}
PYTHONS = (("len", len), ("map", map))   # Python's own, bound where a form names them (no builtins in generated code)
# what a player answers itself, where no player variable or per-player zone takes the name
PLAYER_FIELD = {"seat": "{x}.seat", "out": "{out}[{x}.seat]", "name": "g.table.player_names[{x}.seat]"}
SCALARS = (bool, int, float, str, type(None))


@dataclass
class Layout:
    """Where each attribute name can live, for every object of one ruleset."""
    thing_props: dict = field(default_factory=dict)    # declared dynamic thing property -> default
    thing_attrs: set = field(default_factory=set)      # static attribute names of any thing
    zone_props: dict = field(default_factory=dict)     # declared dynamic zone property -> default
    zone_attrs: set = field(default_factory=set)       # static attribute names of any zone or space
    player_vars: set = field(default_factory=set)      # declared player variables (every player has each)
    seat_zones: set = field(default_factory=set)       # per-player zone ids
    readers: dict = field(default_factory=dict)        # name -> the reader made for it (see reader_for)
    # declared properties no rule sets (rules/layout.py): the printed value, else the default, is the answer
    fixed_thing_props: set = field(default_factory=set)
    fixed_zone_props: set = field(default_factory=set)


def bare_read(gen, layout: Layout | None, name: str, x: str, call, likely=None, local=None) -> str:
    """Python source reading ``<x>.<name>`` for a bare variable ``x``; ``call(y)`` is the source of the
    reader's call on a receiver ``y``; ``likely`` the receiver's static type, if known. A rule's local
    (``L['s']``, named ``local``) is looked up once and kept in a fresh name, except inside a comprehension's
    iterable (``gen.iterable``), where Python refuses ``:=``; later reads may use that name (read_memo)."""
    if not x.isidentifier():
        inlined = kept_read(gen, layout, name, x, call, likely, local)
        if inlined is not None:
            return inlined
    fallback = call(x)
    return inline_read(gen, layout, name, x, fallback, likely=likely, proven=gen.proven.get(x)) or fallback


def proven_class(gen, node, collection: bool):
    """The class every item of the source ``node`` has, where the source proves it, else None: the things
    of ``things(...)``, the spaces of ``spaces(...)``, the players of ``players`` and ``all_players`` and,
    for a built-in that takes a collection (``collection``: a zone is its things), the things of a zone
    named as such; the zones of a list written out of zone names (``[boat1, boat2]``)."""
    env = gen.env
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in env.functions:
        return {"things": "_TR", "spaces": "_ZR"}.get(node.func.id)
    if isinstance(node, ast.ListLit):
        return "_ZR" if node.items and all(_zone_name(gen, item) for item in node.items) else None
    if not _builtin_name(gen, node):
        return None   # a name the rules gave a value: anything
    if node.id in ("players", "all_players"):
        return "_PR"
    return "_TR" if collection and _zone_name(gen, node) else None


def proven_kind(gen, node) -> str | None:
    """The kind every item of the source ``node`` has: ``things("pawn")`` (the table's things of that kind), else
    None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "things" \
            and node.func.id not in gen.env.functions and len(node.args) == 1 and not node.kwargs \
            and isinstance(node.args[0], ast.Const) and node.args[0].value.__class__ is str:
        return node.args[0].value
    return None


def zone_field(gen, x: str) -> bool:
    """Whether ``<x>.zone`` of the Python name ``x`` is the thing's own zone read with no class test (its source
    proves ``x`` a thing; no declared property or printed attribute takes the name): a zone, whatever happens."""
    layout = gen.env.layout
    return layout is not None and gen.proven.get(x) == "_TR" and "zone" not in layout.thing_props \
        and "zone" not in layout.thing_attrs


def static_truth(gen, node) -> bool | None:
    """What ``node`` answers where it is known without reading anything, else None: ``t.kind == "pawn"`` (or
    ``!=``) of an item ``t`` of ``things("pawn")``, where ``kind`` is the thing's own field (no declared property
    or printed attribute takes the name: then the read is ``t.kind``, which can neither fail nor differ)."""
    layout = gen.env.layout
    if layout is None or not isinstance(node, ast.Compare) or len(node.rest) != 1 \
            or node.rest[0][0] not in ("==", "!="):
        return None
    op, other = node.rest[0]
    read = node.first
    if not (isinstance(read, ast.Attr) and read.name == "kind" and isinstance(read.obj, ast.Name)
            and isinstance(other, ast.Const) and other.value.__class__ is str) \
            or "kind" in layout.thing_props or "kind" in layout.thing_attrs:
        return None
    kind = gen.kinds.get(gen.lexical.get(read.obj.id))
    if kind is None:
        return None
    return (kind == other.value) == (op == "==")


def zone_identity(gen, node) -> str | None:
    """``is`` or ``is not`` for ``a == b`` or ``a != b`` (one comparison, ``node``) of two of the table's zones,
    each a zone named as such or a proven thing's own zone (:func:`zone_field`): the table holds one object per
    zone, so two are equal exactly when they are the same one, and no Python ``__eq__`` runs. Else None."""
    if gen.env.layout is None or not isinstance(node, ast.Compare) or len(node.rest) != 1 \
            or node.rest[0][0] not in ("==", "!="):
        return None
    op, other = node.rest[0]
    if not (_table_zone(gen, node.first) and _table_zone(gen, other)):
        return None
    return "is" if op == "==" else "is not"


def _table_zone(gen, node) -> bool:
    """Whether ``node`` is read as one of the table's zone objects: a zone's name, a proven thing's ``.zone``, a
    call answering one (:mod:`.zone_answers`: ``here(p)``, ``thing("pawn", p).zone``)."""
    if isinstance(node, ast.Attr) and node.name == "zone" and isinstance(node.obj, ast.Name):
        return node.obj.id in gen.lexical and zone_field(gen, gen.lexical[node.obj.id])
    if isinstance(node, (ast.Call, ast.Attr)):
        return answers_table_zone(gen.env, node, gen.scope | set(gen.lexical))
    return _zone_name(gen, node)


def proven_list(gen, node) -> bool:
    """Whether the source ``node`` is a Python list whatever happens: a list written out, a comprehension,
    ``players`` and ``all_players``, a ``filter`` written out as a comprehension (``collection_of`` would
    return it as it is, charging its length: ``budget.each`` does that alone)."""
    if isinstance(node, (ast.ListLit, ast.Comprehension)):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "filter" \
            and node.func.id not in gen.env.functions and len(node.args) == 2 \
            and isinstance(node.args[1], ast.Lambda) and not node.kwargs:
        return True
    return _builtin_name(gen, node) and node.id in ("players", "all_players")


def _builtin_name(gen, node) -> bool:
    """Whether ``node`` is a bare name no rule gave a value (a local, a variable, a constant)."""
    env = gen.env
    return isinstance(node, ast.Name) and node.id not in gen.lexical and node.id not in gen.scope \
        and node.id not in env.globals and node.id not in env.constants


def _zone_name(gen, node) -> bool:
    """Whether ``node`` names a zone (read as ``g.table.zones[name]``)."""
    return _builtin_name(gen, node) and node.id in gen.env.zones and node.id not in BUILTIN_VALUES


def kept_read(gen, layout: Layout | None, name: str, x: str, call, likely=None, local=None) -> str | None:
    """``<x>.<name>`` written out with the receiver ``x`` (any expression) worked out once and kept in a fresh
    name by the first class test, or None where that cannot be (nothing to write out, or inside a
    comprehension's iterable). ``x`` the rule's local ``local``: the name is offered to later reads."""
    if gen.iterable:
        return None
    kept = gen.fresh("_w")
    code = inline_read(gen, layout, name, kept, call(kept), x, likely)
    if code is not None:
        keep_local(gen, local, kept)
    return code


def proven_read(gen, layout: Layout | None, name: str, x: str, cls: str, call) -> str | None:
    """``<x>.<name>`` for a receiver ``x`` (any expression) whose class is ``cls`` whatever happens, written out with
    no class test: with ``x`` in place where the read uses its receiver once (``thing("pawn", p).zone``), else
    ``x`` kept in a fresh name first; None where nothing can be written out, or a name cannot be kept (in a
    comprehension's iterable). ``call(y)`` is the source of the reader's call on a receiver ``y``."""
    kept = gen.fresh("_w")
    code = inline_read(gen, layout, name, kept, call(kept), proven=cls)
    if code is None:
        return None
    word = re.compile(rf"\b{kept}\b")
    if len(word.findall(code)) == 1:
        return word.sub(lambda _: x, code)
    if gen.iterable:   # (no `:=` here)
        return None
    # kept by `:=` before the read (a thing or a zone is never false: the read is what is evaluated)
    return f"({code} if ({kept} := {x}) else {kept})"


CLASS_OF_TYPE = {"thing": "_TR", "zone": "_ZR", "player": "_PR"}   # static type -> the generated name of its class


def inline_read(gen, layout: Layout | None, name: str, x: str, fallback: str, first: str | None = None,
                likely=None, proven=None) -> str | None:
    """Python source reading ``<x>.<name>``, or None when the reader must decide.

    ``gen`` binds objects to generated names; ``x`` is the source of a bare
    variable; ``fallback`` the reader call for any other class of object.
    With ``first`` (a rule local's read, ``L['s']``), ``x`` is a fresh name the
    first class test binds to it (``(_w3 := L['s']).__class__``): the local is
    looked up once per read instead of at every use, in the same place, so
    a local read before it is set fails where it did. The class of the static
    type ``likely`` is tested first; the others are still tested after it (a
    "thing" may be none at run time), so the type only saves tests. A variable
    whose source proves its class (``proven``: ``_TR`` for the items of
    ``things()``) is read with no test at all.
    """
    if layout is None:
        return None
    key = repr(name)
    places = [(cls, fast) for cls, fast in (("_PR", _player(gen, layout, name, key, x)),
                                            ("_ZR", _zone(gen, layout, name, key, x, fallback)),
                                            ("_TR", _thing(gen, layout, name, key, x, fallback))) if fast is not None]
    if proven is not None:
        return next((fast for cls, fast in places if cls == proven), None)
    if not places:
        return None
    # the last place is tested first
    places.sort(key=lambda place: place[0] == CLASS_OF_TYPE.get(likely))
    code = fallback
    for number, (cls, fast) in enumerate(places, 1):
        # the outermost test is evaluated first: it binds the receiver when asked to
        tested = f"({x} := {first})" if first is not None and number == len(places) else x
        code = f"({fast} if {tested}.__class__ is {cls} else {code})"
    return code


def _thing(gen, layout, name, key, x, fallback):
    if name in layout.thing_props:
        # a declared property (which replaces a built-in of its name, a die's `holder`): set in play, else
        # the thing's printed attribute, else the declared default (the reader's order)
        default = layout.thing_props[name]
        if name in layout.fixed_thing_props:   # never set (rules/layout.py): the printed value, else the default
            return f"{x}.attrs.get({key}, {gen.literal(default)})" if name in layout.thing_attrs \
                else gen.literal(default)
        # the thing's properties (first: as first evaluated, again: as used after that in the same read)
        twice = name in layout.thing_attrs or not isinstance(default, SCALARS)
        first, again = props_of(gen, x, twice)
        if not isinstance(default, SCALARS):   # defaulting to a list: once set, the property; the reader else
            return f"({again}[{key}] if {key} in {first} else {fallback})"
        if name in layout.thing_attrs:
            # the attribute is looked up only when no property is set (a default argument would be worked
            # out every time)
            return f"({x}.attrs.get({key}, {gen.literal(default)}) if {key} not in {first} else {again}[{key}])"
        return f"{first}.get({key}, {gen.literal(default)})"
    if name in layout.thing_attrs:
        if name in THING_BUILTINS:
            return None
        # an attribute some things carry: theirs, the reader for the rest
        return f"({x}.attrs[{key}] if {key} in {x}.attrs else {fallback})"
    if name in THING_FIELD:
        return THING_FIELD[name].format(x=x)
    if name == "zone":
        return THING_ZONE.format(x=x, zones=gen.container("g.table.zones"), where=gen.container("g.state.where"))
    if name == "owner":
        return THING_OWNER.format(x=x)
    if name == "face_up":
        return THING_FACE_UP.format(props=props_of(gen, x, False)[0])
    return None


def _zone(gen, layout, name, key, x, fallback):
    if name in layout.zone_props:
        # as for things: a declared property (replacing a built-in of its name) set in play, else the
        # zone's printed attribute (a space's printed value), else the declared default
        default = layout.zone_props[name]
        if not isinstance(default, SCALARS):
            return _zone_prop(gen, x, key, fallback)
        printed = f"{x}.attrs.get({key}, {gen.literal(default)})" if name in layout.zone_attrs \
            else gen.literal(default)
        if name in layout.fixed_zone_props:   # never set (rules/layout.py): a row, a gate as printed
            return printed
        return _zone_prop(gen, x, key, printed)
    if name in ZONE_BUILTINS:
        if name in ZONE_FIELD and name not in layout.zone_attrs:
            form = ZONE_FIELD[name]   # the containers asked for only where the read uses them (held: see container)
            zones = gen.container("g.state.zones") if "{zones}" in form else ""
            things = gen.container("g.table.things") if "{things}" in form else ""
            pythons = {word: gen.bind(fn) if "{" + word + "}" in form else "" for word, fn in PYTHONS}   # bound
            return form.format(x=x, zones=zones, things=things, **pythons)
        return None
    if name in layout.zone_attrs:
        return f"({x}.attrs[{key}] if {key} in {x}.attrs else {fallback})"
    return None


def _zone_prop(gen, x, key, otherwise):
    """A declared zone property: set in play, else ``otherwise``. Most zones have none set, so the zone is
    looked for first, and nothing is called (two ``dict.get`` with a default worked out ahead cost more)."""
    zprops = gen.container("g.state.zprops")
    return f"({otherwise} if {x}.id not in {zprops} or {key} not in {zprops}[{x}.id] else {zprops}[{x}.id][{key}])"


def _player(gen, layout, name, key, x):
    if name in layout.player_vars:
        return f"{gen.container('g.state.pvars')}[{x}.seat][{key}]"
    if name in layout.seat_zones:
        return f"g.table.seat_zones[({key}, {x}.seat)]"
    if name in PLAYER_FIELD:
        return PLAYER_FIELD[name].format(x=x, out=gen.container("g.state.out") if name == "out" else "")
    return None


def declared_write(gen, obj: str, name: str, value_node, value: str, where: str) -> list[str] | None:
    """Lines setting ``<obj>.<name>`` to ``value`` (sources) where the declarations leave ``name`` one place
    to live, or None for ``set_attr``. ``value_node`` is the value's syntax tree (None: ``+=`` and kin).

    A declared thing property is set by ``set_thing_prop``, or, for a literal the state keeps as it is (a
    flag, none, a number of a few digits, the empty text: nothing to check, hold or mark), in place on a
    thing while nobody follows which zones change (``changed``). A player variable set to a flag, none or
    the empty text (no bounds apply to those) is set in place on a player when nobody keeps the log
    (``set_attr`` logs the change). Any other object, and anything else, goes through ``set_attr``."""
    env, layout = gen.env, gen.env.layout
    if layout is None:
        return None
    literal = value_node.value if isinstance(value_node, ast.Const) else _NOT_LITERAL
    kind = type(literal)
    flag = kind is bool or literal is None or literal == ""
    if name in layout.thing_props and name not in env.player_attrs and name not in env.zone_props:
        if not in_place_write(gen, name, value_node):
            return [f"g.set_thing_prop({obj}, {name!r}, {value}, {where})"]
        return declared_writes(gen, obj, [(name, value, where)])
    if flag and name in layout.player_vars and name not in env.thing_props and name not in env.zone_props:
        return ["_t = " + obj, "if _t.__class__ is _PR and not g.record:",
                f"    {gen.container('g.state.pvars')}[_t.seat][{name!r}] = {value}",
                "else:", f"    g.set_attr(_t, {name!r}, {value}, {where})"]
    return None


def in_place_write(gen, name: str, value_node) -> bool:
    """Whether ``<thing>.<name> = <value_node>`` is written in place on a thing (:func:`declared_write`): a
    declared thing property (and nothing else of that name) set to a literal the state keeps as it is (a
    flag, none, a number of a few digits, the empty text: nothing to check, hold or mark)."""
    env, layout = gen.env, gen.env.layout
    if layout is None or name not in layout.thing_props or name in env.player_attrs or name in env.zone_props \
            or not isinstance(value_node, ast.Const):
        return False
    literal = value_node.value
    kind = literal.__class__
    return kind is bool or literal is None or literal == "" or kind is float \
        or (kind is int and -MAX_SMALL_INT < literal < MAX_SMALL_INT)


def declared_writes(gen, obj: str, writes: list) -> list[str]:
    """Lines setting the properties ``writes`` (``(name, value, where)``, each an :func:`in_place_write` with a
    literal value) of the one object ``obj`` (a source read again at no cost that changes nothing), in order,
    as that many statements of :func:`declared_write` set them: in place on a thing while nobody follows
    which zones change (``changed``, the RL observation: RuleRuntime.changed), the thing's own dict found once
    (State.own_props written out: no call where no clone shares it); else each through ``set_attr``, which
    fails, if it fails, at its own statement (the first such: the object and ``changed`` are the same for
    all, so each statement would have taken the same way)."""
    props = f"({gen.container('g.state.props')}[_t.id] if _t.id in {gen.container('g.state.props_own')} " \
            "else g.state.own_props(_t.id))"
    if len(writes) == 1:
        name, value, _ = writes[0]
        fast = [f"    {props}[{name!r}] = {value}"]
    else:
        held = gen.fresh("_p")
        fast = [f"    {held} = {props}", *(f"    {held}[{name!r}] = {value}" for name, value, _ in writes)]
    index = gen.container("g.state.index")   # the things by these properties' values (prop_index) made again
    fast += [f"    if {index}:", *(f"        {index}.pop({name!r}, None)" for name, _, _ in writes)]
    return ["_t = " + obj, "if _t.__class__ is _TR and g.changed is None:", *fast,
            "else:", *(f"    g.set_attr(_t, {name!r}, {value}, {where})" for name, value, where in writes)]


_NOT_LITERAL = object()


def receiver_reader(new_generator, layout: Layout | None, name: str):
    """``read(g, obj, loc)`` for ``.name`` on a receiver that is no bare variable (``thing("pawn", p).zone``)
    inside a comprehension's iterable, where it cannot be kept by ``:=`` (:func:`kept_read`): the read
    :func:`inline_read` writes out, as a generated function of its own (one per name and ruleset, made
    with a generator from ``new_generator()``), so the receiver is worked out once; the reader of
    :func:`reader_for` where nothing can be written out."""
    general = reader_for(layout, name)
    if layout is None:
        return general
    key = ("receiver", name)
    found = layout.readers.get(key)
    if found is None:
        gen = new_generator()
        obj, where = gen.fresh("_a"), gen.fresh("_a")
        code = inline_read(gen, layout, name, obj, f"{gen.bind(general, '_r')}(g, {obj}, {where})")
        # unwrapped: an error is located at the caller's node, as a call of the general reader's is
        found = general if code is None else \
            gen.function([f"return {code}"], None, f"g, {obj}, {where}", wrapped=False)
        layout.readers[key] = found
    return found


def reader_for(layout: Layout | None, name: str):
    """The reader of ``.name`` for reads that cannot be written out (``t.zone.gate``: the receiver is no
    bare variable): the general reader, or, for a name the declarations leave only among the static
    attributes of zones (or of things), one that looks there first. Nothing else can hold such a name, so
    the answer is the general reader's."""
    general = attributes.reader(name)
    if layout is None:
        return general
    found = layout.readers.get(name)
    if found is None:
        found = layout.readers[name] = _first_look(layout, name, general)
    return found


def _first_look(layout, name, general):
    # a property no rule sets (layout.fixed_*) is never in the state: only its printed value can answer first
    other_places = (name in layout.thing_props and name not in layout.fixed_thing_props) \
        or (name in layout.zone_props and name not in layout.fixed_zone_props) or name in layout.player_vars \
        or name in THING_BUILTINS or name in ZONE_BUILTINS or name in THING_FIELD or name in ENGINE_PROPS
    if other_places:
        return general
    cls: type
    if name in layout.zone_attrs and name not in layout.thing_attrs:
        cls = ZoneRef
    elif name in layout.thing_attrs and name not in layout.zone_attrs:
        cls = ThingRef
    else:
        return general

    def read(g: GameHost, o, loc):
        if o.__class__ is cls:
            attrs = o.attrs
            if name in attrs:
                return attrs[name]
        return general(g, o, loc)
    return read
