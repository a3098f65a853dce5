"""davit simulate and compare: intervals, verdicts, coverage, data out, precision goals, Ctrl-C.

Games are few and of the fast rulesets (tutorial, der-mythos); the slow ones
play one game each, for coverage only.
"""
import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from cli_runner import REPO
from cli_runner import run as _run

from interpreter.analysis import runner, stats
from interpreter.analysis import simulate as simulate_module
from interpreter.load.files import bundled_ids
from interpreter.machine import rng
from interpreter.rules.loading import load_ruleset

TIMING = {"seconds", "games_per_second"}


@pytest.fixture(autouse=True)
def at_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def _json(capsys, *argv, code=0):
    rc = _run(list(argv) + ["--json"])
    out = capsys.readouterr().out
    assert rc == code, out
    lines = out.splitlines()
    assert len(lines) == 1, out
    return json.loads(lines[0])


def _untimed(result):
    return {k: v for k, v in result.items() if k not in TIMING}


# -- simulate: intervals and the tie rate ---------------------------------------------


def test_simulate_json_has_every_interval(capsys):
    result = _json(capsys, "simulate", "tutorial", "--games", "40", "--players", "2", "--seed", "5")
    assert result["games"] == 40
    for value, (low, high) in zip(result["win_rate"], result["win_rate_ci"]):
        assert 0 <= low <= value <= high <= 1
    for value, (low, high) in zip(result["mean_scores"], result["mean_score_ci"]):
        assert low <= value <= high
    for key in ("tie_rate", "no_winner_rate", "capped_rate"):
        low, high = result[key + "_ci"]
        assert low <= result[key] <= high
    assert result["length_ci"][0] <= result["mean_length"] <= result["length_ci"][1]
    # a tied game gives a win to two or more seats, a sole win to one
    assert sum(result["wins"]) - sum(result["sole_wins"]) >= 2 * result["ties"]
    assert result["ties"] == round(result["tie_rate"] * 40)
    assert result["win_rate_sum"] == pytest.approx(sum(result["win_rate"]))
    assert result["win_rate_ci"][0] == list(stats.wilson(result["wins"][0], 40))


def test_simulate_counts_shared_wins_and_ties_from_the_records():
    result = simulate_module.simulate("tutorial", 40, 2, seed=5, keep_records=True)
    records = result["records"]
    assert [r["seed"] for r in records] == [rng.derive(5, i) for i in range(40)]
    ties = sum(1 for r in records if len(r["winners"]) > 1)
    assert result["ties"] == ties > 0   # the tutorial ends in ties often: the point of reporting them
    assert result["wins"] == [sum(1 for r in records if s in r["winners"]) for s in range(2)]
    assert result["win_rate_sum"] > 1.0


def test_simulate_table_shows_intervals_and_ties(capsys):
    rc = _run(["simulate", "tutorial", "--games", "30", "--players", "2", "--seed", "2"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "win rate [95% CI]" in out and "mean score [95% CI]" in out
    assert "ties: " in out and "a win for every tied player" in out
    assert "Wilson score interval" in out and "normal approximation" in out


# -- compare ------------------------------------------------------------------------------


@pytest.mark.slow   # a statistical comparison played out
def test_compare_finds_what_the_variant_changes(capsys):
    result = _json(capsys, "compare", "der-mythos", "--variant", "simplified-scoring", "--games", "200",
                   "--players", "4", "--seed", "1")
    assert [v["variant"] for v in result["variants"]] == [None, "simplified-scoring"]
    assert all(v["games"] == 200 for v in result["variants"])
    (comparison,) = result["comparisons"]
    figures = {row["figure"]: row for row in comparison["figures"]}
    assert set(figures) >= {"win_rate[0]", "tie_rate", "mean_score[0]", "length", "capped_rate"}
    assert "first_seat_win_rate" not in figures   # it was win_rate[0] again
    assert comparison["paired"] is True and comparison["correction"] == stats.METHODS["correction"]
    for row in figures.values():
        assert row["test"] in stats.METHODS.values()
        assert row["differs"] == (row["p_holm"] < 0.05) and row["p_holm"] >= row["p"]
        low, high = row["difference_ci"]
        assert low <= row["difference"] <= high
    base, simple = result["variants"]
    # the variant changes the scoring: mean scores move apart beyond doubt, and the tests must say so
    gap = abs(base["mean_scores"][0] - simple["mean_scores"][0])
    assert gap > 4 * (base["score_stdev"][0] + simple["score_stdev"][0]) / 200 ** 0.5
    assert figures["mean_score[0]"]["differs"] is True


def test_compare_table_names_tests_and_verdicts(capsys):
    rc = _run(["compare", "tutorial", "--variant", "bigger-boat", "--games", "30", "--players", "2"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "base vs bigger-boat" in out
    rows = [line for line in out.splitlines() if line.startswith("win rate ") and line.rstrip().endswith("McNemar")]
    assert len(rows) == 2
    for line in rows:
        assert "same (" in line or "DIFFERS (p" in line
    assert "McNemar's exact test" in out and "paired t-test" in out and "Holm" in out


@pytest.mark.slow
def test_compare_workers_do_not_change_the_numbers(capsys):
    argv = ["compare", "tutorial", "--variant", "bigger-boat", "--games", "120", "--players", "2", "--seed", "3",
            "--coverage"]
    one = _json(capsys, *argv, "--workers", "1")
    two = _json(capsys, *argv, "--workers", "2")
    assert _untimed(one) == _untimed(two)


def test_compare_needs_two_games(capsys):
    rc = _run(["compare", "tutorial", "--variant", "bigger-boat", "--no-base"])
    assert rc == 1
    assert "compare needs two or more games" in capsys.readouterr().err


# -- coverage -----------------------------------------------------------------------------


@pytest.mark.parametrize("rid", bundled_ids())
def test_coverage_lists_every_action_and_trigger(rid, capsys):
    games = 1 if rid in ("titanic", "collapsible-d", "titanic-board-game") else 2
    rs = load_ruleset(rid)
    players = max(rs.min_players, min(3, rs.max_players))
    result = simulate_module.simulate(rid, games, players, seed=1, coverage=True, keep_records=True)
    cov = result["coverage"]
    ids = [row["id"] for row in cov["actions"]]
    assert ids[:len(rs.actions)] == list(rs.actions)
    assert [t["id"] for t in cov["triggers"]] == [t.id for t in rs.triggers]
    # every decision of every game is one taken action
    assert sum(row["taken"] for row in cov["actions"]) == sum(r["length"] for r in result["records"])
    for row in cov["actions"]:
        assert row["offered"] >= row["taken"] >= row["games"] >= 0
    assert cov["never_taken"] == [row["id"] for row in cov["actions"] if row["kind"] == "action" and not row["taken"]]
    # the text form lists them all too
    rc = _run(["simulate", rid, "--games", "1", "--players", str(players), "--seed", "1", "--coverage"])
    out = capsys.readouterr().out
    assert rc == 0
    for action in rs.actions:
        assert f"\n{action} " in out
    for trigger in rs.triggers:
        assert trigger.id in out


@pytest.mark.parametrize("rid,players,cap", [("der-mythos", 3, None), ("tutorial", 2, None),
                                              ("titanic-board-game", 2, 15)])
def test_records_are_the_same_with_and_without_the_log(rid, players, cap):
    # without --coverage the games are played with the event log off: the length and the end reason
    # then come from the game itself, and must be what the log would have said
    rs = load_ruleset(rid)
    for index, seed in runner.game_seeds(3, 0, 4):
        logged = runner.play_game(rs, runner.RunSpec(rid, None, players, max_length=cap, coverage=True), index, seed)
        quiet = runner.play_game(rs, runner.RunSpec(rid, None, players, max_length=cap), index, seed)
        logged.pop("coverage")
        assert quiet == logged
        assert logged["length"] > 0 and logged["end_reason"] == (runner.CAP_REASON if cap else "end")


def test_coverage_counts_trigger_events_when_the_log_has_them():
    from interpreter.analysis.coverage import coverage_summary, game_coverage
    log = [{"e": "decide", "action": {"action": "walk"}}, {"e": "trigger", "id": "launch"},
           {"e": "trigger", "id": "launch"}, {"e": "decide", "action": {"action": "pass"}}]
    counts = game_coverage(log, {"walk": 3, "pass": 2})
    assert counts == {"offered": {"walk": 3, "pass": 2}, "taken": {"walk": 1, "pass": 1}, "triggers": {"launch": 2}}

    class Trigger:
        def __init__(self, tid):
            self.id = tid

    class Ruleset:
        actions = {"walk": None, "swim": None}
        triggers = [Trigger("launch"), Trigger("sink")]

    cov = coverage_summary(Ruleset, [{"coverage": counts}])
    assert [(t["id"], t["fired"], t["games"]) for t in cov["triggers"]] == [("launch", 2, 1), ("sink", 0, 0)]
    assert cov["never_fired"] == ["sink"] and cov["never_taken"] == ["swim"] and cov["never_offered"] == ["swim"]
    assert [row["id"] for row in cov["actions"]] == ["walk", "swim", "pass"]


# -- data out -----------------------------------------------------------------------------


def _rows_of(path):
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text().splitlines()]
    if path.suffix == ".csv":
        text = path.read_text()
        assert text.count("game,seed,") == 1  # one header line
        return list(csv.DictReader(text.splitlines()))
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet needs pyarrow (pip install '.[analysis]')")
    return pq.read_table(path).to_pylist()


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_out_writes_one_row_per_game(tmp_path, capsys, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (pip install '.[analysis]')")
    path = tmp_path / f"games{suffix}"
    result = _json(capsys, "compare", "tutorial", "--variant", "bigger-boat", "--games", "15", "--players", "2",
                   "--seed", "9", "--agents", "greedy,random", "--out", str(path))
    rows = _rows_of(path)
    assert len(rows) == 30
    assert [str(r["variant"]) for r in rows] == [""] * 15 + ["bigger-boat"] * 15
    assert [int(r["seed"]) for r in rows[:15]] == [rng.derive(9, i) for i in range(15)]
    assert [int(r["seed"]) for r in rows[15:]] == [int(r["seed"]) for r in rows[:15]]   # the same seeds
    assert {r["seat0_bot"] for r in rows} == {"greedy"} and {r["seat1_bot"] for r in rows} == {"random"}
    assert {r["seat0_name"] for r in rows} == {result["names"][0]}
    wins = [0, 0]
    for r in rows[:15]:
        winners = [int(w) for w in str(r["winners"]).split(";") if w != ""]
        for s in range(2):
            won = str(r[f"seat{s}_won"]) in ("True", "true")
            assert won == (s in winners)
            assert (int(r[f"seat{s}_rank"]) == 1) == won or not winners
            wins[s] += won
    assert wins == result["variants"][0]["wins"]
    assert sum(int(r["length"]) for r in rows[:15]) == round(result["variants"][0]["mean_length"] * 15)


def test_out_refuses_an_unknown_format(tmp_path, capsys):
    rc = _run(["simulate", "tutorial", "--games", "2", "--out", str(tmp_path / "games.xlsx")])
    assert rc == 1
    assert "name it .jsonl, .csv or .parquet" in capsys.readouterr().err


def test_missing_optional_libraries_give_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "plotly", None)
    rc = _run(["simulate", "tutorial", "--games", "2", "--out", str(tmp_path / "g.parquet")])
    err = capsys.readouterr().err
    assert rc == 1 and err.strip() == "davit: writing Parquet needs pyarrow: pip install 'davit[analysis]'"
    assert not list(tmp_path.iterdir())
    # the report draws its own charts: it needs no optional library
    rc = _run(["simulate", "tutorial", "--games", "2", "--report", str(tmp_path / "r.html")])
    assert rc == 0 and (tmp_path / "r.html").stat().st_size > 0


# -- precision goal, length cap -----------------------------------------------------------


def test_until_ci_stops_at_the_first_round_narrow_enough(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(simulate_module, "ROUND", 20)
    path = tmp_path / "games.jsonl"
    result = _json(capsys, "simulate", "tutorial", "--players", "2", "--seed", "4", "--until-ci", "0.3",
                   "--games", "400", "--out", str(path))
    n = result["games"]
    assert result["stopped_by"] == "precision" and n % 20 == 0 and n < 400
    assert result["widest_win_rate_ci"] <= 0.3
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == n
    earlier = rows[:n - 20]
    widths = [stats.wilson(sum(1 for r in earlier if r[f"seat{s}_won"]), len(earlier)) for s in range(2)]
    assert max(high - low for low, high in widths) > 0.3   # one round less was not enough


def test_until_ci_stops_at_the_cap(capsys):
    result = _json(capsys, "simulate", "tutorial", "--players", "2", "--until-ci", "0.01", "--games", "30")
    assert result["games"] == 30 and result["stopped_by"] == "games"


def test_max_length_cuts_games_off():
    result = simulate_module.simulate("tutorial", 30, 2, seed=1, max_length=8, keep_records=True)
    capped = [r for r in result["records"] if r["capped"]]
    assert capped and len(capped) < 30
    for r in capped:
        assert r["length"] == 8 and r["winners"] == [] and r["end_reason"] == runner.CAP_REASON
    for r in result["records"]:
        assert r["capped"] or r["end_reason"] == "end"
    assert result["capped"] == len(capped)
    assert result["no_winner_rate"] >= len(capped) / 30


# -- progress and Ctrl-C ------------------------------------------------------------------


def test_progress_shows_an_eta(capsys):
    simulate_module.simulate("tutorial", 10, 2, progress=True)
    assert "ETA" in capsys.readouterr().err


def test_interrupt_keeps_the_games_that_finished(monkeypatch):
    real = runner.play_chunk
    calls = []

    def play_then_stop(spec, games, ruleset=None):
        calls.append(len(games))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(spec, games, ruleset)

    monkeypatch.setattr(runner, "play_chunk", play_then_stop)
    monkeypatch.setattr(runner, "CHUNK", 10)
    monkeypatch.setattr(simulate_module, "CHUNK", 10)
    result = simulate_module.compare("tutorial", [None, "bigger-boat"], 100, 2, keep_records=True)
    # jobs alternate between the variants: chunk 0 of both finished, then the interrupt
    assert result["interrupted"] is True and result["stopped_by"] == "interrupted"
    assert result["games"] == 10
    assert [r["game"] for r in result["variants"][1]["records"]] == list(range(10))


def _read_until(fd, wanted, patience: float) -> str:
    """What the terminal ``fd`` shows until ``wanted(text)`` holds, or the process has gone."""
    import select
    seen = ""
    deadline = time.monotonic() + patience   # a bound so a broken run cannot hang the suite, not a speed check
    while time.monotonic() < deadline and not wanted(seen):
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:     # the other end closed: the process has ended
                break
            if not chunk:
                break
            seen += chunk.decode(errors="replace")
    return seen


def _games_shown(text: str) -> int:
    import re
    counts = re.findall(r"\b(\d+)/\d+ games", text)
    return int(counts[-1]) if counts else 0


def _sigint_by_default():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
def test_ctrl_c_during_simulate_with_workers_prints_a_partial_result_and_no_traceback():
    """Workers ignore SIGINT; a terminal's Ctrl-C ends simulate with a partial result, never a traceback.

    stderr is a terminal (a pty), so simulate shows its progress bar, and every
    step waits for the bar to count more games instead of sleeping a fixed
    time, however loaded the machine is. First the workers alone get SIGINT:
    they must live on and keep playing. Then the whole process group gets it,
    as from a terminal's Ctrl-C.
    """
    import fcntl
    import pty
    import re
    import struct
    import termios
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("DAVIT_DEBUG", None)
    main, child = pty.openpty()
    # a terminal of 0 columns (a new pty's size) would show a progress bar of no characters
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    # a command started in the background (`pytest &` in a script) inherits SIGINT ignored, and a process
    # that starts with SIGINT ignored rightly keeps ignoring it (as `nohup` relies on): the child gets Ctrl-C's
    # default back, as a terminal's foreground command has it
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "simulate", "tutorial", "--games", "1000000",
                             "--players", "2", "--workers", "2"], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=child, stdin=subprocess.DEVNULL, text=True, start_new_session=True,
                            preexec_fn=_sigint_by_default)
    os.close(child)
    err = ""
    try:
        err += _read_until(main, lambda text: _games_shown(text) > 0, patience=300)
        started = _games_shown(err)
        assert started > 0, f"no progress shown: {err!r}"
        workers = [int(p) for p in open(f"/proc/{proc.pid}/task/{proc.pid}/children").read().split()]
        assert len(workers) == 2
        for pid in workers:
            os.kill(pid, signal.SIGINT)
        err += _read_until(main, lambda text: _games_shown(text) > started + 100, patience=300)
        assert _games_shown(err) > started + 100, f"the games stopped after the workers' SIGINT: {err!r}"
        for pid in workers:
            assert os.path.exists(f"/proc/{pid}") and " Z " not in open(f"/proc/{pid}/stat").read(), pid
        os.killpg(proc.pid, signal.SIGINT)
        # the terminal is read until the process has gone: a full terminal would block its last writes
        err += _read_until(main, lambda text: proc.poll() is not None, patience=300)
        out, _ = proc.communicate(timeout=300)
        err += _read_until(main, lambda text: False, patience=3)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        os.close(main)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    said = [line for line in out.splitlines() if line.startswith("interrupted:")]
    assert len(said) == 1 and "partial result over the" in said[0], out
    games = int(re.search(r"over the (\d+) games", said[0]).group(1))
    assert 0 < games < 1_000_000


def test_a_row_replays_with_davit_play(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    assert _run(["simulate", "tutorial", "--players", "2", "--games", "6", "--seed", "8", "--agents", "greedy,random",
                 "--out", str(path)]) == 0
    capsys.readouterr()
    for row in [json.loads(line) for line in path.read_text().splitlines()][-2:]:
        played = _json(capsys, "play", "tutorial", "--players", "2", "--agents", "greedy,random",
                       "--seed", str(row["seed"]))
        assert played["scores"] == [row["seat0_score"], row["seat1_score"]]
        assert played["winners"] == [int(w) for w in row["winners"].split(";") if w]


@pytest.mark.parametrize("argv, message", [
    (["simulate", "tutorial", "--agents", "random,human"],
     "davit: simulate plays bots only; choose from random, first, greedy"),
    (["compare", "tutorial", "--variant", "bigger-boat", "--address", "somewhere:6379"],
     "davit: --address is for --backend ray"),
    (["compare", "tutorial", "--variant", "no-such-variant"], "has no variant 'no-such-variant'"),
    (["compare", "der-mythos", "--variant", "more-players"], "is for 6–10 players, not 4"),
    (["simulate", "tutorial", "--agents", "clever"], "unknown agent 'clever'"),
])
def test_bad_input_is_one_line_before_any_game(argv, message, capsys):
    rc = _run(argv + ["--games", "100000"])
    err = capsys.readouterr().err.strip()
    assert rc == 1
    assert message in err and len(err.splitlines()) == 1


def test_a_game_records_each_trigger_it_fires(tmp_path):
    from ruleset_builder import load

    from interpreter import Game
    from interpreter.analysis.coverage import game_coverage
    rs = load(tmp_path, {"variables": {"n": 0, "rang": 0},
                         "triggers": [{"id": "bell", "when": "n >= 2 and rang == 0", "do": "rang = 1"}],
                         "flow": [{"repeat": 3, "steps": [{"do": "n = n + 1"}]}]})
    game = Game(rs, 1, seed=1)
    assert game.is_over
    assert [e for e in game.log if e["e"] == "trigger"] == [{"e": "trigger", "id": "bell"}]
    assert game_coverage(game.log, {})["triggers"] == {"bell": 1}
