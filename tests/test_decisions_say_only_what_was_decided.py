"""A decision says what was decided and nothing more: choices a pass or a choice does not take are refused.

``pass`` takes no choices and a choice takes only its ``option``; anything more was read past, so a saved
game, a web table's move or ``game.apply`` could carry a decision that said more than was decided (a
scenario refused it; the engine did not).
"""
from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.play.decisions import Action


def _waiting(rid, players, kind, seeds=range(40)):
    """A game of ``rid`` waiting for a decision of ``kind`` (a turn that may pass, or a choice)."""
    rs = load_ruleset(rid)
    for seed in seeds:
        game = Game(rs, players, seed=seed)
        agents = make_agents("random", players, seed)
        while not game.is_over:
            pending = game.state.pending
            if pending["kind"] == kind and (kind != "turn" or pending["pass"]):
                return game
            play_out(game, agents, max_decisions=1)
    raise AssertionError(f"no {kind} in {rid}")


def test_ending_the_turn_takes_no_choices():
    game = _waiting("tutorial", 2, "turn")
    seat = game.deciding_players[0]
    before = game.state.to_json()
    for sent in ({"player": seat, "action": "pass", "args": {"x": 1}}, Action(seat, "pass", (("x", 1),))):
        refused = game.apply(sent)
        assert not refused and "ending the turn takes no choices, not x" in refused.reason
        assert game.state.to_json() == before   # nothing of it was carried out
    assert game.apply({"player": seat, "action": "pass"})


def test_a_choice_takes_only_its_option():
    game = _waiting("collapsible-d", 4, "choice")
    seat = game.deciding_players[0]
    (offered, *_) = game.legal_actions(seat)
    before = game.state.to_json()
    extra = Action(seat, offered.name, (*offered.args, ("also", 1)))
    refused = game.apply(extra)
    assert not refused and "a choice takes only its option, not also" in refused.reason
    assert game.state.to_json() == before
    assert game.apply(Action(seat, offered.name, offered.args))
