"""Parse DSL snippets with lark (LALR) into :mod:`interpreter.dsl.ast` nodes.

Syntax errors become :class:`DslError` located at the offending character in
the YAML file the snippet came from.
"""
from __future__ import annotations

import ast as py_ast
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from ..errors import DslError
from ..load.yaml_reader import position_in_file
from . import ast

MAX_SNIPPET_CHARS = 20_000
MAX_NESTING = 40


class _DslIndenter(Indenter):
    NL_type = "_NEWLINE"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    options = dict(parser="lalr", start=["start_block", "start_expr"], postlex=_DslIndenter(),
                   propagate_positions=True, maybe_placeholders=True)
    try:
        # lark keeps the LALR tables it derives from the grammar in a file named by the grammar's
        # hash (in the temporary folder): 0.03 s instead of 0.17 s at the start of each command
        return Lark(grammar, cache=True, **options)
    except Exception:  # noqa: BLE001 - no writable temporary folder, an old cache: derive the tables again
        return Lark(grammar, **options)


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


@v_args(meta=True)
class _ToAst(Transformer):
    """lark tree -> our AST (positions from lark's propagated meta)."""

    # statements
    def start_block(self, meta, children):
        return tuple(s for c in children for s in (c if isinstance(c, tuple) else (c,)) if s is not None)

    def start_expr(self, meta, children):
        return children[0]

    def simple_stmt(self, meta, children):
        return tuple(c for c in children if c is not None)

    def suite(self, meta, children):
        return tuple(s for c in children for s in (c if isinstance(c, tuple) else (c,)))

    def assign(self, meta, c):
        return ast.Assign(_pos(meta), c[0], c[1])

    def aug_assign(self, meta, c):
        return ast.Assign(_pos(meta), c[0], c[2], str(c[1])[:-1])

    def aug_op(self, meta, c):
        return str(c[0])

    def expr_stmt(self, meta, c):
        return ast.ExprStmt(_pos(meta), c[0])

    def pass_stmt(self, meta, c):
        return ast.Pass(_pos(meta))

    def break_stmt(self, meta, c):
        return ast.Break(_pos(meta))

    def continue_stmt(self, meta, c):
        return ast.Continue(_pos(meta))

    def return_stmt(self, meta, c):
        return ast.Return(_pos(meta), c[0] if c else None)

    def target_name(self, meta, c):
        return ast.Name(_pos(c[0]), str(c[0]))

    def target_attr(self, meta, c):
        return ast.Attr(_pos(c[1]), c[0], str(c[1]))

    def target_index(self, meta, c):
        return ast.Index(_pos(meta), c[0], c[1])

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse = ()
        for extra in c[2:]:
            if extra is None:
                continue
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                orelse = extra[1]
        return ast.If(_pos(meta), tuple(branches), orelse)

    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def for_stmt(self, meta, c):
        return ast.For(_pos(meta), str(c[0]), c[1], c[2])

    def while_stmt(self, meta, c):
        return ast.While(_pos(meta), c[0], c[1])

    # expressions
    def lambda_expr(self, meta, c):
        return ast.Lambda(_pos(meta), str(c[0]), c[1])

    def if_expr(self, meta, c):
        return ast.IfExp(_pos(meta), c[1], c[0], c[2])

    def or_op(self, meta, c):
        return ast.BoolOp(_pos(meta), "or", c[0], c[1])

    def and_op(self, meta, c):
        return ast.BoolOp(_pos(meta), "and", c[0], c[1])

    def not_op(self, meta, c):
        return ast.Not(_pos(meta), c[0])

    def compare(self, meta, c):
        rest = tuple((c[i], c[i + 1]) for i in range(1, len(c), 2))
        return ast.Compare(_pos(meta), c[0], rest)

    def comp_op(self, meta, c):
        return " ".join(str(t) for t in c)

    def add_op(self, meta, c):
        return str(c[0])

    mul_op = add_op

    def binop(self, meta, c):
        return ast.BinOp(_pos(meta), c[1], c[0], c[2])

    def neg(self, meta, c):
        return ast.Neg(_pos(meta), c[0])

    def factor(self, meta, c):  # unary plus
        return c[-1]

    def call(self, meta, c):
        args, kwargs = [], []
        for arg in (c[1] or ()):
            if isinstance(arg, tuple) and len(arg) == 3 and arg[0] == "kw":
                kwargs.append((arg[1], arg[2]))
            else:
                args.append(arg)
        return ast.Call(_pos(meta), c[0], tuple(args), tuple(kwargs))

    def arguments(self, meta, c):
        return [a for a in c if a is not None]

    def kwarg(self, meta, c):
        return ("kw", str(c[0]), c[1])

    def genexp(self, meta, c):
        return ast.Comprehension(_pos(meta), c[0], str(c[1]), c[2], c[3])

    listcomp = genexp

    def getattr(self, meta, c):
        return ast.Attr(_pos(c[1]), c[0], str(c[1]))

    def getitem(self, meta, c):
        return ast.Index(_pos(meta), c[0], c[1])

    def name(self, meta, c):
        return ast.Name(_pos(c[0]), str(c[0]))

    def number(self, meta, c):
        text = str(c[0])
        return ast.Const(_pos(c[0]), float(text) if "." in text else int(text))

    def string(self, meta, c):
        return ast.Const(_pos(c[0]), py_ast.literal_eval(str(c[0])))

    def true(self, meta, c):
        return ast.Const(_pos(meta), True)

    def false(self, meta, c):
        return ast.Const(_pos(meta), False)

    def none(self, meta, c):
        return ast.Const(_pos(meta), None)

    def list_lit(self, meta, c):
        return ast.ListLit(_pos(meta), tuple(x for x in c if x is not None))


def _tree_depth(tree) -> int:
    deepest = 0
    todo = [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        deepest = max(deepest, depth)
        if isinstance(node, Tree):
            todo.extend((child, depth + 1) for child in node.children)
    return deepest


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
    tree = _lark().parse(source, start="start_block" if mode == "block" else "start_expr")
    if _tree_depth(tree) > MAX_NESTING * 3:
        return _TOO_DEEP
    return _ToAst().transform(tree)


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
