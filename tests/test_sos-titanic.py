"""SOS Titanic: the card layout stays sound at every step, and the greedy bot beats random play.

Seeded random games for every player count are checked after every decision:
every card is in exactly one place, the lines and lifeboats keep their
ordering rules, the team score is the number of passengers in lifeboats, and
the booklet never passes its last page.
"""
import random
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out

RID = "sos-titanic"
LINES = [f"deck{i}" for i in range(1, 7)]
BOATS = [f"boat{i}" for i in range(1, 5)]
RAFTS = ["raft1", "raft2"]


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RID)


def _attr(game, tid, name):
    return game.get_attr(game.table.things[tid], name, None)


def check_layout(game):
    st, table = game.state, game.table
    # every card in exactly one place
    placed = [t for items in st.zones.values() for t in items]
    assert len(placed) == len(set(placed)) == len(table.things) == 90
    assert all(st.where[t] == z for z, items in st.zones.items() for t in items)
    kinds = {}
    for t in table.things.values():
        kinds[t.kind] = kinds.get(t.kind, 0) + 1
    assert kinds == {"passenger": 56, "lifeboat": 4, "action": 20, "crew": 10}
    # lines: the face-up end is a run descending by one (classes may mix only for Lowe)
    lowe = any(st.pvars[p.seat]["power"] == "mixed" for p in table.players)
    for z in LINES:
        items = st.zones[z]
        if st.zprops.get(z, {}).get("flooded"):
            assert not items, f"flooded {z} still holds cards"
        if items:
            assert st.props[items[-1]]["face_up"], f"the end of {z} is face down"
        up = [t for t in items if st.props[t]["face_up"]]
        assert items[len(items) - len(up):] == up, f"a face-down card below a face-up one in {z}"
        for a, b in zip(up, up[1:]):
            assert _attr(game, a, "num") == _attr(game, b, "num") + 1
            assert lowe or _attr(game, a, "cls") == _attr(game, b, "cls")
    # lifeboats: a lifeboat (or a mystery standing for one) first, then 2, 3, 4 ... of its class
    for z in BOATS:
        items = st.zones[z]
        for i, t in enumerate(items, 1):
            assert _attr(game, t, "num") == i and _attr(game, t, "cls") == _attr(game, items[0], "cls")
    for z in RAFTS:
        items = st.zones[z]
        if items:
            assert table.things[items[0]].attrs.get("type") == "collapsible" and len(items) > 1
    # the team score is the passengers in lifeboats
    in_boats = sum(1 for z in BOATS for t in st.zones[z] if table.things[t].kind == "passenger")
    assert st.vars["saved"] == in_boats
    if not st.over:
        assert st.vars["team_score"] == in_boats
    mysteries = [t for t in table.things.values() if t.attrs.get("type") == "mystery"]
    on_table = [t for t in mysteries if st.where[t.id] in LINES + BOATS + RAFTS]
    assert st.vars["mysteries_placed"] == len(on_table)
    assert all(_attr(game, t.id, "num") > 0 for t in on_table)
    assert 1 <= st.vars["page"] <= 12


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_random_games_keep_every_card_in_one_place(rs, players):
    for seed in (1, 2, 3):
        game = Game(rs, players, seed=seed)
        chooser = random.Random(seed)
        check_layout(game)
        steps = 0
        while not game.is_over:
            seat = game.deciding_players[0]
            actions = game.legal_actions(seat)
            assert game.apply(actions[chooser.randrange(len(actions))])
            check_layout(game)
            steps += 1
        assert steps < 2000
        st = game.state
        assert st.vars["page"] == 12 or st.vars["saved"] == 56
        # the team scores the passengers saved; with no goal set, nobody loses
        assert set(game.scores.values()) == {st.vars["saved"]}
        assert game.winners == list(range(players))
        assert game.log[-1]["team"] and game.log[-1]["team_score"] == st.vars["saved"]
        assert "won" not in game.log[-1]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_setup_deals_lines_crews_and_action_cards(rs, players):
    game = Game(rs, players, seed=7)
    st, table = game.state, game.table
    assert [len(st.zones[z]) for z in LINES] == [4, 6, 8, 10, 0, 0]
    assert len(st.zones["pile"]) == 32
    for z in LINES[:4]:
        faces = [st.props[t]["face_up"] for t in st.zones[z]]
        assert faces == [False] * (len(faces) - 1) + [True]
    for p in table.players:
        crew = [table.things[t] for t in st.zones[f"crew@{p.seat}"]]
        assert len(crew) == 1 and crew[0].attrs["min_players"] <= players
        assert len(st.zones[f"hand@{p.seat}"]) == crew[0].attrs["start_actions"]
        assert st.pvars[p.seat]["power"] == crew[0].attrs["ability"]


def test_solo_play_never_deals_a_multi_player_crew(rs):
    for seed in range(30):
        game = Game(rs, 1, seed=seed)
        crew = game.table.things[game.state.zones["crew@0"][0]]
        assert crew.attrs["min_players"] == 1
        assert all(game.table.things[t].attrs["min_players"] > 1 for t in game.state.zones["box"])


def _mean_team_score(rs, agents, games=40):
    total = 0
    for i in range(games):
        game = Game(rs, 1, seed=1000 + i, record=False)
        play_out(game, make_agents(agents, 1, 1000 + i))
        total += game.scores[0]
    return total / games


@pytest.mark.slow
def test_greedy_agent_saves_more_passengers_than_random(rs):
    # the same deals for both: boarding a passenger raises the team score at once, which greedy sees
    greedy = _mean_team_score(rs, "greedy")
    rand = _mean_team_score(rs, "random")
    assert greedy > rand + 1, (greedy, rand)


def test_boarding_raises_the_team_score_at_once(rs):
    checked = 0
    for seed in range(10):
        game = Game(rs, 1, seed=seed, record=False)
        chooser = random.Random(seed)
        while not game.is_over:
            actions = game.legal_actions(0)
            for action in actions:
                if action.name == "to_lifeboat" and action.arg("card").kind == "passenger":
                    trial = game.clone()
                    assert trial.apply(action)
                    assert trial.scores[0] == game.scores[0] + 1
                    checked += 1
            game.apply(actions[chooser.randrange(len(actions))])
    assert checked > 0


@pytest.mark.slow
def test_human_play_with_piped_input_ends_cleanly():
    root = Path(__file__).resolve().parent.parent
    # always the first choice: end the turn when it may, else attempt a rescue
    result = subprocess.run([sys.executable, "-m", "interpreter", "play", RID, "--players", "1", "--agents", "human",
                             "--seed", "3"], input="1\n" * 3000, capture_output=True, text=True, cwd=root,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert "Game over" in result.stdout


@pytest.mark.parametrize("variant, verdict", [(None, ""), ("beat-the-historical-crew", " The team loses.")])
def test_the_end_reads_as_the_team_score(variant, verdict):
    """A co-operative game ends with the team's score, and a verdict only where the rules set a goal."""
    from interpreter.observe.narrate import event_text
    game = Game(load_ruleset(RID, variant), 2, seed=3)
    chooser = random.Random(3)
    while not game.is_over:
        actions = game.legal_actions(game.deciding_players[0])
        game.apply(actions[chooser.randrange(len(actions))])
    text = event_text(game, game.log[-1])
    assert text == f"Game over. The team scored {game.state.vars['saved']}.{verdict}"
    assert "Winner" not in text
