"""The designer's loop: a fast start, both YAML parsers alike, combined variants, `davit copy`, the options."""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys

import pytest
import yaml
from cli_runner import REPO, davit, run

from interpreter.errors import DavitError, LoadError
from interpreter.load import files
from interpreter.load.files import RULESET_FILE, bundled_ids, bundled_rulesets_dir
from interpreter.load.metadata import ruleset_summary
from interpreter.load.yaml_reader import parse_yaml

# -- a fast start: the heavy libraries are imported only by the commands that need them -------------

HEAVY = ("networkx", "jsonschema", "lark")


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["--help"], ["list"], ["--version"]], ids=lambda a: " ".join(a))
def test_light_commands_import_no_heavy_library(argv):
    code = ("import sys\nfrom interpreter.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            f"print('HEAVY', sorted(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code, *argv], cwd=REPO, capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPO), "PATH": ""}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "HEAVY []"


def test_public_names_still_import():
    from interpreter import Findings, Game, load_ruleset
    assert callable(load_ruleset) and isinstance(Game, type) and issubclass(Findings, DavitError)
    with pytest.raises(AttributeError):
        import interpreter
        interpreter.no_such_name  # noqa: B018


@pytest.mark.slow
def test_version():
    proc = davit("--version")
    assert proc.returncode == 0
    assert re.fullmatch(r"davit \d+\.\d+\.\d+\n", proc.stdout)


def _subparsers(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def test_every_option_of_every_subcommand_has_help():
    from interpreter.cli.parser import build_parser
    parser = build_parser("0")
    missing = []
    for name, sub in {"": parser, **_subparsers(parser)}.items():
        for action in sub._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if not action.help:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, missing


# -- both YAML parsers give the same located tree --------------------------------------------------

def _flat(value, path=""):
    if isinstance(value, dict):
        yield path, "map", value.loc
        for k, v in value.items():
            yield path, k, value.key_loc(k), value.loc_of(k)
            yield from _flat(v, f"{path}/{k}")
    elif isinstance(value, list):
        yield path, "list", value.loc, tuple(value.locs)
        for i, v in enumerate(value):
            yield from _flat(v, f"{path}[{i}]")
    elif isinstance(value, str):
        yield path, str(value), value.loc, value.style, value.content_line, value.content_col, value.indent
    else:
        yield path, type(value).__name__, value


YAML_FILES = sorted(REPO.glob("rulesets/**/*.yaml")) + sorted(REPO.glob("tests/invalid/**/*.yaml"))


@pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML without libyaml")
@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_libyaml_and_python_parsers_give_identical_trees(path):
    text = path.read_bytes().decode("utf-8", "replace")

    def tree(loader):
        try:
            return list(_flat(parse_yaml(text, str(path), loader)))
        except LoadError as exc:
            return [str(exc)]

    assert tree(yaml.CSafeLoader) == tree(yaml.SafeLoader)


@pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML without libyaml")
@pytest.mark.parametrize("text, words", [
    ("a:\n  b: 1\n c: 2\n", "indented differently from the keys above it"),
    ("a: b: c\n", "put quotes around text that contains ': '"),
    ("a:\n\t- x\n", "YAML indents with spaces only"),
    ('a: "abc\n', "is never closed"),
    ("a: [1, 2\nb: 3\n", "'[ ... ]' list that starts at line 1, column 4 is missing a ','"),
    ("- a\nb: 1\n", "every item of a list starts with '- '"),
])
def test_yaml_syntax_errors_in_plain_words_from_both_parsers(text, words):
    messages = []
    for loader in (yaml.CSafeLoader, yaml.SafeLoader):
        with pytest.raises(LoadError) as info:
            parse_yaml(text, "f.yaml", loader)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert words in messages[0]


def test_syntax_errors_show_the_line_and_a_caret(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    assert run(["validate", "tests/invalid/dsl-single-equals"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "    " + "    if: count(pile) = 0"
    assert lines[2] == "    " + " " * 20 + "^"  # under the '=' at column 21


# -- davit list reads only metadata, and says the same as the compiled rulesets -----------------------

@pytest.mark.parametrize("rid", bundled_ids())
def test_list_metadata_matches_the_compiled_ruleset(rid):
    from interpreter import load_ruleset
    summary = ruleset_summary(bundled_rulesets_dir() / rid / RULESET_FILE)
    rs = load_ruleset(rid)
    assert (summary["id"], summary["name"], summary["players"]) == (rs.id, rs.name, [rs.min_players, rs.max_players])
    for v in summary["variants"]:
        vrs = load_ruleset(rid, v["id"])
        assert v["players"] == [vrs.min_players, vrs.max_players], v


def test_list_shows_combinable_variants(capsys):
    assert run(["list", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    group = rows["collapsible-d"]["combinable"][0]
    assert "two-player" in group and "hang-on" in group
    assert rows["der-mythos"]["combinable"] == []
    assert run(["list"]) == 0
    assert "combinable: ankle-deep-water + composure" in capsys.readouterr().out


# -- variants combine --------------------------------------------------------------------------------

def _collapsible_pairs():
    summary = ruleset_summary(bundled_rulesets_dir() / "collapsible-d" / RULESET_FILE)
    group = summary["combinable"][0]
    return [(a, b) for i, a in enumerate(group) for b in group[i + 1:]]


# every pair; after the first, slow (a sweep over the variants)
@pytest.mark.parametrize("pair", [pytest.param(pair, id="+".join(pair), marks=pytest.mark.slow if i else ())
                                  for i, pair in enumerate(_collapsible_pairs())])
def test_collapsible_d_optional_rules_combine(pair):
    from interpreter import Game, load_ruleset
    rs = load_ruleset("collapsible-d", list(pair))
    assert rs.variant == "+".join(pair)
    game = Game(rs, rs.min_players, seed=3)
    for _ in range(30):
        if game.is_over:
            break
        seat = game.deciding_players[0]
        assert game.apply(game.legal_actions(seat)[0])


def test_variant_forms_are_the_same_rules():
    from interpreter import load_ruleset
    a = load_ruleset("collapsible-d", "two-player+hang-on")
    b = load_ruleset("collapsible-d", ["two-player", "hang-on"])
    c = load_ruleset("collapsible-d", "hang-on+two-player")
    assert a.fingerprint == b.fingerprint
    assert a.fingerprint != c.fingerprint  # the order is part of the rules' identity
    assert a.fingerprint != load_ruleset("collapsible-d", "two-player").fingerprint


def _game_with_variants(tmp_path, combinable: bool):
    source = (REPO / "tests" / "invalid" / "type-card-vs-number" / RULESET_FILE).read_text()
    text = source.replace("top(pile) > 2", "count(pile) > 0").replace("id: type-card-vs-number", "id: two-ways")
    text = text.replace("players: {min: 2, max: 3}", "players: {min: 2, max: 3}\nconstants:\n  bonus: 1"
                        + ("\ncombinable:\n  - [double, triple, slow]" if combinable else ""))
    (tmp_path / "variants").mkdir()
    (tmp_path / RULESET_FILE).write_text(text)
    for name, value in (("double", 2), ("triple", 3)):
        (tmp_path / "variants" / f"{name}.yaml").write_text(f"variant: {name}\nconstants:\n  bonus: {value}\n")
    (tmp_path / "variants" / "slow.yaml").write_text("variant: slow\nplayers: {max: 2}\n")
    return tmp_path


def test_two_variants_setting_one_value_differently_is_an_error(tmp_path, monkeypatch):
    from interpreter import load_ruleset
    folder = _game_with_variants(tmp_path, combinable=True)
    monkeypatch.chdir(folder)
    with pytest.raises(DavitError) as info:
        load_ruleset(folder, ["double", "triple"])
    assert "variants/triple.yaml:3:10: variants 'double' and 'triple' set constants.bonus differently" \
        in str(info.value)
    rs = load_ruleset(folder, ["double", "slow"])
    assert (rs.constants["bonus"], rs.max_players) == (2, 2)


def test_undeclared_combination_is_refused(tmp_path, monkeypatch, capsys):
    folder = _game_with_variants(tmp_path, combinable=False)
    monkeypatch.chdir(folder)
    assert run(["play", ".", "--variant", "double", "--variant", "slow", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "the variants double + slow are not declared combinable" in err


# -- davit copy, davit validate ID, the checkout's rulesets --------------------------------------------

def test_copy_from_any_name_makes_a_valid_ruleset_whose_schema_lines_resolve(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert run(["copy", "tutorial", "My Ship!"]) == 0
    assert "(id: my-ship)" in capsys.readouterr().out
    dest = tmp_path / "My Ship!"
    assert re.search(r"^id: my-ship$", (dest / RULESET_FILE).read_text(), re.M)
    assert run(["validate", "--strict", "My Ship!"]) == 0
    for path in dest.rglob("*.yaml"):
        first = path.read_text().split("\n", 1)[0]
        m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert m, path
        assert (path.parent / m.group(1)).is_file(), f"{path}: {m.group(1)}"


def test_validate_a_bundled_id(capsys):
    assert run(["validate", "tutorial"]) == 0
    assert capsys.readouterr().out.strip() == "ok: no problems found"


def test_checkout_rulesets_win_over_an_installed_copy(tmp_path, monkeypatch):
    installed = tmp_path / "installed"
    (installed / "tutorial").mkdir(parents=True)
    (installed / "tutorial" / RULESET_FILE).write_text("id: tutorial\n")
    monkeypatch.setattr(files, "_installed", lambda kind, pattern: installed)
    monkeypatch.chdir(REPO / "docs")
    assert files.bundled_rulesets_dir() == REPO / "rulesets"
    assert "using the rulesets of the checkout" in files.rulesets_note()
    monkeypatch.chdir(tmp_path)
    assert files.bundled_rulesets_dir() == installed
    assert files.rulesets_note() is None


@pytest.mark.slow
def test_no_note_when_running_from_the_source_tree():
    proc = davit("list")
    assert proc.returncode == 0 and proc.stderr == ""


def test_validate_checks_declared_combinations(tmp_path, monkeypatch, capsys):
    folder = _game_with_variants(tmp_path, combinable=True)
    text = (folder / RULESET_FILE).read_text().replace("[double, triple, slow]", "[double, triple, slow, nope]")
    (folder / RULESET_FILE).write_text(text)
    monkeypatch.chdir(folder)
    assert run(["validate", "."]) == 1
    out = capsys.readouterr().out
    assert "error[unknown-reference]: combinable names no variant 'nope'" in out
    assert ("variants/triple.yaml:3:10: error[variant-conflict]: variants 'double' and 'triple' set "
            "constants.bonus differently") in out
    assert "'slow'" not in out  # slow changes another value: it combines with both
