"""Broken input: every fixture in ``tests/invalid/`` fails cleanly at its exact spot.

Each fixture holds exactly one problem. ``davit validate`` must exit 1 and
report it as ``file:line:col: error[code]: message`` (paths relative to the
working directory), never with a traceback, and ``--format json`` must say the
same thing. The expected positions below were worked out by hand from the
files (they point at the offending character) and then confirmed by running.

Also here: damaged saved games (``SaveError``), malformed scenarios under
``davit test``, and inputs too big or too deep to keep as fixtures.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field

import pytest
from cli_runner import REPO
from cli_runner import davit as _davit
from cli_runner import run as _run

from interpreter.errors import DavitError, SaveError

INVALID = REPO / "tests" / "invalid"
FIX = "tests/invalid"


@dataclass(frozen=True)
class Case:
    """One fixture: what to validate and the first finding it must give."""

    name: str            # folder under tests/invalid
    file: str            # file of the first finding, relative to the repo root
    line: int
    column: int
    code: str            # error[code]
    message: str         # a substring of the message
    hint: str | None = None
    target: str | None = None  # what to pass to `davit validate` (default: the folder)
    # test name -> reason, for engine problems not fixed yet (strict xfail)
    xfail: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def path(self) -> str:
        return self.target or f"{FIX}/{self.name}"

    @property
    def prefix(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: error[{self.code}]: "


CASES = [
    Case("yaml-syntax", f"{FIX}/yaml-syntax/ruleset.yaml", 13, 8, "load",
         "YAML syntax error: a '{ ... }' mapping that starts at line 12, column 5 is missing a ','"),
    Case("yaml-indentation", f"{FIX}/yaml-indentation/ruleset.yaml", 6, 2, "load",
         "YAML syntax error: this line is indented differently from the keys above it"),
    Case("dsl-single-equals", f"{FIX}/dsl-single-equals/ruleset.yaml", 15, 21, "syntax",
         "syntax error: unexpected '='", "did you mean '==' to compare? '=' only assigns, on a line of its own"),
    Case("type-text-plus-number", f"{FIX}/type-text-plus-number/ruleset.yaml", 19, 21, "type",
         "cannot add text and a number", "text(x) turns a number into text; to compare, use =="),
    Case("flow-max-actions-zero", f"{FIX}/flow-max-actions-zero/ruleset.yaml", 27, 67, "bad-count",
         "constant 'per_turn' is 0 for 3 players"),
    Case("type-constant-text-count", f"{FIX}/type-constant-text-count/ruleset.yaml", 6, 11, "type",
         "constant 'rounds' is text (\"six\") but tests/invalid/type-constant-text-count/ruleset.yaml:22:13 uses it "
         "as a number (the repeat count must be a number, but this is text)", "give the constant a value of that type"),
    Case("type-end-when-number", f"{FIX}/type-end-when-number/ruleset.yaml", 26, 9, "schema",
         '`end.when` needs a DSL condition in quotes, but YAML read 1 as a number: write "1" in quotes'),
    Case("type-condition-not-bool", f"{FIX}/type-condition-not-bool/ruleset.yaml", 15, 9, "type",
         "the action take condition must be a true/false value, but this is a number",
         "write a comparison such as `count(pile) == 0` or `x > 2`"),
    Case("type-card-vs-number", f"{FIX}/type-card-vs-number/ruleset.yaml", 15, 9, "type",
         "comparing a card or piece with a number"),
    Case("type-assign-text-to-number", f"{FIX}/type-assign-text-to-number/ruleset.yaml", 20, 7, "type",
         "variable 'taken' holds a number; this assigns text",
         "assign a value of the same type, or change the variable's `initial`"),
    Case("type-variant-constant", f"{FIX}/type-variant-constant/variants/quoted.yaml", 6, 13, "type",
         "constant 'per_turn' is text (\"1\") but tests/invalid/type-variant-constant/ruleset.yaml:18:44 uses it "
         "as a number (comparing a number with text is always an error)", "give the constant a value of that type"),
    Case("type-unknown-attribute", f"{FIX}/type-unknown-attribute/ruleset.yaml", 17, 30, "unknown-attribute",
         "no card, piece, zone or player of this ruleset has an attribute 'valeu'", "did you mean 'value'?"),
    Case("players-min-above-max", f"{FIX}/players-min-above-max/ruleset.yaml", 4, 16, "range",
         "players: min 5 is above max 2", "swap them, or raise max"),
    Case("variable-initial-above-max", f"{FIX}/variable-initial-above-max/ruleset.yaml", 8, 24, "range",
         "player variable 'stamina' starts at 12, outside its range 0..10", "change `initial`, `min` or `max`"),
    Case("scenario-expect-not-bool", f"{FIX}/scenario-expect-not-bool/scenarios/not-a-condition.yaml", 6, 13,
         "type", "the expectation must be a true/false value, but this is a number",
         "write a comparison such as `count(pile) == 0` or `x > 2`"),
    Case("scenario-refuse-unknown-action", f"{FIX}/scenario-refuse-unknown-action/scenarios/misspelt-action.yaml",
         6, 33, "refuse-nothing", "the ruleset has no action 'taek'", "did you mean 'take'?"),
    Case("scenario-refuse-unknown-seat", f"{FIX}/scenario-refuse-unknown-seat/scenarios/no-such-seat.yaml",
         6, 22, "refuse-nothing", "there is no seat 5 in a 2-player game"),
    Case("scenario-act-unknown-seat", f"{FIX}/scenario-act-unknown-seat/scenarios/act-by-no-seat.yaml",
         6, 19, "no-such-seat", "step 1: there is no seat 7 in a 2-player game (seats are 0 to 1)"),
    Case("scenario-refuse-unknown-argument",
         f"{FIX}/scenario-refuse-unknown-argument/scenarios/misspelt-argument.yaml", 6, 46, "refuse-nothing",
         "action 'take' has no choice 'coin' (its choices: none)"),
    Case("scenario-empty", f"{FIX}/scenario-empty/scenarios/nothing.yaml", 3, 1, "empty-scenario",
         "the scenario has no steps and no expect: it tests nothing", "add an `expect:` or steps"),
    Case("alias-bomb", f"{FIX}/alias-bomb/ruleset.yaml", 26, 6, "load",
         "YAML anchors (&a) are not allowed"),
    Case("too-deep", f"{FIX}/too-deep/ruleset.yaml", 26, 55, "load", "nesting deeper than 48 levels"),
    Case("schema-violation", f"{FIX}/schema-violation/ruleset.yaml", 4, 16, "schema",
         "`players.min` needs a whole number, but it is the text 'two'"),
    Case("schema-unknown-key", f"{FIX}/schema-unknown-key/ruleset.yaml", 11, 5, "schema",
         "zones[1]: unknown key 'capacty'", "did you mean 'capacity'?"),
    Case("schema-unknown-key-in-alternative", f"{FIX}/schema-unknown-key-in-alternative/ruleset.yaml", 10, 11,
         "schema", "variables.taken: unknown key 'intial'", "did you mean 'initial'?"),
    Case("schema-boolean-for-dsl", f"{FIX}/schema-boolean-for-dsl/ruleset.yaml", 21, 12, "schema",
         '`flow[0].while` needs a DSL condition in quotes, but YAML read true as a boolean: write "true" in quotes'),
    Case("unknown-reference", f"{FIX}/unknown-reference/ruleset.yaml", 12, 33, "unknown-reference",
         "start zone 'pil' does not exist", "did you mean 'pile'?"),
    Case("unknown-action", f"{FIX}/unknown-action/ruleset.yaml", 24, 53, "unknown-reference",
         "unknown action 'steal'"),
    Case("dsl-syntax", f"{FIX}/dsl-syntax/ruleset.yaml", 19, 22, "syntax", "syntax error: unexpected '1'",
         "a ',' is probably missing before this"),
    Case("dsl-unknown-name", f"{FIX}/dsl-unknown-name/ruleset.yaml", 15, 15, "unknown-name",
         "unknown name 'piles'", "did you mean 'pile'?"),
    Case("dsl-arity", f"{FIX}/dsl-arity/ruleset.yaml", 18, 7, "arity", "score() takes 2 arguments, 1 given"),
    Case("dsl-effect-in-condition", f"{FIX}/dsl-effect-in-condition/ruleset.yaml", 15, 29,
         "effect-in-condition",
         "move() changes the game and cannot be used in a condition"),
    Case("duplicate-key", f"{FIX}/duplicate-key/ruleset.yaml", 4, 27, "load",
         "duplicate key 'max' (first at line 4)"),
    Case("duplicate-id", f"{FIX}/duplicate-id/ruleset.yaml", 11, 9, "duplicate-id",
         "zone id 'pile' is used twice"),
    Case("duplicate-name", f"{FIX}/duplicate-name/ruleset.yaml", 13, 28, "duplicate-name",
         "'deck_aft' is displayed as 'Upper  Deck', like 'deck_fore' (line 12)",
         "give each zone and space a name of its own: people choose and read by name"),
    Case("missing-include", f"{FIX}/missing-include/ruleset.yaml", 4, 11, "load",
         "included file 'cards.yaml' does not exist"),
    Case("python-tag", f"{FIX}/python-tag/ruleset.yaml", 26, 9, "load", "unsupported YAML tag"),
    Case("not-utf8", f"{FIX}/not-utf8/ruleset.yaml", 8, 14, "load", "file is not valid UTF-8"),
    Case("bad-variant-base", f"{FIX}/bad-variant-base/variants/lost.yaml", 5, 10, "rules",
         "the base ruleset 'no-such-ruleset' of this variant does not exist"),
    Case("bad-scenario", f"{FIX}/bad-scenario/scenarios/unknown-step.yaml", 7, 5, "schema",
         "steps[1]: unknown key 'wait'", "expected one of: act, refuse, expect, run, set"),
    Case("scenario-dsl-error", f"{FIX}/scenario-dsl-error/scenarios/misspelt-name.yaml", 8, 15,
         "unknown-name",
         "unknown name 'bnak'", "did you mean 'bank'?"),
]

# The same problems, validated through a single file instead of the folder.
FILE_CASES = [
    Case("bad-variant-base", f"{FIX}/bad-variant-base/variants/lost.yaml", 5, 10, "rules",
         "the base ruleset 'no-such-ruleset' of this variant does not exist",
         target=f"{FIX}/bad-variant-base/variants/lost.yaml"),
    Case("bad-scenario", f"{FIX}/bad-scenario/scenarios/unknown-step.yaml", 7, 5, "schema",
         "steps[1]: unknown key 'wait'", target=f"{FIX}/bad-scenario/scenarios/unknown-step.yaml"),
    Case("dsl-syntax", f"{FIX}/dsl-syntax/ruleset.yaml", 19, 22, "syntax", "syntax error: unexpected '1'",
         target=f"{FIX}/dsl-syntax/ruleset.yaml"),
    Case("type-variant-constant", f"{FIX}/type-variant-constant/variants/quoted.yaml", 6, 13, "type",
         "constant 'per_turn' is text (\"1\") but", target=f"{FIX}/type-variant-constant/variants/quoted.yaml"),
    Case("yaml-syntax", f"{FIX}/yaml-syntax/ruleset.yaml", 13, 8, "load", "YAML syntax error",
         target=f"{FIX}/yaml-syntax/ruleset.yaml"),
]


def _params(cases, test):
    out = []
    for c in cases:
        marks = [pytest.mark.xfail(strict=True, reason=c.xfail[test])] if test in c.xfail else []
        out.append(pytest.param(c, id=c.name if c.target is None else f"{c.name}-file", marks=marks))
    return out




def _finding_line(case: Case) -> re.Pattern:
    return re.compile(rf"^{re.escape(case.file)}:\d+:\d+: error\[{re.escape(case.code)}\]: .*"
                      rf"{re.escape(case.message)}", re.M)


@pytest.fixture
def at_repo(monkeypatch):
    monkeypatch.chdir(REPO)
    return REPO


# -- the fixtures themselves -------------------------------------------------------


def test_every_fixture_has_an_expectation():
    folders = sorted(p.name for p in INVALID.iterdir() if p.is_dir())
    assert folders == sorted(c.name for c in CASES)


@pytest.mark.parametrize("path", sorted(INVALID.rglob("*.yaml")), ids=lambda p: str(p.relative_to(INVALID)))
def test_fixture_files_name_their_schema(path):
    """Editors find the schema through the first line (a relative path that must exist)."""
    first = path.read_bytes().split(b"\n", 1)[0].decode("ascii")
    m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert m, f"{path}: first line is {first!r}"
    schema = (path.parent / m.group(1)).resolve()
    assert schema.is_file(), f"{path}: {m.group(1)} does not exist"
    kind = "scenario" if path.parent.name == "scenarios" else "variant" if path.parent.name == "variants" \
        else "ruleset"
    assert schema.name == f"{kind}.schema.json"


# -- davit validate on every fixture ----------------------------------------------------


@pytest.mark.parametrize("case", _params(CASES, "clean"))
def test_validate_fails_cleanly(case, at_repo, capfd, monkeypatch):
    """Exit 1, the finding in file:line:col form, nothing on stderr, no traceback.

    In-process, as `davit` runs it (main() is the whole command; a traceback would be an exception
    out of it), with stderr caught at the file descriptor; the real process is the next test."""
    monkeypatch.delenv("DAVIT_DEBUG", raising=False)
    rc = _run(["validate", case.path])
    out, err = capfd.readouterr()
    assert err == ""
    assert rc == 1, out
    assert _finding_line(case).search(out), out


def test_a_step_by_no_seat_fails_its_scenario_at_the_seat(at_repo, capfd, monkeypatch):
    """`davit test` on a step whose seat the game does not have: the scenario fails at that seat's place
    (it once ended in an IndexError, naming the seat in the refusal's message)."""
    monkeypatch.delenv("DAVIT_DEBUG", raising=False)
    rc = _run(["test", f"{FIX}/scenario-act-unknown-seat"])
    out, err = capfd.readouterr()
    assert rc == 1 and "internal error" not in out + err
    assert "act-by-no-seat.yaml:6:19: step 1: there is no seat 7 in a 2-player game" in out, out


@pytest.mark.slow
def test_validate_fails_cleanly_in_a_real_process(at_repo, capfd, monkeypatch):
    """`davit validate` as a process prints what main() prints, to stdout only, and exits 1."""
    monkeypatch.delenv("DAVIT_DEBUG", raising=False)
    for case in (CASES[0], CASES[2]):     # a YAML error and a DSL error
        assert _run(["validate", case.path]) == 1
        out, _ = capfd.readouterr()
        proc = _davit("validate", case.path)
        assert "Traceback" not in proc.stderr
        assert proc.stderr == ""
        assert proc.returncode == 1, proc.stdout
        assert proc.stdout == out and _finding_line(case).search(proc.stdout), proc.stdout


@pytest.mark.parametrize("case", _params(CASES, "position") + _params(FILE_CASES, "position"))
def test_first_finding_is_at_the_offending_character(case, at_repo, capsys):
    rc = _run(["validate", case.path])
    out = capsys.readouterr().out
    assert rc == 1
    first = out.splitlines()[0] if out else ""
    assert first.startswith(case.prefix), out
    assert case.message in first, out
    if case.hint:
        assert first.endswith(f" ({case.hint})"), out


@pytest.mark.parametrize("case", _params(CASES, "one_finding"))
def test_one_problem_gives_one_finding(case, at_repo, capsys):
    rc = _run(["validate", "--format", "json", case.path])
    findings = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert len(findings) == 1, findings
    f = findings[0]
    assert (f["file"], f["line"], f["severity"], f["code"]) == (case.file, case.line, "error", case.code)
    assert case.message in f["message"]
    assert f["hint"] == case.hint


@pytest.mark.parametrize("case", _params(CASES, "json") + _params(FILE_CASES, "json"))
def test_json_matches_text_one_to_one(case, at_repo, capsys):
    rc_text = _run(["validate", case.path])
    # a syntax error is followed by its source line and a caret, indented: not findings of their own
    text = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("    ")]
    rc_json = _run(["validate", "--format", "json", case.path])
    findings = json.loads(capsys.readouterr().out)
    assert rc_text == rc_json
    assert isinstance(findings, list)
    for f in findings:
        assert set(f) == {"file", "line", "column", "severity", "code", "message", "hint"}
    rendered = [f"{f['file']}:{f['line']}:{f['column']}: {f['severity']}[{f['code']}]: {f['message']}"
                + (f" ({f['hint']})" if f["hint"] else "") for f in findings]
    if not findings:
        assert text == ["ok: no problems found"]
    else:
        assert rendered == text


def test_validate_reports_every_fixture_at_once(at_repo, capsys):
    """One broken ruleset does not hide the others: all problems in one run."""
    rc = _run(["validate", FIX])
    out = capsys.readouterr().out
    assert rc == 1
    for case in CASES:
        if "all_at_once" in case.xfail:
            continue
        assert _finding_line(case).search(out), f"{case.name} missing from:\n{out}"


def test_validate_compiles_scenario_snippets(at_repo, capsys):
    case = next(c for c in CASES if c.name == "scenario-dsl-error")
    _run(["validate", case.path])
    assert case.prefix in capsys.readouterr().out


def test_yaml_syntax_error_says_where_the_bracket_opened(at_repo, capsys):
    _run(["validate", f"{FIX}/yaml-syntax"])
    first = capsys.readouterr().out.splitlines()[0]
    assert "line 12" in first and "column 5" in first, first


def test_validate_missing_path(at_repo, capsys):
    rc = _run(["validate", "tests/invalid/no-such-folder"])
    out = capsys.readouterr().out
    assert rc == 1
    assert out.startswith("tests/invalid/no-such-folder:1:1: error[load]: no such file, folder or bundled ruleset id")


def test_validate_folder_without_ruleset(at_repo, capsys):
    rc = _run(["validate", f"{FIX}/bad-variant-base/variants/"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "no ruleset.yaml found here" in out


def test_validate_paths_relative_to_the_working_directory(monkeypatch, capsys):
    monkeypatch.chdir(INVALID / "dsl-unknown-name")
    rc = _run(["validate", "."])
    assert rc == 1
    assert capsys.readouterr().out.startswith("ruleset.yaml:15:15: error[unknown-name]: unknown name 'piles'")


# -- inputs too big to keep as files ------------------------------------------------------


def test_file_over_the_size_cap(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "huge"
    folder.mkdir()
    text = (INVALID / "dsl-arity" / "ruleset.yaml").read_text().replace("score(player)", "score(player, 1)")
    (folder / "ruleset.yaml").write_text(text + "# " + "x" * 2_100_000 + "\n")
    monkeypatch.chdir(tmp_path)
    rc = _run(["validate", "huge"])
    out = capsys.readouterr().out
    assert rc == 1
    assert out.startswith("huge/ruleset.yaml:1:1: error[load]: file is larger than 2000000 bytes")


def test_very_deep_nesting_does_not_recurse(tmp_path, monkeypatch, capsys):
    """100,000 open brackets: a located error, not a RecursionError."""
    folder = tmp_path / "deep"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("id: deep\nx: " + "[" * 100_000 + "\n")
    monkeypatch.chdir(tmp_path)
    rc = _run(["validate", "deep"])
    out = capsys.readouterr().out
    assert rc == 1
    # davit's own refusal; libyaml (PyYAML 6.0.2+) refuses such nesting itself while scanning ahead, which
    # the reader turns into the same message (tests/test_unit_yaml_reader.py checks both parsers exactly)
    davits = "deep/ruleset.yaml:2:51: error[load]: nesting deeper than 48 levels"
    libyamls = re.compile(r"deep/ruleset\.yaml:2:\d+: error\[load\]: YAML syntax error: exceeded maximum nesting depth")
    assert out.startswith(davits) or libyamls.match(out), out[:300]


# -- the other commands on broken input -------------------------------------------------------


@pytest.mark.slow
def test_play_broken_ruleset_is_one_located_line():
    proc = _davit("play", f"{FIX}/dsl-unknown-name", "--seed", "1")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.strip() == (f"{FIX}/dsl-unknown-name/ruleset.yaml:15:15: unknown name 'piles' "
                                   "(did you mean 'pile'?)")


def test_play_broken_variant_base(at_repo, capsys):
    rc = _run(["play", f"{FIX}/bad-variant-base", "--variant", "lost", "--seed", "1"])
    err = capsys.readouterr().err
    assert rc == 1
    assert err.startswith(f"{FIX}/bad-variant-base/variants/lost.yaml:5:10: the base ruleset 'no-such-ruleset'")


def test_test_command_unknown_step(at_repo, capsys):
    rc = _run(["test", f"{FIX}/bad-scenario"])
    out = capsys.readouterr().out
    assert rc == 1
    assert f"FAIL {FIX}/bad-scenario/scenarios/unknown-step.yaml (unknown-step)" in out
    assert f"  {FIX}/bad-scenario/scenarios/unknown-step.yaml:7:5: steps[1]: unknown key 'wait'" in out
    assert out.rstrip().endswith("0 passed, 1 failed")


def test_test_command_unknown_name_in_expectation(at_repo, capsys):
    rc = _run(["test", f"{FIX}/scenario-dsl-error/scenarios/misspelt-name.yaml"])
    out = capsys.readouterr().out
    assert rc == 1
    assert (f"  {FIX}/scenario-dsl-error/scenarios/misspelt-name.yaml:8:15: unknown name 'bnak' "
            "(did you mean 'bank'?)") in out
    assert out.rstrip().endswith("0 passed, 1 failed")


@pytest.mark.slow
def test_test_command_no_traceback():
    proc = _davit("test", f"{FIX}/bad-scenario", f"{FIX}/scenario-dsl-error")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "0 passed, 2 failed" in proc.stdout


# -- damaged saved games --------------------------------------------------------------------


def _take_first_actions(game, n):
    for _ in range(n):
        seat = game.deciding_players[0]
        assert game.apply(game.legal_actions(seat)[0])


@pytest.fixture(scope="module")
def saved():
    from interpreter import Game, load_ruleset
    rs = load_ruleset("der-mythos")
    game = Game(rs, 3, seed=1)
    _take_first_actions(game, 5)
    return rs, json.loads(json.dumps(game.to_json()))


def _restore(saved, damage):
    from interpreter import Game
    rs, good = saved
    data = copy.deepcopy(good)
    data = damage(data) or data
    game = Game.from_json(rs, data)
    # a save that loads must also play on
    for _ in range(3):
        if game.is_over:
            break
        seat = game.deciding_players[0]
        game.apply(game.legal_actions(seat)[0])
    return game


def test_saved_game_round_trips(saved):
    from interpreter import Game
    rs, good = saved
    game = Game.from_json(rs, copy.deepcopy(good))
    assert json.loads(json.dumps(game.to_json())) == good   # restored as it was saved
    original = Game(rs, 3, seed=1)
    _take_first_actions(original, 5)
    for played in (original, game):
        _take_first_actions(played, 5)
    # and it goes on as the game it was saved from: the same position, log and random stream
    assert json.loads(json.dumps(game.to_json())) == json.loads(json.dumps(original.to_json()))
    assert game.to_json() != good and not game.is_over


def _set(path, value):
    def damage(d):
        node = d
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return damage


def _drop(key):
    def damage(d):
        del d[key]
    return damage


@pytest.mark.parametrize("damage, words", [
    pytest.param(_drop("state"), "damaged", id="no-state"),
    pytest.param(lambda d: "not a saved game", "damaged", id="a-string"),
    pytest.param(lambda d: [d], "damaged", id="a-list"),
    pytest.param(_set(["ruleset"], "tutorial"), "saved game is for ruleset 'tutorial'", id="other-ruleset"),
    pytest.param(_set(["variant"], "more-players"), "variant 'more-players'", id="other-variant"),
    pytest.param(_set(["fingerprint"], "0" * 16), "different version", id="rules-changed"),
    pytest.param(_set(["players"], "three"), "damaged", id="players-not-a-number"),
    pytest.param(_set(["state", "rng"], "abc"), "damaged", id="rng-not-a-number"),
    pytest.param(_set(["state", "zones"], 5), "damaged", id="zones-not-a-mapping"),
    pytest.param(_set(["state", "pending"], {"x": 1}), "damaged", id="pending-garbage"),
    pytest.param(_set(["state", "pending", "map", "actions"], []), "no one can take", id="pending-without-actions"),
])
def test_damaged_save_raises_save_error(saved, damage, words):
    with pytest.raises(SaveError) as info:
        _restore(saved, damage)
    message = str(info.value)
    assert words in message
    assert "\n" not in message


def _drop_player_vars(d):
    d["state"]["pvars"] = d["state"]["pvars"][:1]


def _unknown_thing(d):
    d["state"]["zones"]["capsized"].append("no-such-card")


@pytest.mark.parametrize("damage", [
    pytest.param(_set(["players"], 4), id="players-4-for-3-seats"),
    pytest.param(_set(["players"], 99), id="players-99"),
    pytest.param(_drop_player_vars, id="player-vars-missing"),
    pytest.param(_set(["state", "stack", 0, 0], "nope"), id="unknown-code"),
    pytest.param(_set(["state", "stack", 0, 1], 10 ** 6), id="pc-out-of-range"),
    pytest.param(_unknown_thing, id="unknown-thing-in-zone"),
])
def test_inconsistent_save_raises_save_error(saved, damage):
    with pytest.raises(SaveError):
        _restore(saved, damage)


def test_save_error_is_a_davit_error():
    assert issubclass(SaveError, DavitError)
