"""A ruleset's compiled snippets, reused by its variants in the same process.

A variant repeats almost every snippet of its base ruleset, and most
variants change only values the compiler never looks at (a constant's value,
a zone's visibility, a player count that leaves every id in place). Building
one compiled and checked each of those snippets again: about half the CPU of
a cold ``davit validate rulesets``.

What compiling and checking a snippet gives depends on two things only: the
snippet (its text, where that text lies in its file, how it is used) and
the *context*, everything the compiler and the type checker read of the
ruleset: the names it declares and what kind of name each is, the ids of its
things and zones, where attributes live, the vocabulary of types, and every
function's signature and body. :func:`context_fingerprint` hashes all of
that (whatever an :class:`Env`, its layout and the vocabulary hold, bar what
the compiler writes and the two tables used only to word an error). A
:class:`Recorder` keeps the outcome of each snippet compiled while one
ruleset is built, together with what compiling it did besides (names marked
used, functions called, code blocks registered, slots numbered); once that
build has finished without an error, :meth:`Recorder.publish` shares the
outcomes under the fingerprint. A later build with the same fingerprint
takes an outcome for the same snippet instead of compiling it, and does what
compiling it did.

Nothing is kept of a snippet that produced an error, nor of a build that
failed: an error is always found afresh, at its place. Only this process's
own builds fill the memo (nothing is read from disk). Reused closures call
the functions of the build that made them; the fingerprint covers every
function's body, so those are the same functions.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict

from ..load.yaml_reader import LocStr

MAX_CONTEXTS = 64   # fingerprints kept; the oldest is dropped first (a designer's session, a test run)
_SHARED: OrderedDict = OrderedDict()   # fingerprint -> {snippet key: Outcome}

# what a build writes into its Env (outputs), never what its snippets are compiled against
_ENV_OUTPUTS = frozenset({"codes", "errors", "used_names", "used_functions", "functions", "layout"})
# the vocabulary's own caches and the tables it reads only to word an error (a constant's value and place)
_VOCABULARY_SKIPPED = frozenset({"functions", "function_types", "raw_constants", "constant_locs"})


def _canonical(value):
    """A context value as nested tuples of text, the same for equal values only: sets sorted, every
    value named with its type (a thing kind's type, a ``str``, is not the text type of the same name)."""
    cls = value.__class__
    if cls in _SCALARS:   # by class first: most of a context is names and numbers (a validate reads 100,000)
        return f"{cls.__name__}:{value!r}"
    if isinstance(value, (set, frozenset)):
        return ("set",) + tuple(sorted(repr(_canonical(v)) for v in value))
    if isinstance(value, dict):
        return ("dict",) + tuple((_canonical(k), _canonical(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return (cls.__name__,) + tuple(_canonical(v) for v in value)
    return f"{cls.__name__}:{value!r}"


_SCALARS = frozenset({str, int, float, bool, type(None)})


def context_fingerprint(env, vocabulary) -> str:
    """A hash of everything compiling a snippet of this ruleset reads besides the snippet itself."""
    h = hashlib.blake2b(digest_size=20)

    def put(label, value):
        h.update(label.encode())
        h.update(b"\0")
        h.update(repr(_canonical(value)).encode())
        h.update(b"\1")

    for name in sorted(vars(env)):
        if name not in _ENV_OUTPUTS:
            put("env." + name, getattr(env, name))
    layout = getattr(env, "layout", None)
    if layout is not None:
        for name in sorted(vars(layout)):
            if name != "readers":   # readers made on demand for names read so far: a cache
                put("layout." + name, getattr(layout, name))
    for name, info in env.functions.items():
        put("function " + name, (info.params, info.code_id, str(info.location), info.suspends,
                                 info.changes_game, body_key(info)))
    for name in sorted(vars(vocabulary)):
        if name not in _VOCABULARY_SKIPPED:
            put("vocabulary." + name, getattr(vocabulary, name))
    return h.hexdigest()


def body_key(info) -> tuple:
    """A function's body, compared by the text it was parsed from (the same text parses to the same tree) and
    its form (a `do:` block, or a `value:` expression as one `return`); written out when there is no text."""
    body = info.body
    if info.source is None:
        return ("tree", repr(body))
    return ("text", text_key(info.source), shape(body))


def shape(body) -> tuple:
    """Which form a parsed body has (a block's statements, or a `value:` expression's one `return`)."""
    return (len(body), type(body[0]).__name__ if body else None)


def text_key(text) -> tuple:
    """A snippet's text with everything that places it in its file (errors and line tables use them)."""
    if isinstance(text, LocStr):
        loc = text.loc
        return (str(text), "at", loc.file, loc.line, loc.column, text.style, text.content_line, text.content_col,
                text.indent, repr(text.line_starts), repr(text.folds))
    return (str(text), type(text).__name__)


def local_key(local) -> tuple:
    """Local names (a set) or local names with their static types (a dict), comparable."""
    if isinstance(local, dict):
        return ("types", tuple(sorted((str(k), repr(_canonical(v))) for k, v in local.items())))
    return ("names", tuple(sorted(map(str, local))))


class Outcome:
    """What compiling one snippet gave and did."""

    __slots__ = ("codes", "result", "slots", "tree", "used_functions", "used_names")

    def __init__(self, tree, result, used_names, used_functions, codes, slots):
        self.tree = tree       # the parsed tree compiled, when the key names only its text: must be equal
        self.result = result
        self.used_names = used_names
        self.used_functions = used_functions
        self.codes = codes
        self.slots = slots


class Recorder:
    """The memo as one build uses it: outcomes shared by earlier builds of the same context, and its own."""

    def __init__(self, fingerprint: str):
        self.fingerprint = fingerprint
        self.shared = _SHARED.get(fingerprint)
        self.made: dict = {}
        self.reused = 0

    def compile(self, compiler, key: tuple, work, tree=None):
        """``work()``'s result for snippet ``key`` (of parsed ``tree``, if given): an earlier clean build's,
        or made and recorded now."""
        env = compiler.env
        if self.shared is not None:
            outcome = self.shared.get(key)
            # trees of one text are one object (the parser keeps them) or equal: compared, cheaply, to be sure
            if outcome is not None and (outcome.tree is tree or outcome.tree == tree):
                self._replay(compiler, outcome)
                self.reused += 1
                return outcome.result
        errors_before = len(env.errors)
        slots_before = compiler._slot
        names, functions, codes = env.used_names, env.used_functions, env.codes
        env.used_names, env.used_functions, env.codes = set(), set(), {}
        try:
            result = work()
        finally:
            # what this snippet did, apart, then added to the build's own (an enclosing snippet records it too)
            mine = env.used_names, env.used_functions, env.codes
            env.used_names, env.used_functions, env.codes = names, functions, codes
            names |= mine[0]
            functions |= mine[1]
            codes.update(mine[2])
        if len(env.errors) == errors_before:
            self.made[key] = Outcome(tree, result, frozenset(mine[0]), frozenset(mine[1]), tuple(mine[2].items()),
                                     compiler._slot - slots_before)
        return result

    @staticmethod
    def _replay(compiler, outcome: Outcome) -> None:
        env = compiler.env
        env.used_names |= outcome.used_names
        for name in outcome.used_functions:
            env.used_functions.add(name)
            env.functions[name].used = True
        env.codes.update(outcome.codes)
        compiler._slot += outcome.slots

    def publish(self) -> None:
        """The build finished without an error: its outcomes may serve later builds of the same context."""
        if not self.made:
            return
        entries = _SHARED.pop(self.fingerprint, None) or {}
        entries.update(self.made)
        _SHARED[self.fingerprint] = entries
        while len(_SHARED) > MAX_CONTEXTS:
            _SHARED.popitem(last=False)
        self.made = {}


def forget() -> None:
    """Drop every shared outcome (for tests: a build then compiles everything itself)."""
    _SHARED.clear()
