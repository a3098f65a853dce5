"""Titanic: The Board Game: invariants at every step of seeded random games, and the card decks.

For 2 to 6 players (and the bank-distributes-rumours variant) random games
must end (a win, all but one eliminated, or the safety limit) and, after every
decision: the money in play plus the Bank is the Bank's starting total, the
groom tokens held plus the Bank's are 20, every rumour and telegram card is in
its pile or being read, every property card is in the Bank, with its owner or
(for an eliminated owner) out of the game, and the lifeboat places are 1, 2, ...
"""
import random

import pytest

from interpreter import Game, load_ruleset

RID = "titanic-board-game"
COLOURS = ["yellow", "orange", "red", "blue", "green", "purple"]


@pytest.fixture(scope="module")
def rules():
    return load_ruleset(RID)


def _zone(game, zid):
    return list(game.state.zones.get(zid, []))


def _check(game, n):
    st = game.state
    money = sum(pv["money"] for pv in st.pvars)
    assert money + st.vars["bank"] == 20000, "money in play plus the Bank must stay $20,000"
    assert sum(pv["grooms"] for pv in st.pvars) + st.vars["groom_supply"] == 20, "20 groom tokens in all"
    reading = _zone(game, "read_aloud")
    for colour in COLOURS:
        pile = _zone(game, f"rumours_{colour}")
        assert all(t.startswith(f"rumour-{colour}-") for t in pile)
        assert len(pile) + sum(1 for t in reading if t.startswith(f"rumour-{colour}-")) == 12
    assert len(_zone(game, "telegrams")) + sum(1 for t in reading if t.startswith("telegram-")) == 36
    bank_cards = _zone(game, "bank_cards")
    for seat in range(n):
        held = _zone(game, f"property@{seat}")
        assert all(t.endswith(f"@{seat}") and t.startswith("property-") for t in held)
        mine = [t for t in st.where if t.startswith("property-") and t.endswith(f"@{seat}")]
        assert len(mine) == 5
        for t in mine:
            assert t in held or t in bank_cards or (st.out[seat] and st.where[t] == "box")
        if st.out[seat]:
            assert st.pvars[seat]["money"] == 0 and st.where[f"pawn@{seat}"] == "box"
        else:
            assert st.where[f"pawn@{seat}"] != "box"
    places = sorted(pv["place"] for pv in st.pvars if pv["place"] > 0)
    assert places == list(range(1, len(places) + 1)) and st.vars["arrivals"] == len(places)


def _play(rules, n, seed, check=True):
    game = Game(rules, n, seed=seed)
    chooser = random.Random(seed)
    decisions = 0
    while not game.is_over:
        seat = game.deciding_players[0]
        actions = game.legal_actions(seat)
        assert actions, "a waiting game always offers an action"
        assert game.apply(actions[chooser.randrange(len(actions))])
        decisions += 1
        assert decisions < 2000, "a game must stay under 2,000 decisions"
        if check:
            _check(game, n)
    return game, decisions


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_end_and_conserve(rules, players, seed):
    game, _ = _play(rules, players, seed)
    st = game.state
    still_on_board = [s for s in range(players) if not st.out[s] and st.pvars[s]["place"] == 0]
    assert len(still_on_board) <= 1, "the game ended early without a reason (these games end by the rules)"
    assert game.end_reason is None, "no seeded game needs the safety limit"
    assert game.winners, "somebody wins"
    saved = [s for s in range(players) if st.pvars[s]["place"] == 1]
    if saved:
        assert game.winners == saved, "the first player into a lifeboat wins"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_variant_games_end_and_conserve(players):
    rules = load_ruleset(RID, variant="bank-distributes-rumours")
    _play(rules, players, seed=7)


@pytest.mark.parametrize("arrive", [False, True])
def test_the_safety_limit_ends_a_game_and_only_a_lifeboat_wins(tmp_path, arrive):
    """At the safety limit the first into a lifeboat wins; nobody, if none has arrived."""
    variant = tmp_path / "short.yaml"
    variant.write_text("variant: short\ndescription: a safety limit of one round, for a test\n"
                       "constants:\n  safety_rounds: 1\n")
    game = Game(load_ruleset(RID, variant=str(variant)), 3, seed=1)
    if arrive:
        game.state.pvars[2]["place"] = 1
        game.state.vars["arrivals"] = 1
    chooser = random.Random(1)
    while not game.is_over:
        actions = game.legal_actions(game.deciding_players[0])
        game.apply(actions[chooser.randrange(len(actions))])
    assert game.end_reason == "the safety limit (1 rounds)"
    assert game.winners == ([2] if arrive else [])
    assert game.log[-1]["reason"] == "the safety limit (1 rounds)"


def test_some_games_are_won_in_a_lifeboat_and_some_by_elimination(rules):
    # Over a handful of seeds both ways of ending occur (the rules can be won).
    lifeboat = eliminated = 0
    for seed in range(12):
        game, _ = _play(rules, 3, seed, check=False)
        lifeboat += any(pv["place"] > 0 for pv in game.state.pvars)
        eliminated += any(game.state.out)
    assert lifeboat > 0 and eliminated > 0


def test_decks_as_the_rulebook_counts_them(rules):
    game = Game(rules, 6, seed=1)
    ids = list(game.state.where)
    assert sum(1 for t in ids if t.startswith("telegram-")) == 36
    for colour in COLOURS:
        assert sum(1 for t in ids if t.startswith(f"rumour-{colour}-")) == 12
    assert sum(1 for t in ids if t.startswith("property-")) == 30   # 24 + 6 passports
    assert all(f"effect:{t.split('.')[0]}" in game.codes for t in ids
               if t.startswith(("telegram-", "rumour-"))), "every telegram and rumour carries an effect"


def test_absent_characters_have_no_property_cards(rules):
    game = Game(rules, 2, seed=1)
    assert not [t for t in game.state.where if t.startswith("property-") and not t.endswith(("@0", "@1"))]
    # their rumour piles are still there, for the variant where the Bank hands them over
    assert len(_zone(game, "rumours_purple")) == 12


def test_a_move_never_steps_straight_back(rules):
    # Every destination offered is reachable by a walk that never reverses;
    # checked against a brute-force walk over the board's own neighbours.
    game = Game(rules, 3, seed=5)
    chooser = random.Random(5)
    board = rules.board
    for _ in range(150):
        if game.is_over:
            break
        seat = game.deciding_players[0]
        actions = game.legal_actions(seat)
        moves = [a for a in actions if a.name == "move"]
        if moves:
            start = game.state.where[f"pawn@{seat}"]
            die = game.state.pvars[seat]["die"]
            offered = {a.arg("to").id for a in moves}
            frontier = [(start, None, 0)]
            ends = set()
            while frontier:
                node, prev, k = frontier.pop()
                if k == die or (k > 0 and board.graph.nodes[node]["stop"]):
                    ends.add(node)
                    continue
                for nxt, kind in board.adjacency[node]:
                    if nxt != prev and kind != "grand_staircase":
                        frontier.append((nxt, node, k + 1))
            assert offered <= ends, f"{offered - ends} is not the end of a {die}-step walk from {start}"
        game.apply(actions[chooser.randrange(len(actions))])
