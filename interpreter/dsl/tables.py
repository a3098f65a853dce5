"""The DSL parser's LALR tables, kept in davit's cache folder without a pickle.

lark derives its tables from the grammar in about 60 ms; read back they take
about 5 ms, at the start of every command that parses rules. lark's own
``cache=`` option writes them as a pickle, and unpickling a planted file runs
its code, so davit does not use it.
"""
from __future__ import annotations

import hashlib

from lark import Lark

from ..load import cache_folder
from ..load.files import write_atomically


def lark_parser(grammar: str, options: dict) -> Lark:
    """The parser, its LALR tables read from davit's cache when they may be (about 5 ms instead of 60).

    Not lark's own ``cache=``: that file is a pickle, and unpickling a planted file runs its code. davit keeps
    lark's serialized tables (plain dicts, lists, strings and numbers: lark's ``memo_serialize``, as its
    standalone generator writes them out) with ``marshal``, which builds only values, and reads them back
    only when the file's HMAC under this installation's key matches (:mod:`interpreter.load.cache_folder`).
    """
    from lark.grammar import Rule
    from lark.lark import _LOAD_ALLOWED_OPTIONS
    from lark.lexer import TerminalDef

    folder = cache_folder.cache_dir("lark", of_rulesets=False)
    key = cache_folder.secret() if folder is not None else None
    import marshal

    import lark
    name = hashlib.sha256(f"{lark.__version__}\0{grammar}".encode()).hexdigest()[:32]
    path = folder / f"tables-{name}.bin" if folder is not None and key is not None else None
    purpose = f"lark tables-{name}.bin"
    kept = cache_folder.read_regular(path) if path is not None else None
    if kept is not None and key is not None and cache_folder.tag_matches(key, purpose, kept[32:], kept[:32]):
        try:
            stored = marshal.loads(kept[32:])
            # marshal builds values (no call is made, and lark runs none of what it reads back), and the tag
            # says this installation wrote them: no walk over the 25,000 values is needed (it would cost 10 ms)
            if isinstance(stored, dict) and isinstance(stored.get("data"), dict) \
                    and isinstance(stored.get("memo"), dict):
                return Lark._load_from_dict(stored["data"], stored["memo"], postlex=options["postlex"],
                                            transformer=options["transformer"])
        except Exception:  # noqa: BLE001 - tables lark cannot read back: derive them again
            pass
    parser = Lark(grammar, **options)
    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        data["options"] = {n: v for n, v in data["options"].items() if n not in _LOAD_ALLOWED_OPTIONS}
        body = marshal.dumps({"data": data, "memo": memo})
    except Exception:  # noqa: BLE001 - tables lark cannot write out: the parser as derived
        return parser
    if path is not None and key is not None:
        try:
            write_atomically(str(path), cache_folder.tag(key, purpose, body) + body)
        except Exception:  # noqa: BLE001 - tables that cannot be kept only cost time next start
            pass
    try:
        # the parser every later process reads back, also in this one: lark's freshly derived tables name
        # each rule's result by a grammar token, which the parser then compares as text at every reduction
        # (a tenth of the parsing time of a first run); read back, the names are plain strings
        stored = marshal.loads(body)
        return Lark._load_from_dict(stored["data"], stored["memo"], postlex=options["postlex"],
                                    transformer=options["transformer"])
    except Exception:  # noqa: BLE001 - tables lark cannot read back: the parser as derived
        return parser
