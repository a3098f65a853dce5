"""The drawn table's JSON (what a click does, what a face-down card shows), undo, rematch and watch notices."""
import json
import random

import pytest

from interpreter.play.game import Game
from interpreter.play.saves import decisions_of
from interpreter.rules.loading import load_ruleset
from interpreter.web.layout import board_layout, seat_colours
from interpreter.web.table import Refused, WebTable


def _table(rid="der-mythos", agents="human,random", seed=4, players=None):
    rs = load_ruleset(rid, None)
    return WebTable(Game(rs, players or rs.min_players, seed=seed), agents, seed)


def _things(state):
    t = state["table"]
    return [x for things in t["spaces"].values() for x in things] + [x for z in t["zones"] for x in z["things"]]


@pytest.mark.parametrize("rid", ["der-mythos", "titanic", "collapsible-d", "kuhn-poker"])
def test_a_face_down_thing_shows_only_its_back_and_public_attributes(rid):
    table = _table(rid, agents="human," * 2 + "human" if rid == "collapsible-d" else "human,human")
    game = table.game
    state = table.seat_state(0)
    hidden = [t for t in _things(state) if "back" in t]
    assert hidden, "the test needs a ruleset with a thing seat 0 cannot see"
    most = max(len(t.public) for t in game.table.things.values())
    backs = {t.back for t in game.table.things.values()}
    for t in hidden:
        assert set(t) == {"back", "attrs"} and t["back"] in backs and len(t["attrs"]) <= most
    # no id of a thing the seat cannot see, anywhere in the answer; keys instead, each once
    text = json.dumps(state)
    view = game.view(0)
    seen = {t["id"] for z in view["zones"].values() for t in z["things"] if "id" in t}
    unseen = [tid for tid in game.table.things if tid not in seen]
    assert unseen
    assert not any(json.dumps(tid) in text for tid in unseen)
    keys = [t["key"] for t in _things(state) if "key" in t]
    assert len(keys) == len(set(keys))


def test_each_action_names_the_card_or_space_a_click_on_it_plays():
    state = _table("der-mythos").seat_state(0)
    hand = next(z for z in state["table"]["zones"] if z["mine"] and z["things"])
    by_key = {t["key"]: t["name"] for t in hand["things"]}
    for a in state["table"]["actions"]:
        (key,) = a["targets"]
        assert by_key[key].split()[-1] == a["label"].split()[-1]   # "play passenger 3" is the card "red 3"
    tutorial = _table("tutorial", seed=3).seat_state(0)
    walks = [a for a in tutorial["table"]["actions"] if a["label"].startswith("walk to")]
    layout = board_layout(load_ruleset("tutorial", None))
    names = {b["id"]: " ".join(b["name"]) for b in layout["spaces"]}
    assert walks
    for a in walks:
        (zone,) = a["targets"]
        assert names[zone].lower().replace("…", "") in a["label"].lower() or zone in names


def test_each_seat_has_its_own_colour_named_after_it_when_it_can_be():
    assert seat_colours(["red", "yellow"])[0] != seat_colours(["red", "yellow"])[1]
    assert len(set(seat_colours(["player 1", "player 2", "player 3"]))) == 3
    assert len(set(seat_colours(["red", "red"]))) == 2


def test_every_space_of_a_board_is_placed_and_no_two_overlap():
    layout = board_layout(load_ruleset("collapsible-d", None))
    spaces = layout["spaces"]
    assert len([b for b in spaces if not b["container"]]) == len(load_ruleset("collapsible-d", None).board.graph)
    for i, a in enumerate(spaces):
        for b in spaces[i + 1:]:
            apart = (a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"] or
                     a["y"] + a["h"] <= b["y"] or b["y"] + b["h"] <= a["y"])
            assert apart, (a["id"], b["id"])
    assert board_layout(load_ruleset("der-mythos", None)) is None


def test_undo_takes_back_the_seats_decision_and_the_bots_after_it():
    table = _table("tutorial", seed=3)
    with pytest.raises(Refused, match="no decision"):
        table.undo(0, table.step)
    before = decisions_of(table.game)
    table.act(0, 0, table.step)
    assert len(decisions_of(table.game)) > len(before)
    assert table.seat_state(0)["can_undo"]
    with pytest.raises(Refused, match="moved on"):
        table.undo(0, table.step - 1)
    table.undo(0, table.step)
    assert decisions_of(table.game) == before
    assert table.game.deciding_players == [0]


def test_once_another_person_has_decided_an_undo_is_asked_and_done_when_all_agree():
    table = _table("tutorial", agents="human,human,human", seed=3, players=3)
    table.act(0, 0, table.step)
    while 1 not in table.game.deciding_players:
        table.act(0, 0, table.step)
    before_mine = decisions_of(table.game)[:max(n for n, m in enumerate(decisions_of(table.game))
                                                 if m["player"] == 0)]
    table.act(1, 0, table.step)
    state = table.seat_state(0)
    assert state["can_undo"] and state["undo_needs_yes"]
    decided = decisions_of(table.game)
    table.undo(0, table.step)   # asked, not done
    assert decisions_of(table.game) == decided
    assert table.seat_state(0)["undo_asked"] == {"by": "red", "mine": True, "agreed": [], "may_answer": False}
    assert table.seat_state(1)["undo_asked"]["may_answer"]
    with pytest.raises(Refused, match="nobody else"):
        table.agree(0, table.step)   # not one's own
    table.agree(1, table.step)
    assert decisions_of(table.game) == decided   # seat 2 has not agreed yet
    assert table.seat_state(0)["undo_asked"]["agreed"] == [table.game.player_name(1)]
    table.agree(2, table.step)
    assert decisions_of(table.game) == before_mine and table.undo_ask is None
    # refused: the game goes on as it was
    table.act(0, 0, table.step)
    while 1 not in table.game.deciding_players:
        table.act(0, 0, table.step)
    table.act(1, 0, table.step)
    decided = decisions_of(table.game)
    table.undo(0, table.step)
    table.decline(2, table.step)
    assert decisions_of(table.game) == decided and table.seat_state(0)["undo_asked"] is None


def test_rematch_begins_the_next_seed_at_the_same_table():
    table = _table("pig", seed=9)
    tokens = dict(table.tokens)
    with pytest.raises(Refused, match="not over"):
        table.rematch(0)
    rng = random.Random(1)
    while not table.game.is_over:
        state = table.seat_state(0)
        table.act(0, rng.choice(state["actions"])["index"], table.step)
    games, seed = table.games, table.game.seed
    table.rematch(0)
    assert not table.game.is_over and table.game.seed == seed + 1 and table.games == games + 1
    assert table.tokens == tokens and table.seat_state(0)["game"] == games + 1


def test_undo_and_rematch_keep_the_database_true_to_the_table(tmp_path):
    from interpreter.web.store import Keeper, TableStore
    rs = load_ruleset("tutorial", None)
    store = TableStore(str(tmp_path / "t.db"))
    table = WebTable(Game(rs, 2, seed=3), "human,random", 3)
    keeper = Keeper(store, store.begin("tutorial", table.game, ["human", "random"], table.tokens))
    table.on_change = keeper
    for _ in range(3):
        table.act(0, 0, table.step)
    table.undo(0, table.step)
    table.act(0, len(table.seat_state(0)["actions"]) - 1, table.step)
    from interpreter.web.store import COLUMNS, Row
    row = Row._make(store.db.execute(f"SELECT {COLUMNS} FROM tables WHERE id = ?", (keeper.table_id,)).fetchone())
    game, _ = store.restore(rs, row)
    assert decisions_of(game) == decisions_of(table.game)
    while not table.game.is_over:
        table.act(0, 0, table.step)
    table.rematch(0)
    assert store.unfinished("tutorial", None, ["human", "random"]).id == keeper.table_id != row.id
    assert store.db.execute("SELECT over FROM tables WHERE id = ?", (row.id,)).fetchone() == (1,)


def test_the_last_decisions_changes_and_a_watch_error_reach_every_page():
    table = _table("tutorial", seed=3)
    table.act(0, 0, table.step)
    recent = table.seat_state(0)["recent"]
    assert recent and recent[0]["by"] == table.game.player_name(0) and recent[0]["zones"]
    table.notice = "rules.yaml:3:1: something is wrong"
    assert table.seat_state(1 if 1 in table.humans else 0)["notice"] == table.notice
    table.restart(Game(load_ruleset("tutorial", None), 2, seed=4))
    assert table.seat_state(0)["notice"] is None


def _tutorial_with(tmp_path, entry):
    """The tutorial copied, its display's `sea` entry replaced by ``entry``."""
    import shutil

    from interpreter.load.files import resolve_ruleset
    source = resolve_ruleset("tutorial")[0].parent
    dest = tmp_path / "mine"
    shutil.copytree(source, dest)
    ruleset = dest / "ruleset.yaml"
    text = ruleset.read_text()
    assert "\n    - sea\n" in text
    ruleset.write_text(text.replace("\n    - sea\n", f"\n    - {entry}\n"))
    return str(dest)


def test_a_display_entry_may_place_a_zone_on_the_board(tmp_path):
    from interpreter.rules import loading
    loading._load.cache_clear()
    rs = load_ruleset(_tutorial_with(tmp_path, "{zone: sea, at: [4.2, 1]}"), None)
    layout = board_layout(rs)
    boxes = {b["id"]: b for b in layout["spaces"]}
    sea, aft = boxes["sea"], boxes["cabins_aft"]   # aft cabins: pos [3, 1]
    assert sea["container"] and sea["name"] == ["sea"]
    rightmost = max(b["x"] for b in layout["spaces"] if b["id"] != "sea")
    assert sea["x"] > rightmost   # x 4.2 lies right of the spaces (x up to 3)
    assert abs(sea["y"] + sea["h"] / 2 - aft["y"] - aft["h"] / 2) < 1   # the same row
    table = WebTable(Game(rs, 2, seed=3), "human,random", 3)
    while not table.game.view(0)["zones"]["sea"]["count"] and not table.game.is_over:
        table.act(0, 0, table.step)
    state = table.seat_state(0)
    assert "sea" in state["table"]["spaces"] and all(z["id"] != "sea" for z in state["table"]["zones"])


@pytest.mark.parametrize("entry, words", [
    ("{zone: hold_fore, at: [1, 1]}", "is a space already"),
    ("{zone: sea, at: [1, x]}", "needs a number"),
])
def test_a_zone_placed_where_it_cannot_be_is_a_located_error(tmp_path, entry, words):
    from interpreter.errors import DavitError
    from interpreter.rules import loading
    loading._load.cache_clear()
    with pytest.raises(DavitError) as refused:
        load_ruleset(_tutorial_with(tmp_path, entry), None)
    assert "ruleset.yaml:" in str(refused.value) and words in str(refused.value)
