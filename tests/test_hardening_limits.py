"""Every limit covers the whole: legal actions are work, a game's total work, totals over included files,
the whole position's size, an action from outside of any shape. Each case reaches its limit and ends
cleanly (a located error, a refusal, or the game's end with a reason) in seconds and little memory."""
import resource
import time

import pytest
import yaml
from ruleset_builder import load

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.errors import DavitError, GameError
from interpreter.load import limits
from interpreter.machine.budget import TooManyChoicesError, WorkBudgetError
from interpreter.play.decisions import Action, Refused


def _located(exc):
    assert exc.location is not None and exc.location.line, f"no location: {exc}"
    return str(exc)


class _Bounded:
    """Asserts the block took under 30 s and the process grew by under 2 GB (its peak resident size)."""

    def __enter__(self):
        self.start = time.monotonic()
        return self

    def __exit__(self, *exc):
        assert time.monotonic() - self.start < 30
        assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 2 * 1024 * 1024   # kB
        return False


def _turns(action, **more):
    return dict({"actions": [action], "flow": [{"while": "true", "steps": [
        {"turn": {"player": "player(0)", "actions": [action["id"]], "pass": False}}]}]}, **more)


# --- listing legal actions is work, and a decision has at most MAX_CHOICES actions ---------------

def _pile(tmp_path, count, condition=None):
    action = {"id": "pick", "choose": {"a": "pile", "b": "pile", "c": "pile"}, "do": "pass"}
    if condition:
        action["if"] = condition
    return load(tmp_path, _turns(action, zones=[{"id": "pile"}],
                                 things=[{"id": "coin", "count": count, "start": "pile"}]))


@pytest.mark.parametrize("count", [120, pytest.param(3_000, marks=pytest.mark.slow)])   # slow: a pile of 3,000
def test_more_legal_actions_than_the_cap_is_a_located_error(tmp_path, count):
    rs = _pile(tmp_path, count)
    with _Bounded(), pytest.raises(TooManyChoicesError) as info:
        Game(rs, 1).legal_actions()
    assert f"more than {limits.MAX_CHOICES:,} choices" in _located(info.value)
    assert "action 'pick'" in str(info.value)


def test_listing_actions_that_are_never_legal_is_charged_to_the_work_budget(tmp_path):
    # 3,000 ** 3 combinations, none legal: only the work budget stops the walk
    rs = _pile(tmp_path, 3_000, condition="a == b and b == c and a != c")
    with _Bounded(), pytest.raises(WorkBudgetError) as info:
        Game(rs, 1)
    assert "items for one decision" in _located(info.value)


def test_a_choose_of_more_options_than_the_cap_is_a_located_error(tmp_path):
    rs = load(tmp_path, {"variables": {"x": 0}, "setup": f"x = choose(player(0), range({limits.MAX_CHOICES + 1}))"})
    with _Bounded(), pytest.raises(TooManyChoicesError) as info:
        Game(rs, 1)
    assert "choose()" in _located(info.value)


def test_the_bundled_games_stay_far_under_the_choice_cap():
    for rid in ("tutorial", "sos-titanic"):
        rs = load_ruleset(rid)
        game = Game(rs, rs.max_players, seed=1)
        play_out(game, make_agents("random", rs.max_players, 1))
        assert game.is_over


# --- a game's total work -------------------------------------------------------------------------

def test_a_game_ends_once_its_decisions_together_did_too_much_work(tmp_path):
    # each decision touches about 1,800,000 items, just under the budget of one decision
    assert 9 * 200_000 < limits.MAX_WORK
    action = {"id": "work", "do": "for i in range(9):\n  x = x + count(range(100000))"}
    rs = load(tmp_path, _turns(action, variables={"x": 0}, limits={"max_decisions": 1_000_000}))
    with _Bounded():
        game = Game(rs, 1)
        made = play_out(game, make_agents("random", 1, 0))
    assert game.is_over and game.end_reason == limits.WORK_LIMIT_REASON
    assert game.log[-1]["reason"] == "work limit"
    assert made == limits.MAX_GAME_WORK // 1_800_000 + 1
    again = Game.from_json(rs, game.to_json())
    assert again.spent == game.spent > limits.MAX_GAME_WORK


def test_simulate_counts_a_game_ended_by_work_as_cut_off(tmp_path, capsys):
    from cli_runner import run
    action = {"id": "work", "do": "for i in range(9):\n  x = x + count(range(100000))"}
    load(tmp_path, _turns(action, variables={"x": 0}, limits={"max_decisions": 1_000_000}))
    folder = next(p for p in tmp_path.iterdir() if p.is_dir())
    assert run(["simulate", str(folder), "--games", "1", "--players", "1"]) == 0
    assert "work limit 100%" in capsys.readouterr().out


# --- totals over included files ----------------------------------------------------------------------

def _included(tmp_path, parts: dict):
    folder = tmp_path / "big"
    folder.mkdir()
    for name, text in parts.items():
        (folder / name).write_text(text, encoding="utf-8")
    main = {"id": "big", "players": {"min": 1, "max": 2}, "include": list(parts), "flow": [{"do": "pass"}]}
    (folder / "ruleset.yaml").write_text(yaml.safe_dump(main), encoding="utf-8")
    return folder


def test_sixty_included_files_of_twelve_thousand_zones_are_refused_before_reading(tmp_path):
    zones = {f"part{f}.yaml": "zones:\n" + "".join(f"  - id: z{f}_{i}\n" for i in range(12_000)) for f in range(60)}
    folder = _included(tmp_path, zones)
    with _Bounded(), pytest.raises(DavitError) as info:
        load_ruleset(folder)
    assert f"(at most {limits.MAX_RULESET_BYTES:,})" in _located(info.value)


@pytest.mark.parametrize("what,parts,said", [
    ("zones", {f"z{f}.yaml": "zones:\n" + "".join(f"  - id: z{f}_{i}\n" for i in range(12_000)) for f in range(2)},
     "24,000 zones and board spaces together"),
    # the same check on other totals, at their caps' size: slow (the fast tier keeps the zones)
    pytest.param("things", {f"t{f}.yaml": "things:\n" + "".join(f"  - {{id: t{f}_{i}}}\n" for i in range(12_000))
                            for f in range(2)}, "24,000 things together", marks=pytest.mark.slow),
    pytest.param("values", {f"c{f}.yaml": f"constants:\n  c{f}: [" + ", ".join(["1"] * 24_000) + "]\n"
                            for f in range(9)}, f"more than {limits.MAX_VALUES:,} values together",
                 marks=pytest.mark.slow),
])
def test_totals_over_included_files_are_capped(tmp_path, what, parts, said):
    folder = _included(tmp_path, parts)
    with _Bounded(), pytest.raises(DavitError) as info:
        load_ruleset(folder)
    assert said in _located(info.value), what


# --- an action from outside, of any shape ---------------------------------------------------------------

def _nested(depth, inner=None):
    value = inner if inner is not None else []
    for _ in range(depth):
        value = [value]
    return value


def _deep_map(depth):
    value = {}
    for _ in range(depth):
        value = {"a": value}
    return value


MALFORMED = {
    "an argument nested 3,000 deep": {"player": 0, "action": "walk", "args": {"a": _nested(3_000)}},
    "a mapping nested 3,000 deep": {"player": 0, "action": "walk", "args": _deep_map(3_000)},
    "the whole action nested": _nested(3_000),
    "a seat nested": {"player": _nested(3_000), "action": "walk"},
    "a million items": {"player": 0, "action": "walk", "args": {"a": list(range(1_000_000))}},
    "a huge name": {"player": 0, "action": "w" * 10_000_000},
    "an Action object nested": Action(0, "walk", (("a", _nested(3_000)),)),
    "an Action with a list for its seat": Action(_nested(3_000), "walk", ()),
    "a list that holds itself": None,
}


@pytest.mark.parametrize("case", MALFORMED)
def test_an_action_of_any_shape_is_refused_as_a_value(case):
    action = MALFORMED[case]
    if action is None:
        loop = []
        loop.append(loop)
        action = {"player": 0, "action": "walk", "args": {"a": loop}}
    game = Game(load_ruleset("tutorial"), 2, seed=1)
    before = game.to_json()
    result = game.apply(action)
    assert isinstance(result, Refused) and not result and result.reason.startswith("not an action")
    assert game.to_json() == before
    with pytest.raises(ValueError):
        game.action_from_json(action if isinstance(action, dict) else {"player": 0, "action": action})


def test_an_ordinary_action_from_json_still_plays():
    game = Game(load_ruleset("tutorial"), 2, seed=1)
    action = game.legal_actions()[0]
    assert game.apply(action.to_json())


# --- the whole position's size ----------------------------------------------------------------------------

def _each_decision(do, variables, **more):
    return _turns({"id": "work", "do": do}, **dict({"variables": variables, "limits": {"max_decisions": 1_000_000}},
                                                   **more))


POSITION = {
    # each decision adds a list of 99,999 items, each under the cap on one list, around the old value
    "a variable that nests a new list each decision": ({"x": []}, "x = [x] + range(99999)"),
    # the same list kept twice at each level: little memory, but a copy or a save would write 2 ** n items
    "a variable that holds itself twice": ({"x": []}, "x = [x, x]"),
    "an item that grows in place": ({"x": [0]}, "x[0] = [x[0]] + range(99999)"),
    "an item that holds its list twice": ({"x": [0, 0]}, "x[0] = [x[0], x[0]]"),
}


@pytest.mark.parametrize("case", POSITION)
def test_a_position_that_grows_past_the_cap_is_a_located_stop(tmp_path, case):
    variables, do = POSITION[case]
    rs = load(tmp_path, _each_decision(do, variables))
    with _Bounded(), pytest.raises(GameError) as info:
        game = Game(rs, 1)
        play_out(game, make_agents("random", 1, 0))
    assert f"the position would hold more than {limits.MAX_POSITION:,} items" in _located(info.value)


def test_long_texts_in_many_things_count_toward_the_position(tmp_path):
    # each text is under the cap on one text; 2,000 of them are not
    spec = _each_decision("for t in pile:\n  t.note = big", {"big": "a" * 90_000},
                          zones=[{"id": "pile"}], things=[{"id": "card", "count": 2_000, "start": "pile"}],
                          props={"things": {"note": ""}})
    rs = load(tmp_path, spec)
    with _Bounded(), pytest.raises(GameError) as info:
        game = Game(rs, 1)
        play_out(game, make_agents("random", 1, 0))
    assert "the position would hold more than" in _located(info.value)


def test_a_local_of_a_waiting_rule_counts_toward_the_position(tmp_path):
    rs = load(tmp_path, {"variables": {"x": 0}, "limits": {"max_decisions": 1_000_000},
                         "setup": "y = []\nwhile true:\n  y = [y] + range(99999)\n  x = choose(player(0), [1, 2])"})
    with _Bounded(), pytest.raises(GameError) as info:
        game = Game(rs, 1)
        play_out(game, make_agents("random", 1, 0))
    assert "the position would hold more than" in _located(info.value)


def test_a_list_that_holds_itself_is_refused(tmp_path):
    rs = load(tmp_path, _each_decision("x[0] = x", {"x": [0]}))
    with _Bounded(), pytest.raises(GameError) as info:
        game = Game(rs, 1)
        play_out(game, make_agents("random", 1, 0))
    assert f"nested more than {limits.MAX_DEPTH} deep cannot be kept" in _located(info.value)


def test_a_list_replaced_each_decision_gives_its_items_back(tmp_path):
    # 50,000 items kept, replaced 100 times: 5,000,000 stored in all, never more than 100,000 at once
    rs = load(tmp_path, _each_decision("x = range(50000)\ny = [x]", {"x": [], "y": []},
                                       limits={"max_decisions": 100}))
    game = Game(rs, 1)
    play_out(game, make_agents("random", 1, 0))
    assert game.is_over and game.decisions == 100
    assert game.state.held_total == 100_001
    assert game.clone().state.held_total == 100_001


@pytest.mark.slow
def test_board_links_added_in_play_count_toward_the_position(tmp_path):
    board = {"spaces": [{"id": "a"}, {"id": "b"}]}
    rs = load(tmp_path, _each_decision("for i in range(20000):\n  connect(space('a'), space('b'))", {"x": 0},
                                       board=board))
    with _Bounded(), pytest.raises(GameError) as info:
        game = Game(rs, 1)
        play_out(game, make_agents("random", 1, 0))
    assert "the position would hold more than" in _located(info.value)


def test_the_docs_state_every_new_limit_the_code_has():
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "dsl.md").read_text(encoding="utf-8")
    for name in ("MAX_CHOICES", "MAX_GAME_WORK", "MAX_POSITION", "MAX_DEPTH", "MAX_RULESET_BYTES", "MAX_VALUES",
                 "MAX_ZONES", "MAX_DEFINITIONS", "MAX_ACTION_DEPTH", "MAX_ACTION_ITEMS", "MAX_REQUEST_BYTES"):
        value = getattr(limits, name)
        assert f"`limits.{name}`" in text, name
        assert f"{value:,}" in text, (name, value)


def test_long_texts_replaced_by_short_ones_are_not_refused_near_the_cap(tmp_path):
    # 1,000 things each hold a text of 1,406 items for a moment, then a short one: 1,406,000 stored, none kept
    spec = _each_decision("for t in pile:\n  t.note = big\n  t.note = 'short'", {"big": "a" * 90_000},
                          zones=[{"id": "pile"}], things=[{"id": "card", "count": 1_000, "start": "pile"}],
                          props={"things": {"note": ""}}, limits={"max_decisions": 3})
    rs = load(tmp_path, spec)
    game = Game(rs, 1)
    play_out(game, make_agents("random", 1, 0))
    assert game.is_over and game.decisions == 3
    assert game.state.held_total < limits.MAX_POSITION


@pytest.mark.slow
def test_too_many_choices_in_simulate_with_workers_is_one_located_line(tmp_path, capsys):
    from cli_runner import run
    _pile(tmp_path, 120)
    folder = next(p for p in tmp_path.iterdir() if p.is_dir())
    with _Bounded():
        assert run(["simulate", str(folder), "--games", "4", "--players", "1", "--workers", "2"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "ruleset.yaml:" in err and "action 'pick' offers more than" in err, err
