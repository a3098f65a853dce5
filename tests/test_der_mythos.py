"""Der Mythos specifics: hidden simultaneous commitments and the bots' information."""
import json

from interpreter import Game, load_ruleset
from interpreter.agents import RandomAgent


def test_committed_card_is_hidden_until_the_reveal():
    rs = load_ruleset("der-mythos")
    game = Game(rs, 3, seed=4)
    action = [a for a in game.legal_actions(0) if a.arg("card").id == "passenger-7@0"][0]
    assert game.apply(action)
    for seat in (1, 2):
        text = json.dumps(game.view(seat))
        assert "passenger-7@0" not in text, "another player must not see the committed card"
    spectator = json.dumps(game.view(None))
    assert "passenger-7@0" not in spectator
    assert "passenger-7@0" in json.dumps(game.view(0)), "the player sees their own card"
    # after everyone has played, the reveal makes it public
    for seat in (1, 2):
        game.apply(game.legal_actions(seat)[0])
    reveals = [e for e in game.view(1)["log"] if e["e"] == "reveal"]
    assert reveals and "passenger-7@0" in json.dumps(reveals[-1])


def test_bots_get_only_their_own_legal_actions_and_view():
    rs = load_ruleset("der-mythos")
    game = Game(rs, 4, seed=2)
    seen = []

    class Spy(RandomAgent):
        def choose(self, g, seat, actions):
            seen.append((seat, {a.player for a in actions}))
            return super().choose(g, seat, actions)

    from interpreter.agents import play_out
    play_out(game, [Spy(i) for i in range(4)])
    assert seen and all(players == {seat} for seat, players in seen)


def test_simultaneous_round_refuses_a_second_commit():
    rs = load_ruleset("der-mythos")
    game = Game(rs, 2, seed=1)
    first = game.legal_actions(0)[0]
    assert game.apply(first)
    again = game.apply(first)
    assert not again and "not" in again.reason
    assert game.deciding_players == [1]


def test_ties_share_the_win():
    rs = load_ruleset("der-mythos")
    game = Game(rs, 2, seed=3)
    # both players play the same values every round: same scores, both win
    while not game.is_over:
        for seat in (0, 1):
            hand = sorted(game.legal_actions(seat), key=lambda a: a.arg("card").attrs["value"])
            game.apply(hand[0])
    assert game.scores[0] == game.scores[1]
    assert game.winners == [0, 1]


def test_funnel_and_capsize_penalties_are_narrated_as_such():
    """Issue 14, point 3: a broken funnel's penalty was narrated as '(lifeboat II)'."""
    from interpreter.agents import make_agents, play_out
    reasons = set()
    for seed in range(40):
        game = Game(load_ruleset("der-mythos"), 4, seed=seed)
        play_out(game, make_agents("random", 4, seed))
        reasons |= {e["reason"] for e in game.log if e["e"] == "score" and e.get("reason")}
    assert "the broken funnel" in reasons
    assert any(r.endswith(" capsized") for r in reasons)
    assert any(r.startswith("lifeboat ") and not r.endswith("capsized") for r in reasons)


def test_round_one_has_no_lifeboat_heading():
    """Round 1 has no lifeboat: no 'turn up the lifeboat' step (nor heading) in it; every later round has one."""
    from interpreter.agents import make_agents, play_out
    game = Game(load_ruleset("der-mythos"), 3, seed=1)
    play_out(game, make_agents("random", 3, 1))
    rounds = [e["vars"].get("round") for e in game.log if e["e"] == "phase" and e["name"] == "turn up the lifeboat"]
    assert rounds == list(range(2, 10))
