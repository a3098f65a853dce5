"""What a search bot gets past on its own is reported, not only got past.

Where ``heuristics.evaluate`` raises, the search judges that position by the
scores (an evaluation need not apply everywhere); where the rules raise in a
sampled deal of what the bot cannot see, that sample is judged as it stands.
Either could hide a mistake of the ruleset's, so each bot keeps a tally
(``agents/search_tally.py``) and ``davit play``, ``simulate``, ``compare``
and ``sweep`` say so in a warning line with the first error at its place.
"""
import pytest
import yaml
from cli_runner import feed, run
from ruleset_builder import load as build
from ruleset_builder import write_text
from test_search_bots import BOXES

from interpreter import Game
from interpreter.agents import make_agents, play_out
from interpreter.agents.ismcts import _values
from interpreter.agents.search_tally import SearchTally, merged, search_troubles, trouble_lines
from interpreter.cli.analysis_text import search_trouble_lines
from interpreter.errors import DavitError

# raises at every position: the divisor is always zero
ALWAYS = "p.score / (p.moves - p.moves)"
# raises only before the seat's first move (a position it does not apply to)
SOMETIMES = "p.score / p.moves"


def _play(rs, agents="ismcts:12,ismcts:12", seed=3):
    bots = make_agents(agents, 2, seed)
    play_out(Game(rs, 2, seed=seed, record=False), bots)
    return bots


def _folder(tmp_path, spec):
    data = {"id": "unit", "players": {"min": 1, "max": 2}, **spec}
    return write_text(tmp_path, yaml.safe_dump(data, sort_keys=False))


def with_evaluate(evaluate):
    return dict(BOXES, heuristics={"evaluate": evaluate})


# the real deal puts the gold in the left box, always; a bot cannot see that, and some of its samples deal the
# lead there: opening the left box then meets a rule that fails (a mistake the real game never shows)
FRAGILE = dict(BOXES, actions=[{"id": "open", "choose": {"box": "[left, right]"}, "if": "box.count > 0",
                                "do": "c = top(box)\nif box == left and c.value == 0:\n  x = 1 / c.value\n"
                                      "move(c, opened)\nscore(player, c.value)\nplayer.moves += 1"}])


# -- the tally -----------------------------------------------------------------------------------

def test_each_bot_counts_the_positions_its_evaluation_raised_at(tmp_path):
    rs = build(tmp_path, with_evaluate(ALWAYS), max_players=2)
    bots = _play(rs)
    tallies = [b.tally for b in bots]
    assert tallies[0].judged > 0
    assert all(t.evaluate_failed == t.judged for t in tallies)
    troubles = search_troubles(bots)
    assert troubles["evaluate_failed"] == troubles["judged"] == sum(t.judged for t in tallies)
    assert troubles["rules_failed"] == 0 and troubles["rules_error"] is None
    # the first error, at the evaluate line of the ruleset
    assert f"ruleset.yaml:{rs.evaluate_loc.line}:" in troubles["evaluate_error"]


def test_an_evaluation_that_raises_somewhere_is_counted_there_only(tmp_path):
    rs = build(tmp_path, with_evaluate(SOMETIMES), max_players=2)
    tally = SearchTally()
    game = Game(rs, 2, seed=0)
    assert _values(game, True, tally) == [0.0, 0.0]   # nobody has moved: the scores stand in
    game.state.pvars[0]["moves"] = game.state.pvars[1]["moves"] = 1
    game.state.pvars[0]["score"] = 6
    assert _values(game, True, tally) == [6.0, 0.0]
    assert (tally.judged, tally.evaluate_failed) == (2, 1) and "division by zero" in tally.evaluate_error


def test_rules_that_raise_in_a_sampled_deal_are_counted(tmp_path):
    rs = build(tmp_path, FRAGILE, max_players=2)
    for seed in range(4):   # the real games never raise
        play_out(Game(rs, 2, seed=seed), make_agents("random", 2, seed))
    bots = _play(rs, "ismcts:40,ismcts:40")
    troubles = search_troubles(bots)
    assert troubles is not None and 0 < troubles["rules_failed"] < troubles["played"]
    assert troubles["played"] == sum(b.tally.played for b in bots) >= 40
    assert "division by zero" in troubles["rules_error"] and "ruleset.yaml:" in troubles["rules_error"]
    assert troubles["evaluate_failed"] == 0


def test_bots_that_meet_no_trouble_report_nothing(tmp_path):
    rs = build(tmp_path, with_evaluate("p.score * 2 + p.moves"), max_players=2)
    bots = _play(rs)
    assert search_troubles(bots) is None
    # (the second seat has one box left to open: it never searches)
    assert bots[0].tally.judged > 0 and bots[0].tally.played > 0
    # bots without a search have nothing to report
    assert search_troubles(_play(rs, "random,first")) is None


# -- the words ------------------------------------------------------------------------------------

TROUBLES = {"judged": 40, "evaluate_failed": 40, "evaluate_error": "x.yaml:3:4: division by zero",
            "played": 50, "rules_failed": 2, "rules_error": "x.yaml:9:1: no zone 'deck'"}


def test_the_warnings_say_how_often_and_where():
    evaluate, rules = trouble_lines(TROUBLES, 2)
    assert evaluate.startswith("warning: heuristics evaluate raised at 40 of the 40 positions")
    assert "in 2 games" in evaluate and "x.yaml:3:4: division by zero" in evaluate
    assert rules.startswith("warning: the rules raised in 2 of the 50 positions") and "no zone 'deck'" in rules
    assert trouble_lines({**TROUBLES, "evaluate_failed": 0}) == [rules.replace(" in 2 games", "")]
    assert trouble_lines(None) == []
    hidden = trouble_lines(TROUBLES, hidden="(not said)")
    assert all("(not said)" in line and "x.yaml" not in line for line in hidden)


def test_compare_and_sweep_name_the_run_whose_bots_met_trouble():
    troubles = {**TROUBLES, "rules_failed": 0, "games": 2}
    lines = search_trouble_lines([{}, {"search_troubles": troubles}], ["base", "bigger-boats"])
    assert lines == [trouble_lines(troubles, 2)[0].replace("warning: ", "warning: bigger-boats: ", 1)]
    assert search_trouble_lines([{}]) == []


def test_simulate_warns_when_the_evaluation_or_the_rules_raised(tmp_path, capsys):
    bots = ["--players", "2", "--games", "3", "--agents", "ismcts:8,random"]
    assert run(["simulate", str(_folder(tmp_path, with_evaluate(ALWAYS))), *bots]) == 0
    out = capsys.readouterr().out
    assert "warning: heuristics evaluate raised at" in out and "in 3 games" in out and "ruleset.yaml:" in out
    assert run(["simulate", str(_folder(tmp_path, FRAGILE)), "--players", "2", "--games", "3",
                "--agents", "ismcts:30,ismcts:30"]) == 0
    assert "warning: the rules raised in" in capsys.readouterr().out
    good = _folder(tmp_path, with_evaluate("p.score"))
    assert run(["simulate", str(good), *bots]) == 0
    assert "warning" not in capsys.readouterr().out
    # random bots search nothing: nothing to say
    assert run(["simulate", str(_folder(tmp_path, with_evaluate(ALWAYS))), "--players", "2", "--games", "3"]) == 0
    assert "raised" not in capsys.readouterr().out


def test_play_warns_on_stderr(tmp_path, capsys):
    folder = _folder(tmp_path, with_evaluate(ALWAYS))
    assert run(["play", str(folder), "--players", "2", "--seed", "1", "--agents", "ismcts:8,ismcts:8",
                "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "davit: warning: heuristics evaluate raised at" in err and "ruleset.yaml:" in err


def test_with_a_person_at_the_table_the_warning_keeps_the_errors_words(tmp_path, capsys, monkeypatch):
    # an error of a bot's sample is of a deal made from what that bot's seat knows
    folder = _folder(tmp_path, with_evaluate(ALWAYS))
    feed(monkeypatch, ["1"] * 5)
    assert run(["play", str(folder), "--players", "2", "--seed", "1", "--agents", "ismcts:8,human"]) == 0
    err = capsys.readouterr().err
    assert "davit: warning: heuristics evaluate raised at" in err
    assert "play the bots alone to see it" in err and "division by zero" not in err


def test_tune_tells_which_trials_bots_met_trouble(tmp_path, capsys, monkeypatch):
    pytest.importorskip("optuna", reason="tune needs Optuna (pip install '.[analysis]')")
    monkeypatch.chdir(tmp_path)
    folder = _folder(tmp_path, with_evaluate(ALWAYS))
    assert run(["tune", str(folder), "--set", "things.gold.attrs.value=5..10", "--objective", "balance",
                "--trials", "2", "--games", "2", "--players", "2", "--agents", "ismcts:8,random",
                "--out", "v.yaml"]) == 0
    out = capsys.readouterr().out
    assert "warning: trial 0: heuristics evaluate raised at" in out and "warning: trial 1:" in out


@pytest.mark.parametrize("evaluate, prior", [('"x"', "1"), ("players[0]", "1"), ("p.score", '"x"'),
                                             ("p.score", "[1, 2]")])
def test_an_evaluation_or_prior_that_is_no_number_is_refused_at_its_line(tmp_path, evaluate, prior):
    # text passed validate, and the bots judged by the scores (or dropped the prior) at every position
    spec = dict(BOXES, heuristics={"evaluate": evaluate, "priors": {"open": prior}})
    with pytest.raises(DavitError, match="the search bots read it as a number") as info:
        build(tmp_path, spec, max_players=2)
    line = info.value.errors[0].location.line if hasattr(info.value, "errors") else info.value.location.line
    text = (next((tmp_path).glob("rs*/ruleset.yaml"))).read_text().splitlines()[line - 1]
    assert ("evaluate" in text) == (prior == "1") and ("open" in text) == (prior != "1")


def test_an_evaluation_that_gives_numbers_or_a_list_of_them_is_taken(tmp_path):
    for evaluate in ("p.score", "p.score > 2", "[q.score for q in all_players]", "[1, 2]"):
        assert build(tmp_path, with_evaluate(evaluate), max_players=2).evaluate is not None


def test_a_prior_that_raises_is_counted_and_weighs_one(tmp_path):
    spec = dict(BOXES, heuristics={"evaluate": "p.score", "priors": {"open": "1 / (player.moves - player.moves)"}})
    rs = build(tmp_path, spec, max_players=2)
    troubles = search_troubles(_play(rs))
    assert troubles is not None and troubles["prior_failed"] == troubles["weighed"] > 0
    assert f"ruleset.yaml:{rs.prior_locs['open'].line}:" in troubles["prior_error"]
    assert troubles["evaluate_failed"] == troubles["rules_failed"] == 0
    (line,) = trouble_lines(troubles)
    assert line.startswith("warning: a heuristics prior raised for") and "weighed 1" in line
    # a study kept from before the prior counts were made still adds up
    old = {k: v for k, v in troubles.items() if not k.startswith(("prior", "weighed"))}
    assert merged([old, troubles])["prior_failed"] == troubles["prior_failed"]


def test_a_mistake_in_a_prior_is_said_at_its_line_in_the_file(tmp_path):
    # the prior's text was compiled as a copy without its place: its errors named '<dsl>:1:1'
    spec = dict(BOXES, heuristics={"evaluate": "p.score", "priors": {"open": "box.nope + 1"}})
    with pytest.raises(DavitError) as info:
        build(tmp_path, spec, max_players=2)
    errors = getattr(info.value, "errors", [info.value])
    assert errors and all(e.location.file.endswith("ruleset.yaml") and e.location.line > 1 for e in errors)
    assert "'nope'" in str(info.value)
