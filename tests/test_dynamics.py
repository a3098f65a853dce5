"""Game-dynamics measures: the trace changes no game, each measure is what docs/analysis.md says."""
import json

import pytest
from cli_runner import run as _run

from interpreter.agents import make_agents, play_out
from interpreter.analysis.dynamics import Trace, dynamics_summary, game_dynamics
from interpreter.analysis.runner import RunSpec, play_chunk
from interpreter.play.game import Game
from interpreter.rules.loading import load_ruleset


@pytest.mark.parametrize("ref, players, agents", [("der-mythos", 4, "random"), ("tutorial", 2, "greedy,random"),
                                                  ("tutorial", 2, "first")])
def test_tracing_plays_the_very_same_games(ref, players, agents):
    rs = load_ruleset(ref)
    records = play_chunk(RunSpec(ref, None, players, agents), [(i, 40 + i) for i in range(6)])
    for record in records:
        game = Game(rs, players, seed=record["seed"], record=False)
        play_out(game, make_agents(agents, players, record["seed"]))
        assert record["scores"] == [game.scores[s] for s in range(players)]
        assert record["winners"] == list(game.winners) and record["length"] == game.decisions


class _FakeGame:
    def __init__(self):
        self.scores = {0: 0, 1: 0}


def _trace(steps, final):
    game = _FakeGame()
    trace = Trace(game)
    for options, scores in steps:
        game.scores = dict(enumerate(scores))
        trace.note(options)
    game.scores = dict(enumerate(final))
    return trace


def test_lead_changes_decisiveness_and_drama_by_hand():
    # scores before each of 4 decisions, then the end: 1 leads, 0 catches up (a tie), then 0 leads to the end
    trace = _trace([(3, (0, 0)), (1, (0, 2)), (2, (2, 2)), (4, (5, 2))], (6, 2))
    d = game_dynamics(trace, [0])
    assert d["branching"] == 2.5 and d["decision_moves"] == 0.75
    assert d["lead_changes"] == 1                       # 1 → 0; the tie between keeps no leader
    assert d["decisiveness"] == pytest.approx(1 - 3 / 4)  # the winner led from the 4th of 5 positions on
    assert d["drama"] == 2                              # behind by 2 once
    # no sole winner: no decisiveness, no drama
    assert game_dynamics(trace, [0, 1])["decisiveness"] is None


def test_summary_gives_every_measure_with_an_interval():
    records = play_chunk(RunSpec("der-mythos", None, 4), [(i, i) for i in range(60)])
    d = dynamics_summary(records, 4, rivals=True)
    assert set(d) == {"duration", "decision_moves", "branching_factor", "drawishness", "balance", "seat_advantage",
                      "lead_changes", "decisiveness", "drama"}
    for key, m in d.items():
        for one in (m if isinstance(m, list) else [m]):
            assert one["ci"][0] <= one["mean"] + 1e-12 and one["mean"] <= one["ci"][1] + 1e-12, key
    assert d["branching_factor"]["mean"] == 5.0          # 9 rounds of 9, 8, ..., 1 cards: 45 / 9
    assert d["duration"]["mean"] == 36 and 0 < d["balance"]["mean"] <= 1
    assert abs(sum(a["mean"] for a in d["seat_advantage"])) < 1e-9
    assert dynamics_summary(records, 4, rivals=True) == d   # the bootstrap has its own fixed seed


def test_simulate_json_has_dynamics(capsys):
    rc = _run(["simulate", "der-mythos", "--games", "40", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["dynamics"]["lead_changes"]["games"] == 40
    rc = _run(["simulate", "sos-titanic", "--games", "5", "--json"])   # co-operative: no seat measures
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and "balance" not in out["dynamics"] and "branching_factor" in out["dynamics"]


def test_decisions_file_has_one_row_per_decision(tmp_path, capsys):
    path = tmp_path / "d.jsonl"
    rc = _run(["simulate", "tutorial", "--players", "2", "--games", "6", "--agents", "greedy,random",
               "--decisions", str(path), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert rc == 0
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == round(result["mean_length"] * 6)
    assert {r["seat"] for r in rows} == {0, 1} and all(r["options"] >= 1 for r in rows)
    first = [r for r in rows if r["game"] == 0]
    assert [r["decision"] for r in first] == list(range(len(first)))
    assert first[0]["seat0_score"] == first[0]["seat1_score"] == 0


@pytest.mark.slow
def test_skill_depth_doubles_the_budget_and_moves_the_strong_seat(capsys):
    from interpreter.analysis.skill import doubled
    from interpreter.errors import DavitError
    assert doubled("ismcts:50") == "ismcts:100" and doubled("mcts:0.5s") == "mcts:1s"
    with pytest.raises(DavitError, match="needs a search bot with its budget"):
        doubled("greedy")
    rc = _run(["simulate", "tutorial", "--players", "2", "--games", "20", "--skill-depth", "mcts:4", "--json"])
    out = json.loads(capsys.readouterr().out)
    skill = out["dynamics"]["skill_depth"]
    assert rc == 0 and skill["strong"] == "mcts:8" and skill["weak"] == "mcts:4" and skill["games"] == 20
    assert skill["ci"][0] <= skill["mean"] <= skill["ci"][1]
    assert out["games"] == 20   # the run's own figures stay those of its own bots
    rc = _run(["simulate", "tutorial", "--players", "2", "--games", "2", "--skill-depth", "random"])
    assert rc == 1 and "--skill-depth needs a search bot" in capsys.readouterr().err
