"""Unit tests for interpreter.dsl.parser: statements, expressions, lambdas, errors."""
import pytest

from interpreter.dsl import ast, parser
from interpreter.dsl.parser import parse
from interpreter.errors import DslError, Location
from interpreter.load.yaml_reader import parse_yaml


def expr(text):
    return parse(text, "expr")


def block(text):
    return parse(text, "block")


# --- expressions ------------------------------------------------------------------

def test_literals():
    assert expr("42") == ast.Const((1, 1), 42)
    assert expr("2.5").value == 2.5 and isinstance(expr("2.5").value, float)
    assert expr('"a\\"b"').value == 'a"b'
    assert expr("'x'").value == "x"
    assert expr("true").value is True
    assert expr("false").value is False
    assert expr("none").value is None


def test_precedence_of_arithmetic():
    node = expr("1 + 2 * 3")
    assert isinstance(node, ast.BinOp) and node.op == "+"
    assert node.left == ast.Const((1, 1), 1)
    assert isinstance(node.right, ast.BinOp) and node.right.op == "*"


def test_left_associative_subtraction():
    node = expr("10 - 4 - 3")
    assert node.op == "-"
    assert isinstance(node.left, ast.BinOp) and node.left.op == "-"
    assert node.right.value == 3


def test_boolean_operators_and_not():
    node = expr("not a or b and c")
    assert isinstance(node, ast.BoolOp) and node.op == "or"
    assert isinstance(node.left, ast.Not)
    assert isinstance(node.right, ast.BoolOp) and node.right.op == "and"


def test_chained_comparison_and_not_in():
    node = expr("1 < x <= 3")
    assert isinstance(node, ast.Compare)
    assert [op for op, _ in node.rest] == ["<", "<="]
    node = expr("x not in ys")
    assert node.rest[0][0] == "not in"


def test_conditional_expression():
    node = expr("a if b else c")
    assert isinstance(node, ast.IfExp)
    assert node.cond.id == "b" and node.then.id == "a" and node.other.id == "c"


def test_postfix_chain_with_keyword_argument():
    node = expr("-a.b[1](2, k=3)")
    assert isinstance(node, ast.Neg)
    call = node.operand
    assert isinstance(call, ast.Call)
    assert isinstance(call.func, ast.Index)
    assert isinstance(call.func.obj, ast.Attr) and call.func.obj.name == "b"
    assert call.args == (ast.Const((1, 9), 2),)
    assert call.kwargs[0][0] == "k" and call.kwargs[0][1].value == 3


def test_list_literal_with_trailing_comma():
    node = expr("[1, 2, 3,]")
    assert isinstance(node, ast.ListLit)
    assert [i.value for i in node.items] == [1, 2, 3]
    assert expr("[]").items == ()


def test_lambda_argument():
    node = expr("count(xs, x -> x > 1)")
    assert isinstance(node, ast.Call)
    lam = node.args[1]
    assert isinstance(lam, ast.Lambda)
    assert lam.param == "x"
    assert isinstance(lam.body, ast.Compare)
    assert lam.pos == (1, 11)


def test_list_comprehension_with_condition():
    node = expr("[a * 2 for a in xs if a > 0]")
    assert isinstance(node, ast.Comprehension)
    assert node.var == "a"
    assert node.source == ast.Name((1, 17), "xs")
    assert isinstance(node.cond, ast.Compare)
    assert isinstance(node.elt, ast.BinOp)


def test_generator_argument_without_condition():
    node = expr("sum(a for a in xs)")
    comp = node.args[0]
    assert isinstance(comp, ast.Comprehension)
    assert comp.cond is None and comp.var == "a"


def test_keywords_are_not_names():
    with pytest.raises(DslError):
        expr("if")
    with pytest.raises(DslError):
        block("for = 1")
    # but names that merely start with a keyword are fine
    assert expr("format") == ast.Name((1, 1), "format")
    assert expr("nonet") == ast.Name((1, 1), "nonet")


def test_name_positions_are_one_based():
    node = expr("  a + bb")
    assert node.left.pos == (1, 3)
    assert node.right.pos == (1, 7)


# --- statements ---------------------------------------------------------------------

def test_assignment_and_augmented_assignment():
    body = block("x = 1; y //= 2\nz.count += 3\nw[0] = 4\n")
    assert len(body) == 4
    assert body[0] == ast.Assign((1, 1), ast.Name((1, 1), "x"), ast.Const((1, 5), 1), None)
    assert body[1].op == "//" and body[1].target.id == "y"
    assert isinstance(body[2].target, ast.Attr) and body[2].op == "+"
    assert isinstance(body[3].target, ast.Index) and body[3].op is None


def test_if_elif_else():
    body = block("if a:\n  x = 1\nelif b:\n  x = 2\nelse:\n  x = 3\n")
    assert len(body) == 1
    node = body[0]
    assert isinstance(node, ast.If)
    assert [c.id for c, _ in node.branches] == ["a", "b"]
    assert node.orelse[0].value.value == 3


def test_if_on_one_line():
    node = block("if a: x = 1\n")[0]
    assert isinstance(node, ast.If) and node.branches[0][1][0].target.id == "x"


def test_loops_and_control_statements():
    body = block("for i in xs:\n  if i: continue\n  break\nwhile n > 0:\n  n -= 1\n  pass\nreturn\n")
    loop, wloop, ret = body
    assert isinstance(loop, ast.For) and loop.var == "i" and loop.source.id == "xs"
    assert isinstance(loop.body[0].branches[0][1][0], ast.Continue)
    assert isinstance(loop.body[1], ast.Break)
    assert isinstance(wloop, ast.While)
    assert isinstance(wloop.body[1], ast.Pass)
    assert isinstance(ret, ast.Return) and ret.value is None


def test_return_with_value():
    (ret,) = block("return a + 1")
    assert isinstance(ret.value, ast.BinOp)


def test_comments_and_blank_lines_are_ignored():
    body = block("# heading\n\nx = 1  # trailing\n\n# end\n")
    assert len(body) == 1 and body[0].target.id == "x"


def test_tabs_count_as_indentation():
    body = block("if a:\n\tx = 1\n\ty = 2\n")
    assert len(body[0].branches[0][1]) == 2


def test_bracketed_expression_spans_lines():
    (stmt,) = block("x = [1,\n     2]\n")
    assert [i.value for i in stmt.value.items] == [1, 2]


def test_walk_visits_nested_nodes():
    body = block("for i in xs:\n  y = count(i, t -> t.a)\n")
    kinds = {type(n).__name__ for n in ast.walk(body)}
    assert {"For", "Assign", "Call", "Lambda", "Attr", "Name"} <= kinds


# --- errors ------------------------------------------------------------------------

def _error(text, mode="block") -> DslError:
    with pytest.raises(DslError) as info:
        parse(text, mode)
    return info.value


def test_unexpected_character_position():
    err = _error("x = 1 $ 2")
    assert "unexpected character '$'" in err.message
    assert err.location == Location("<dsl>", 1, 7)


def test_missing_colon_points_at_end_of_line():
    err = _error("if x\n  y = 1")
    assert "missing ':' at the end of this line" in err.hint
    assert err.location == Location("<dsl>", 1, 5)


def test_snippet_ending_inside_a_bracket():
    err = _error("x = (1 +")
    assert "this '(' is never closed" in err.message
    assert err.location == Location("<dsl>", 1, 5)


def test_unclosed_bracket_points_at_the_bracket():
    err = _error("x = f(1, [2, 3]\ny = 2")
    assert err.message == "syntax error: this '(' is never closed (add ')')"
    assert err.location == Location("<dsl>", 1, 6)


def test_single_equals_in_a_condition_suggests_double():
    err = _error("count(pile) = 0", "expr")
    assert err.location == Location("<dsl>", 1, 13)
    assert err.hint.startswith("did you mean '=='")


def test_stray_closing_bracket():
    err = _error("a == 1)", "expr")
    assert "closes nothing" in err.hint


def test_empty_expression_ends_too_early():
    err = _error("", "expr")
    assert "ends too early" in err.message


def test_unexpected_token_names_it():
    err = _error("a b", "expr")
    assert "unexpected 'b'" in err.message
    assert err.location == Location("<dsl>", 1, 3)


def test_statement_is_not_an_expression():
    err = _error("x = 1", "expr")
    assert err.location.column == 3


def test_unexpected_indent_points_at_the_indented_line():
    err = _error("x = 1\n  y = 2\n")
    assert "indented block" in err.message
    assert err.location.line == 2


def test_error_location_maps_into_yaml_block():
    doc = parse_yaml("do: |\n  x = 1\n  y = 2 $\n", "r.yaml")
    with pytest.raises(DslError) as info:
        parse(doc["do"], "block")
    # '$' is at column 7 of snippet line 2; the block is indented by two
    assert info.value.location == Location("r.yaml", 3, 9)


def test_error_location_maps_into_quoted_yaml_value():
    doc = parse_yaml('if: "a and and b"\n', "r.yaml")
    with pytest.raises(DslError) as info:
        parse(doc["if"], "expr")
    # the second 'and' is column 7 of the snippet; the text starts at column 6 (after the quote)
    assert info.value.location == Location("r.yaml", 1, 12)


def test_too_long_snippet_is_refused():
    err = _error("x = 1\n" * (parser.MAX_SNIPPET_CHARS // 6 + 1))
    assert "longer than" in err.message


@pytest.mark.parametrize("text", ["-" * 3000 + "1", "f(" * 200 + ")" * 200], ids=["negations", "calls"])
def test_too_deep_nesting_is_refused_not_a_crash(text):
    err = _error(text, "expr")
    assert "nested" in err.message
    assert err.location == Location("<dsl>", 1, 1)


def test_redundant_parentheses_do_not_count_as_nesting():
    assert parse("(" * 300 + "1" + ")" * 300, "expr") == ast.Const((1, 301), 1)


def test_a_node_starts_at_the_bracket_or_sign_before_its_first_operand():
    # an operation's position is where its text starts, brackets and a unary plus included
    assert expr("(a + b) * c").pos == (1, 1)
    assert expr("(a + b) * c").left.pos == (1, 2)
    assert expr("x + (1)").pos == (1, 1)
    assert expr("+a - b").pos == (1, 1)
    assert expr("f(x)[0].y").obj.pos == (1, 1)          # the attribute itself is placed at its name
    assert expr("f(x)[0].y").pos == (1, 9)
    stmts = block("if a:\n    return\nelse:\n    pass\n")
    assert stmts[0].pos == (1, 1) and stmts[0].branches[0][1][0].pos == (2, 5)
    assert stmts[0].orelse[0].pos == (4, 5)


def test_a_string_with_a_meaningless_escape_is_a_located_syntax_error():
    doc = parse_yaml('if: x == "a\\x"\n', "r.yaml")
    with pytest.raises(DslError) as info:
        parse(doc["if"], "expr")
    assert info.value.message == "syntax error: this string has a backslash escape that means nothing"
    assert info.value.location == Location("r.yaml", 1, 10)
    assert info.value.code == "syntax"


def test_every_grammar_rule_has_a_callback():
    # (a `?rule` alternative of one symbol is that symbol itself: it needs none)
    rules = {rule.alias or rule.origin.name for rule in parser._lark().rules
             if not (rule.options.expand1 and len(rule.expansion) == 1)}
    missing = sorted(name for name in rules if not name.startswith("_") and not hasattr(parser._ToAst, name))
    assert not missing


def test_a_first_run_parses_with_the_tables_later_runs_read_back(tmp_path, monkeypatch):
    """Derived from the grammar (no cache yet) or read back from the cache, the parser is the same one:
    the same trees, and rule results named by plain text (lark's derived tables name them by grammar
    tokens, compared as text at each reduction)."""
    from pathlib import Path as _Path

    from interpreter.dsl.tables import lark_parser
    grammar = (_Path(parser.__file__).parent / "grammar.lark").read_text(encoding="utf-8")

    def made():
        options = dict(parser="lalr", start=["start_block", "start_expr"], postlex=parser._DslIndenter(),
                       keep_all_tokens=True, maybe_placeholders=True, transformer=parser._ToAst())
        return lark_parser(grammar, options)
    monkeypatch.setenv("DAVIT_CACHE_DIR", str(tmp_path))
    first, again = made(), made()
    assert list(tmp_path.rglob("tables-*.bin"))   # the second was read back
    text = "x = 1\nif a.b > 2 and not c:\n    log(f(x, [1, 2]))\n"
    assert first.parse(text, start="start_block").value == again.parse(text, start="start_block").value \
        == parse(text, "block")
    for states in (first.parser.parser.parser.parse_table.states,):
        reductions = [arg for acts in states.values() for _, arg in acts.values() if hasattr(arg, "origin")]
        assert reductions and all(type(rule.origin.name) is str for rule in reductions)
