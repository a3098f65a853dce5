"""Building blocks the richer rulesets stand on: card effects, end_turn(), team scores."""
import textwrap

from interpreter import Game, load_ruleset
from interpreter.agents import GreedyAgent, RandomAgent, play_out


def _ruleset(tmp_path, text):
    folder = tmp_path / "rs"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(textwrap.dedent(text))
    return load_ruleset(folder)


def test_a_card_effect_runs_and_may_ask_the_player(tmp_path):
    rs = _ruleset(tmp_path, """
        id: effects
        players: {min: 2, max: 2}
        zones:
          - {id: deck, visibility: nobody}
          - {id: discard}
        things:
          - id: gift
            start: deck
            effect: |
              score(player, 3)
          - id: dilemma
            start: deck
            effect: |
              pick = choose(player, [1, 5], prompt="how many?")
              score(player, pick)
        flow:
          - do: |
              for c in list(deck):
                move(c, discard)
                resolve(c, player(0))
              resolve(thing("gift"), player(1))
        """)
    game = Game(rs, 2, seed=1)
    assert game.state.pending["kind"] == "choice"
    assert [a.arg("option") for a in game.legal_actions(0)] == [1, 5]
    game.apply(game.legal_actions(0)[1])
    assert game.is_over
    assert game.scores == {0: 3 + 5, 1: 3}


def test_end_turn_skips_the_rest_of_a_turn(tmp_path):
    rs = _ruleset(tmp_path, """
        id: endturn
        players: {min: 1, max: 1}
        player:
          vars:
            steps: 0
        actions:
          - id: step
            do: player.steps += 1
          - id: jump
            do: |
              player.steps += 10
              end_turn()
        flow:
          - repeat: 2
            steps:
              - turn: {player: player(0), actions: [step, jump], pass: false}
        end:
          when: player(0).steps > 30
        """)
    game = Game(rs, 1)
    step = [a for a in game.legal_actions(0) if a.name == "step"][0]
    game.apply(step)
    game.apply(step)
    jump = [a for a in game.legal_actions(0) if a.name == "jump"][0]
    game.apply(jump)
    # the first turn ended with the jump: the second turn starts, same player
    assert game.state.pvars[0]["steps"] == 12
    assert not game.is_over
    assert game.deciding_players == [0]


def test_team_score_is_everyones_and_greedy_beats_random(tmp_path):
    rs = _ruleset(tmp_path, """
        id: team
        players: {min: 1, max: 3}
        variables:
          saved: 0
        actions:
          - id: save
            choose: {n: "[0, 1, 2, 3]"}
            do: saved += n
        flow:
          - repeat: 5
            steps:
              - each_player: current
                steps:
                  - turn: {player: current, actions: [save], pass: false, until: "false"}
        scoring:
          team: saved
          win_if: saved >= 20
          benchmark: {value: 19, label: "a reference crew"}
        """)
    # each turn is one action (until false would loop forever: a turn ends when... one decision per turn)
    totals = {}
    for name, agent in (("random", RandomAgent), ("greedy", GreedyAgent)):
        scores = []
        for seed in range(20):
            game = Game(rs, 2, seed=seed)
            play_out(game, [agent(seed), agent(seed + 100)], max_decisions=10)
            scores.append(game.scores[0])
            assert game.scores[0] == game.scores[1]
        totals[name] = sum(scores) / len(scores)
    assert totals["greedy"] > totals["random"]


def test_a_lambda_may_be_a_named_argument(tmp_path):
    rs = _ruleset(tmp_path, """
        id: kwlambda
        players: {min: 1, max: 1}
        variables:
          ranked: []
        flow:
          - do: |
              ranked = sorted([3, 1, 2], key=x -> -x)
        """)
    game = Game(rs, 1)
    assert game.state.vars["ranked"] == [3, 2, 1]


def test_conditions_each_with_a_reason_and_labelled_choices(tmp_path):
    rs = _ruleset(tmp_path, """
        id: reasons
        players: {min: 1, max: 1}
        player:
          vars:
            coins: 1
            tired: false
        actions:
          - id: buy
            choose: {price: "[1, 2]"}
            if:
              - {when: not player.tired, reason: "too tired to shop"}
              - {when: player.coins >= price, reason: "not enough coins"}
            do: |
              player.coins -= price
              size = choose(player, [1, 2, 3], prompt="how big?", label=n -> "size " + text(n))
              score(player, size)
        flow:
          - turn: {player: player(0), actions: [buy]}
        """)
    from interpreter import Action
    game = Game(rs, 1)
    refused = game.apply(Action(0, "buy", (("price", 2),)))
    assert not refused and refused.reason == "not enough coins"
    game.state.pvars[0]["tired"] = True
    assert game.apply(Action(0, "buy", (("price", 1),))).reason == "too tired to shop"
    game.state.pvars[0]["tired"] = False
    assert game.apply(Action(0, "buy", (("price", 1),)))
    assert [a.label for a in game.legal_actions(0)] == ["size 1", "size 2", "size 3"]


def test_a_scenario_set_step_lets_triggers_see_the_change(tmp_path):
    rs = _ruleset(tmp_path, """
        id: resettle
        players: {min: 1, max: 1}
        variables:
          alarm: false
          rang: 0
        triggers:
          - id: bell
            when: alarm
            do: |
              rang += 1
              alarm = false
        actions:
          - id: wait
            do: pass
        flow:
          - repeat: 3
            steps:
              - turn: {player: player(0), actions: [wait], pass: false}
        """)
    game = Game(rs, 1)
    game.state.vars["alarm"] = True
    game.resettle()
    assert game.state.vars["rang"] == 1 and game.deciding_players == [0]
