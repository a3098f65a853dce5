"""Unit tests for interpreter.load.yaml_reader: located values, safety caps, refusals."""
import pickle

import pytest
import yaml

from interpreter.errors import LoadError, Location
from interpreter.load import yaml_reader
from interpreter.load.yaml_messages import too_deep
from interpreter.load.yaml_reader import (
    LocList,
    LocMap,
    LocStr,
    load_yaml_file,
    located,
    parse_yaml,
    plain,
    position_in_file,
)

# --- located values ------------------------------------------------------------

def test_mapping_sequence_and_string_carry_locations():
    text = "name: davit\nitems:\n  - first\n  - {id: x}\n"
    data = parse_yaml(text, "f.yaml")
    assert isinstance(data, LocMap)
    assert data.loc == Location("f.yaml", 1, 1)
    assert isinstance(data["name"], LocStr)
    assert data["name"].loc == Location("f.yaml", 1, 7)
    assert data.key_loc("items") == Location("f.yaml", 2, 1)
    items = data["items"]
    assert isinstance(items, LocList)
    assert items.loc_of(0) == Location("f.yaml", 3, 5)
    assert items.loc_of(1) == Location("f.yaml", 4, 5)
    assert isinstance(items[1], LocMap)
    assert items[1].loc_of("id") == Location("f.yaml", 4, 10)


def test_loc_of_falls_back_to_the_container():
    data = parse_yaml("a: [1, 2]\n", "f.yaml")
    assert data.loc_of("missing") == data.loc
    assert data["a"].loc_of(7) == data["a"].loc
    assert data["a"].loc_of(-1) == data["a"].loc


def test_scalars_other_than_strings_are_plain_python_values():
    data = parse_yaml("i: 3\nf: 1.5\nb: true\nn: ~\nh: 0x10\ns: '3'\n")
    assert data == {"i": 3, "f": 1.5, "b": True, "n": None, "h": 16, "s": "3"}
    assert type(data["i"]) is int and type(data["b"]) is bool and type(data["f"]) is float
    assert isinstance(data["s"], LocStr)


def test_dates_and_binary_stay_text():
    data = parse_yaml("d: 2024-01-31\nb: !!binary aGVsbG8=\n")
    assert data["d"] == "2024-01-31" and isinstance(data["d"], str)
    assert data["b"] == "aGVsbG8="


def test_explicit_str_tag_keeps_number_as_text():
    assert parse_yaml("a: !!str 12\n")["a"] == "12"


def test_located_uses_default_for_plain_scalars():
    data = parse_yaml("a: 1\nb: x\n", "f.yaml")
    fallback = Location("other", 9, 9)
    assert located(data["a"], fallback) == fallback
    assert located(data["b"], fallback) == Location("f.yaml", 2, 4)


def test_plain_strips_locations():
    data = parse_yaml("a: [x, {b: y}]\n")
    stripped = plain(data)
    assert stripped == {"a": ["x", {"b": "y"}]}
    assert type(stripped) is dict
    assert type(stripped["a"]) is list
    assert type(stripped["a"][0]) is str
    assert type(stripped["a"][1]) is dict


def test_locstr_pickles_as_plain_string():
    s = parse_yaml("a: hello\n")["a"]
    back = pickle.loads(pickle.dumps(s))
    assert back == "hello" and type(back) is str


# --- position_in_file ------------------------------------------------------------

def test_position_in_plain_scalar():
    #        1234567890
    text = "a: x + foo\n"
    s = parse_yaml(text, "f.yaml")["a"]
    assert s.style is None
    # 'foo' starts at column 5 of the snippet "x + foo"
    assert position_in_file(s, 1, 5) == Location("f.yaml", 1, 8)


def test_position_in_double_quoted_scalar():
    #        12345678901
    text = 'a: "x + foo"\n'
    s = parse_yaml(text, "f.yaml")["a"]
    assert s.style == '"'
    assert position_in_file(s, 1, 5) == Location("f.yaml", 1, 9)
    assert position_in_file(s, 1, 1) == Location("f.yaml", 1, 5)


def test_position_in_single_quoted_scalar_nested():
    # line 2:   "  key: 'ab + cd'" -- the quote is column 8, 'c' is column 14
    text = "top:\n  key: 'ab + cd'\n"
    s = parse_yaml(text, "f.yaml")["top"]["key"]
    assert s.style == "'"
    assert position_in_file(s, 1, 6) == Location("f.yaml", 2, 14)


def test_position_in_literal_block_scalar():
    text = "top:\n  code: |\n    x = 1\n    y = foo\n"
    s = parse_yaml(text, "f.yaml")["top"]["code"]
    assert s.style == "|"
    assert str(s) == "x = 1\ny = foo\n"
    # line 2, column 5 of the snippet is 'foo'; in the file it is line 4, column 9
    assert position_in_file(s, 2, 5) == Location("f.yaml", 4, 9)
    assert position_in_file(s, 1, 1) == Location("f.yaml", 3, 5)


def test_position_in_block_scalar_after_blank_lines():
    text = "code: |\n\n  x = 1\n"
    s = parse_yaml(text, "f.yaml")["code"]
    # the text keeps the leading blank line, so snippet line 2 is file line 3
    assert str(s) == "\nx = 1\n"
    assert position_in_file(s, 2, 1) == Location("f.yaml", 3, 3)


def test_position_in_folded_block_scalar():
    text = "code: >\n  x = 1\n"
    s = parse_yaml(text, "f.yaml")["code"]
    assert s.style == ">"
    assert position_in_file(s, 1, 3) == Location("f.yaml", 2, 5)


def test_position_in_a_folded_block_scalar_that_joins_lines():
    # folding joins the first two lines with a space: the snippet's line 1 spans two lines of the file
    text = "code: >\n  score(p,\n  q)\n\n  y = foo\n"
    s = parse_yaml(text, "f.yaml")["code"]
    assert str(s) == "score(p, q)\ny = foo\n"
    assert position_in_file(s, 1, 10) == Location("f.yaml", 3, 3)     # q
    assert position_in_file(s, 2, 5) == Location("f.yaml", 5, 7)      # foo


@pytest.mark.parametrize("text", [
    "code: >\n  a = 1\n  b = 2\n",
    "top:\n  code: >\n    score(p,\n      1)\n    and more\n\n\n    y = foo\nnext: 1\n",
    "c: >-\n  a\n    b\n  c d\n  e\n",
    "c: >+\n  first\n  second\n\n",
])
def test_every_character_of_a_folded_block_scalar_is_found_in_the_file(text):
    data = parse_yaml(text, "f.yaml")
    s = data["top"]["code"] if "top" in data else data.get("code", data.get("c"))
    file_lines = text.split("\n")
    for number, line in enumerate(str(s).split("\n"), 1):
        for column, char in enumerate(line, 1):
            if char == " ":
                continue   # a space may be a folded line break
            loc = position_in_file(s, number, column)
            assert file_lines[loc.line - 1][loc.column - 1] == char, (number, column, loc)


def test_position_in_a_multi_line_single_quoted_scalar():
    # PyYAML's safe_dump writes a two-line snippet this way: an empty line is the newline
    text = "f:\n  do: 'score(p, 1)\n\n    score(q, 2)'\n"
    s = parse_yaml(text, "f.yaml")["f"]["do"]
    assert str(s) == "score(p, 1)\nscore(q, 2)"
    # 'q' is column 7 of the snippet's line 2; in the file line 4, column 11
    assert position_in_file(s, 2, 7) == Location("f.yaml", 4, 11)


def test_position_in_a_folded_plain_scalar():
    # a single line break folds into a space: the snippet's line 1 spans two lines of the file
    text = "do: score(p,\n  1)\n\n  score(q,\n   2)\n"
    s = parse_yaml(text, "f.yaml")["do"]
    assert str(s) == "score(p, 1)\nscore(q, 2)"
    assert position_in_file(s, 2, 7) == Location("f.yaml", 4, 9)


def test_position_in_a_scalar_with_escaped_newlines_is_its_start():
    # "\n" escapes make lines the file does not have: the scalar's start, never a wrong line
    text = 'x: 1\ndo: "score(p, 1)\\nscore(q, 2)"\n'
    s = parse_yaml(text, "f.yaml")["do"]
    assert str(s) == "score(p, 1)\nscore(q, 2)"
    assert position_in_file(s, 2, 7) == Location("f.yaml", 2, 5)


def test_position_of_an_unlocated_string():
    assert position_in_file("x + y", 1, 5) == Location("<dsl>", 1, 5)


# --- refusals ---------------------------------------------------------------------

def _error(text, file="f.yaml") -> LoadError:
    with pytest.raises(LoadError) as info:
        parse_yaml(text, file)
    return info.value


def test_anchor_is_refused_with_its_location():
    err = _error("a: 1\nb: &x 2\nc: *x\n")
    assert "anchors" in err.message and "&x" in err.message
    assert err.location == Location("f.yaml", 2, 4)


def test_alias_is_refused():
    err = _error("a: *x\n")
    assert "aliases" in err.message
    assert err.location == Location("f.yaml", 1, 4)


def test_anchor_on_a_mapping_is_refused():
    err = _error("base: &b {x: 1}\n")
    assert "anchors" in err.message


def test_duplicate_key_names_both_lines():
    err = _error("a:\n  b: 1\n  c: 2\n  b: 3\n")
    assert "duplicate key 'b'" in err.message
    assert "line 2" in err.message
    assert err.location == Location("f.yaml", 4, 3)


@pytest.mark.parametrize("text,tag", [
    ("a: !foo bar\n", "!foo"),
    ("a: !!python/object:os.system x\n", "python/object"),
    ("a: !!set {x: null}\n", "set"),
    ("a: !!omap [x: 1]\n", "omap"),
])
def test_unsupported_tags_are_refused(text, tag):
    err = _error(text)
    assert "unsupported YAML tag" in err.message
    assert tag in err.message
    assert err.location.line == 1


def test_second_document_is_refused():
    err = _error("a: 1\n---\nb: 2\n")
    assert "one YAML document" in err.message
    assert err.location.line == 2


def test_complex_key_is_refused():
    err = _error("? [a, b]\n: 1\n")
    assert "keys must be plain" in err.message


def test_syntax_error_is_a_load_error_with_position():
    err = _error("a: [1, 2\nb: 3\n")
    assert err.message.startswith("YAML syntax error")
    assert err.location.file == "f.yaml"
    assert err.location.line >= 1


def test_depth_cap_allows_max_and_refuses_one_more():
    depth = yaml_reader.MAX_DEPTH
    ok = "[" * depth + "]" * depth
    value = parse_yaml(ok)
    for _ in range(depth - 1):
        value = value[0]
    assert value == []
    err = _error("[" * (depth + 1) + "]" * (depth + 1))
    assert f"deeper than {depth}" in err.message


def test_very_deep_nesting_is_an_error_not_a_recursion_crash():
    err = _error("a: " + "{b: " * 5000 + "1" + "}" * 5000 + "\n")
    assert "nesting" in err.message


DEEP = "id: deep\nx: " + "[" * 100_000 + "\n"
LOADERS = [pytest.param(yaml.SafeLoader, id="pure-python"),
           pytest.param(getattr(yaml, "CSafeLoader", None), id="libyaml",
                        marks=pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML without libyaml"))]


@pytest.mark.parametrize("loader", LOADERS)
def test_deep_nesting_gives_one_message_whichever_parser(loader):
    """libyaml refuses deep nesting itself while it scans ahead; the user still sees davit's message,
    at the bracket where davit's limit is crossed, as with the pure-Python parser."""
    with pytest.raises(LoadError) as info:
        parse_yaml(DEEP, "f.yaml", loader=loader)
    assert str(info.value) == f"f.yaml:2:51: nesting deeper than {yaml_reader.MAX_DEPTH} levels"


def test_libyaml_really_refuses_deep_nesting_first():
    """The libyaml case above goes through the translation: libyaml stops before davit's own check."""
    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML without libyaml")
    with pytest.raises(yaml.MarkedYAMLError) as info:
        for _ in yaml.parse(DEEP, Loader=yaml.CSafeLoader):
            pass
    if not too_deep(info.value.problem):
        pytest.skip(f"this libyaml has no nesting limit of its own: {info.value.problem}")


def test_libyaml_refusal_without_a_davit_finding_keeps_libyaml_place(monkeypatch):
    """Should the pure-Python parser not find the nesting, the message is still davit's, at libyaml's mark."""
    class Mark:
        line, column = 4, 7
    real = yaml_reader.parse_yaml
    monkeypatch.setattr(yaml_reader, "parse_yaml", lambda *a, **k: None)
    try:
        err = yaml_reader._too_deep("x", "f.yaml", Mark(), "libyaml")
    finally:
        monkeypatch.setattr(yaml_reader, "parse_yaml", real)
    assert str(err) == f"f.yaml:5:8: nesting deeper than {yaml_reader.MAX_DEPTH} levels"


def test_size_cap(monkeypatch):
    monkeypatch.setattr(yaml_reader, "MAX_FILE_BYTES", 100)
    parse_yaml("a: " + "x" * 80 + "\n")
    err = _error("a: " + "x" * 200 + "\n")
    assert "larger than 100 bytes" in err.message


def test_size_cap_counts_bytes_not_characters(monkeypatch):
    monkeypatch.setattr(yaml_reader, "MAX_FILE_BYTES", 100)
    # 40 characters but 120 bytes in UTF-8
    err = _error("a: " + "\u20ac" * 40 + "\n")
    assert "larger than" in err.message


def test_size_cap_on_files(tmp_path, monkeypatch):
    monkeypatch.setattr(yaml_reader, "MAX_FILE_BYTES", 50)
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 100 + "\n", encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load_yaml_file(path, "big.yaml")
    assert "larger than 50 bytes" in info.value.message
    assert info.value.location.file == "big.yaml"


# --- files --------------------------------------------------------------------------

def test_load_file_uses_display_name(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("a:\n  b: text\n", encoding="utf-8")
    data = load_yaml_file(path, "shown.yaml")
    assert data["a"]["b"].loc == Location("shown.yaml", 2, 6)


def test_non_utf8_file_reports_line_and_column(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"a: 1\nname: caf\xe9\n")
    with pytest.raises(LoadError) as info:
        load_yaml_file(path, "latin1.yaml")
    assert "not valid UTF-8" in info.value.message
    assert info.value.location == Location("latin1.yaml", 2, 10)


def test_missing_file_is_a_load_error(tmp_path):
    with pytest.raises(LoadError) as info:
        load_yaml_file(tmp_path / "nope.yaml", "nope.yaml")
    assert "cannot read file" in info.value.message
