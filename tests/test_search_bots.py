"""The search bots (mcts, ismcts), the determinizer they play on, and rulesets' heuristics.

Small budgets and small games only: strength is measured by tools/bench_bots.py.
"""
import random

import pytest
from cli_runner import run
from hidden_swap import swapped
from ruleset_builder import load as build

from interpreter import Game, load_ruleset
from interpreter.agents import GreedyAgent, ISMCTSAgent, MCTSAgent, make_agents, play_out
from interpreter.agents.ismcts import Node, judge, leads
from interpreter.errors import DavitError
from interpreter.play.determinize import determinize, hidden_groups
from interpreter.play.position import recount

# Two face-down cards that look alike, one in each of two hidden boxes: one is
# worth 10, the other nothing. Each player opens one box. Only a bot that
# peeks at the real state can know which box to open.
BOXES = {
    "player": {"vars": {"score": 0, "moves": 0}},
    "zones": [{"id": "left", "visibility": "nobody", "face": "down"},
              {"id": "right", "visibility": "nobody", "face": "down"},
              {"id": "opened", "visibility": "everyone", "face": "up"}],
    "things": [{"id": "gold", "kind": "card", "attrs": {"value": 10}, "start": "left"},
               {"id": "lead", "kind": "card", "attrs": {"value": 0}, "start": "right"}],
    "actions": [{"id": "open", "choose": {"box": "[left, right]"}, "if": "box.count > 0",
                 "do": "c = top(box)\nmove(c, opened)\nscore(player, c.value)\nplayer.moves += 1"}],
    "flow": [{"each_player": "current", "steps": [
        {"turn": {"player": "current", "actions": ["open"], "pass": False, "until": "current.moves > 0"}}]}],
}


def without_log(view):
    return {k: v for k, v in view.items() if k != "log"}


@pytest.fixture
def boxes(tmp_path):
    return build(tmp_path, BOXES, max_players=2)


# -- names and budgets --------------------------------------------------------------------

def test_make_agents_reads_search_bot_budgets():
    agents = make_agents("ismcts:200,mcts:40,ismcts:1.5s,ismcts", 4, seed=0)
    assert [type(a) for a in agents] == [ISMCTSAgent, MCTSAgent, ISMCTSAgent, ISMCTSAgent]
    assert (agents[0].iterations, agents[0].seconds) == (200, None)
    assert (agents[1].iterations, agents[1].seconds) == (40, None)
    assert (agents[2].iterations, agents[2].seconds) == (None, 1.5)
    assert agents[3].budget(load_ruleset("tutorial"))[:2] == (200, None)   # the default: iterations, no time cap
    assert [a.name for a in agents] == ["ismcts:200", "mcts:40", "ismcts:1.5s", "ismcts"]


def test_a_ruleset_may_declare_the_default_budget(tmp_path):
    rs = build(tmp_path, dict(BOXES, heuristics={"evaluate": "p.score", "iterations": 90, "depth": 4}), max_players=2)
    assert ISMCTSAgent(0).budget(rs) == (90, None, 4)
    assert MCTSAgent(0).budget(rs) == (90, None, 4)
    assert ISMCTSAgent(0, iterations=10).budget(rs) == (10, None, 4)      # a budget given wins over the ruleset's
    assert ISMCTSAgent(0, seconds=1.5).budget(rs) == (None, 1.5, 4)       # a time cap only when asked for


def test_a_time_cap_in_the_heuristics_is_refused_at_its_line(tmp_path):
    # the plain bots' budget is iterations only; a ruleset that still sets seconds is told so, not ignored
    with pytest.raises(DavitError) as err:
        build(tmp_path, dict(BOXES, heuristics={"iterations": 90, "seconds": 1.0}), max_players=2)
    text = str(err.value)
    assert "seconds" in text and "no longer read" in text and "iterations" in text and "ruleset.yaml:" in text


def test_a_default_budget_no_game_could_wait_for_is_refused_at_its_line(tmp_path):
    with pytest.raises(DavitError) as err:
        build(tmp_path, dict(BOXES, heuristics={"evaluate": "p.score", "iterations": 10**7}), max_players=2)
    assert "iterations" in str(err.value) and "at most 1000000" in str(err.value), str(err.value)
    assert "ruleset.yaml:" in str(err.value)


@pytest.mark.parametrize("name, words", [("ismcts:lots", "budget"), ("ismcts:0", "budget"),
                                         ("mcts:99999999999999999999", "from 1 to 1,000,000"),
                                         ("ismcts:1000001", "from 1 to 1,000,000"),
                                         ("ismcts:3601s", "at most 3600"), ("ismcts:nans", "budget"),
                                         ("random:5", "takes no budget"), ("smart", "unknown agent")])
def test_bad_agent_names_are_refused_with_a_reason(name, words):
    with pytest.raises(ValueError, match=words):
        make_agents(name, 2, seed=0)


# -- the determinizer ----------------------------------------------------------------------

def test_a_sample_looks_the_same_to_the_seat_and_deals_hidden_things_anew():
    rs = load_ruleset("der-mythos")
    game = Game(rs, 3, seed=4)
    rand = random.Random(1)
    real_zones = game.state.zones
    moved = 0
    for _ in range(10):
        sample = determinize(game, 0, rand)
        assert without_log(sample.view(0)) == without_log(game.view(0))
        assert sample.log == [] and sample.state.pins == {}
        assert sample.state.zones["hand@0"] == real_zones["hand@0"]            # the seat's own cards stay
        assert sorted(sample.state.zones["hand@1"]) == sorted(real_zones["hand@1"])   # owner's colour kept
        moved += sample.state.zones["ship"] != real_zones["ship"]
        assert all(sample.state.where[t] == z for z, ts in sample.state.zones.items() for t in ts)
    assert moved > 0   # the face-down ship is dealt anew


def test_a_sample_depends_only_on_what_the_seat_sees():
    rs = load_ruleset("der-mythos")
    game = Game(rs, 2, seed=9)
    hidden = [t for _, _, t in next(iter(hidden_groups(game, 0).values()))]
    other = swapped(game, hidden[0], hidden[1])
    assert other.state.zones != game.state.zones
    assert other.view(0) == game.view(0)
    first = determinize(game, 0, random.Random(5)).state.to_json()
    second = determinize(other, 0, random.Random(5)).state.to_json()
    assert first == second


def test_a_sample_deals_a_hidden_slot_only_what_its_zone_admits(tmp_path):
    # Six look-alike cards, two of them secrets; a secret lies in a face-down slot that admits only
    # secrets (the rule is public, the card is not). Each sample must keep a secret there.
    cards = [{"id": f"c{i}", "kind": "card", "attrs": {"secret": i < 2}, "start": "slot" if i == 0 else "deck"}
             for i in range(6)]
    spec = {"player": {"vars": {"score": 0}},
            "zones": [{"id": "deck", "visibility": "nobody", "face": "down"},
                      {"id": "slot", "visibility": "nobody", "face": "down", "admit": "thing.secret"}],
            "things": cards,
            "actions": [{"id": "wait", "do": "score(player, 0)"}],
            "flow": [{"each_player": "current", "steps": [{"turn": {"player": "current", "actions": ["wait"]}}]}]}
    game = Game(build(tmp_path, spec, max_players=2), 2, seed=0)
    assert len(next(iter(hidden_groups(game, 0).values()))) == 6   # one look: the deal may mix them
    rand, dealt = random.Random(3), set()
    for _ in range(40):
        sample = determinize(game, 0, rand)
        (card,) = sample.state.zones["slot"]
        dealt.add(card)
        assert sample.table.things[card].attrs["secret"]
        assert sorted(sample.state.zones["deck"] + [card]) == sorted(game.state.zones["deck"] + ["c0"])
    assert dealt == {"c0", "c1"}   # either secret, as far as the seat can tell


def test_other_seats_simultaneous_choices_are_forgotten():
    rs = load_ruleset("der-mythos")
    game = Game(rs, 3, seed=2)
    assert sorted(game.deciding_players) == [0, 1, 2]
    game.apply(game.legal_actions(1)[0])          # seat 1 lays a card face down
    assert 1 not in game.deciding_players
    sample = determinize(game, 0, random.Random(0))
    assert sorted(sample.deciding_players) == [0, 1, 2]   # in the sample seat 1 chooses again
    mine = determinize(game, 1, random.Random(0))
    assert 1 not in mine.deciding_players                  # a seat keeps its own choice


# Four cards of one look face down, a variable, a list and a waiting rule's local pointing at some of them,
# and a list in a property of the top one: what a sample must carry from each slot to the card dealt there.
SECRETS = {
    "variables": {"marked": None, "pair": [], "plain": []},
    "zones": [{"id": "deck", "visibility": "nobody", "face": "down"},
              {"id": "table", "visibility": "everyone", "face": "up"}],
    "things": [{"id": "card", "count": 4, "start": "deck"}],
    "props": {"things": {"tags": []}},
    "setup": "marked = top(deck)\npair = [top(deck), 'x', [thing('card.2')]]\nplain = [1, 2]\n"
             "top(deck).tags = [1, 2, 3]",
    "flow": [{"do": "c = thing('card.3')\nn = choose(player(0), [1, 2], prompt='n')\nmove(c, table)"}],
}


def test_a_sample_carries_references_properties_and_sizes_with_the_place(tmp_path):
    game = Game(build(tmp_path, SECRETS, max_players=2), 2, seed=0)
    real = game.state
    local = next(f[2] for f in real.stack if "c" in f[2])
    dealt = 0
    for seed in range(8):
        sample = determinize(game, 1, random.Random(seed))
        st = sample.state
        stands = dict(zip(real.zones["deck"], st.zones["deck"]))   # the card dealt where each one lay
        dealt += any(a != b for a, b in stands.items())
        assert st.vars["marked"].id == stands[real.vars["marked"].id]
        first, text, inner = st.vars["pair"]
        assert (first.id, text, inner[0].id) == (stands[real.vars["pair"][0].id], "x", stands["card.2"])
        assert st.vars["plain"] == [1, 2]
        assert next(f[2] for f in st.stack if "c" in f[2])["c"].id == stands[local["c"].id]
        for old, new in stands.items():
            assert st.props[new] == real.props[old]   # the place keeps its bookkeeping
        top = stands[real.vars["marked"].id]
        assert st.props[top]["tags"] == [1, 2, 3] and (top, "tags") in st.held
        counted = sample.clone()
        assert (dict(st.held), st.held_total) == (recount(counted), counted.state.held_total)   # as if counted afresh
        assert real.vars["marked"].id == "card.1" and real.props["card.1"]["tags"] == [1, 2, 3]   # untouched
    assert dealt > 0


# -- no cheating -----------------------------------------------------------------------------

def test_the_hidden_boxes_really_differ_for_an_omniscient_bot(boxes):
    game = Game(boxes, 2, seed=0)
    other = swapped(game, "gold", "lead")
    assert other.view(0) == game.view(0)
    pick = lambda g: GreedyAgent(0).choose(g, 0, g.legal_actions(0)).arg("box").id  # noqa: E731
    assert (pick(game), pick(other)) == ("left", "right")   # greedy sees the real state


@pytest.mark.parametrize("agent", [ISMCTSAgent, MCTSAgent])
def test_a_search_bot_chooses_from_the_view_only(boxes, agent):
    game = Game(boxes, 2, seed=0)
    other = swapped(game, "gold", "lead")
    for seed in range(6):
        a = agent(seed, iterations=30).choose(game, 0, game.legal_actions(0))
        b = agent(seed, iterations=30).choose(other, 0, other.legal_actions(0))
        assert a == b


@pytest.mark.parametrize("agent", [ISMCTSAgent, MCTSAgent])
def test_a_search_bot_steered_by_priors_chooses_from_the_view_only(tmp_path, agent):
    rs = build(tmp_path, dict(BOXES, heuristics={"priors": {"open": "1 + count(box)"}, "puct": 1}), max_players=2)
    game = Game(rs, 2, seed=0)
    other = swapped(game, "gold", "lead")
    assert other.view(0) == game.view(0)
    for seed in range(6):
        a = agent(seed, iterations=30).choose(game, 0, game.legal_actions(0))
        b = agent(seed, iterations=30).choose(other, 0, other.legal_actions(0))
        assert a == b


def test_a_search_bot_does_not_cheat_in_a_real_ruleset():
    rs = load_ruleset("der-mythos")
    game = Game(rs, 2, seed=3)
    group = next(g for g in hidden_groups(game, 0).values() if len(g) > 1)
    other = swapped(game, group[0][2], group[-1][2])
    assert other.view(0) == game.view(0) and other.state.zones != game.state.zones
    for seed in range(3):
        a = ISMCTSAgent(seed, iterations=25).choose(game, 0, game.legal_actions(0))
        b = ISMCTSAgent(seed, iterations=25).choose(other, 0, other.legal_actions(0))
        assert a == b


# -- playing ------------------------------------------------------------------------------

def test_a_fixed_iteration_budget_is_reproducible():
    rs = load_ruleset("der-mythos")
    logs = []
    for _ in range(2):
        game = Game(rs, 2, seed=11)
        play_out(game, make_agents("ismcts:15,random", 2, seed=11))
        logs.append(game.log_hash())
    assert logs[0] == logs[1]
    game = Game(rs, 2, seed=11)
    play_out(game, make_agents("ismcts:15,random", 2, seed=12))
    assert game.log_hash() != logs[0]   # the bot's own seed matters


def test_ismcts_plays_tutorial_to_the_end():
    rs = load_ruleset("tutorial")
    game = Game(rs, 2, seed=1)
    play_out(game, make_agents("ismcts:8,random", 2, seed=1))
    assert game.is_over


def test_the_search_prefers_the_sure_gain(tmp_path):
    gains = {"player": {"vars": {"score": 0, "moves": 0}},
             "actions": [{"id": "small", "do": "score(player, 1)\nplayer.moves += 1"},
                         {"id": "big", "do": "score(player, 3)\nplayer.moves += 1"},
                         {"id": "lose", "do": "score(player, -2)\nplayer.moves += 1"}],
             "flow": [{"repeat": 2, "steps": [{"each_player": "current", "steps": [
                 {"step": "reset", "do": "current.moves = 0"},
                 {"turn": {"player": "current", "actions": ["small", "big", "lose"], "pass": False,
                           "until": "current.moves > 0"}}]}]}]}
    rs = build(tmp_path, gains, max_players=2)
    game = Game(rs, 2, seed=0)
    assert ISMCTSAgent(0, iterations=60).choose(game, 0, game.legal_actions(0)).name == "big"


def test_a_move_the_rules_refuse_inside_the_search_is_judged_not_a_crash(tmp_path):
    # A sampled world can make a move fail (Titanic: a card dealt into a slot it never goes to, read at
    # the final scoring). The failed move's node must still count its visit, or the next selection
    # among tried actions divides by zero.
    fragile = {"player": {"vars": {"score": 0, "moves": 0}},
               "actions": [{"id": "safe", "do": "score(player, 1)\nplayer.moves += 1"},
                           {"id": "broken", "do": "x = [1, 2][player.moves + 5]\nplayer.moves += 1"}],
               "flow": [{"each_player": "current", "steps": [
                   {"turn": {"player": "current", "actions": ["safe", "broken"], "pass": False,
                             "until": "current.moves > 0"}}]}]}
    game = Game(build(tmp_path, fragile, max_players=2), 2, seed=0)
    with pytest.raises(DavitError):
        game.clone().apply(next(a for a in game.legal_actions(0) if a.name == "broken"))
    assert ISMCTSAgent(0, iterations=30).choose(game, 0, game.legal_actions(0)).name == "safe"


def test_judging_rewards_the_winner_then_the_losers_nearest_the_winner():
    rs = load_ruleset("der-mythos")
    winners = set()
    # games with one winner each (the seeds are a promise): seat 0 wins two of them, seats 1 and 2 one each
    for players, seed in [(2, 5), (2, 7), (3, 0), (3, 10), (3, 8)]:
        game = Game(rs, players, seed=seed)
        play_out(game, make_agents("random", players, seed=seed))
        rewards, scores = judge(game), game.scores
        (winner,) = game.winners
        winners.add(winner)
        losers = [s for s in range(players) if s != winner]
        # a win is worth three quarters of the reward whatever the margin, a loss at most a quarter
        assert 0.75 <= rewards[winner] <= 1
        assert all(0 <= rewards[s] <= 0.25 for s in losers)
        # among the losers, the nearer the winner's score the more: equal scores, equal rewards
        for a in losers:
            for b in losers:
                assert (rewards[a] > rewards[b]) == (scores[a] > scores[b])
                assert (rewards[a] == rewards[b]) == (scores[a] == scores[b])
    assert winners == {0, 1, 2}


# -- heuristics ----------------------------------------------------------------------------

def test_heuristics_are_compiled_and_bias_rollouts(tmp_path):
    spec = dict(BOXES, heuristics={"evaluate": "p.score * 2", "scale": 5,
                                   "priors": {"open": "1 if box == left else 0"}})
    rs = build(tmp_path, spec, max_players=2)
    game = Game(rs, 2, seed=0)
    p0 = game.table.players[0]
    game.state.pvars[0]["score"] = 4
    assert rs.evaluate(game, {"p": p0, "player": p0}) == 8 and rs.evaluate_scale == 5
    left = next(a for a in game.legal_actions(0) if a.arg("box").id == "left")
    right = next(a for a in game.legal_actions(0) if a.arg("box").id == "right")
    local = lambda a: {"p": p0, "player": p0, **dict(a.args)}  # noqa: E731
    assert (rs.priors["open"](game, local(left)), rs.priors["open"](game, local(right))) == (1, 0)


def test_ending_a_turn_may_have_a_prior(tmp_path):
    rs = build(tmp_path, dict(BOXES, heuristics={"priors": {"pass": "0.1"}}), max_players=2)
    assert rs.priors["pass"](None, {}) == 0.1


def test_the_tree_tries_the_favoured_action_first(tmp_path):
    rs = build(tmp_path, dict(BOXES, heuristics={"priors": {"open": "1 if box == left else 0"}}), max_players=2)
    game = Game(rs, 2, seed=0)
    firsts = []
    for seed in range(20):
        bot = ISMCTSAgent(seed, iterations=1)
        (root,) = bot._trees(game, 0, 2)
        (number,) = root.children
        key = list(bot.ids)[number]   # the tree is keyed by the search's numbers for the action keys
        assert bot.ids[key] == number and key[1] == "open"
        firsts.append(dict(key[2])["box"].id)
        assert isinstance(root.children[number], Node) and set(root.bias.values()) == {0.0, 1.0}
    assert firsts.count("left") >= 17     # drawn 1.05 : 0.05 for the one the prior favours


def test_puct_lets_the_priors_keep_the_tree_off_a_disfavoured_action(tmp_path):
    def tried(heuristics):
        rs = build(tmp_path, dict(BOXES, heuristics=heuristics), max_players=2)
        game = Game(rs, 2, seed=0)
        bot = ISMCTSAgent(3, iterations=30)
        (root,) = bot._trees(game, 0, 2)
        keys = list(bot.ids)
        return {dict(keys[number][2])["box"].id for number in root.children}
    priors = {"open": "1 if box == left else 0"}
    assert tried({"priors": priors}) == {"left", "right"}          # the fading bias tries every action
    assert tried({"priors": priors, "puct": 1}) == {"left"}        # PUCT spends the budget on the favoured one


def test_leads_are_judged_against_the_root():
    rs = load_ruleset("tutorial")
    game = Game(rs, 3, seed=2)
    play_out(game, make_agents("random", 3, seed=2), max_decisions=6)
    assert not game.is_over
    ahead = leads(game)
    assert judge(game, ahead) == [0.5, 0.5, 0.5]          # nothing changed since the root
    moved = [a - 1 for a in ahead]                        # everyone stood one point worse at the root
    assert all(r > 0.5 for r in judge(game, moved))


@pytest.mark.parametrize("heuristics, words", [({"evaluate": "p.scor"}, "scor"),
                                               ({"priors": {"opne": "1"}}, "opne")])
def test_bad_heuristics_get_a_located_error(tmp_path, heuristics, words):
    with pytest.raises(DavitError) as err:
        build(tmp_path, dict(BOXES, heuristics=heuristics), max_players=2)
    assert words in str(err.value) and "ruleset.yaml:" in str(err.value)


@pytest.mark.parametrize("rid", ["collapsible-d", "der-mythos", "sos-titanic", "titanic", "titanic-board-game",
                                 "tutorial"])
def test_every_bundled_ruleset_has_heuristics_documented(rid):
    from pathlib import Path
    rs = load_ruleset(rid)
    assert rs.evaluate is not None
    page = (Path(__file__).resolve().parent.parent / "docs" / "rulesets" / f"{rid}.md").read_text()
    assert "heuristics" in page.lower()


# -- the command line -------------------------------------------------------------------

def test_play_and_simulate_accept_search_bots(capsys):
    assert run(["play", "der-mythos", "--players", "2", "--agents", "ismcts:5,random", "--quiet"]) == 0
    assert run(["simulate", "der-mythos", "--players", "2", "--games", "2", "--agents", "mcts:4,random"]) == 0
    out = capsys.readouterr().out
    assert "mcts:4" in out
    assert run(["play", "der-mythos", "--agents", "ismcts:many"]) != 0


# -- docs/agents.md ---------------------------------------------------------------------

def _agents_page_commands():
    import re

    from cli_runner import REPO
    text = (REPO / "docs" / "agents.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return [line.split() for block in blocks for line in block.splitlines() if line.strip()]


@pytest.mark.slow
def test_the_commands_on_the_bots_page_run(capsys):
    import subprocess
    import sys

    from cli_runner import REPO, davit
    sys.path.insert(0, str(REPO / "tools"))
    import bench_bots

    commands = _agents_page_commands()
    assert any(c[0] == "davit" for c in commands) and any(c[:2] == ["python", "tools/bench_bots.py"]
                                                          for c in commands)
    ran = []
    for argv in commands:
        if argv[0] == "davit":
            proc = davit(*argv[1:], timeout=120)
            assert proc.returncode == 0, proc.stderr
            continue
        # the benchmark: its shape, with one game a row and a tiny budget (its figures are not checked)
        argv = [a for a in argv[1:]]
        argv[argv.index("--games") + 1] = "1"
        if argv in ran:   # commands that differ only in --games are one command here: run it once
            continue
        if not ran:   # the first as the page shows it, a process of its own; the others through its main()
            proc = subprocess.run([sys.executable, *argv, "--agent", "ismcts:3"], cwd=REPO, capture_output=True,
                                  text=True, timeout=300, check=False)
            code, out, err = proc.returncode, proc.stdout, proc.stderr
        else:
            assert argv[0] == "tools/bench_bots.py"
            code = bench_bots.main([*argv[1:], "--agent", "ismcts:3"])
            out, err = capsys.readouterr()
        ran.append(argv)
        assert code == 0, err
        rows = [line for line in out.splitlines()[2:] if line.startswith("| ")]
        assert rows and "ismcts:3" in rows[0] and all(row.split(" | ")[3] == "1" for row in rows)
