"""The ``davit`` command line: list, validate, play, simulate, test.

Most tests call :func:`interpreter.cli.main` in-process; the checks that no
traceback ever reaches a user run the real ``python -m interpreter`` in a
subprocess. Every user mistake must end in one readable line and a non-zero
exit code.
"""
from __future__ import annotations

import builtins
import io
import json
import sys

import pytest
from cli_runner import REPO
from cli_runner import davit as _davit
from cli_runner import run as _run

import interpreter.agents  # noqa: F401  (imported first on purpose, as in any long-lived process)


@pytest.fixture(autouse=True)
def at_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def _play_json(capsys, *extra) -> tuple[str, dict]:
    rc = _run(["play", "der-mythos", "--players", "4", "--seed", "1", "--json", *extra])
    out = capsys.readouterr().out
    assert rc == 0
    lines = out.splitlines()
    assert len(lines) == 1, out
    return lines[0], json.loads(lines[0])


# -- list and validate ---------------------------------------------------------------------


def test_list_shows_rulesets_and_variants(capsys):
    assert _run(["list"]) == 0
    out = capsys.readouterr().out
    assert "der-mythos" in out and "Titanic: Der Mythos" in out
    assert "variant more-players" in out and "variant simplified-scoring" in out
    assert "tutorial" in out


def test_list_json(capsys):
    assert _run(["list", "--json"]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    mythos = rows["der-mythos"]
    assert mythos["players"] == [2, 5]
    assert {v["id"] for v in mythos["variants"]} >= {"more-players", "simplified-scoring"}
    assert next(v for v in mythos["variants"] if v["id"] == "more-players")["players"] == [6, 10]


def test_validate_bundled_rulesets(capsys):
    rc = _run(["validate", "rulesets"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "error[" not in out


@pytest.mark.slow
def test_validate_bundled_rulesets_json(capsys):
    rc = _run(["validate", "--format", "json", "rulesets"])
    findings = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert [f for f in findings if f["severity"] == "error"] == []


# -- play ------------------------------------------------------------------------------


def test_play_narrates_a_finished_game(capsys):
    rc = _run(["play", "der-mythos", "--players", "4", "--seed", "1"])
    out = capsys.readouterr().out
    assert rc == 0
    last = out.rstrip().splitlines()[-1]
    assert "Game over" in last and "Winner" in last
    assert len(out.splitlines()) > 20  # the rounds are narrated, not only the result


def test_play_json_result(capsys):
    _, result = _play_json(capsys)
    assert {"ruleset", "variant", "seed", "players", "scores", "winners"} <= set(result)
    assert result["ruleset"] == "der-mythos"
    assert result["variant"] is None
    assert result["seed"] == 1
    assert result["players"] == 4
    assert len(result["scores"]) == 4 and all(isinstance(s, int) for s in result["scores"])
    assert result["winners"] and set(result["winners"]) <= {0, 1, 2, 3}
    best = max(result["scores"])
    assert all(result["scores"][w] == best for w in result["winners"])


def test_play_same_seed_same_game(capsys):
    first, _ = _play_json(capsys)
    second, _ = _play_json(capsys)
    assert first == second


def test_play_seed_changes_the_game(capsys):
    games = {_play_json(capsys, "--seed", str(seed))[0] for seed in (1, 2, 3)}
    assert len(games) > 1


def test_play_variant(capsys):
    _, result = _play_json(capsys, "--variant", "simplified-scoring")
    assert result["variant"] == "simplified-scoring"


def test_play_log_writes_json_lines(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    rc = _run(["play", "der-mythos", "--players", "3", "--seed", "2", "--quiet", "--log", str(log)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Winner" in out
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) > 10
    events = [json.loads(line) for line in lines]
    assert all(isinstance(e, dict) for e in events)
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]  # no temporary file left behind


def test_play_log_in_missing_folder(tmp_path, capsys):
    target = tmp_path / "missing" / "game.jsonl"
    rc = _run(["play", "der-mythos", "--seed", "1", "--log", str(target)])
    captured = capsys.readouterr()
    assert rc == 1
    assert captured.out == ""
    err = captured.err.strip()
    assert "\n" not in err
    assert "does not exist" in err and "missing" in err
    assert list(tmp_path.iterdir()) == []


BAD_PLAY_ARGS = {
    "players-0": (["der-mythos", "--players", "0"], "at least 1"),
    "players-9": (["der-mythos", "--players", "9"], "2–5 players, not 9"),
    "unknown-ruleset": (["no-such-game"], "no ruleset 'no-such-game'"),
    "unknown-variant": (["der-mythos", "--variant", "nope"], "no variant 'nope'"),
    "unknown-agent": (["der-mythos", "--agents", "random,robot"], "unknown agent 'robot'"),
    "seed-not-a-number": (["der-mythos", "--seed", "x"], "whole number"),
    "budget-beyond-any-day": (["der-mythos", "--agents", "mcts:99999999999999999999"], "from 1 to 1,000,000"),
}


@pytest.mark.parametrize("argv, words", [
    (["simulate", "tutorial", "--games", "99999999999999999999999"], "at most 1,000,000 games"),
    (["compare", "tutorial", "--variant", "bigger-boat", "--games", "1000001"], "at most 1,000,000 games"),
    (["sweep", "tutorial", "--set", "constants.rounds=3..4", "--games", "2000000"], "at most 1,000,000 games"),
    (["tune", "tutorial", "--set", "constants.rounds=3..4", "--objective", "balance", "--out", "t.yaml",
      "--trials", "99999999999999"], "at most 10,000 trials")])
def test_a_run_no_day_or_memory_could_hold_is_refused_in_one_line(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # (tune's --out: nothing may be written)
    # they ran for ever (or until memory ran out) where every input must end in bounded time and memory
    assert _run(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [
    ["play", "tutorial", "--variant", "", "--quiet"],
    ["play", "tutorial", "--variant", "+", "--quiet"],
    ["play", "tutorial", "--variant", "bigger-boat+", "--quiet"],
    ["compare", "tutorial", "--variant", "+bigger-boat", "--games", "1"],
    ["test", "tutorial", "--variant", ""]])
def test_an_empty_variant_id_is_refused_in_one_line(argv, capsys):
    # an empty id was dropped: `--variant ''` played the plain game as if no variant had been asked for
    assert _run(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "expected a variant id" in err, err


@pytest.mark.parametrize("argv", [
    ["play", "tutorial", "--agents", "random,,first", "--quiet"],
    ["play", "tutorial", "--agents", "", "--quiet"],
    ["simulate", "tutorial", "--agents", "random,", "--games", "1"],
    ["serve", "tutorial", "--agents", ",human", "--no-browser"]])
def test_an_empty_agent_name_is_refused_in_one_line(argv, capsys):
    # an empty name was dropped, which moved every later agent to the seat before its own
    assert _run(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "got an empty name" in err, err


@pytest.mark.parametrize("argv", [
    ["play", "tutorial", "--players", "2", "--quiet", "--log", ""],
    ["play", "tutorial", "--players", "2", "--quiet", "--resume", " "],
    ["serve", "tutorial", "--replay", "", "--no-browser"],
    ["serve", "tutorial", "--db", "", "--no-browser"],
    ["simulate", "tutorial", "--games", "1", "--out", ""],
    ["simulate", "tutorial", "--games", "1", "--decisions", ""],
    ["compare", "tutorial", "--variant", "bigger-boat", "--games", "1", "--report", ""],
    ["sweep", "tutorial", "--set", "limits.max_steps=100", "--games", "1", "--out", ""],
    ["tune", "tutorial", "--set", "limits.max_steps=100..101", "--objective", "balance", "--out", "t.yaml",
     "--storage", ""],
    ["draw", "tutorial", "-o", ""],
    # read as '.': run inside a ruleset's folder, `validate ''` checked that folder and said ok
    ["validate", "tutorial", ""],
    ["test", ""]])
def test_an_empty_file_name_is_refused_in_one_line(argv, capsys):
    # an empty name was taken for the option not given: `--resume ''` began a new game, `--replay ''` served a
    # new table, `--db ''` kept the table in a throwaway database, `--out ''` ran and wrote nothing.
    # The parser alone: without the check, serve would start a table and wait for its players.
    from interpreter.cli.parser import build_parser
    with pytest.raises(SystemExit) as stop:
        build_parser("test").parse_args(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "expected a file name, got an empty one" in err, err


@pytest.mark.parametrize("argv", [
    ["simulate", "tutorial", "--games", "1", "--skill-depth", ""],
    ["simulate", "tutorial", "--games", "1", "--address", ""],
    ["test", "tutorial", "-k", ""],
    ["diff", ""]])   # it said "diff needs a second ruleset B or --variant V"
def test_an_empty_value_is_refused_in_one_line(argv, capsys):
    # `--skill-depth ''` ran without the skill-depth games; `-k ''` ran every scenario as if no filter were given
    assert _run(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "expected a value, got an empty one" in err, err


@pytest.mark.parametrize("bot", ["ismcts:0", "mcts:1000000", "ismcts:2000s"])
def test_a_skill_depth_budget_out_of_range_is_one_line_before_any_game(bot, capsys):
    # the budget (or its double) out of range was an internal error, after the main run's games were played
    assert _run(["simulate", "tutorial", "--players", "2", "--games", "1", "--skill-depth", bot]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("davit: --skill-depth: agent ") and "internal" not in err, err


def test_an_empty_folder_to_copy_into_is_refused_in_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # it said "'.' already exists", as if the user had named the current folder
    assert _run(["copy", "tutorial", ""]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "got an empty one" in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [
    ["play", "tutorial", "--players", "2", "--agents", "random,random,first", "--quiet"],
    ["simulate", "tutorial", "--players", "2", "--agents", "random,first,greedy", "--games", "1"]])
def test_more_agents_than_seats_is_refused_in_one_line(argv, capsys):
    # the agents past the last seat were left out without a word
    assert _run(argv) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "3 agents named for 2 players" in err, err


def test_make_agents_refuses_what_it_would_drop():
    from interpreter.agents import make_agents
    assert [a.name for a in make_agents("random,first", 3, 0)] == ["random", "first", "first"]
    for spec, players in (("random,,first", 3), ("random,first,first", 2), ("", 2)):
        with pytest.raises(ValueError):
            make_agents(spec, players, 0)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BAD_PLAY_ARGS))
def test_play_bad_arguments(name):
    """Exit non-zero with one line on stderr, nothing on stdout, no traceback (a real process)."""
    argv, words = BAD_PLAY_ARGS[name]
    proc = _davit("play", *argv)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    err = proc.stderr.strip()
    assert err and "\n" not in err, proc.stderr
    assert words in err


# -- human at the terminal ---------------------------------------------------------------------

INPUT_DEFAULT_BOUND = (
    "engine: HumanAgent.__init__(self, seed=0, input_fn=input, ...) binds the builtin `input` when "
    "interpreter.agents is imported, so a later monkeypatch of builtins.input (or any wrapper such "
    "as readline hooks installed afterwards) is ignored and the real stdin is read instead; use "
    "input_fn=None and look up builtins.input when asking")


def _feed(monkeypatch, answers):
    asked = []
    answers = iter(answers)

    def fake_input(prompt=""):
        asked.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None
    monkeypatch.setattr(builtins, "input", fake_input)
    # should the patch be bypassed, the real input() must hit an end of input, not wait for a terminal
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return asked


def test_human_play_with_patched_input(monkeypatch, capsys):
    asked = _feed(monkeypatch, ["x", "99"] + ["1"] * 60)
    rc = _run(["play", "der-mythos", "--players", "2", "--agents", "human,random", "--seed", "1"])
    out = capsys.readouterr().out
    assert rc == 0
    assert out.count("Please type a number from 1 to 9, or help.") == 2
    assert "Winner" in out
    assert asked and asked[0] == "[1-9, or help]> "


def test_human_end_of_input_with_patched_input(monkeypatch, capsys):
    asked = _feed(monkeypatch, [])  # the first question meets the end of input
    rc = _run(["play", "der-mythos", "--players", "2", "--agents", "human,random", "--seed", "1"])
    captured = capsys.readouterr()
    assert rc == 130
    assert "abandoned" in captured.err
    assert "red, play a passenger card:" in captured.out
    assert asked == ["[1-9, or help]> "]


def test_human_play_from_stdin(monkeypatch, capsys):
    """The same game typed on stdin (input() reads sys.stdin): bad answers are asked again."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("x\n99\n" + "1\n" * 60))
    rc = _run(["play", "der-mythos", "--players", "2", "--agents", "human,random", "--seed", "1"])
    out = capsys.readouterr().out
    assert rc == 0
    assert out.count("Please type a number from 1 to 9, or help.") == 2
    assert "red, play a passenger card:" in out and "[1-9, or help]> " in out
    assert "Winner" in out


def test_human_end_of_stdin_abandons(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    rc = _run(["play", "der-mythos", "--players", "2", "--agents", "human,random", "--seed", "1"])
    captured = capsys.readouterr()
    assert rc == 130
    assert "abandoned" in captured.err
    assert "Winner" not in captured.out


@pytest.mark.slow
def test_human_end_of_input_no_traceback():
    proc = _davit("play", "der-mythos", "--players", "2", "--agents", "human,random", "--seed", "1")
    assert proc.returncode == 130
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip() == "davit: game abandoned"


# -- simulate ----------------------------------------------------------------------------


def _simulate(capsys, workers):
    rc = _run(["simulate", "der-mythos", "--games", "200", "--players", "4", "--seed", "1", "--json",
               "--workers", str(workers)])
    out = capsys.readouterr().out
    assert rc == 0
    lines = out.splitlines()
    assert len(lines) == 1, out
    return json.loads(lines[0])


@pytest.mark.slow
def test_simulate_workers_do_not_change_the_numbers(capsys):
    one = _simulate(capsys, 1)
    two = _simulate(capsys, 2)
    assert {"games", "wins", "mean_scores", "games_per_second"} <= set(one)
    assert one["games"] == 200
    assert len(one["wins"]) == len(one["mean_scores"]) == 4
    assert sum(one["wins"]) >= 200  # every game has at least one winner
    assert one["games_per_second"] > 0
    timing = {"seconds", "games_per_second"}
    assert {k: v for k, v in one.items() if k not in timing} == {k: v for k, v in two.items() if k not in timing}


def test_simulate_text_table(capsys):
    rc = _run(["simulate", "der-mythos", "--games", "20", "--players", "3", "--seed", "4"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "20 games, 3 players" in out
    for name in ("red", "yellow", "green"):
        assert name in out


@pytest.mark.slow
def test_simulate_bad_players():
    proc = _davit("simulate", "der-mythos", "--games", "5", "--players", "1")
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip() == "davit: der-mythos is for 2–5 players, not 1"


# -- test -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_test_bundled_scenarios(capsys):
    rc = _run(["test", "rulesets"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "FAIL" not in out
    summary = out.rstrip().splitlines()[-1]
    passed, failed = (int(w) for w in summary.replace(",", "").split()[::2])
    assert failed == 0 and passed >= 10


def test_test_nothing_found(tmp_path, capsys):
    rc = _run(["test", str(tmp_path)])
    captured = capsys.readouterr()
    assert rc == 1
    assert "no scenario files found" in captured.err


# -- usage ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_no_command_is_a_usage_error():
    proc = _davit()
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "davit: error:" in proc.stderr


@pytest.mark.parametrize("argv,said", [
    (["sweep", "tutorial", "--set", "constants.rounds=3,3"], "--set constants.rounds gives the value 3 twice"),
    (["sweep", "tutorial", "--set", "constants.rounds=3,4", "--set", "constants.rounds=5"],
     "--set constants.rounds is given twice"),
    (["tune", "tutorial", "--set", "constants.rounds=3..5", "--set", "constants.rounds=6", "--objective", "balance",
      "--out", "{tmp}/t.yaml"], "--set constants.rounds is given twice"),
    (["tune", "tutorial", "--set", "constants.rounds=3..5", "--objective", "length=nan", "--out", "{tmp}/t.yaml"],
     "the target of --objective must be a finite number, not nan"),
    (["tune", "tutorial", "--set", "constants.rounds=3..5", "--objective", "balance", "--out", "{tmp}/t.yaml",
      "--storage", "{tmp}/games.csv"], "is not an SQLite file")])
def test_sweep_and_tune_refuse_a_setting_they_would_read_past_before_any_game(argv, said, tmp_path, capsys):
    # a second --set of one path replaced the first's values; 3,3 played one point twice; length=nan failed
    # every trial; a --storage that is not SQLite stopped tune with SQLAlchemy's internal error
    (tmp_path / "games.csv").write_text("a,b\n1,2\n")
    assert _run([a.format(tmp=tmp_path) for a in argv] + ["--games", "1", "--players", "2"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and said in err and "internal" not in err, err
    assert not (tmp_path / "t.yaml").exists()


def test_copying_a_ruleset_into_a_folder_inside_its_own_is_one_line_and_changes_nothing(tmp_path, capsys):
    # it copied itself into the copy until 'internal error: RecursionError', leaving a deep tree of partial
    # copies in the ruleset's own scenarios/ folder
    assert _run(["copy", "tutorial", str(tmp_path / "mine")]) == 0
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    capsys.readouterr()
    assert _run(["copy", str(tmp_path / "mine"), str(tmp_path / "mine" / "scenarios" / "again")]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "a folder inside its own" in err, err
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


@pytest.mark.parametrize("extra,said", [
    (["--replay", "{save}", "--seed", "7"], "--seed does not go with --replay"),
    (["--replay", "{save}", "--agents", "human,first"], "--agents does not go with --replay"),
    (["--replay", "{save}", "--watch"], "--watch does not go with --replay"),
    (["--replay", "{save}", "--db", "{tmp}/t.db"], "--db does not go with --replay"),
    (["--watch", "--db", "{tmp}/t.db"], "--db does not go with --watch"),
    (["--watch", "--new"], "--new does not go with --watch"),
    # without a RULESET it said "no ruleset 'None'"
    (["--replay", "{save}", "--no-ruleset"], "serve --replay needs the RULESET the game was played with")])
def test_serve_refuses_an_option_its_table_would_not_read(extra, said, tmp_path, capsys, monkeypatch):
    # each was dropped: the replay showed the saved game whatever --seed or --agents said, a --watch table
    # kept nothing in the --db it was given
    import interpreter.cli.serve as serve
    from interpreter import Game, load_ruleset
    from interpreter.play.saves import save_data

    def no_table(*_):
        raise AssertionError("a table was served")
    monkeypatch.setattr(serve, "_run", no_table)
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "s.json"
    game = Game(load_ruleset("tutorial"), 2, seed=1)
    save.write_text(json.dumps(save_data(game, ["random", "random"])))
    argv = ["serve", "tutorial", "--no-browser"] + [a.format(save=save, tmp=tmp_path) for a in extra]
    if "--no-ruleset" in argv:
        argv = [a for a in argv if a not in ("tutorial", "--no-ruleset")]
    assert _run(argv) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and said in err, err
    assert list(tmp_path.iterdir()) == [save]
