"""Where in the YAML a failure inside generated Python happened.

Rule snippets are compiled to Python source (:mod:`interpreter.dsl.expressions`).
Each compiled function gets a file name of its own (``<davit N>``) and a line
table: every DSL node starts a line of the generated source, and the table
maps that line back to the node's ``file:line:col``. When Python raises inside
generated code, :func:`located_error` walks the traceback to the deepest
generated frame and reports the DSL position there, never a frame of
generated code.
"""
from __future__ import annotations

import itertools
import linecache
import types

from ..errors import DavitError, GameError, Location
from . import code_cache

# file name -> {line: (where, local name or None)}; where is a Location or (snippet, pos) with snippet.loc(pos)
TABLES: dict[str, dict] = {}
# file name -> the generated source (for tests that read it, and for DAVIT_DEBUG tracebacks)
SOURCES: dict[str, str] = {}
_numbers = itertools.count(1)


def new_file_name() -> str:
    return f"<davit {next(_numbers)}>"


def register(file_name: str, table: dict, source: str) -> None:
    TABLES[file_name] = table
    SOURCES[file_name] = source
    # tracebacks (DAVIT_DEBUG=1) show the generated line, not "<davit 7>" alone
    linecache.cache[file_name] = (len(source), None, source.splitlines(True), file_name)


def where(traceback) -> tuple | None:
    """(Location, local name or None) of the deepest generated frame in ``traceback``."""
    found = None
    while traceback is not None:
        table = TABLES.get(traceback.tb_frame.f_code.co_filename)
        if table is not None:
            found = table.get(traceback.tb_lineno, found)
        traceback = traceback.tb_next
    if found is not None and isinstance(found[0], tuple):
        snippet, pos = found[0]
        found = (snippet.loc(pos), found[1])
    return found


def located_error(exc: BaseException, default: Location | None) -> DavitError:
    """The :class:`GameError` to raise for a Python error inside compiled rules."""
    if isinstance(exc, DavitError):
        if exc.location is None:
            exc.location = default
        return exc
    spot = where(exc.__traceback__)
    loc = spot[0] if spot else default
    if isinstance(exc, RecursionError):
        return GameError("rules recurse too deeply", loc)
    if isinstance(exc, KeyError) and spot and spot[1] is not None:
        return GameError(f"'{spot[1]}' is used before it is given a value", loc)
    if isinstance(exc, ZeroDivisionError):   # (in the rules' words, not Python's)
        return GameError("division by zero (with /, // or %)", loc)
    return GameError(f"{type(exc).__name__}: {exc}", loc)


# A generated function starts with this code, which compiles the real body on
# the first call and puts it in place (``__code__``): every holder of the
# function then calls the real code directly. A ruleset that is only checked
# (``davit validate``) never pays for compiling thousands of snippets. A function of a
# loaded ruleset takes its code from the ruleset's file of compiled code when it
# can (:mod:`interpreter.machine.code_cache`).
_FIRST_CALL = compile("def _f(*args):\n    return _compile_now(_self, *args)\n", "<davit first call>", "exec")
_FIRST_CALL = next(c for c in _FIRST_CALL.co_consts if hasattr(c, "co_code"))


def lazy_function(file_name: str, namespace: dict):
    """The function ``_f`` of the registered source ``file_name``, compiled when first called."""
    fn = types.FunctionType(_FIRST_CALL, namespace, "_f")
    namespace["_self"] = fn
    namespace["_compile_now"] = _compile_now
    fn.__davit_file__ = file_name   # type: ignore[attr-defined]  # read back by _compile_now
    bundle = code_cache.current()
    if bundle is not None:   # a loaded ruleset's function: its compiled code may be on disk already
        fn.__davit_bundle__ = bundle   # type: ignore[attr-defined]  # read back by _compile_now
        bundle.lazy.append((file_name, SOURCES[file_name]))
    return fn


def _compile_now(fn, *args):
    name = fn.__davit_file__
    module = code_cache.module_code(SOURCES[name], name, getattr(fn, "__davit_bundle__", None))
    fn.__code__ = next(c for c in module.co_consts if getattr(c, "co_name", None) == "_f")
    return fn(*args)
