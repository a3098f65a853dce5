"""The web table without a browser: tokens, bots, stale clicks, what a seat's JSON holds; serve's errors."""
import json

import pytest
from cli_runner import run as _run

from interpreter.play.game import Game
from interpreter.rules.loading import load_ruleset
from interpreter.web.table import Refused, WebTable


def _table(rid="der-mythos", players=3, agents="human,random"):
    return WebTable(Game(load_ruleset(rid, None), players, seed=2), agents, seed=2)


def test_one_long_random_token_per_human_seat_and_nothing_else_opens_a_seat():
    table = _table(agents="human,random,human")
    assert table.humans == [0, 2]
    assert sorted(table.tokens.values()) == [0, 2]
    for token, seat in table.tokens.items():
        assert len(token) >= 24 and table.seat_of(token) == seat and table.token_of(seat) == token
    assert table.seat_of("0") is None and table.seat_of("") is None
    assert table.seat_of(table.token_of(0) + "x") is None
    assert _table(agents="human,random").tokens.keys().isdisjoint(table.tokens)



def test_a_rule_that_stops_during_a_decision_is_one_line_for_the_seat_and_a_notice_for_every_page(tmp_path):
    # a runtime error of the rules (here 1 / 0 in an action) escaped the table: a bare 500 and a traceback
    # in the server's log
    from ruleset_builder import load
    rs = load(tmp_path, {"functions": {"same": {"params": ["n"], "value": "n"}},
                         "actions": [{"id": "divide", "do": "x = 1 / same(0)"}],
                         "flow": [{"turn": {"player": "player(0)", "actions": ["divide"]}}]}, max_players=2)
    table = WebTable(Game(rs, 2, seed=0), "human,random", seed=0)
    step = table.step
    with pytest.raises(Refused, match=r"the rules stopped: .*ruleset.yaml:\d+:\d+: "):
        table.act(0, 0, step)
    assert table.step > step and "the rules stopped" in table.seat_state(0)["notice"]

def test_bots_play_until_a_person_must_decide():
    table = _table(rid="tutorial", players=2)
    game = table.game
    assert 0 in game.deciding_players
    state = table.seat_state(0)
    assert state["actions"] and state["question"]
    assert [a["label"] for a in state["actions"]] == [str(a) for a in game.legal_actions(0)]


def test_a_stale_or_unknown_action_is_refused_and_changes_nothing():
    table = _table(rid="tutorial", players=2)
    log = list(table.game.log)
    with pytest.raises(Refused, match="moved on"):
        table.act(0, 0, table.step + 1)
    with pytest.raises(Refused, match="not one of your actions"):
        table.act(0, 99, table.step)
    with pytest.raises(Refused):
        table.act(1, 0, table.step)   # the bot's seat is not asked
    assert table.game.log == log
    step = table.step
    table.act(0, 0, step)
    assert table.step > step


def test_a_seat_json_holds_no_thing_id_and_no_hidden_card_of_another_seat():
    table = _table()
    game = table.game
    text = json.dumps(table.seat_state(0))
    for tid in game.table.things:
        assert json.dumps(tid) not in text
    hidden_from_0 = {t["name"] for zid, z in game.view(1)["zones"].items() if z["owner"] == 1
                     for t in z["things"] if "name" in t}
    assert hidden_from_0
    assert not any(f'"{name}"' in text for name in hidden_from_0)
    own = table.seat_state(0)
    assert any(z["mine"] and z["things"] for z in own["zones"])


def test_the_log_is_sent_from_where_the_page_stopped():
    table = _table(rid="tutorial", players=2)
    first = table.seat_state(0)
    assert first["log"] and first["log_size"] == len(table.game.view(0)["log"])
    table.act(0, 0, table.step)
    more = table.seat_state(0, since=first["log_size"])
    assert more["log"] and more["log"] != first["log"][: len(more["log"])]
    assert table.seat_state(0, since=10**9)["log"] == []


@pytest.mark.parametrize("argv, words", [
    (["serve", "tutorial", "--agents", "random"], "at least one human seat"),
    (["serve", "tutorial", "--players", "9"], "not 9"),
    (["serve", "tutorial", "--port", "70000", "--no-browser"], "--port"),
    (["serve", "tutorial", "--agents", "human,robot"], "unknown agent"),
])
def test_serve_mistakes_are_one_line(capsys, argv, words):
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    assert _run(argv) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err and "Traceback" not in err


def _touch_later(path, text):
    """Write ``text`` and move the modification time on, so even a coarse clock sees a change."""
    import os
    old = path.stat().st_mtime_ns
    path.write_text(text)
    os.utime(path, ns=(old + 2_000_000_000, old + 2_000_000_000))


def test_watch_begins_a_new_game_with_the_edited_rules_and_keeps_the_last_good_one(tmp_path, capsys):
    from interpreter.web.watch import RulesetWatcher
    dest = tmp_path / "mine"
    assert _run(["copy", "tutorial", str(dest)]) == 0
    capsys.readouterr()
    table = WebTable(Game(load_ruleset(str(dest), None), 2, seed=1), "human,random", seed=1)
    token, links_before = table.token_of(0), dict(table.tokens)
    table.act(0, 0, table.step)
    changes, errors = [], []
    watcher = RulesetWatcher(str(dest), None, changes.append, errors.append, interval=60)
    assert watcher.check() is False and not changes   # nothing edited yet
    ruleset_file = dest / "ruleset.yaml"
    text = ruleset_file.read_text()
    name_line = next(line for line in text.splitlines() if line.startswith("name:"))
    _touch_later(ruleset_file, text.replace(name_line, 'name: "Abandon Ship, edited"'))
    assert watcher.check() is True
    (edited,) = changes
    assert edited.name == "Abandon Ship, edited"
    step = table.step
    table.restart(Game(edited, 2, seed=1))
    state = table.seat_state(0)
    assert state["ruleset"] == "Abandon Ship, edited" and state["game"] == 2 and state["step"] > step
    assert table.tokens == links_before and table.token_of(0) == token
    # a broken edit: reported with its place, the game goes on
    _touch_later(ruleset_file, text.replace(name_line, "name: [unclosed"))
    assert watcher.check() is False
    assert errors and "ruleset.yaml" in errors[0]
    assert table.seat_state(0)["ruleset"] == "Abandon Ship, edited"
