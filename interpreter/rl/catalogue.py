"""A fixed catalogue of integer action ids for one (ruleset, player count).

Learning libraries want ``Discrete(N)``: the same id must mean the same thing
in every state. An engine action is a name and arguments whose values are
players, zones, things, numbers, truth values or lists of them; a flat
catalogue of every name × every combination of arguments would be far too big
for actions with two or three parameters (or a list of dice). So an action is
spelt as a short sequence of *tokens*, one per environment step, each from a
fixed vocabulary derived from the declarations:

* ``pass`` (end the turn), where a turn of the flow lets its player pass;
* one token per action without parameters, and per action × value of its
  first parameter (``play card-7``): most actions are a single token;
* ``value v`` for each later argument, ``list``/``end`` around a list argument
  (``move token-3`` → ``value space-2`` → ``list`` → ``value die.1`` → ``end``);
* for a choice: ``choose v`` for an option that is a value of the vocabulary,
  or ``option #i`` (its position among the offered options) for one that is
  not (a text, a list holding a text, a number outside ``0..MAX_NUMBER``);
  a position past the first ``MAX_OPTIONS`` is ``option page #p`` then
  ``option #i`` (position ``p × MAX_OPTIONS + i``), so a choice may offer up to
  ``MAX_OPTIONS²`` such options for ``2 × MAX_OPTIONS`` ids.

Only the ids the declarations can need are listed: the choice ids where a
rule calls ``choose(``, the ``value`` ids where an action has a parameter.
A game of two actions without parameters has two ids.

The values ``v`` are ``none``, ``false``, ``true``, the numbers
``0..MAX_NUMBER`` and every player, zone and thing of the table. Two bounds
are picked, not derived: ``MAX_NUMBER`` and ``MAX_OPTIONS`` (choice options
spelt by position). A legal action the catalogue cannot spell raises
:class:`CatalogueError`; it is never dropped silently.
"""
from __future__ import annotations

from ..errors import DavitError
from ..machine.values import PlayerRef, ThingRef, ZoneRef, display
from ..machine.waits import PASS

MAX_NUMBER = 20
MAX_OPTIONS = 64
LIST, END = "list", "end"


class CatalogueError(DavitError):
    """A legal action that the fixed action catalogue cannot spell."""
    code = "rl-catalogue"


def _value_key(value):
    """A hashable key for a vocabulary value; None if the value is not in the vocabulary."""
    if isinstance(value, bool) or value is None:
        return ("const", value)
    if isinstance(value, int) and 0 <= value <= MAX_NUMBER:
        return ("number", value)
    if isinstance(value, float) and value.is_integer() and 0 <= value <= MAX_NUMBER:
        return ("number", int(value))
    if isinstance(value, PlayerRef):
        return ("player", value.seat)
    if isinstance(value, ZoneRef):
        return ("zone", value.id)
    if isinstance(value, ThingRef):
        return ("thing", value.id)
    return None


# argument values that are hashable and never equal to a value of another class spelt otherwise (a list is
# neither): the spelling of an action with only these is remembered
_KEYABLE = frozenset((bool, int, float, str, type(None), PlayerRef, ThingRef, ZoneRef))


class Catalogue:
    """Token ids for a table; ``spell(action)`` gives the token sequence of an engine action."""

    def __init__(self, ruleset, num_players: int):
        table = ruleset.table(num_players)
        values: list[tuple[str, object]] = [("const", None), ("const", False), ("const", True)]
        values += [("number", n) for n in range(MAX_NUMBER + 1)]
        values += [("player", p.seat) for p in table.players]
        values += [("zone", z.id) for z in table.zone_list]
        values += [("thing", t.id) for t in table.thing_list]
        heads = values + [LIST]       # what may start an argument
        self.names: list[str] = []    # token id -> readable name
        self._ids: dict = {}
        self._actions = ruleset.actions
        # only the ids the declarations can need: `pass` where a turn may pass, for an action's first
        # argument the values of its static type (a zone, a thing, ...: dsl/static_types.py; any value where
        # the checker does not know it), the choice ids where a rule calls choose(), the `value` ids where an
        # action has a second parameter or one that may be a list
        if _may_pass(ruleset):
            self._add(("pass",), "pass")
        for aid, adef in ruleset.actions.items():
            if not adef.params:
                self._add(("act", aid, None), aid)
            else:
                for head in _of_type(_types(adef)[0], heads):
                    self._add(("act", aid, head), f"{aid} {_name(head)}")
        if "choose(" in repr(ruleset.data):
            for head in heads:
                self._add(("choose", head), f"choose {_name(head)}")
            for i in range(MAX_OPTIONS):
                self._add(("option", i), f"option #{i}")
            for page in range(1, MAX_OPTIONS):
                self._add(("option page", page), f"option page #{page}")
        if any(len(adef.params) > 1 or any(t not in SCALARS for t in _types(adef))
               for adef in ruleset.actions.values()) or "choose(" in repr(ruleset.data):
            for head in heads + [END]:
                self._add(("value", head), f"value {_name(head)}")
        self.size = len(self.names)
        self._spelt: dict = {}        # (name, arguments with their types) -> ids: the same actions come back
        self.max_length = _longest_spelling(ruleset, len(values))

    def _add(self, key, name):
        self._ids[key] = len(self.names)
        self.names.append(name)

    def spell(self, action) -> tuple:
        """The token ids of an engine :class:`Action` (raises CatalogueError if it cannot be spelt)."""
        args = action.args
        classes = tuple([v.__class__ for _, v in args])
        if _KEYABLE.issuperset(classes):
            # the key holds each value's class: True == 1 in a dict, but they are spelt apart
            key = (action.name, args, classes)
            tokens = self._spelt.get(key)
            if tokens is None:
                tokens = self._spelt[key] = self._spell(action)
            return tokens
        return self._spell(action)

    def _spell(self, action) -> tuple:
        if action.name == PASS:
            return (self._ids[("pass",)],)
        if not action.args:
            return (self._ids[("act", action.name, None)],)
        parts = [self._heads_and_rest(value, action) for _, value in action.args]
        head, rest = parts[0]
        first = self._ids.get(("act", action.name, head))
        if first is None:   # (a value not of the type the checker gave the parameter)
            raise CatalogueError(f"action '{action.name}' offers the value {display(action.args[0][1])} for its first "
                                 f"parameter, not of the type the ruleset's checker found for it "
                                 f"({_types(self._actions[action.name])[0]})")
        tokens = [first]
        tokens += [self._ids[("value", k)] for k in rest]
        for head, rest in parts[1:]:
            tokens += [self._ids[("value", k)] for k in (head, *rest)]
        return tuple(tokens)

    def spell_choice(self, option, index: int) -> tuple:
        """The token ids of choosing ``option``, offered at position ``index``."""
        keys = _keys(option)
        if keys is not None:
            return (self._ids[("choose", keys[0])], *(self._ids[("value", k)] for k in keys[1:]))
        page, at = divmod(index, MAX_OPTIONS)
        if page >= MAX_OPTIONS:
            raise CatalogueError(f"a choice offers more than {MAX_OPTIONS ** 2} options that are not players, zones, "
                                 f"things, truth values or numbers 0..{MAX_NUMBER} (option {display(option)})",
                                 hint="raise interpreter.rl.catalogue.MAX_OPTIONS")
        if page:   # a page id first: no spelling is the start of another
            return (self._ids[("option page", page)], self._ids[("option", at)])
        return (self._ids[("option", at)],)

    def _heads_and_rest(self, value, action):
        keys = _keys(value)
        if keys is None:
            raise CatalogueError(f"action '{action.name}' offers the value {display(value)}, which the action "
                                 f"catalogue cannot spell (players, zones, things, truth values, numbers "
                                 f"0..{MAX_NUMBER} and lists of them)")
        return keys[0], keys[1:]


SCALARS = ("number", "bool", "none", "player", "thing", "zone")   # static types spelt in one id
# the vocabulary keys a value of each scalar static type may have (a number: a whole one, 0..MAX_NUMBER)
KEY_KINDS = {"number": ("number",), "bool": ("const",), "none": ("const",), "player": ("player",),
             "thing": ("thing",), "zone": ("zone",)}


def _types(adef) -> tuple:
    """The static type of each parameter of action ``adef`` (``any`` where the checker does not know it)."""
    return getattr(adef, "param_types", None) or ("any",) * len(adef.params)


def _of_type(type_, heads: list) -> list:
    """The ``heads`` a value of static type ``type_`` may start with: all of them for a type that is not one
    plain value (``any``, a list). A value the checker got wrong would not be spelt: CatalogueError, loud."""
    kinds = KEY_KINDS.get(type_)
    if kinds is None:
        return heads
    if type_ in ("bool", "none"):   # (True, False and None share the `const` kind)
        wanted = {True, False} if type_ == "bool" else {None}
        return [h for h in heads if h != LIST and h[0] == "const" and h[1] in wanted]
    return [h for h in heads if h != LIST and h[0] in kinds]


def _longest_spelling(ruleset, values: int) -> int:
    """The most ids one decision can take. One id per parameter where no rule calls choose() and the checker
    knows every parameter is a plain value (dsl/static_types.py); otherwise a list could be offered in
    any parameter: ``list``, up to one item per value, ``end``."""
    actions = ruleset.actions.values()
    params = max([len(a.params) for a in actions] + [1])
    plain = all(t in SCALARS for a in actions for t in _types(a))
    if plain and "choose(" not in repr(ruleset.data):
        return params
    return 1 + params * (2 + values)


def _may_pass(ruleset) -> bool:
    """Whether some turn of the flow lets its player pass (``pass: true``, or no ``max_actions`` and no
    ``pass: false``): only then is the ``pass`` id needed."""
    from .observation import _walk
    for node in _walk(ruleset.data.get("flow")):
        turn = node.get("turn") if isinstance(node, dict) else None
        if isinstance(turn, dict) and turn.get("pass", "max_actions" not in turn) is not False:
            return True
    return False


def _keys(value):
    """Vocabulary keys spelling ``value``: one for a plain value, list … end around a list; None if impossible."""
    if isinstance(value, (list, tuple)):
        out = [LIST]
        for item in value:
            inner = _keys(item)
            if inner is None:
                return None
            out += inner
        return out + [END]
    key = _value_key(value)
    return None if key is None else [key]


def _name(key) -> str:
    if key in (LIST, END):
        return key
    kind, value = key
    if kind == "const":
        return {None: "none", False: "false", True: "true"}[value]
    if kind == "player":
        return f"player {value + 1}"
    return str(value)
