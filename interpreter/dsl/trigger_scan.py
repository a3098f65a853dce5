"""A ruleset's state triggers and its end test as one generated scan.

After every step the engine looks for the first state trigger that fires, and
then at the end condition (:meth:`interpreter.play.game.Game.settle`). The
generic look calls each trigger's compiled condition ``when(g, L)``; a trigger
over items (``for: b in boats()``) first has its items worked out, then for
each item writes it into a locals dict and calls the condition, which reads
``L['b']`` and tests the item's class again at each of its reads. A settle
happens after every step, so the scan is a steady part of every game.

Here the whole look is generated as one Python function ``_f(g)`` from the
same syntax trees, in the order of the triggers and then the end: each
condition written out in place, an item a Python local (the generator's
``lexical`` names). Where the item's source proves its class (``things()``,
a zone named as such, ``players``: :func:`~.fast_reads.proven_class`) its
reads are written out with no class test; where only the checker's static
type names a class (an item of ``boats()``, a ruleset function), the class is
tested once per item and an item of another class is given to the trigger's
own compiled condition, as the generic look gives it. A source that is a list
written out of zone names (``[boat1, boat2]``, or a function without
parameters whose body is one, written out in place) proves its items zones
and its value a list; those zones are the same at every settle of a table, so
the list is made at the first and kept with its table. It answers what the
generic look answers: None when nothing fires, ``(trigger, item)`` for the
first trigger that fires (``item`` None for a trigger not over items), or
``(None, None)`` when the end condition holds, charging the same work at the
same points (the conditions charge it; the look itself charges nothing) and
raising every error at the same ``file:line:col`` (each snippet keeps its own
default location; an error outside the snippets, such as items that are not
a collection, is left unlocated as the generic look leaves it). Off with the
other fast paths (then every settle takes the generic look).
"""
from __future__ import annotations

from ..errors import DavitError
from ..machine import fast_paths
from . import ast
from .enumerators import snippet_lines
from .expressions import Generator
from .fast_reads import CLASS_OF_TYPE, proven_class
from .parser import parse


def as_items(g, items):
    """The items of a trigger's source's value (:meth:`interpreter.rules.model.Trigger.items` and the scan
    alike): a zone (anything with a ``defn``) its things, anything else as it is."""
    return g.zone_things(items) if hasattr(items, "defn") else items


class Entry:
    """What the scan needs of one built trigger: it, its condition's text, its source's text and the static
    type of its items (None for a trigger not over items)."""

    __slots__ = ("trigger", "when", "source", "item_type")

    def __init__(self, trigger, when, source=None, item_type=None):
        self.trigger = trigger
        self.when = when
        self.source = source
        self.item_type = item_type


def settle_scan(compiler, entries: list, end_when) -> object:
    """``_f(g)`` scanning ``entries`` (:class:`Entry`, in the triggers' order) and then the end condition
    text ``end_when`` (None: no end test), or None for the generic look (or when there is nothing to scan)."""
    if not fast_paths.on() or (not entries and end_when is None):   # (nothing to look at: Game.settle knows)
        return None
    texts = [e.when for e in entries] + [e.source for e in entries if e.source is not None]
    if end_when is not None:
        texts.append(end_when)
    if any(not isinstance(t, str) for t in texts):
        return None   # YAML read a number or a boolean: the generic look (its compile reported it)
    try:
        return _Writer(compiler).function(entries, end_when)
    except DavitError:   # the snippet's error is reported by its own compilation; the build fails there
        return None


class _Writer:
    """The source of one ruleset's scan."""

    def __init__(self, compiler):
        self.gen = Generator(compiler, None, set(), True)
        self.gen.hold_containers(looping=True)   # a container read in the items' loop is read once, at the top
        self.as_items, self.list = self.gen.bind(as_items), self.gen.bind(list)

    def function(self, entries: list, end_when):
        gen = self.gen
        body: list[str] = []
        for entry in entries:
            body += self.trigger(entry)
        if end_when is not None:
            holds = gen.fresh()
            body += self.snippet(end_when, "end condition", {}, holds)
            body += [f"if {holds}:", "    return None, None"]
        body.append("return None")
        where = entries[0].trigger.location if entries else None
        return gen.function(body, where, "g", wrapped=False)

    def snippet(self, text, what: str, lexical: dict, out: str) -> list[str]:
        return snippet_lines(self.gen, text, what, lexical, out)

    def trigger(self, entry: Entry) -> list[str]:
        """The lines that return ``(trigger, item)`` if ``entry``'s trigger fires, else go on."""
        gen = self.gen
        trig = entry.trigger
        tid = trig.id
        fired = gen.bind(trig, "_t")
        if entry.source is None:
            holds = gen.fresh()
            return self.snippet(entry.when, f"trigger {tid} when", {}, holds) + [
                f"if {holds}:", f"    return {fired}, None"]
        items, item, holds = gen.fresh(), gen.fresh(), gen.fresh()
        out = self.snippet(entry.source, f"trigger {tid} for", {}, items)
        written = self.written_out(parse(entry.source, "expr"))
        if written is not None:   # a list written out of zone names (maybe as a function's body): its zones
            # the same zones at every settle of a table: the list is made at the first and kept with its table
            # (one pair, replaced at once: a game of another table makes its own); reading a zone by its name
            # charges nothing and fails the same way every time, so only the first settle can raise
            kept, table = gen.bind([(None, None)], "_m"), gen.fresh()
            out = [f"{table}, {items} = {kept}[0]", f"if {table} is not g.table:"] + ["    " + line for line in out]
            out.append(f"    {kept}[0] = (g.table, {items})")
            proven = written
        else:
            # a zone's items are its things (Trigger.items): asked as it asks (a list has no `defn`), outside
            # the source's own place
            out += [f"if {items}.__class__ is not {self.list}:", f"    {items} = {self.as_items}(g, {items})"]
            proven = proven_class(gen, parse(entry.source, "expr"), collection=True)
        likely = proven or CLASS_OF_TYPE.get(entry.item_type)
        gen.proven[item] = likely
        check = self.snippet(entry.when, f"trigger {tid} when", {trig.var: item}, holds)
        out.append(f"for {item} in {items}:")
        if proven is not None or likely is None:   # every item is of its class, or none is known: no test
            out += ["    " + line for line in check]
            out += [f"    if {holds}:", f"        return {fired}, {item}"]
            return out
        # the class the checker expects is tested once per item; any other item is given to the
        # trigger's own condition, in a locals dict, as the generic look gives it
        when = gen.bind(trig.when, "_w")
        out.append(f"    if {item}.__class__ is {likely}:")
        out += ["        " + line for line in check]
        out += [f"        if {holds}:", f"            return {fired}, {item}"]
        out += [f"    elif {when}(g, {{{trig.var!r}: {item}}}):", f"        return {fired}, {item}"]
        return out

    def written_out(self, node):
        """``"_ZR"`` where the source ``node``, as the generated code reads it, is a list written out of zone
        names (``[boat1, boat2]``), directly or as the body of a function without parameters written out in
        place (``boats()``, dsl/inline_calls.py): its value is a list, each item a zone. Else None."""
        gen = self.gen
        saved = gen.scope, gen.lexical
        try:
            while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args \
                    and not node.kwargs and node.func.id in gen.env.functions:
                info = gen.env.functions[node.func.id]
                if info.params or gen.env.layout is None or info.inlinable is not True:
                    return None
                node = info.body[0].value   # inline_calls writes it out with no names in scope
                gen.scope, gen.lexical = set(), {}
            return proven_class(gen, node, collection=False) if isinstance(node, ast.ListLit) else None
        finally:
            gen.scope, gen.lexical = saved
