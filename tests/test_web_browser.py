"""The web table in a real browser: each bundled ruleset played to its end by clicking.

Playwright drives Debian's headless chromium (/usr/bin/chromium; .ci/run installs
it). One seat is a person clicking the first action button each time, bots take
the others. Every decision of that seat is a click (a game longer than CLICKS
would go on through the same JSON endpoint the page uses); the page must show the end.
"""
import json
import urllib.error
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[web]')")

from browser_kit import CHROMIUM, TIMEOUT_MS, launched
from browser_kit import get_json as _get
from browser_kit import post_json as _post

from interpreter.authoring.draw import to_svg
from interpreter.play.game import Game
from interpreter.rules.loading import load_ruleset
from interpreter.web.server import BackgroundServer
from interpreter.web.table import WebTable

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install chromium)"),
              pytest.mark.slow]   # a browser per test
# decisions clicked in the page per game (the bundled games at their smallest need at most ~130);
# a longer game would go on through the page's own endpoint, so the file stays well under 90 s of CPU
CLICKS = 400


@pytest.fixture(scope="module")
def browser():
    yield from launched(sync_api)


@pytest.fixture
def page(browser):
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    pg = context.new_page()
    yield pg
    context.close()


def _table(ruleset_id, agents="human,random", seed=3):
    rs = load_ruleset(ruleset_id, None)
    return WebTable(Game(rs, rs.min_players, seed=seed), agents, seed), to_svg(rs)


def _click_first(page):
    """Click the first action button once the page shows the seat's turn; False when the game is over."""
    page.wait_for_function("['yours', 'over'].includes(document.body.dataset.state)")
    if page.evaluate("document.body.dataset.state") == "over":
        return False
    step = page.evaluate("document.body.dataset.step")
    page.locator("button.action").first.click()
    page.wait_for_function(f"document.body.dataset.step !== '{step}' || document.body.dataset.state === 'over'")
    return True


# The action list, the accessible fallback, played to the end: on two games with a board and without.
# tests/test_web_table_browser.py plays every bundled game to its end by clicking the drawn table; playing
# the long ones here again by their first action took over a minute of CI for nothing new.
@pytest.mark.parametrize("ruleset_id", ["tutorial", "der-mythos"])
def test_the_action_list_plays_a_game_to_its_end_in_the_browser(page, ruleset_id):
    table, board = _table(ruleset_id)
    with BackgroundServer(table, board) as base:
        link = f"{base}/seat/{table.token_of(0)}"
        page.goto(link)
        page.wait_for_function("document.body.dataset.state !== 'loading'")
        # the board is drawn when the ruleset has one; a game without one is a table of its zones
        drawn = page.locator("#board svg .space:not(.container)").count()
        assert drawn == len(table.game.ruleset.board.graph) or (drawn == 0 and page.locator(".zone").count())
        clicks = 0
        while clicks < CLICKS and _click_first(page):
            clicks += 1
        assert clicks >= 1
        # the rest through the page's own endpoint, the first action each time
        for _ in range(5000):
            state = _get(f"{link}/state")
            if state["over"]:
                break
            assert state["actions"], "a human seat that is not asked must not hold up the game"
            _post(f"{link}/act", {"index": state["actions"][0]["index"], "step": state["step"]})
        assert table.game.is_over
        page.reload()
        page.wait_for_function("document.body.dataset.state === 'over'")
        over = page.locator("#over").inner_text()
        assert over.startswith("Game over.")
        assert page.locator("button.action").count() == 0
        assert page.locator("#log li").count() > 0


def _hidden_from(game, seat, other):
    """Ids and names of the things ``other`` sees and ``seat`` does not (names only where no twin is visible)."""
    mine, theirs = game.view(seat), game.view(other)
    visible_names = {t.get("name") for z in mine["zones"].values() for t in z["things"] if not t.get("hidden")}
    ids, names = set(), set()
    for zid, z in theirs["zones"].items():
        for t, t_mine in zip(z["things"], mine["zones"][zid]["things"]):
            if "id" in t and t_mine.get("hidden"):
                ids.add(t["id"])
                if t["name"] not in visible_names:
                    names.add(t["name"])
    return ids, names


def _page_text(page):
    page.wait_for_function("!['loading', 'sending'].includes(document.body.dataset.state)")
    return page.content() + page.inner_text("body")


@pytest.mark.parametrize("ruleset_id", ["der-mythos", "titanic"])
def test_a_seat_link_never_shows_another_seats_hidden_cards(page, ruleset_id):
    table, board = _table(ruleset_id, agents="human,human")
    with BackgroundServer(table, board) as base:
        token0, token1 = table.token_of(0), table.token_of(1)
        ids, names = _hidden_from(table.game, 0, 1)
        assert ids and names, "the test needs a ruleset where seat 1 holds something seat 0 cannot see"
        # a wrong token is refused, on the page, the JSON and the action endpoint alike
        for wrong in ("x" + token1, token1[:-1], "0", "1", token0.swapcase()):
            for url in (f"{base}/seat/{wrong}/state", f"{base}/seat/{wrong}"):
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(url, timeout=10)
                assert refused.value.code == 403
            with pytest.raises(urllib.error.HTTPError) as refused:
                _post(f"{base}/seat/{wrong}/act", {"index": 0, "step": table.step})
            assert refused.value.code == 403
        # before anything is played, neither the ids nor the names of seat 1's hidden cards reach seat 0
        page.goto(f"{base}/seat/{token0}")
        text, raw = _page_text(page), json.dumps(_get(f"{base}/seat/{token0}/state"))
        for secret in ids | names:
            assert secret not in text and secret not in raw
        # played on (seat 1 through its own link), seat 0's page never holds an id of a card hidden from it
        for _ in range(6):
            if page.evaluate("document.body.dataset.state") == "yours":
                _click_first(page)
            else:
                state = _get(f"{base}/seat/{token1}/state")
                if state["over"] or not state["actions"]:
                    break
                _post(f"{base}/seat/{token1}/act", {"index": 0, "step": state["step"]})
                page.reload()
            text, raw = _page_text(page), json.dumps(_get(f"{base}/seat/{token0}/state"))
            for secret in _hidden_from(table.game, 0, 1)[0] | ids:
                assert secret not in text and secret not in raw
        # seat 1's own link shows seat 1 its hand
        own = _get(f"{base}/seat/{token1}/state")
        assert any(z["mine"] and z["things"] for z in own["zones"])


def test_a_saved_game_is_replayed_with_a_step_slider(page):
    from interpreter.agents import make_agents, play_out
    from interpreter.web.replay import ReplayTable
    rs = load_ruleset("der-mythos", None)
    game = Game(rs, 2, seed=5)
    play_out(game, make_agents("random", 2, 5), max_decisions=12)
    replay = ReplayTable(rs, json.loads(json.dumps(game.to_json())))
    assert replay.last == 12
    with BackgroundServer(replay, to_svg(rs)) as base:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}/replay/{replay.token}x/state", timeout=10)
        assert refused.value.code == 403
        page.goto(f"{base}/replay/{replay.token}")
        page.wait_for_function("document.body.dataset.state === 'replay'")
        assert page.inner_text("#stepno") == "decision 0 of 12"
        at_start = page.locator("#log li").count()
        page.locator("#slider").fill("12")
        page.wait_for_function("document.getElementById('stepno').textContent === 'decision 12 of 12'")
        assert page.locator("#log li").count() > at_start
        assert page.locator("button.action").count() == 0
        # a spectator's replay holds no card id and no hand
        text = page.content()
        assert not any(tid in text for tid in game.table.things)
        assert page.locator("#hand li").inner_text() == "nothing of your own"


def test_an_open_page_follows_a_new_game_at_the_same_table(page):
    table, board = _table("tutorial")
    with BackgroundServer(table, board) as base:
        page.goto(f"{base}/seat/{table.token_of(0)}")
        _click_first(page)
        _click_first(page)
        before = page.locator("#log li").count()
        first_line = page.locator("#log li").first.inner_text()
        step = page.evaluate("document.body.dataset.step")
        rs = load_ruleset("tutorial", None)
        table.restart(Game(rs, rs.min_players, seed=11), board)
        page.wait_for_function(f"document.body.dataset.step !== '{step}'")
        page.wait_for_function("document.body.dataset.state === 'yours'")
        # the log starts again with the new game, it is not appended to the old one
        assert page.locator("#log li").first.inner_text() == first_line.replace("seed 3", "seed 11")
        assert page.locator("#log li").count() < before + 5
