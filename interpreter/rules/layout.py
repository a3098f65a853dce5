"""Where each attribute name lives, and which declared properties no rule ever sets.

A declared property (``props: zones: {row: 0}``) may be read from a
thing's or zone's printed attributes (``attrs: {row: 9}``) until a rule sets
it, so a read looks in the state first (``zprops``), then at the printed
value, then at the declared default. The only way to set a property is an
assignment whose target names it (``z.row = 3``, ``t.seat += 1``, the
grammar's ``target_attr``): no primitive sets a property whose name is made
at run time, and the engine itself keeps only built-in names in the state
(``face_up``, ``removed``, ``known_to``). So a declared property that no
assignment of the ruleset names is *fixed*: it always reads its printed
value or its default, and the compiler reads it there with no state lookup
(:mod:`interpreter.dsl.fast_reads`).

Which names are assigned is found in the ruleset's texts before any snippet
is compiled: every ``.name`` followed by an assignment operator, wherever it
stands in any text of the merged data (keys included; a comment or a string
that looks like one only makes a name not fixed, never the other way round).
The compiler refuses an assignment to a fixed name (:mod:`.expressions`), so
a text this scan missed would stop the build at its place rather than be
read wrongly, and a scenario or a test snippet compiled later against the
ruleset cannot set one either. A saved game is refused if its state holds one
(:func:`fixed_set_in_state`).
"""
from __future__ import annotations

import re

from ..dsl.fast_reads import SCALARS, Layout
from ..machine.attributes import ENGINE_PROPS, THING_BUILTINS, ZONE_BUILTINS

# `.name` then `=` (not `==`), `+=`, `-=`, `*=` or `//=`, with any spaces, newlines or `\` line joins between
# (the grammar ignores those); a `.name` never assigned when the text is parsed only keeps its name out
ASSIGNED = re.compile(r"\.[\s\\]*([A-Za-z_][A-Za-z_0-9]*)[\s\\]*(?:=(?!=)|\+=|-=|\*=|//=)")


def assigned_names(data) -> set:
    """Every name some text in ``data`` (the merged ruleset, any nesting) may assign as ``x.name``."""
    found: set = set()
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if "=" in value:
                found.update(ASSIGNED.findall(value))
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, (list, tuple)):
            pending.extend(value)
    return found


def fixed_props(declared: dict, builtins, assigned: set) -> frozenset:
    """The properties of ``declared`` (one class's, name -> default) that no assignment names and the engine
    never keeps (``builtins``, the class's built-in names), with a default the state keeps as it is (a list
    default is left to the reader)."""
    return frozenset(name for name, default in declared.items()
                     if name not in assigned and name not in builtins and name not in ENGINE_PROPS
                     and isinstance(default, SCALARS))


def fixed_of(rs, assigned: set) -> tuple[frozenset, frozenset]:
    """The fixed thing properties and the fixed zone properties of ``rs``."""
    return fixed_props(rs.thing_props, THING_BUILTINS, assigned), fixed_props(rs.zone_props, ZONE_BUILTINS, assigned)


def layout(rs, fixed: tuple[frozenset, frozenset]) -> Layout:
    """Where each attribute name can live, for the compiler's inlined reads."""
    thing_attrs = set()
    for t in rs.things:
        thing_attrs |= set(t.get("attrs") or {}) | set(t.get("each") or {})
    zone_attrs = set()
    for z in rs.zones.values():
        zone_attrs |= set(z.attrs)
    return Layout(thing_props=dict(rs.thing_props), thing_attrs=thing_attrs, zone_props=dict(rs.zone_props),
                  zone_attrs=zone_attrs, player_vars=set(rs.player_vars),
                  seat_zones={z.id for z in rs.zones.values() if z.per_player},
                  fixed_thing_props=set(fixed[0]), fixed_zone_props=set(fixed[1]))


def fixed_set_in_state(fixed: tuple[frozenset, frozenset], props: dict, zprops: dict) -> str | None:
    """What is wrong with a state (a saved game's) that holds a value for a fixed property (``fixed``: as
    :func:`fixed_of` gives), or None: no rule of the ruleset could have set it, and the compiled rules read
    the printed value, never the state's."""
    for kind, table, fixed_here in (("card or piece", props, fixed[0]), ("zone", zprops, fixed[1])):
        for oid, values in table.items():
            for name in values:
                if name in fixed_here:
                    return (f"{kind} '{oid}' holds a value for '{name}', which no rule of this ruleset sets "
                            "(its printed value is fixed)")
    return None
