"""A rule that stops during a move at the web table (a located runtime error: here a division by zero that
only some moves reach) leaves the game as it was before the move: its position, its log, the decisions an
undo plays again and the copy kept in the database. The seat is told in one line (409) and every page
shows where the rules stopped; the bots' decisions at a game's start, on a rematch, on a --watch restart and
after an undo give the same notice, never a 500 or a table that cannot go on."""
import asyncio
import json
import os

import pytest

pytest.importorskip("starlette")

from ruleset_builder import load_text, write_text

from interpreter.errors import GameError, Location
from interpreter.play.game import Game
from interpreter.play.saves import decisions_of
from interpreter.web.server import make_app
from interpreter.web.store import COLUMNS, Keeper, Row, TableStore
from interpreter.web.table import Refused, WebTable

# seat 1 (a bot) nudges, seat 0 (a person) adds, divides or stops. The bot's nudge divides by zero when
# the dice gave d = 0 (its very first decision) or when it brings the total to 3 (its reply to an add);
# the person's divide adds 10 first, then divides by zero: a half-made move
RULES = """
id: stops
name: Stops
players: {min: 2, max: 2}
variables:
  total: 0
  d: 1
functions:
  same: {params: [n], value: n}
actions:
  - id: add
    do: "total += 1"
  - id: divide
    do: |
      total += 10
      total = total // same(0)
  - id: stop
    do: "end_game(reason='stopped')"
  - id: nudge
    do: |
      total += 1
      x = 1 // ((3 - total) * d)
flow:
  - do: "d = roll([0, 1], name='d')"
  - repeat: until_end
    steps:
      - turn: {player: "player(1)", actions: [nudge], max_actions: 1}
      - turn: {player: "player(0)", actions: [add, divide, stop], max_actions: 1}
"""
LOCATED = r"the rules stopped: .*ruleset\.yaml:\d+:\d+: division by zero"


def _rules(tmp_path, text=RULES):
    return load_text(tmp_path, text)


def _seeds(rs):
    """A seed whose bot may begin (d = 1) and whose next one stops at the bot's first decision (d = 0)."""
    d = [Game(rs, 2, seed=s).state.vars["d"] for s in range(200)]
    return next(s for s in range(199) if d[s] == 1 and d[s + 1] == 0)


def _index(table, seat, name):
    return next(n for n, a in enumerate(table.game.legal_actions(seat)) if a.name == name)


def _position(game):
    return json.dumps(game.state.to_json(), sort_keys=True), len(game.log), decisions_of(game), game.decisions


def _request(app, method, path, body=None):
    """One request to the ASGI app, in this thread: (status, JSON). A route that raises is a 500 (as
    starlette's error middleware answers before it raises again)."""
    data = json.dumps(body).encode() if body is not None else b""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    incoming = [{"type": "http.request", "body": data, "more_body": False}]
    sent = []

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    try:
        asyncio.run(app(scope, receive, send))
    except Exception:   # the 500 was sent first
        pass
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    text = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text.decode(errors="replace")


def _kept(tmp_path, table):
    store = TableStore(str(tmp_path / "tables.db"))
    keeper = Keeper(store, store.begin("stops", table.game, ["human", "random"], table.tokens))
    table.on_change = keeper
    keeper(table)
    return store, keeper


def _restored(store, keeper, rs):
    row = Row._make(store.db.execute(f"SELECT {COLUMNS} FROM tables WHERE id = ?", (keeper.table_id,)).fetchone())
    game, _ = store.restore(rs, row)
    return game


def test_a_seat_move_the_rules_stop_in_leaves_the_game_as_it_was_and_the_table_plays_on(tmp_path):
    rs = _rules(tmp_path)
    seed = _seeds(rs)
    table = WebTable(Game(rs, 2, seed=seed), "human,random", seed=seed)
    assert table.notice is None and table.game.deciding_players == [0]
    before, step = _position(table.game), table.step
    # the person's own move stops half made (total += 10 was done)
    with pytest.raises(Refused, match=LOCATED + r".*the move was taken back"):
        table.act(0, _index(table, 0, "divide"), step)
    assert _position(table.game) == before and table.game.state.vars["total"] == 1
    assert table.step > step and "the rules stopped" in table.seat_state(0)["notice"]
    # the person's move is fine, the bot's reply stops: both are taken back
    with pytest.raises(Refused, match=LOCATED):
        table.act(0, _index(table, 0, "add"), table.step)
    assert _position(table.game) == before and table.game.deciding_players == [0]
    assert table.seat_state(0)["actions"] and not table.seat_state(0)["can_undo"]
    table.act(0, _index(table, 0, "stop"), table.step)
    assert table.game.is_over
    assert table.notice is None   # a move that went through: the box about the one taken back is stale


def test_the_database_keeps_the_game_before_the_move_and_gives_it_back(tmp_path):
    rs = _rules(tmp_path)
    seed = _seeds(rs)
    table = WebTable(Game(rs, 2, seed=seed), "human,random", seed=seed)
    store, keeper = _kept(tmp_path, table)
    before = _position(table.game)
    with pytest.raises(Refused, match=LOCATED):   # the bot's reply to an add stops
        table.act(0, _index(table, 0, "add"), table.step)
    # the file holds the decisions of the game on the table, and playing them again gives its position
    assert _position(_restored(store, keeper, rs)) == before == _position(table.game)
    table.act(0, _index(table, 0, "stop"), table.step)
    assert _position(_restored(store, keeper, rs))[2] == decisions_of(table.game)


def test_the_page_is_told_in_one_line_with_409_and_every_page_shows_where(tmp_path):
    rs = _rules(tmp_path)
    seed = _seeds(rs)
    table = WebTable(Game(rs, 2, seed=seed), "human,random", seed=seed)
    app, token = make_app(table), table.token_of(0)
    status, answer = _request(app, "POST", f"/seat/{token}/act",
                              {"index": _index(table, 0, "add"), "step": table.step})
    assert status == 409 and "\n" not in answer["error"] and "Traceback" not in answer["error"]
    status, state = _request(app, "GET", f"/seat/{token}/state")
    assert status == 200 and state["notice"] == answer["error"] and state["actions"]


def test_a_bot_whose_first_decision_stops_the_rules_leaves_a_table_that_serves(tmp_path):
    rs = _rules(tmp_path)
    seed = next(s for s in range(200) if Game(rs, 2, seed=s).state.vars["d"] == 0)
    table = WebTable(Game(rs, 2, seed=seed), "human,random", seed=seed)   # it raised GameError
    assert _position(table.game) == _position(Game(rs, 2, seed=seed))
    assert "the rules stopped" in table.notice and "bots' first decisions" in table.notice
    app, token = make_app(table), table.token_of(0)
    status, state = _request(app, "GET", f"/seat/{token}/state")
    assert status == 200 and state["notice"] == table.notice and state["waiting_for"] == [table.game.player_name(1)]
    status, _ = _request(app, "POST", f"/seat/{token}/act", {"index": 0, "step": table.step})
    assert status == 409


def test_a_rematch_whose_bots_stop_the_rules_is_refused_and_the_table_keeps_the_last_game(tmp_path):
    rs = _rules(tmp_path)
    seed = _seeds(rs)
    table = WebTable(Game(rs, 2, seed=seed), "human,random", seed=seed)
    store, keeper = _kept(tmp_path, table)
    table.act(0, _index(table, 0, "stop"), table.step)
    over, games, rows = _position(table.game), table.games, store.db.execute("SELECT COUNT(*) FROM tables").fetchone()
    app, token = make_app(table), table.token_of(0)
    status, answer = _request(app, "POST", f"/seat/{token}/rematch", {"step": table.step})   # it was a 500
    assert status == 409 and "no new game was begun" in answer["error"]
    assert table.game.is_over and table.game.seed == seed and table.games == games
    assert _position(table.game) == over and table.seat_state(0)["notice"] == answer["error"]
    # no row was begun for the game that never began
    assert store.db.execute("SELECT COUNT(*) FROM tables").fetchone() == rows


class _Stops:
    """A bot whose decisions after the first stop in the rules, as a search bot's playouts can: the position
    an undo goes back to waits for the person who asked, so only a bot deciding beside them (a simultaneous
    step) decides there, and the rules it runs then are its own search's."""
    name = "stops"

    def __init__(self):
        self.calls = 0

    def choose(self, game, seat, actions):
        self.calls += 1
        if self.calls > 1:
            raise GameError("division by zero (with /, // or %)", Location("ruleset.yaml", 3, 9))
        return actions[0]


def test_an_undo_whose_bots_stop_the_rules_takes_nothing_back(tmp_path):
    from interpreter.agents import HumanAgent
    rs = _rules(tmp_path, """
id: sealed
players: {min: 2, max: 2}
variables: {total: 0}
actions:
  - {id: offer, do: "total += 1"}
  - {id: add, do: "total += 1"}
flow:
  - simultaneous: {actions: [offer]}
  - repeat: until_end
    steps:
      - turn: {player: "player(0)", actions: [add], max_actions: 1}
""")
    game = Game(rs, 2, seed=1)
    assert game.apply(game.legal_actions(0)[0])   # the person committed before the bot (a game brought in)
    table = WebTable(game, [HumanAgent(), _Stops()], seed=1)
    store, keeper = _kept(tmp_path, table)
    assert table.notice is None and table.game.deciding_players == [0]
    before, app, token = _position(table.game), make_app(table), table.token_of(0)
    status, answer = _request(app, "POST", f"/seat/{token}/undo", {"step": table.step})   # it was a 500
    assert status == 409 and "nothing was taken back" in answer["error"]
    assert "ruleset.yaml:3:9: division by zero" in answer["error"]
    assert _position(table.game) == before == _position(_restored(store, keeper, rs))
    table.act(0, 0, table.step)   # and the game goes on
    assert table.game.state.vars["total"] == 3


def test_an_edit_whose_bots_stop_the_rules_is_reported_and_the_game_goes_on(tmp_path):
    from interpreter.web.watch import RulesetWatcher
    folder = write_text(tmp_path, RULES.replace("* d)", "* 1)"))   # d no longer matters: the bot may begin
    rs = load_text(tmp_path, (folder / "ruleset.yaml").read_text())
    table = WebTable(Game(rs, 2, seed=0), "human,random", seed=0)
    table.act(0, _index(table, 0, "stop"), table.step)
    before, games = _position(table.game), table.games
    errors = []
    watcher = RulesetWatcher(str(folder), None, lambda new: table.restart(Game(new, 2, seed=0)), errors.append,
                             interval=60)
    text = (folder / "ruleset.yaml").read_text()
    old = (folder / "ruleset.yaml").stat().st_mtime_ns
    (folder / "ruleset.yaml").write_text(text.replace("((3 - total) * 1)", "(total - 1)"))   # stops at once
    os.utime(folder / "ruleset.yaml", ns=(old + 2_000_000_000, old + 2_000_000_000))
    assert watcher.check() is False   # it raised out of the watcher's thread, which then watched no more
    (error,) = errors
    assert "ruleset.yaml:" in error and "division by zero" in error and "last good rules" in error
    assert table.game.ruleset is rs and table.games == games and _position(table.game) == before
    assert table.notice == error


def test_what_every_page_reads_of_the_rules_error_names_no_hidden_card(tmp_path):
    rs = _rules(tmp_path, """
id: hidden
players: {min: 2, max: 2}
zones:
  - {id: deck, visibility: nobody, face: down}
  - {id: slot, capacity: 1}
things:
  - {id: crown-jewel, kind: card, name: the crown jewel, start: deck}
  - {id: pebble, kind: card, name: a pebble, start: slot}
actions:
  - {id: draw, do: "move(top(deck), slot)"}
flow:
  - turn: {player: "player(0)", actions: [draw], max_actions: 1}
""")
    table = WebTable(Game(rs, 2, seed=0), "human,random", seed=0)
    with pytest.raises(Refused) as refused:
        table.act(0, 0, table.step)
    told = str(refused.value)
    assert "the rules stopped: " in told and "ruleset.yaml:" in told and "a hidden card" in told
    assert "crown" not in told and "jewel" not in told and table.seat_state(1)["notice"] == told


def test_what_every_page_reads_leaves_out_words_that_name_a_counter_not_every_seat_sees(tmp_path):
    rs = _rules(tmp_path, """
id: purse
players: {min: 2, max: 2}
player:
  vars:
    cash: {initial: 3, min: 0, visibility: owner}
actions:
  - {id: spend, do: "player.cash -= 7"}
flow:
  - turn: {player: "player(0)", actions: [spend], max_actions: 1}
""")
    table = WebTable(Game(rs, 2, seed=0), "human,human", seed=0)
    with pytest.raises(Refused) as refused:
        table.act(0, 0, table.step)
    told = str(refused.value)
    assert "ruleset.yaml:" in told and "a counter not every seat sees" in told and "-4" not in told
    assert table.game.state.pvars[0]["cash"] == 3 and table.seat_state(1)["notice"] == told


def test_a_position_the_rules_cannot_draw_is_one_line_on_every_page_not_a_500(tmp_path):
    # a display value that divides by zero: every page's state request failed with a bare 500
    rs = _rules(tmp_path, RULES + 'display:\n  counters:\n    broken: {label: "broken", value: "1 // (d - d)"}\n')
    table = WebTable(Game(rs, 2, seed=0), "human,random", seed=0)
    app, token = make_app(table), table.token_of(0)
    status, state = _request(app, "GET", f"/seat/{token}/state")
    assert status == 409, state
    assert "\n" not in state["error"]
    assert state["error"].startswith("the rules stopped: ") and "division by zero" in state["error"], state
    assert "ruleset.yaml:" in state["error"]
