"""Unit tests for interpreter/dsl/prims_movement.py: walk_ends, through compiled DSL."""

import itertools

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.authoring.snippets import SnippetCompiler
from interpreter.dsl.prims_movement import walk_ends
from interpreter.errors import GameError
from interpreter.load.limits import MAX_WORK
from interpreter.machine import fast_paths
from interpreter.machine.budget import over_budget

# A ring a-b-c-d-a, a spur d-e (e is a dead end), a one-way arrow c->f,
# and a room r off b (kind "door").
#
#     a --- b --- r
#     |     |
#     d --- c --> f
#     |
#     e
RULESET = {
    "id": "walks",
    "players": {"min": 1, "max": 2},
    "board": {
        "spaces": [{"id": s} for s in "abcdefr"],
        "edges": [
            {"from": "a", "to": "b"}, {"from": "b", "to": "c"}, {"from": "c", "to": "d"},
            {"from": "d", "to": "a"}, {"from": "d", "to": "e"},
            {"from": "c", "to": "f", "one_way": True, "kind": "arrow"},
            {"from": "b", "to": "r", "kind": "door"},
        ],
    },
    "things": [{"id": "pawn", "start": "a"}],
    "flow": [{"do": "x = choose(player(0), [1, 2])"}],
}


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    folder = tmp_path_factory.mktemp("walks")
    (folder / "ruleset.yaml").write_text(yaml.safe_dump(RULESET, sort_keys=False), encoding="utf-8")
    return load_ruleset(folder)


@pytest.fixture
def game(ruleset):
    return Game(ruleset, 1, seed=1)


def ev(game, text):
    return SnippetCompiler(game.ruleset).evaluate(game, text, pure=False)


def ends(game, text):
    return [z.id for z in ev(game, text)]


def test_exact_steps_never_straight_back(game):
    # One step: the neighbours. Two steps without stepping back: never a again.
    assert ends(game, 'walk_ends(space("a"), 1)') == ["b", "d"]
    assert ends(game, 'walk_ends(space("a"), 2)') == ["c", "e", "r"]
    assert "a" not in ends(game, 'walk_ends(space("a"), 2)')


def test_going_back_allowed_when_asked(game):
    assert "a" in ends(game, 'walk_ends(space("a"), 2, no_reverse=false)')


def test_no_reverse_counts_by_its_truth_whatever_its_value(game):
    for _ in range(2):   # (the second walk replays the first's shape)
        assert ends(game, 'walk_ends(space("a"), 2, no_reverse=[1])') == ["c", "e", "r"]
        assert ends(game, 'walk_ends(space("a"), 2, no_reverse=[])') == ["a", "c", "e", "r"]


def test_zero_steps_is_the_start(game):
    assert ends(game, 'walk_ends(space("a"), 0)') == ["a"]


def test_one_way_edges_are_followed_only_forwards(game):
    assert "f" in ends(game, 'walk_ends(space("b"), 2)')
    # From f nothing leads anywhere: no walk of one step exists.
    assert ends(game, 'walk_ends(space("f"), 1)') == []


def test_dead_end_stops_a_walk(game):
    # d-e is a dead end: a walk cannot turn round in e, so a 2-step walk from d
    # via e does not exist; e is an end only for exactly 1 step.
    assert "e" in ends(game, 'walk_ends(space("d"), 1)')
    assert "d" not in ends(game, 'walk_ends(space("d"), 2)')


def test_kind_filters_edges(game):
    assert ends(game, 'walk_ends(space("b"), 1, "door")') == ["r"]
    assert ends(game, 'walk_ends(space("b"), 1, ["path", "arrow"])') == ["a", "c"]


def test_enter_forbids_spaces(game):
    assert ends(game, 'walk_ends(space("a"), 2, none, s -> s.id != "b")') == ["c", "e"]


def test_stop_ends_a_walk_early(game):
    # The room r stops a walk with steps left: 3 steps from a can end in r after 2.
    assert "r" in ends(game, 'walk_ends(space("a"), 3, none, none, s -> s.id == "r")')
    assert "r" not in ends(game, 'walk_ends(space("a"), 3)')


def test_removed_spaces_are_skipped(game):
    SnippetCompiler(game.ruleset).run(game, 'remove_space(space("b"))')
    assert ends(game, 'walk_ends(space("a"), 1)') == ["d"]
    assert ends(game, 'walk_ends(space("b"), 1)') == []


@pytest.mark.parametrize("text", ['walk_ends(space("a"), -1)', 'walk_ends(space("a"), 1, 5)'])
def test_bad_arguments_are_game_errors(game, text):
    with pytest.raises(GameError):
        ev(game, text)


# --- the board's kept steps (Board.walk_steps) against a walk that reads the board at every step ----------

def plain_walk(g, origin, steps, kinds, no_reverse, enter, stop):
    """walk_ends as first written: the arcs read from Board.arcs at each step, every state on one stack."""
    board, zones = g.board, g.table.zones
    if g.state.zprops.get(origin, {}).get("removed"):
        return []
    allowed, stops, ends, seen = {}, {}, {}, set()
    todo = [(origin, None, steps)]
    while todo:
        step = todo.pop()
        if step in seen:
            continue
        seen.add(step)
        node, prev, left = step
        if left == 0:
            ends[node] = None
            continue
        arcs = board.arcs(g, node)
        g.work += 1 + len(arcs)
        if g.work > MAX_WORK:
            raise over_budget(None)
        for nxt, k in arcs:
            if (kinds is not None and k not in kinds) or (no_reverse and nxt == prev):
                continue
            if nxt not in allowed:
                allowed[nxt] = True if enter is None else bool(enter(zones[nxt]))
            if not allowed[nxt]:
                continue
            if nxt not in stops:
                stops[nxt] = False if stop is None else bool(stop(zones[nxt]))
            if stops[nxt]:
                ends[nxt] = None
                continue
            todo.append((nxt, node, left - 1))
    return [zones[n] for n in sorted(ends, key=board.order.get)]


def asked(log, answer):
    """A rule's lambda as a Python function that notes each space it is asked about."""
    def ask(space):
        log.append(space.id)
        return answer(space)
    return ask


WALKS = [(kind, enter, stop, no_reverse)
         for kind in (None, "path", ["path", "door"], ["arrow", "link"])
         for enter in (None, lambda s: s.id != "c")
         for stop in (None, lambda s: s.id in ("r", "e"))
         for no_reverse in (True, False)]


def same_walks(game):
    """Every walk from every space, by walk_ends and by the plain walk: the same ends, the same questions
    of enter and stop in the same order, the same work."""
    for origin, steps, (kind, enter, stop, no_reverse) in itertools.product("abcdefr", range(5), WALKS):
        found = []
        for walk in ("kept", "plain"):
            log: list = []
            ask_enter = enter and asked(log, enter)
            ask_stop = stop and asked(log, stop)
            game.work = 0
            if walk == "kept":
                got = walk_ends(game, None, game.table.zones[origin], steps, kind, ask_enter, ask_stop,
                                no_reverse=no_reverse)
            else:
                kinds = None if kind is None else {kind} if isinstance(kind, str) else set(kind)
                got = plain_walk(game, origin, steps, kinds, no_reverse, ask_enter, ask_stop)
            found.append(([z.id for z in got], log, game.work))
        assert found[0] == found[1], (origin, steps, kind, no_reverse)
    return found


def test_kept_steps_follow_the_board_as_it_changes(game):
    compiler = SnippetCompiler(game.ruleset)
    same_walks(game)   # (the steps of the printed board are kept now)
    assert ends(game, 'walk_ends(space("f"), 1)') == []
    compiler.run(game, 'connect(space("e"), space("f"))')   # a way out of f, and a second one out of e
    assert ends(game, 'walk_ends(space("f"), 1)') == ["e"]
    same_walks(game)
    compiler.run(game, 'connect(space("a"), space("b"), "path")')   # a link doubling a printed edge
    same_walks(game)
    compiler.run(game, 'remove_space(space("d"))')
    assert "e" not in ends(game, 'walk_ends(space("a"), 2)')
    same_walks(game)
    compiler.run(game, 'restore_space(space("d"))')
    same_walks(game)


def test_a_rule_that_changes_the_board_mid_walk_is_followed(game):
    # enter removes c when asked about b, the first step: the steps after it must not lead through c
    found = []
    for walk in ("kept", "plain"):
        g = game.clone()

        def remove_c(space, g=g):
            if space.id == "b":
                g.board.set_removed(g, "c", True)
            return True
        whole = walk_ends(g, None, g.table.zones["a"], 3)   # (keeps the steps it takes)
        assert [z.id for z in whole] == ["b", "d", "f"]
        g.work = 0
        if walk == "kept":
            got = walk_ends(g, None, g.table.zones["a"], 3, None, asked([], remove_c))
        else:
            got = plain_walk(g, "a", 3, None, True, asked([], remove_c), None)
        found.append(([z.id for z in got], g.work))
    assert found[0] == found[1]
    assert found[0][0] == []   # without c every walk of three steps runs into a dead end


def test_a_bad_kind_is_refused_after_a_good_one(game):
    assert ends(game, 'walk_ends(space("b"), 1, ["door"])') == ["r"]
    for text in ('walk_ends(space("b"), 1, ["door", 5])', 'walk_ends(space("b"), 1, [["door"]])'):
        with pytest.raises(GameError, match="kind must be a text or a list of texts"):
            ev(game, text)


# --- kept walk shapes: a walk asked again replays what the first did, branching on enter's and stop's answers --

def test_walks_asked_again_replay_the_same_questions_and_work(game):
    first = same_walks(game)   # every question walked once: its shape kept
    again = same_walks(game)   # every question replayed from its shape
    assert again == first


def compare(game, origin, steps, enter, stop=None, no_reverse=True, work=0):
    """walk_ends and the plain walk from the same position: their ends, questions and work, or their errors."""
    found = []
    for walk in ("kept", "plain"):
        g = game.clone()
        g.work = work
        log: list = []
        ask_enter = enter and asked(log, lambda s, g=g: enter(g, s))
        ask_stop = stop and asked(log, lambda s, g=g: stop(g, s))
        try:
            if walk == "kept":
                got = walk_ends(g, None, g.table.zones[origin], steps, None, ask_enter, ask_stop,
                                no_reverse=no_reverse)
            else:
                got = plain_walk(g, origin, steps, None, no_reverse, ask_enter, ask_stop)
            found.append(([z.id for z in got], log, g.work))
        except GameError as error:
            found.append((type(error), str(error), log, g.work))
    assert found[0] == found[1], (origin, steps)
    return found[0]


def test_answers_never_seen_walk_on_from_where_they_differ(game):
    # enter forbids a different set of spaces each time: each walk meets a new answer somewhere on its way
    results = set()
    for forbidden in ["", "c", "b", "bc", "d", "e", "cd", "", "c", "abcdefr"]:
        for steps in (1, 2, 3, 4):
            got = compare(game, "a", steps, lambda g, s, f=forbidden: s.id not in f, lambda g, s: s.id == "r")
            results.add(tuple(got[0]))
    assert len(results) > 4   # (the answers did change the walks)


def test_a_rule_that_changes_the_board_during_a_replay_is_followed(game):
    def removes_c_at_b(g, space, remove):
        if space.id == "b" and remove:
            g.board.set_removed(g, "c", True)
        return True
    for remove in (False, True, False, True):   # the first walk keeps the shape the later ones replay
        got = compare(game, "a", 3, lambda g, s, r=remove: removes_c_at_b(g, s, r))
        assert got[0] == ([] if remove else ["b", "d", "f"])


def test_the_work_budget_stops_a_replay_at_the_same_step(game):
    compare(game, "a", 4, lambda g, s: True, lambda g, s: False)   # (kept)
    outcomes = [compare(game, "a", 4, lambda g, s: True, lambda g, s: False, work=MAX_WORK - spare)
                for spare in range(0, 40)]
    stopped = [o for o in outcomes if len(o) == 4]
    assert stopped and len(stopped) < len(outcomes)   # some walks ran out of work on the way, some did not
    assert len({len(o[2]) for o in stopped}) > 1   # ... after different numbers of questions


def test_an_error_in_enter_leaves_a_shape_that_later_walks_go_on_from(game):
    def fails_at_d(g, space, fail):
        if space.id == "d" and fail:
            raise GameError("enter failed")
        return True
    for fail in (True, False, True, False):
        got = compare(game, "b", 3, lambda g, s, f=fail: fails_at_d(g, s, f))
        assert (got[0] is GameError) == fail


def test_past_the_bound_no_walk_adds_to_the_shapes(game, monkeypatch):
    import interpreter.dsl.prims_movement as movement
    table = game.board.walk_steps(game, None)   # (the board, and its kept tables, serve every game of the ruleset)
    grown = table.get(movement._GROWN, 0)
    monkeypatch.setattr(movement, "_MAX_GROWN", grown + 3)
    for forbidden in ["", "c", "b", "d", "e", "bc", "", "c"]:
        compare(game, "a", 3, lambda g, s, f=forbidden: s.id not in f, no_reverse=False)
    if fast_paths.on():
        assert table[movement._GROWN] == grown + 3   # the walks went on searching, right, and kept nothing more
    else:   # nothing kept at all: the table the walks read holds no shape (nor any step)
        assert movement._LAST[2] is game.board and not movement._LAST[3]
