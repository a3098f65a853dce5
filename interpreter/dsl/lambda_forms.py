"""``filter(xs, x -> cond)`` and its kin written out: the lambda's body inline, no call per item.

``filter``, ``count`` and ``sum`` become a list comprehension. ``any``, ``all``
and ``first`` stop at the deciding item; as a generator given to Python's
``any`` (the form with the fast paths off) each item resumes the generator,
which costs about as much again as the body of a simple test. With the fast
paths on they are instead a generated function of their own, a plain ``for``
loop that returns at the deciding item (:func:`loop_function`): called with
the items and the caller's Python names its body reads (the item's variable,
the lambda's outer variables, the reads the caller kept), which nothing
rebinds while it runs. It is unwrapped: an error inside is located by the
caller's handler at the node that raised it, as the generator's was, and the
same work is charged at the same points (the items are walked by the same
call, made by the caller before the first item, as a generator's first
iterable is).
"""
from __future__ import annotations

import functools
import io
import re
import tokenize

from . import ast
from .inline_calls import inlinable
from .prop_index import picking, selected
from .read_memo import comprehension_body

# the form of each, with {src} the items (collection_of, charged as the built-in charges them), {var} the item
# and {body} the body; {next}, {any}, {all}, {len} and {sum} are bound to Python's own. Each is lazy exactly
# where its built-in is (first, any and all stop at the deciding item).
INLINED = {"filter": "[{var} for {var} in {src} if {body}]",
           "first": "{next}(({var} for {var} in {src} if {body}), None)",
           "any": "{any}({body} for {var} in {src})",
           "all": "{all}({body} for {var} in {src})",
           "count": "{len}([{var} for {var} in {src} if {body}])",
           "sum": "{sum}([{body} for {var} in {src}])"}
PYTHON_BUILTINS = {"next": next, "any": any, "all": all, "len": len, "sum": sum}
# the loop of those that stop early: the test of the body, what the deciding item returns, what no item does
LOOPS = {"any": ("if {body}:", "return True", "return False"),
         "all": ("if not {body}:", "return False", "return True"),
         "first": ("if {body}:", "return {var}", "return None")}
# the generator's marks (a node's line, a held container, a kept read), each closed by \x02
_MARKS = re.compile("[\x01\x03\x04][^\x02]*\x02")


def inlined_lambda(gen, lam, source: str, name: str, proven=None, kind=None) -> str:
    """The source of ``name(<source>, lam)`` with ``lam``'s body inline; ``proven`` the class every item has,
    if the source proves one, ``kind`` the kind of thing."""
    if name in LOOPS and gen.env.layout is not None:
        return loop_function(gen, lam, source, name, proven, kind)
    form = INLINED[name]
    var = gen.fresh()
    gen.proven[var], gen.kinds[var] = proven, kind
    outer = gen.lexical
    gen.lexical = {**outer, lam.param: var}
    gen.looping += 1
    try:
        with comprehension_body(gen, lam.body):
            body = gen.node(lam, gen.expr(lam.body))
    finally:
        gen.lexical = outer
        gen.looping -= 1
    if name in ("filter", "count"):   # the things a leading test picks (prop_index), if any
        listed = selected(gen, var, var, source, body, kind)
        return listed if name == "filter" else f"{gen.bind(len)}({listed})"
    pythons = {word: gen.bind(fn) for word, fn in PYTHON_BUILTINS.items() if "{" + word + "}" in form}
    return form.format(var=var, src=source, body=body, **pythons)


def loop_function(gen, lam, source: str, name: str, proven, kind) -> str:
    """The call of a generated function looping over ``source`` for ``any``, ``all`` or ``first``."""
    var, items = gen.fresh(), gen.fresh("_a")
    # the caller's Python names the body may read: the game, the locals, the lexical variables, kept reads
    outer = {"g", "L", *gen.lexical.values(), *(gen.memo or {}).values()}
    saved = gen.held, gen.looping, gen.iterable, gen.lexical, gen.nested
    gen.held = {} if saved[0] is not None else None   # the function's own (it runs once per call)
    gen.looping, gen.iterable, gen.nested = 1, 0, saved[4] + 1   # the body runs per item, in a function of its own
    gen.proven[var], gen.kinds[var] = proven, kind
    gen.lexical = {**saved[3], lam.param: var}
    try:
        with comprehension_body(gen, lam.body):
            body = gen.node(lam, gen.expr(lam.body))
        held = gen.held
        picks = picking(gen, var, items, body, kind) if name != "all" else []   # (all stops at a false one)
    finally:
        gen.held, gen.looping, gen.iterable, gen.lexical, gen.nested = saved
    test, hit, miss = LOOPS[name]
    lines = [*picks, f"for {var} in {items}:", "    " + test.format(body=body), "        " + hit.format(var=var), miss]
    if held:
        lines = gen._hold(lines, held)
    free = sorted(outer & _names("\n".join(lines)))
    held_now, gen.held = gen.held, None   # (already replaced)
    try:
        fn = gen.function(lines, None, ", ".join([items, *free]), wrapped=False)
    finally:
        gen.held = held_now
    return f"{gen.bind(fn, '_b')}({', '.join([source, *free])})"


def _names(text: str) -> set:
    """The Python names in the generated ``text`` (never the words inside a text literal)."""
    clean = _MARKS.sub("", text)
    return {t.string for t in tokenize.generate_tokens(io.StringIO(clean + "\n").readline) if t.type == tokenize.NAME}


def partial_call(gen, lam) -> str | None:
    """``functools.partial(f, g, *args)`` for a lambda that only calls a ruleset function ``f`` with its parameter
    last (``s -> may_enter(p, s)``), the other arguments being literals or Python names nothing rebinds (a
    lexical variable, never a rule's local: it might be unset, and a lambda never called reads nothing);
    else None. Called as the lambda is, with the parameter, it calls ``f`` as the lambda's body would, with
    no Python frame of its own; ``f`` locates its own errors. Not for a function written out in place."""
    body = lam.body
    if gen.env.layout is None or not isinstance(body, ast.Call) or not isinstance(body.func, ast.Name) \
            or body.kwargs or not body.args:
        return None
    name, last = body.func.id, body.args[-1]
    info = gen.env.functions.get(name)
    if info is None or info.suspends or not isinstance(last, ast.Name) or last.id != lam.param \
            or len(body.args) != len(info.params) or inlinable(gen.env, name, info):
        return None
    for a in body.args[:-1]:
        if not isinstance(a, ast.Const) and not (isinstance(a, ast.Name) and a.id != lam.param and a.id in gen.lexical):
            return None
    bound, args = gen._ruleset_function(body, name, info, parts=True)
    return f"{gen.bind(functools.partial)}({', '.join([bound, 'g', *args[:-1]])})"
