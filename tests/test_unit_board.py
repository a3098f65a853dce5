"""Unit tests for interpreter.rules.board: the graph, one-way edges, removed spaces, links, paths."""
import itertools

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.errors import GameError
from interpreter.rules.board import Board

_serial = itertools.count()

#   a --ladder--> b ==corridor== c ==stairs== d ==corridor== a      e (alone)
BOARD = {
    "spaces": [{"id": "a", "attrs": {"level": 1}}, {"id": "b"}, {"id": "c"}, {"id": "d"}, {"id": "e"}],
    "edges": [
        {"from": "a", "to": "b", "kind": "ladder", "one_way": True},
        {"from": "b", "to": "c", "kind": "corridor"},
        {"from": "c", "to": "d", "kind": "stairs"},
        {"from": "d", "to": "a", "kind": "corridor"},
    ],
}


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / f"rs{next(_serial)}"
    folder.mkdir()
    data = {"id": "unit", "players": {"min": 1, "max": 2}, "board": BOARD,
            "flow": [{"do": "c = choose(player(0), [1, 2])"}]}  # keeps the game open
    (folder / "ruleset.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    g = Game(load_ruleset(folder), 1)
    assert not g.is_over
    return g


def ids(zones):
    return [z.id for z in zones]


def test_static_graph_has_two_arcs_per_two_way_edge(game):
    graph = game.board.graph
    assert set(graph.nodes) == {"a", "b", "c", "d", "e"}
    assert graph.has_edge("a", "b") and not graph.has_edge("b", "a")
    assert graph.has_edge("b", "c") and graph.has_edge("c", "b")
    assert graph.edges["c", "d"]["kind"] == "stairs"
    assert graph.nodes["a"]["level"] == 1
    assert game.board.spaces == ["a", "b", "c", "d", "e"]


def test_neighbours_follow_arrows(game):
    board = game.board
    assert sorted(ids(board.neighbours(game, "a"))) == ["b", "d"]
    assert sorted(ids(board.neighbours(game, "b"))) == ["c"]  # the ladder is not walked down
    assert ids(board.neighbours(game, "e")) == []


def test_neighbours_by_kind_and_by_zone_ref(game):
    board = game.board
    a = game.table.zones["a"]
    assert ids(board.neighbours(game, a, "corridor")) == ["d"]
    assert ids(board.neighbours(game, a, "ladder")) == ["b"]
    assert ids(board.neighbours(game, "c", "nothing")) == []
    assert ids(board.neighbours(game, "c", ["corridor"])) == []   # not an edge kind: no neighbour, no error


def test_removed_space_is_left_out_of_neighbours_asked_before(game):
    board = game.board
    assert sorted(ids(board.neighbours(game, "a"))) == ["b", "d"]   # asked once on the printed board ...
    board.set_removed(game, "b", True)
    assert ids(board.neighbours(game, "a")) == ["d"]                 # ... the answer still sees the change
    assert ids(board.neighbours(game, "a", "ladder")) == []


def test_removed_space_disappears_with_its_edges(game):
    board = game.board
    board.set_removed(game, "b", True)
    assert ids(board.neighbours(game, "a")) == ["d"]
    assert ids(board.neighbours(game, "c")) == ["d"]
    assert ids(board.neighbours(game, "b")) == []
    assert game.log[-1] == {"e": "board", "space": "b", "removed": True}
    board.set_removed(game, "b", False)
    assert sorted(ids(board.neighbours(game, "a"))) == ["b", "d"]


def test_removing_an_unknown_space_is_a_game_error(game):
    with pytest.raises(GameError):
        game.board.set_removed(game, "zz", True)


def test_connect_adds_a_two_way_link(game):
    board = game.board
    board.connect(game, "e", "c", "rope", False)
    assert ids(board.neighbours(game, "e")) == ["c"]
    assert "e" in ids(board.neighbours(game, "c"))
    assert ids(board.neighbours(game, "e", "rope")) == ["c"]
    assert game.state.links == [["e", "c", "rope", False]]
    assert game.log[-1] == {"e": "board", "link": ["e", "c", "rope", False]}


def test_connect_one_way(game):
    board = game.board
    board.connect(game, "e", "a", "slide", True)
    assert ids(board.neighbours(game, "e")) == ["a"]
    assert "e" not in ids(board.neighbours(game, "a"))


def test_connect_to_unknown_space_is_a_game_error(game):
    with pytest.raises(GameError):
        game.board.connect(game, "a", "nowhere", "x", False)
    assert game.state.links == []


def test_link_to_a_removed_space_is_not_followed(game):
    board = game.board
    board.connect(game, "e", "c", "rope", False)
    board.set_removed(game, "c", True)
    assert ids(board.neighbours(game, "e")) == []


def test_links_added_to_a_clone_stay_in_the_clone(game):
    board = game.board
    board.connect(game, "e", "c", "rope", False)
    assert ids(board.neighbours(game, "e")) == ["c"]          # the added arcs are now worked out ...
    twin = game.clone()
    board.connect(twin, "e", "a", "rope", True)               # ... and shared with the clone until it adds one
    assert ids(board.neighbours(twin, "e")) == ["c", "a"]
    assert ids(board.neighbours(game, "e")) == ["c"]
    assert ids(board.neighbours(twin, "a")) == sorted(ids(board.neighbours(game, "a")))   # one way: not back
    restored = Game.from_json(game.ruleset, twin.to_json())   # worked out anew from the saved links
    assert [ids(board.neighbours(restored, s)) for s in "abcde"] == [ids(board.neighbours(twin, s)) for s in "abcde"]


def test_reachable(game):
    board = game.board
    assert sorted(ids(board.reachable(game, "a"))) == ["b", "c", "d"]
    assert sorted(ids(board.reachable(game, "a", 1))) == ["b", "d"]
    assert ids(board.reachable(game, "a", 0)) == []
    # from b the way back to a goes round through c and d
    assert sorted(ids(board.reachable(game, "b"))) == ["a", "c", "d"]
    assert sorted(ids(board.reachable(game, "b", 2))) == ["c", "d"]
    assert ids(board.reachable(game, "e")) == []


def test_reachable_by_kind(game):
    # only corridors: a-d and b-c
    assert ids(game.board.reachable(game, "a", None, "corridor")) == ["d"]
    assert ids(game.board.reachable(game, "b", None, "corridor")) == ["c"]


def test_reachable_from_removed_space_is_empty(game):
    game.board.set_removed(game, "a", True)
    assert ids(game.board.reachable(game, "a")) == []
    assert sorted(ids(game.board.reachable(game, "b"))) == ["c", "d"]


def test_reachable_answers_are_fresh_lists(game):
    # answers are kept per tree; a rule that changes the list it got must not change the next answer
    first = game.board.reachable(game, "a")
    first.clear()
    assert sorted(ids(game.board.reachable(game, "a"))) == ["b", "c", "d"]
    game.board.set_removed(game, "c", True)   # a new tree, a new answer
    assert sorted(ids(game.board.reachable(game, "a"))) == ["b", "d"]


def test_distance_is_the_length_of_the_shortest_path(game):
    board = game.board
    spaces = ["a", "b", "c", "d", "e"]

    def by_path(x, y):
        route = board.path(game, x, y)
        return len(route) - 1 if route else None
    assert board.distance(game, "b", "a") == 3 and board.distance(game, "a", "e") is None
    for change in (lambda: None, lambda: board.connect(game, "e", "c", "rope", False),
                   lambda: board.connect(game, "b", "a", "rope", True),   # one way: b to a only
                   lambda: board.set_removed(game, "d", True)):
        change()
        assert [[board.distance(game, x, y) for y in spaces] for x in spaces] == \
            [[by_path(x, y) for y in spaces] for x in spaces]


def test_path_is_shortest_and_respects_arrows(game):
    board = game.board
    assert ids(board.path(game, "a", "b")) == ["a", "b"]
    assert ids(board.path(game, "b", "a")) == ["b", "c", "d", "a"]
    assert ids(board.path(game, "a", "a")) == ["a"]
    assert ids(board.path(game, "a", "e")) == []


def test_path_avoids_removed_spaces(game):
    board = game.board
    board.set_removed(game, "d", True)
    assert ids(board.path(game, "b", "a")) == []
    assert ids(board.path(game, "a", "c")) == ["a", "b", "c"]
    assert ids(board.path(game, "a", "d")) == []


def test_path_uses_added_links(game):
    board = game.board
    board.connect(game, "b", "a", "rope", True)
    assert ids(board.path(game, "b", "a")) == ["b", "a"]


def test_board_changes_live_in_the_state_only(game):
    twin = game.clone()
    twin.board.set_removed(twin, "b", True)
    twin.board.connect(twin, "e", "a", "rope", False)
    assert sorted(ids(game.board.neighbours(game, "a"))) == ["b", "d"]
    assert ids(game.board.neighbours(game, "e")) == []
    assert game.board is twin.board  # the static graph is shared


def test_remembered_trees_follow_the_board_changes(game):
    # the board keeps the breadth-first trees it walked; a change must not reuse a stale one
    board = game.board
    assert ids(board.path(game, "b", "a")) == ["b", "c", "d", "a"]
    twin = game.clone()
    board.set_removed(game, "d", True)
    assert ids(board.path(game, "b", "a")) == []
    assert ids(board.path(twin, "b", "a")) == ["b", "c", "d", "a"]   # the twin's board did not change
    board.connect(game, "b", "a", "rope", True)
    assert ids(board.path(game, "b", "a")) == ["b", "a"]
    assert sorted(ids(board.reachable(game, "b"))) == ["a", "c"]
    board.set_removed(game, "d", False)
    assert sorted(ids(board.reachable(game, "b", 1))) == ["a", "c"]
    assert sorted(ids(board.reachable(twin, "b", 1))) == ["c"]


def test_board_built_directly():
    board = Board([{"id": "x", "colour": "red"}, {"id": "y"}],
                  [{"from": "x", "to": "y", "kind": "path", "one_way": False}])
    assert board.adjacency == {"x": (("y", "path"),), "y": (("x", "path"),)}
    assert board.graph.nodes["x"]["colour"] == "red"
