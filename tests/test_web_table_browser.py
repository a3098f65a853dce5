"""Every bundled game played to its end at the drawn table, by clicking its board, pieces and cards.

Playwright drives Debian's headless chromium (/usr/bin/chromium; .ci/run installs
it). Seat 0 is a person who picks a seeded random move each time and makes it the
way a player would: a move about a space, a piece or a card by clicking that
thing on the drawn table (and a second thing, or the offered choice, when one
click leaves several moves), any other move from the action list. After CLICKS
decisions the game goes on through the page's own endpoint, still seeded, so
the file stays quick; the page must then show the end and offer a rematch.
Each table is screenshotted (into DAVIT_TABLE_SHOTS when it is set).
"""
import json
import os
import random
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[web]')")

from browser_kit import CHROMIUM, TIMEOUT_MS, launched
from browser_kit import get_json as _get
from browser_kit import post_json as _post

from interpreter.play.game import Game
from interpreter.rules.loading import load_ruleset
from interpreter.web.server import BackgroundServer
from interpreter.web.table import WebTable

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install chromium)"),
              pytest.mark.slow]   # a browser
CLICKS = 24   # decisions made in the page per game; the rest through its endpoint
# the five Titanic games, the tutorial and the gallery, each at its smallest table
GAMES = ["titanic", "titanic-board-game", "sos-titanic", "collapsible-d", "der-mythos", "tutorial",
         "tic-tac-toe", "pig", "goofspiel", "kuhn-poker", "liars-dice", "leduc-poker"]
PAWNS_DRAWN = {"titanic", "collapsible-d"}


@pytest.fixture(scope="module")
def browser():
    yield from launched(sync_api)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, f"the page's script failed: {errors}"


def _settled(page):
    page.wait_for_function("['yours', 'over', 'waiting'].includes(document.body.dataset.state)")
    return page.evaluate("document.body.dataset.state")


def _pieces_on_board(game, seat):
    """How many things stand on the board's spaces as ``seat`` sees them (each must be drawn)."""
    view = game.view(seat)
    return sum(z["count"] for zid, z in view["zones"].items() if game.table.zones[zid].defn.kind == "space")


def _nothing_hidden_shown(page, game, link):
    """Neither seat 0's JSON nor its drawn cards hold an id or name of a thing hidden from it."""
    _settled(page)
    mine = game.view(0)
    seen = {t["id"] for z in mine["zones"].values() for t in z["things"] if "id" in t}
    names = {t["name"] for z in mine["zones"].values() for t in z["things"] if "id" in t}
    hidden = [t for tid, t in game.table.things.items() if tid not in seen]
    secrets = {t.id for t in hidden} | {t.name for t in hidden if t.name not in names}
    raw = json.dumps(_get(f"{link}/state"))
    assert not [x for x in secrets if json.dumps(x) in raw], "the JSON names a thing hidden from seat 0"
    drawn = page.eval_on_selector_all(".card:not(.back) b", "cards => cards.map((c) => c.textContent)")
    assert set(drawn) <= names, "a card is drawn face up that seat 0 may not see"
    backs = page.eval_on_selector_all(".card.back span", "spans => spans.map((s) => s.textContent)")
    assert not set(backs) & (secrets - names), "a face-down card shows a hidden card's name"


def _play_one(page, link, rng) -> bool:
    """Make one seeded random move by clicking; True when it was made on the drawn table."""
    state = _get(f"{link}/state")
    move = rng.choice(state["table"]["actions"])
    step = page.evaluate("document.body.dataset.step")
    done = f"document.body.dataset.step !== '{step}'"
    on_table = False
    for target in move["targets"]:   # a zone left out of the page (empty, or not in its display) is not drawn
        thing = page.locator(f'[data-key="{target}"].target')
        if not thing.count():
            continue
        thing.first.click()
        on_table = True
        # a click either plays a move (the page is 'sending' until the new step is drawn) or offers choices
        page.wait_for_function(f"{done} || (document.body.dataset.state !== 'sending' && "
                               "document.querySelectorAll('#choices button.choice').length > 0)")
        if page.evaluate(done):
            return True
    if on_table:
        page.locator(f'#choices button.choice[data-index="{move["index"]}"]').click()
    else:
        page.locator(f'#actions button.action[data-index="{move["index"]}"]').click()
    page.wait_for_function(done)
    return on_table


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_each_game_is_played_to_its_end_by_clicking_its_table(page, ruleset_id, tmp_path):
    rs = load_ruleset(ruleset_id, None)
    players = rs.min_players
    table = WebTable(Game(rs, players, seed=7), ",".join(["human"] + ["random"] * (players - 1)), 7)
    shots = Path(os.environ.get("DAVIT_TABLE_SHOTS", tmp_path))
    rng = random.Random(ruleset_id)
    with BackgroundServer(table) as base:
        link = f"{base}/seat/{table.token_of(0)}"
        page.goto(link)
        _settled(page)
        if len(rs.board.graph):
            assert page.locator("#board svg .space:not(.container)").count() == len(rs.board.graph)
        else:
            assert page.locator("#board").count() == 0   # a table of its zones (pig has none in use)
        _nothing_hidden_shown(page, table.game, link)
        page.screenshot(path=str(shots / f"table-{ruleset_id}-start.png"), full_page=True)
        clicks = on_table = 0
        while clicks < CLICKS and _settled(page) == "yours":
            if ruleset_id in PAWNS_DRAWN:   # one drawn piece for every pawn, passenger or token on the board
                assert page.locator("#board svg .piece").count() == _pieces_on_board(table.game, 0) > 0
            on_table += _play_one(page, link, rng)
            clicks += 1
        assert clicks >= 1
        if not table.game.is_over:
            _nothing_hidden_shown(page, table.game, link)
        if any(a["targets"] for a in _get(f"{link}/state")["table"]["actions"]) or on_table:
            assert on_table, "a move about a space, piece or card is made by clicking it"
        for _ in range(5000):   # the rest through the page's own endpoint, still seeded
            state = _get(f"{link}/state")
            if state["over"]:
                break
            assert state["actions"], "a human seat that is not asked must not hold up the game"
            _post(f"{link}/act", {"index": rng.choice(state["actions"])["index"], "step": state["step"]})
        assert table.game.is_over
        page.reload()
        page.wait_for_function("document.body.dataset.state === 'over'")
        assert page.locator("#over").inner_text().startswith("Game over.")
        assert page.locator("button.action").count() == 0 and page.locator("#rematch").is_visible()
        page.screenshot(path=str(shots / f"table-{ruleset_id}-over.png"), full_page=True)
        page.locator("#rematch").click()   # the same seat plays again, dealt from the next seed
        page.wait_for_function("['yours', 'waiting'].includes(document.body.dataset.state)")
        assert not table.game.is_over and table.game.seed == 8


def test_a_waiting_seat_is_told_whom_it_waits_for_and_may_take_its_move_back(page):
    rs = load_ruleset("tutorial", None)
    table = WebTable(Game(rs, 2, seed=3), "human,human", 3)
    with BackgroundServer(table) as base:
        page.goto(f"{base}/seat/{table.token_of(0)}")
        assert _settled(page) == "yours"
        assert page.locator("#headline").inner_text().startswith("Your turn")
        while 1 not in table.game.deciding_players:
            _play_one(page, f"{base}/seat/{table.token_of(0)}", random.Random(1))
        page.wait_for_function("document.body.dataset.state === 'waiting'")
        assert page.locator("#headline").inner_text() == f"Waiting for {table.game.player_name(1)}…"
        assert "deciding" in page.locator("#players tr").nth(1).get_attribute("class")
        decided = table.game.decisions
        page.locator("#undo").click()
        page.wait_for_function("document.body.dataset.state === 'yours'")
        assert table.game.decisions < decided and table.game.deciding_players == [0]
        # the zones the last moves changed are marked
        _play_one(page, f"{base}/seat/{table.token_of(0)}", random.Random(2))
        assert page.locator(".space.recent, .zone.recent").count() >= 1


def test_an_edited_ruleset_that_does_not_load_is_reported_on_the_page(page):
    rs = load_ruleset("der-mythos", None)
    table = WebTable(Game(rs, 2, seed=3), "human,random", 3)
    with BackgroundServer(table) as base:
        page.goto(f"{base}/seat/{table.token_of(0)}")
        _settled(page)
        assert not page.locator("#notice").is_visible()
        table.notice = "ruleset.yaml:12:3: unknown key 'flwo'"
        page.wait_for_function("!document.getElementById('notice').hidden")
        assert "ruleset.yaml:12:3" in page.locator("#notice").inner_text()


def test_an_undo_after_another_person_decided_is_asked_on_their_page_and_done_when_they_agree(page, browser):
    rs = load_ruleset("tutorial", None)
    table = WebTable(Game(rs, 2, seed=3), "human,human", 3)
    with BackgroundServer(table) as base:
        link0, link1 = f"{base}/seat/{table.token_of(0)}", f"{base}/seat/{table.token_of(1)}"
        while 1 not in table.game.deciding_players:
            _post(f"{link0}/act", {"index": 0, "step": table.step})
        _post(f"{link1}/act", {"index": 0, "step": table.step})
        decided = table.game.decisions
        page.goto(link0)
        _settled(page)
        assert page.locator("#undo").inner_text() == "Ask to undo my last move"
        page.locator("#undo").click()
        page.wait_for_function("document.getElementById('asked').textContent.startsWith('You asked')")
        other = browser.new_context()
        try:
            page1 = other.new_page()
            page1.set_default_timeout(TIMEOUT_MS)
            page1.goto(link1)
            page1.wait_for_function("!document.getElementById('agree').hidden")
            asked = f"{table.game.player_name(0)} asks to take back their last move."
            assert page1.locator("#asked").inner_text() == asked
            page1.locator("#agree").click()
            page.wait_for_function("document.body.dataset.state === 'yours' && document.getElementById('asked').hidden")
            assert table.game.decisions < decided and table.game.deciding_players == [0]
        finally:
            other.close()
