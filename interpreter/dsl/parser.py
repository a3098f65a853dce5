"""Parse DSL snippets with lark (LALR) into :mod:`interpreter.dsl.ast` nodes.

The nodes are made by the rules' callbacks while lark parses (no lark tree is
built). Syntax errors become :class:`DslError` located at the offending
character in the YAML file the snippet came from.
"""
from __future__ import annotations

import ast as py_ast
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from ..errors import DslError
from ..load.yaml_reader import position_in_file
from . import ast
from .tables import lark_parser

MAX_SNIPPET_CHARS = 20_000
MAX_NESTING = 40


class _DslIndenter(Indenter):
    NL_type = "_NEWLINE"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


GRAMMAR = Path(__file__).parent / "grammar.lark"


@lru_cache(maxsize=1)
def keywords() -> frozenset:
    """The words of the language (``for``, ``pass``, ``none``, ...): the grammar's quoted words, which a name
    can never be."""
    return frozenset(re.findall(r'"([a-z_]+)"', GRAMMAR.read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = GRAMMAR.read_text(encoding="utf-8")
    # The syntax tree is built while lark parses (its `transformer` option, LALR only), not from a
    # lark tree afterwards; every token is kept so that a node's position can be worked out from
    # its first token, brackets included, as lark's propagated positions gave it. This halves the
    # time of parsing the ~1,000 snippets of the bundled rulesets.
    options = dict(parser="lalr", start=["start_block", "start_expr"], postlex=_DslIndenter(),
                   keep_all_tokens=True, maybe_placeholders=True, transformer=_ToAst())
    return lark_parser(grammar, options)


def _pos(meta_or_token) -> tuple:
    return (getattr(meta_or_token, "line", 1) or 1, getattr(meta_or_token, "column", 1) or 1)


_TOKEN_WORDS = {
    "_NEWLINE": "end of line", "_INDENT": "indented block", "_DEDENT": "end of block",
    "$END": "end of text", "NAME": "name", "NUMBER": "number", "STRING": "string",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COLON": "':'", "COMMA": "','",
    "EQUAL": "'='", "DOT": "'.'",
}


def _describe_expected(expected) -> str:
    words = sorted({_TOKEN_WORDS.get(t, t.lower().strip("_")) for t in expected if not t.startswith("__")})
    if len(words) > 6:
        words = words[:6] + ["…"]
    return ", ".join(words)


class _Part:
    """A piece of syntax while lark parses: its value (a node, statements, an operator...), where
    its text starts (its first token, an opening bracket around it included) and how deep lark's
    own tree would be there (the nesting limit is counted in those levels)."""

    __slots__ = ("depth", "start", "value")

    def __init__(self, value, start, depth):
        self.value = value
        self.start = start
        self.depth = depth


class _BadString(Exception):
    """A string token whose backslash escape Python cannot read (raised while lark parses)."""

    def __init__(self, token):
        super().__init__(str(token))
        self.token = token


_NAMED_TOKENS = frozenset({"NAME", "NUMBER", "STRING"})   # the tokens a rule sees; `!` rules see all


def _prepare(children, all_tokens=False):
    """(the children a rule works with, the position where its text starts, its depth)."""
    items: list = []
    start, depth = None, 0
    for child in children:
        if child is None:   # an optional part that is absent
            items.append(None)
            depth = depth or 1
        elif type(child) is _Part:
            if start is None:
                start = child.start
            items.append(child.value)
            depth = max(depth, child.depth)
        else:               # a token: its position counts even when the rule does not keep it
            if start is None:
                start = (child.line or 1, child.column or 1)
            if all_tokens or child.type in _NAMED_TOKENS:
                items.append(child)
                depth = depth or 1
    return items, start or (1, 1), depth + 1


def _rule(method=None, *, all_tokens=False):
    """A grammar rule's callback from ``method(self, pos, children)``, which returns its value."""
    def wrap(method):
        def callback(self, children):
            items, start, depth = _prepare(children, all_tokens)
            return _Part(method(self, start, items), start, depth)
        callback.__name__ = method.__name__
        return callback
    return wrap(method) if method is not None else wrap


class _ToAst:
    """The callbacks of the grammar's rules: our AST, built bottom-up while lark parses."""

    def __default__(self, data, children, meta):
        if data.startswith("_"):   # lark's own helper rules (repetitions): spliced into the rule using them
            return Tree(data, children)
        raise AssertionError(f"the grammar rule {data!r} has no callback")

    def atom(self, children):
        """``"(" expr ")"``: the expression itself, whose text starts at the bracket."""
        inner = children[1]
        return _Part(inner.value, (children[0].line, children[0].column), inner.depth)

    def factor(self, children):
        """``"+" factor`` (unary plus): the operand, whose text starts at the sign."""
        inner = children[-1]
        return _Part(inner.value, (children[0].line, children[0].column), inner.depth)

    # statements
    @_rule
    def start_block(self, pos, children):
        return tuple(s for c in children for s in (c if isinstance(c, tuple) else (c,)) if s is not None)

    @_rule
    def start_expr(self, pos, children):
        return children[0]

    @_rule
    def simple_stmt(self, pos, children):
        return tuple(c for c in children if c is not None)

    @_rule
    def suite(self, pos, children):
        return tuple(s for c in children for s in (c if isinstance(c, tuple) else (c,)))

    @_rule
    def assign(self, pos, c):
        return ast.Assign(pos, c[0], c[1])

    @_rule
    def aug_assign(self, pos, c):
        return ast.Assign(pos, c[0], c[2], str(c[1])[:-1])

    @_rule(all_tokens=True)
    def aug_op(self, pos, c):
        return str(c[0])

    @_rule
    def expr_stmt(self, pos, c):
        return ast.ExprStmt(pos, c[0])

    @_rule
    def pass_stmt(self, pos, c):
        return ast.Pass(pos)

    @_rule
    def break_stmt(self, pos, c):
        return ast.Break(pos)

    @_rule
    def continue_stmt(self, pos, c):
        return ast.Continue(pos)

    @_rule
    def return_stmt(self, pos, c):
        return ast.Return(pos, c[0] if c else None)

    @_rule
    def target_name(self, pos, c):
        return ast.Name(_pos(c[0]), str(c[0]))

    @_rule
    def target_attr(self, pos, c):
        return ast.Attr(_pos(c[1]), c[0], str(c[1]))

    @_rule
    def target_index(self, pos, c):
        return ast.Index(pos, c[0], c[1])

    @_rule
    def if_stmt(self, pos, c):
        branches = [(c[0], c[1])]
        orelse = ()
        for extra in c[2:]:
            if extra is None:
                continue
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                orelse = extra[1]
        return ast.If(pos, tuple(branches), orelse)

    @_rule
    def elif_clause(self, pos, c):
        return ("elif", c[0], c[1])

    @_rule
    def else_clause(self, pos, c):
        return ("else", c[0])

    @_rule
    def for_stmt(self, pos, c):
        return ast.For(pos, str(c[0]), c[1], c[2])

    @_rule
    def while_stmt(self, pos, c):
        return ast.While(pos, c[0], c[1])

    # expressions
    @_rule
    def lambda_expr(self, pos, c):
        return ast.Lambda(pos, str(c[0]), c[1])

    @_rule
    def if_expr(self, pos, c):
        return ast.IfExp(pos, c[1], c[0], c[2])

    @_rule
    def or_op(self, pos, c):
        return ast.BoolOp(pos, "or", c[0], c[1])

    @_rule
    def and_op(self, pos, c):
        return ast.BoolOp(pos, "and", c[0], c[1])

    @_rule
    def not_op(self, pos, c):
        return ast.Not(pos, c[0])

    @_rule
    def compare(self, pos, c):
        rest = tuple((c[i], c[i + 1]) for i in range(1, len(c), 2))
        return ast.Compare(pos, c[0], rest)

    @_rule(all_tokens=True)
    def comp_op(self, pos, c):
        return " ".join(str(t) for t in c)

    @_rule(all_tokens=True)
    def add_op(self, pos, c):
        return str(c[0])

    mul_op = add_op

    @_rule
    def binop(self, pos, c):
        return ast.BinOp(pos, c[1], c[0], c[2])

    @_rule
    def neg(self, pos, c):
        return ast.Neg(pos, c[0])

    @_rule
    def call(self, pos, c):
        args, kwargs = [], []
        for arg in (c[1] or ()):
            if isinstance(arg, tuple) and len(arg) == 3 and arg[0] == "kw":
                kwargs.append((arg[1], arg[2]))
            else:
                args.append(arg)
        return ast.Call(pos, c[0], tuple(args), tuple(kwargs))

    @_rule
    def arguments(self, pos, c):
        return [a for a in c if a is not None]

    @_rule
    def kwarg(self, pos, c):
        return ("kw", str(c[0]), c[1])

    @_rule
    def genexp(self, pos, c):
        return ast.Comprehension(pos, c[0], str(c[1]), c[2], c[3])

    listcomp = genexp

    @_rule
    def getattr(self, pos, c):
        return ast.Attr(_pos(c[1]), c[0], str(c[1]))

    @_rule
    def getitem(self, pos, c):
        return ast.Index(pos, c[0], c[1])

    @_rule
    def name(self, pos, c):
        return ast.Name(_pos(c[0]), str(c[0]))

    @_rule
    def number(self, pos, c):
        text = str(c[0])
        return ast.Const(_pos(c[0]), float(text) if "." in text else int(text))

    @_rule
    def string(self, pos, c):
        try:
            return ast.Const(_pos(c[0]), py_ast.literal_eval(str(c[0])))
        except (SyntaxError, ValueError):   # "\x", "\N{no such name}"...
            raise _BadString(c[0]) from None

    @_rule
    def true(self, pos, c):
        return ast.Const(pos, True)

    @_rule
    def false(self, pos, c):
        return ast.Const(pos, False)

    @_rule
    def none(self, pos, c):
        return ast.Const(pos, None)

    @_rule
    def list_lit(self, pos, c):
        return ast.ListLit(pos, tuple(x for x in c if x is not None))


def parse(text: str, mode: str = "block"):
    """Parse ``text`` (a :class:`LocStr` keeps file positions) as a block or an expression.

    Returns a tuple of statements for ``mode="block"`` and one expression node
    for ``mode="expr"``.
    """
    if len(text) > MAX_SNIPPET_CHARS:
        raise DslError(f"snippet longer than {MAX_SNIPPET_CHARS} characters", position_in_file(text, 1, 1))
    source = str(text).replace("\t", "    ")
    if not source.endswith("\n"):
        source += "\n"
    try:
        result = _parse_source(source, mode)
    except _BadString as exc:
        raise DslError("syntax error: this string has a backslash escape that means nothing",
                       position_in_file(text, *_pos(exc.token)),
                       "write a backslash as \\\\, or use only \\n, \\t, \\\" and \\'", code="syntax") from None
    except UnexpectedInput as exc:
        raise _syntax_error(text, source, exc) from None
    except DedentError:
        line, column = _bad_dedent(source)
        raise DslError("syntax error: this line's indentation matches no enclosing block",
                       position_in_file(text, line, column), code="syntax") from None
    except RecursionError:
        raise DslError("snippet is nested too deeply", position_in_file(text, 1, 1)) from None
    if result is _TOO_DEEP:
        raise DslError(f"snippet is nested more than {MAX_NESTING} levels deep", position_in_file(text, 1, 1))
    return result


_TOO_DEEP = object()


@lru_cache(maxsize=8192)
def _parse_source(source: str, mode: str):
    """The syntax tree of ``source``, shared by every identical snippet.

    Node positions are relative to the snippet and nodes are frozen, so a
    variant (which repeats its base's snippets) or a scenario reuses the
    parse; errors are raised, never cached.
    """
    built: Any = _lark().parse(source, start="start_block" if mode == "block" else "start_expr")
    if built.depth > MAX_NESTING * 3:
        return _TOO_DEEP
    return built.value


def _bad_dedent(source: str) -> tuple[int, int]:
    """The first line that dedents to a column no enclosing block started at."""
    levels = [0]
    for number, raw in enumerate(source.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip())
        if indent > levels[-1]:
            levels.append(indent)
            continue
        while indent < levels[-1]:
            levels.pop()
        if indent != levels[-1]:
            return number, indent + 1
    return 1, 1


def _probable_fix(token: Token, expected: set) -> str | None:
    """What the designer probably meant, for the usual slips."""
    if token.type == "EQUAL":
        return "did you mean '==' to compare? '=' only assigns, on a line of its own"
    if token.type == "_NEWLINE" and "COLON" in expected:
        return "missing ':' at the end of this line: `if`, `elif`, `else`, `for` and `while` lines end with ':'"
    if "COMMA" in expected and token.type in ("NAME", "NUMBER", "STRING", "LPAR", "LSQB"):
        return "a ',' is probably missing before this"
    if token.type in ("RPAR", "RSQB"):
        return f"{str(token)!r} closes nothing: remove it or open the bracket earlier"
    return None


def _bracket_before_line(source: str, line) -> bool:
    """A bracket left open on an earlier line swallowed the line break: the real slip is the bracket."""
    opened = _unclosed_bracket(source)
    return opened is not None and line is not None and opened[0][0] < line


def _unclosed_bracket(source: str):
    """((line, column), char) of the innermost '(' or '[' never closed, outside strings; or None."""
    stack = []
    quote = None
    for number, raw in enumerate(source.splitlines(), 1):
        for col, char in enumerate(raw, 1):
            if quote:
                if char == quote:
                    quote = None
            elif char in "\"'":
                quote = char
            elif char == "#":
                break
            elif char in "([":
                stack.append(((number, col), char))
            elif char in ")]" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _syntax_error(text, source: str, exc: UnexpectedInput) -> DslError:
    line, column = exc.line, exc.column
    hint = None
    if isinstance(exc, UnexpectedCharacters):
        char = source.splitlines()[line - 1][column - 1:column] if line >= 1 else ""
        message = f"syntax error: unexpected character {char!r}"
    elif isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type in ("$END",)):
        message = "syntax error: the snippet ends too early"
        lines = source.rstrip("\n").splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        opened = _unclosed_bracket(source)
        if opened is not None:
            (line, column), char = opened
            closing = {"(": ")", "[": "]"}[char]
            message = f"syntax error: this '{char}' is never closed (add '{closing}')"
    elif isinstance(exc, UnexpectedToken) and exc.token.type in ("_INDENT", "_DEDENT"):
        # lark places indentation tokens at the end of the line before; point at the line itself
        lines = source.splitlines()
        line = exc.token.line or 1
        while line < len(lines) and not lines[line].strip():
            line += 1
        line = min(line + 1, len(lines))
        column = len(lines[line - 1]) - len(lines[line - 1].lstrip()) + 1
        message = "syntax error: unexpected indented block" if exc.token.type == "_INDENT" \
            else "syntax error: this line is indented less than the block it ends"
    elif isinstance(exc, UnexpectedToken) and _bracket_before_line(source, exc.token.line):
        (line, column), char = _unclosed_bracket(source)
        closing = {"(": ")", "[": "]"}[char]
        message = f"syntax error: this '{char}' is never closed (add '{closing}')"
    elif isinstance(exc, UnexpectedToken):
        token: Token = exc.token
        shown = _TOKEN_WORDS.get(token.type) if token.type.startswith("_") else repr(str(token))
        message = f"syntax error: unexpected {shown}"
        if token.type == "_NEWLINE":
            # lark reports a newline at the start of the next line's indentation
            lines = source.splitlines()
            line = max(1, min(line, len(lines)))
            if token.line and token.line <= len(lines):
                line = token.line
                column = len(lines[line - 1]) + 1
        expected_tokens = set(exc.expected or exc.accepts or [])
        hint = _probable_fix(token, expected_tokens)
        if not hint:
            expected = _describe_expected(expected_tokens)
            if expected:
                message += f"; expected {expected}"
    else:
        message = "syntax error"
    if line is None or line < 1:
        line, column = 1, 1
    return DslError(message, position_in_file(text, line, max(1, column or 1)), hint, code="syntax")
