"""An evaluation that raises is reported, not only replaced by the scores.

Where ``heuristics.evaluate`` raises, the search judges that position by the
scores (an evaluation need not apply everywhere). One that raises everywhere
would weaken the bots without a word, so each bot counts the positions it
judged and those that raised, and ``davit play``, ``simulate``, ``compare``
and ``sweep`` say so in one line with the first error and its place.
"""
import yaml
from cli_runner import feed, run
from ruleset_builder import load as build
from ruleset_builder import write_text
from test_search_bots import BOXES

from interpreter import Game
from interpreter.agents import make_agents, play_out
from interpreter.agents.ismcts import Evaluations, _values, failed_evaluations, failed_evaluations_text
from interpreter.cli.analysis_text import failed_evaluation_lines

# raises at every position: nobody's moves are ever more than their score's divisor allows
ALWAYS = "p.score / (p.moves - p.moves)"
# raises only before the seat's first move (a position it does not apply to)
SOMETIMES = "p.score / p.moves"


def _play(rs, agents="ismcts:12,ismcts:12", seed=3):
    bots = make_agents(agents, 2, seed)
    play_out(Game(rs, 2, seed=seed, record=False), bots)
    return bots


def test_each_bot_counts_the_positions_its_evaluation_raised_at(tmp_path):
    rs = build(tmp_path, dict(BOXES, heuristics={"evaluate": ALWAYS}), max_players=2)
    bots = _play(rs)
    tallies = [b.evaluations for b in bots]
    assert tallies[0].asked > 0
    assert all(t.failed == t.asked for t in tallies)
    failed = failed_evaluations(bots)
    assert failed["failed"] == failed["asked"] == sum(t.asked for t in tallies)
    # the first error, at the evaluate line of the ruleset
    line = rs.evaluate_loc.line
    assert f"ruleset.yaml:{line}:" in failed["first"]


def test_an_evaluation_that_raises_somewhere_is_counted_there_only(tmp_path):
    rs = build(tmp_path, dict(BOXES, heuristics={"evaluate": SOMETIMES}), max_players=2)
    tally = Evaluations()
    game = Game(rs, 2, seed=0)
    assert _values(game, True, tally) == [0.0, 0.0]   # nobody has moved: the scores stand in
    game.state.pvars[0]["moves"] = game.state.pvars[1]["moves"] = 1
    game.state.pvars[0]["score"] = 6
    assert _values(game, True, tally) == [6.0, 0.0]
    assert (tally.asked, tally.failed) == (2, 1) and "division by zero" in tally.first


def test_an_evaluation_that_never_raises_reports_nothing(tmp_path):
    rs = build(tmp_path, dict(BOXES, heuristics={"evaluate": "p.score * 2 + p.moves"}), max_players=2)
    bots = _play(rs)
    assert failed_evaluations(bots) is None
    # (the second seat has one box left to open: it never searches)
    assert bots[0].evaluations.asked > 0 and all(b.evaluations.failed == 0 for b in bots)
    # bots without a search have nothing to report
    assert failed_evaluations(_play(rs, "random,first")) is None


def test_the_warning_says_how_often_and_where(tmp_path):
    text = failed_evaluations_text({"asked": 40, "failed": 40, "first": "x.yaml:3:4: division by zero"}, 2)
    assert text.startswith("warning: heuristics evaluate raised at 40 of the 40 positions")
    assert "in 2 games" in text and "x.yaml:3:4: division by zero" in text


def _folder(tmp_path, evaluate):
    data = {"id": "unit", "players": {"min": 1, "max": 2}, **BOXES, "heuristics": {"evaluate": evaluate}}
    return write_text(tmp_path, yaml.safe_dump(data, sort_keys=False))


def test_simulate_and_compare_warn_when_the_evaluation_raised(tmp_path, capsys):
    folder = _folder(tmp_path, ALWAYS)
    assert run(["simulate", str(folder), "--players", "2", "--games", "3", "--agents", "ismcts:8,random"]) == 0
    out = capsys.readouterr().out
    assert "warning: heuristics evaluate raised at" in out and "in 3 games" in out
    assert "ruleset.yaml:" in out
    good = _folder(tmp_path, "p.score")
    assert run(["simulate", str(good), "--players", "2", "--games", "3", "--agents", "ismcts:8,random"]) == 0
    assert "heuristics evaluate raised" not in capsys.readouterr().out
    # random bots judge nothing: nothing to say
    assert run(["simulate", str(folder), "--players", "2", "--games", "3"]) == 0
    assert "heuristics evaluate raised" not in capsys.readouterr().out


def test_play_warns_on_stderr_and_hides_the_message_from_a_person(tmp_path, capsys):
    folder = _folder(tmp_path, ALWAYS)
    assert run(["play", str(folder), "--players", "2", "--seed", "1", "--agents", "ismcts:8,ismcts:8",
                "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "davit: warning: heuristics evaluate raised at" in err and "ruleset.yaml:" in err


def test_with_a_person_at_the_table_the_warning_gives_the_place_not_the_message(tmp_path, capsys, monkeypatch):
    # the error is of a bot's sample of the position, dealt from what that bot's seat knows
    folder = _folder(tmp_path, ALWAYS)
    feed(monkeypatch, ["1"] * 5)
    assert run(["play", str(folder), "--players", "2", "--seed", "1", "--agents", "ismcts:8,human"]) == 0
    err = capsys.readouterr().err
    assert "davit: warning: heuristics evaluate raised at" in err
    assert "play the bots alone to see its message" in err and "division by zero" not in err


def test_compare_and_sweep_name_the_run_whose_bots_judged_by_the_scores():
    failed = {"asked": 9, "failed": 3, "games": 2, "first": "r.yaml:1:2: division by zero"}
    lines = failed_evaluation_lines([{}, {"failed_evaluations": failed}], ["base", "bigger-boats"])
    assert lines == [failed_evaluations_text(failed, 2).replace("warning: ", "warning: bigger-boats: ", 1)]
    assert failed_evaluation_lines([{}]) == []
