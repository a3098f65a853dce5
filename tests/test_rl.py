"""Every ruleset as a PettingZoo environment and an OpenSpiel game (interpreter/rl, the `rl` extra)."""
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

REASON = "needs the rl extra: pip install '.[test,rl]'"
np = pytest.importorskip("numpy", reason=REASON)
pytest.importorskip("gymnasium", reason=REASON)
pytest.importorskip("pettingzoo", reason=REASON)
pyspiel = pytest.importorskip("pyspiel", reason=REASON)

from pettingzoo.test import api_test, parallel_api_test, seed_test
from ruleset_builder import load

from interpreter import load_ruleset
from interpreter.load.files import bundled_ids
from interpreter.play.decisions import Action
from interpreter.play.visibility import can_see
from interpreter.rl import openspiel as davit_os
from interpreter.rl import pettingzoo as davit_pz
from interpreter.rl.catalogue import Catalogue, CatalogueError
from interpreter.rl.observation import ObservationEncoder
from interpreter.rl.session import Session

RULESETS = bundled_ids()
DOC = Path(__file__).resolve().parent.parent / "docs" / "rl.md"


def two_counts(rid):
    rs = load_ruleset(rid)
    return [rs.min_players, min(rs.max_players, rs.min_players + 1)]


def test_every_bundled_ruleset_is_covered():
    assert len(RULESETS) == 12


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("rid,players", [(rid, n) for rid in RULESETS for n in two_counts(rid)])
def test_pettingzoo_api_and_seed(rid, players):
    api_test(davit_pz.env(rid, players), num_cycles=8)
    seed_test(lambda: davit_pz.env(rid, players), num_cycles=8)


@pytest.mark.slow
@pytest.mark.parametrize("rid", RULESETS)
def test_openspiel_random_simulation(rid):
    game = davit_os.game(rid, load_ruleset(rid).min_players, seed=3)
    # serialize=True: a state pickles as its history (explicit chance: the history is the whole game), and
    # OpenSpiel reads it back by loading the registered game and playing the history again
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_declares_chance_and_information_from_the_ruleset():
    hidden = davit_os.game("der-mythos", 3).get_type()
    assert hidden.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert hidden.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    sampled = davit_os.game("der-mythos", 3, chance="sampled").get_type()
    assert sampled.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert hidden.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    open_board = davit_os.game("tutorial", 2).get_type()   # no hidden zone, no random draw
    assert open_board.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert open_board.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert davit_os.game("sos-titanic", 1).get_type().utility == pyspiel.GameType.Utility.IDENTICAL


def test_openspiel_registers_a_ruleset_for_load_game():
    name = davit_os.register("tutorial")
    game = pyspiel.load_game(name, {"players": 3})
    assert game.num_players() == 3
    state = game.new_initial_state()
    assert state.current_player() in (0, 1, 2) and state.legal_actions()


@pytest.mark.parametrize("rid", RULESETS)
def test_every_legal_action_of_a_random_game_has_an_id(rid):
    rs = load_ruleset(rid)
    session = Session(rs, rs.min_players, seed=5)
    pick = random.Random(5)
    decisions = 0
    while not session.over:
        seat = session.acting()
        legal = session.game.legal_actions(seat)
        sequences = session._spellings(seat)[0]
        # every legal action is spelt, by its own ids, and nothing else is
        assert sorted(map(repr, sequences.values())) == sorted(set(map(repr, legal)))
        assert all(0 <= t < session.catalogue.size for seq in sequences for t in seq)
        action = pick.choice(legal)
        spelt = [seq for seq, a in sequences.items() if a == action]
        assert len(spelt) == 1
        for token in spelt[0]:
            session.step(token)
        decisions += 1
    assert session.game.is_over and decisions > 0


def test_an_action_the_catalogue_cannot_spell_is_an_error():
    rs = load_ruleset("titanic-board-game")   # a ruleset whose rules call choose(): it has the choice ids
    catalogue = Catalogue(rs, 2)
    action_id = next(iter(rs.actions))
    with pytest.raises(CatalogueError, match="cannot spell"):
        catalogue.spell(Action(0, action_id, (("to", "a text the catalogue has no id for"),)))
    with pytest.raises(CatalogueError, match="more than 4096"):
        catalogue.spell_choice("some text", 64 * 64)


def test_an_action_has_ids_only_for_the_values_of_its_parameters_type():
    # tic-tac-toe's `place` chooses a cell (a zone, as the checker finds): one id per zone of the table, no
    # `value` ids (one plain parameter); it had one per value of any kind, 99 ids where OpenSpiel has 9
    rs = load_ruleset("tic-tac-toe")
    catalogue = Catalogue(rs, 2)
    zones = rs.table(2).zone_list
    assert catalogue.names == [f"place {z.id}" for z in zones]
    assert catalogue.spell(Action(0, "place", (("cell", zones[4]),))) == (4,)
    player = rs.table(2).players[0]
    with pytest.raises(CatalogueError, match="not of the type the ruleset's checker found for it \\(zone\\)"):
        catalogue.spell(Action(0, "place", (("cell", player),)))


def test_options_past_the_first_page_are_spelt_with_a_page_and_no_spelling_starts_another():
    catalogue = Catalogue(load_ruleset("titanic-board-game"), 2)
    spellings = [catalogue.spell_choice(["a text"], index) for index in range(64 * 64)]
    assert len(set(spellings)) == len(spellings)
    assert spellings[5] == (catalogue.names.index("option #5"),)
    assert spellings[64 * 3 + 5] == (catalogue.names.index("option page #3"), catalogue.names.index("option #5"))
    complete = set(spellings)
    assert not any(s[:k] in complete for s in spellings for k in range(1, len(s)))


def test_a_choice_of_more_than_a_page_of_options_is_played_through_the_environment(tmp_path):
    # 100 options that are not plain values (a text in each): the second page is reached and taken
    rs = load(tmp_path, {
        "variables": {"got": ""},
        "zones": [{"id": "pile"}],
        "flow": [{"do": 'o = choose(player(0), [["pick", text(i)] for i in range(0, 100)], prompt="pick")\n'
                        "got = o[1]"}],
        "end": {"when": 'got != ""'},
    })
    session = Session(rs, 1, seed=1)
    page = session.catalogue.names.index("option page #1")
    assert page in session.legal_tokens()
    session.step(page)
    assert session.legal_tokens() == [session.catalogue.names.index(f"option #{i}") for i in range(36)]
    session.step(session.catalogue.names.index("option #30"))
    assert session.game.is_over and session.game.state.vars["got"] == "94"


def _swap_hidden_pair(game, seat):
    """Swap two things the seat cannot see (same kind and public attributes, different places); False if none."""
    table = game.table
    hidden = [(tid, zid, i) for zid, items in game.state.zones.items() if zid != "box"
              for i, tid in enumerate(items) if not can_see(game, seat, tid, zid)]
    for a, b in ((a, b) for a in hidden for b in hidden if a[0] < b[0]):
        ta, tb = table.things[a[0]], table.things[b[0]]
        same_face = {k: ta.attrs.get(k) for k in ta.public} == {k: tb.attrs.get(k) for k in tb.public}
        if ta.kind == tb.kind and ta.public == tb.public and same_face and a[1:] != b[1:] \
                and ta.attrs != tb.attrs:
            game.state.zones[a[1]][a[2]], game.state.zones[b[1]][b[2]] = b[0], a[0]
            game.state.where[a[0]], game.state.where[b[0]] = b[1], a[1]
            return True
    return False


@pytest.mark.parametrize("rid", ["der-mythos", "collapsible-d", "titanic"])
def test_observation_does_not_change_when_hidden_parts_change(rid):
    rs = load_ruleset(rid)
    players = rs.min_players + 1
    session = Session(rs, players, seed=2)
    for _ in range(3):   # a little way into the game
        session.step(session.legal_tokens()[0])
    encoder = ObservationEncoder(rs, players, session.catalogue)
    changed = Session(rs, players, seed=2, start=session.game)
    assert _swap_hidden_pair(changed.game, 0), "no hidden pair to swap"
    assert changed.game.state.zones != session.game.state.zones
    before = encoder.encode(session.view(0))
    after = encoder.encode(changed.view(0))
    assert np.array_equal(before, after)
    # the encoding does see what seat 0 is allowed to see: a visible change shows
    visible = Session(rs, players, seed=2, start=session.game)
    items = next(items for z, items in visible.game.state.zones.items()
                 if z != "box" and items and all(can_see(visible.game, 0, t, z) for t in items))
    moved = items.pop()
    visible.game.state.zones["box"].append(moved)
    visible.game.state.where[moved] = "box"
    assert not np.array_equal(before, encoder.encode(visible.view(0)))


@pytest.mark.parametrize("rid", ["collapsible-d", "titanic"])
def test_an_encoding_into_a_used_array_is_the_fresh_one_and_holds_what_the_view_shows(rid):
    rs = load_ruleset(rid)
    players = rs.min_players
    session = Session(rs, players, seed=3)
    for _ in range(12):
        session.step(session.legal_tokens()[0])
    encoder = ObservationEncoder(rs, players, session.catalogue)
    view = session.view(0)
    fresh = encoder.encode(view)
    used = np.full(encoder.size, 7.0, np.float32)
    assert np.array_equal(encoder.encode(view, out=used), fresh)
    # every thing seat 0 sees is in its row: seen, its zone, its place there, and its declared properties
    things = encoder.split(fresh)["things"]
    for zid, zone in view["zones"].items():
        for position, entry in enumerate(zone["things"]):
            if entry.get("hidden"):
                continue
            row = things[encoder.thing_index[entry["id"]]]
            # seen, zone index + 1 over the zones, position over the things (normalised, observation.py)
            assert list(row[:3]) == [1.0, np.float32((encoder.zone_index[zid] + 1) / len(encoder.zone_ids)),
                                     np.float32(position / len(encoder.thing_index))]
            for j, name in enumerate(encoder.thing_props):
                expected = encoder.scalar(entry[name]) if entry.get(name) is not None else 0.0
                assert row[4 + j] == np.float32(expected), (entry["id"], name)


def test_a_seat_sees_its_own_hidden_cards_change():
    rs = load_ruleset("der-mythos")
    session = Session(rs, 3, seed=4)
    encoder = ObservationEncoder(rs, 3, session.catalogue)
    changed = Session(rs, 3, seed=4, start=session.game)
    state = changed.game.state
    a, b = state.zones["hand@1"][0], state.zones["hand@2"][0]
    state.zones["hand@1"][0], state.zones["hand@2"][0] = b, a
    state.where[a], state.where[b] = "hand@2", "hand@1"
    assert np.array_equal(encoder.encode(session.view(0)), encoder.encode(changed.view(0)))
    assert not np.array_equal(encoder.encode(session.view(1)), encoder.encode(changed.view(1)))
    # OpenSpiel's observation strings are built from the same views
    game = davit_os.game(rs, 3)
    observer = game.make_py_observer()
    s1, s2 = game.new_initial_state(), game.new_initial_state()
    s1._session, s2._session = session, changed
    assert observer.string_from(s1, 0) == observer.string_from(s2, 0)
    assert observer.string_from(s1, 1) != observer.string_from(s2, 1)


def _play_env_out(env, seed):
    env.reset(seed=seed)
    pick = np.random.default_rng(seed)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = (reward, terminated, truncated)
            env.step(None)
            continue
        env.step(int(pick.choice(np.flatnonzero(obs["action_mask"]))))
    return final


def test_rewards_at_the_end_follow_the_winners():
    env = davit_pz.env("tutorial", 3)
    final = _play_env_out(env, seed=1)
    winners = env.game.winners
    assert winners and set(final) == set(env.possible_agents)
    for seat, agent in enumerate(env.possible_agents):
        assert final[agent] == ((1.0 if seat in winners else -1.0), True, False)


def test_score_rewards_are_the_final_scores():
    env = davit_pz.env("der-mythos", 2, reward="score")
    final = _play_env_out(env, seed=2)
    scores = env.game.scores
    assert {a: r for a, (r, _, _) in final.items()} == {f"player_{s}": float(scores[s]) for s in scores}


def test_the_rulesets_step_limit_ends_the_game_by_length():
    rs = load_ruleset("der-mythos").changed(max_steps=200)   # far fewer rule steps than a whole game takes
    env = davit_pz.env(rs, 2)
    final = _play_env_out(env, seed=0)
    # every game is finite: the game ends, ranked as at any other end
    assert env.game.is_over and env.game.state.steps >= rs.max_steps   # it ended when its step budget ran out
    assert all(terminated and not truncated for _, terminated, truncated in final.values())
    env = davit_pz.env("der-mythos", 2, max_cycles=4)
    final = _play_env_out(env, seed=0)
    assert all(truncated for _, _, truncated in final.values())


def test_parallel_env_where_every_decision_is_simultaneous():
    parallel_api_test(davit_pz.parallel_env("der-mythos", 3), num_cycles=30)
    with pytest.raises(ValueError, match="not only simultaneous"):
        davit_pz.parallel_env("tutorial", 2)


@pytest.mark.slow
def test_the_docs_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert blocks, "docs/rl.md has no python example"
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {})


@pytest.mark.slow
def test_the_throughput_command_of_the_page_runs():
    # docs/rl.md shows `python tools/rl_throughput.py --seconds 10`; here briefly, one ruleset (speed is not checked)
    assert "python tools/rl_throughput.py --seconds 10" in DOC.read_text()
    done = subprocess.run([sys.executable, str(DOC.parent.parent / "tools" / "rl_throughput.py"), "--seconds", "0.2",
                           "tutorial"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line.split("|") for line in done.stdout.splitlines()[2:]]
    assert [r[1].strip() for r in rows] == ["`tutorial`"] and float(rows[0][4].replace(",", "")) > 0
