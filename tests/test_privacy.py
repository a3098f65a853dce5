"""No seat ever learns what it may not see, in any bundled ruleset or variant.

Short seeded games of random agents are played; after every decision, for
every seat (and a spectator):

* two things the seat may not see, with the same back and public attributes,
  are swapped in a copy of the game: the seat's view (zones, pending decision,
  legal actions, but not the log) must not change. A view that shows a hidden
  thing's id, name, kind, attributes or anything else that tells the two apart
  fails here;
* every event the seat may read names (by id, or by name in a narrated line)
  only things it could see before or after that decision.

A second test replays one seat's view log alone and finds nothing in it that
the redaction should have taken out.
"""
import json
import random
import re

import pytest
from hidden_swap import swapped

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents
from interpreter.load.files import bundled_ids, bundled_rulesets_dir, variants_of
from interpreter.play.views import back_of
from interpreter.play.visibility import SECRET_FIELDS, can_see, redact

DECISIONS = 25      # per game: enough to deal, draw, play and hide things; keeps the test within a minute
SWAPS = 2           # swapped pairs tried per seat and decision


def _combos():
    for rid in bundled_ids():
        for variant in [None] + sorted(variants_of(bundled_rulesets_dir() / rid / "ruleset.yaml")):
            yield rid, variant


# every ruleset and variant; a variant's case is slow: the fast tier checks each ruleset's base game
COMBOS = [pytest.param(rid, variant, id=f"{rid}+{variant or 'base'}",
                       marks=() if variant is None else pytest.mark.slow)
          for rid, variant in _combos()]


def _look(game, tid):
    thing = game.table.things[tid]
    return back_of(game, thing), tuple(sorted((k, repr(thing.attrs[k])) for k in thing.public if k in thing.attrs))


def _swapped(game, a, b):
    other = swapped(game, a, b)
    other.log = []
    st = other.state
    # the face and who peeked belong to the place, not to the card that lies there
    for key in ("face_up", "known_to"):
        pa, pb = st.own_props(a), st.own_props(b)
        va, vb = pa.pop(key, None), pb.pop(key, None)
        if vb is not None:
            pa[key] = vb
        if va is not None:
            pb[key] = va
    return other


def _view_without_log(game, seat):
    saved, game.log = game.log, []
    try:
        view = game.view(seat)
    finally:
        game.log = saved
    view.pop("log")
    return view


def _check_swaps(game, seat, rnd, where):
    hidden = [t for t, z in game.state.where.items() if z != "box" and not can_see(game, seat, t, z)]
    by_look = {}
    for tid in hidden:
        by_look.setdefault(_look(game, tid), []).append(tid)
    groups = [g for g in by_look.values() if len(g) > 1]
    if not groups:
        return
    before = json.dumps(_view_without_log(game, seat), sort_keys=True)
    for _ in range(SWAPS):
        a, b = rnd.sample(rnd.choice(groups), 2)
        other = _swapped(game, a, b)
        assert not can_see(other, seat, a) and not can_see(other, seat, b)
        after = json.dumps(_view_without_log(other, seat), sort_keys=True)
        assert after == before, f"{where}: seat {seat} can tell hidden {a} from {b}"


def _check_events(game, events, seat, seen, where):
    names = {}
    for t in game.table.thing_list:
        names.setdefault(t.name, set()).add(t.id)
    for e in events:
        shown = redact(e, seat)
        text = json.dumps(shown)
        for tid in re.findall(r'"([^"]+)"', text):
            if tid in game.table.things and tid not in seen:
                raise AssertionError(f"{where}: seat {seat} reads hidden {tid} in {shown}")
        if shown.get("e") == "log" and "text" in shown:
            # names the seat may read are taken out first ('1st class 13' is part of '1st class 13 (anchor)')
            rest = shown["text"]
            for name in sorted((n for n, ids in names.items() if ids & seen), key=len, reverse=True):
                rest = rest.replace(name, " ")
            for name, ids in names.items():
                if len(name) > 3 and not ids & seen and re.search(rf"\b{re.escape(name)}\b", rest):
                    raise AssertionError(f"{where}: seat {seat} reads hidden '{name}' in {shown['text']!r}")


class _Watched(list):
    """A game's log that notes, at every event, which things each seat could see just then."""

    def __init__(self, game, seats):
        super().__init__()
        self.game, self.seen = game, {s: set() for s in seats}

    def note(self):
        game = self.game
        where = game.state.where.items()
        for seat, seen in self.seen.items():
            # add what the seat sees now; a thing once seen stays seen, so it is not asked about again
            seen.update([t for t, z in where if t not in seen and can_see(game, seat, t, z)])

    def append(self, event):
        self.note()       # before: a thing leaving a place the seat sees
        super().append(event)
        self.note()       # after: a thing arriving where the seat sees it


class _WatchedGame(Game):
    """A game whose log is watched from its first event on (the setup's moves included)."""

    @property
    def log(self):
        return self._watched

    @log.setter
    def log(self, events):
        if isinstance(events, _Watched):   # put back after a look without the log
            self._watched = events
            return
        self._watched = _Watched(self, [None] + list(range(self.table.num_players)))
        self._watched.extend(events)


@pytest.mark.parametrize("rid,variant", COMBOS)
def test_no_seat_sees_or_reads_what_it_may_not(rid, variant):
    rs = load_ruleset(rid, variant=variant)
    players = rs.max_players
    for seed in (1,):
        seats = [None] + list(range(players))
        game = _WatchedGame(rs, players, seed=seed)
        watched = game.log
        agents = make_agents("random", players, seed)
        rnd = random.Random(seed)
        shown = 0
        for step in range(DECISIONS + 1):
            where = f"{rid}+{variant} seed {seed} decision {step}"
            for seat in seats:
                _check_events(game, game.log[shown:], seat, watched.seen[seat], where)
                _check_swaps(game, seat, rnd, where)
            shown = len(game.log)
            if game.is_over:
                break
            seat = game.deciding_players[0]
            assert game.apply(agents[seat].choose(game, seat, game.legal_actions(seat)))


def test_a_seats_view_log_holds_nothing_more_than_it_may_read():
    rs = load_ruleset("titanic")
    game = Game(rs, rs.max_players, seed=3)
    agents = make_agents("random", rs.max_players, 3)
    for _ in range(120):
        if game.is_over:
            break
        seat = game.deciding_players[0]
        game.apply(agents[seat].choose(game, seat, game.legal_actions(seat)))
    hidden_somewhere = [e for e in game.log if "only" in e]
    assert hidden_somewhere, "the game made no private event: the test would show nothing"
    for seat in range(game.num_players):
        log = game.view(seat)["log"]
        assert len(log) == len(game.log)
        for full, shown in zip(game.log, log):
            assert "only" not in shown and "seed" not in shown   # with the seed a seat could replay every shuffle
            if "only" in full and seat not in full["only"]:
                assert shown["hidden"] is True
                assert not set(shown) & set(SECRET_FIELDS), shown
            else:
                assert shown == {k: v for k, v in full.items() if k not in ("only", "seed")}


def test_a_seat_log_saved_by_play_holds_nothing_more_than_that_seat_may_read(tmp_path):
    from cli_runner import run

    from interpreter.observe.narrate import event_text
    rid, players, seed, seat = "der-mythos", 3, 3, 1     # hidden hands and hidden simultaneous plays
    path = tmp_path / "seat.jsonl"
    assert run(["play", rid, "--players", str(players), "--seed", str(seed), "--quiet",
                "--log", str(path), "--log-seat", str(seat)]) == 0
    saved = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    # the same game again, watched: which things the seat could see at each event
    game = _WatchedGame(load_ruleset(rid), players, seed=seed)
    agents = make_agents("random", players, seed)
    names = {}
    for t in game.table.thing_list:
        names.setdefault(t.name, set()).add(t.id)
    shown, unseen_checked = 0, 0
    while True:
        # replayed alone, decision by decision, the saved log names no thing the seat has not seen yet,
        # neither in its events nor narrated
        seen = game.log.seen[seat]
        new = saved[shown:len(game.log)]
        _check_events(game, new, seat, seen, f"the saved seat log, event {shown}")
        unseen = [n for n, ids in names.items() if len(n) > 3 and not ids & seen]
        unseen_checked += bool(unseen) and bool(new)
        for event in new:
            text = event_text(game, event) or ""
            assert not any(re.search(rf"\b{re.escape(n)}\b", text) for n in unseen), text
        shown = len(game.log)
        if game.is_over:
            break
        who = game.deciding_players[0]
        game.apply(agents[who].choose(game, who, game.legal_actions(who)))
    assert unseen_checked, "the seat saw every thing from the start: the test would show nothing"
    private = [i for i, e in enumerate(game.log) if "only" in e and seat not in e["only"]]
    assert private, "no event was private to another seat: the test would show nothing"
    # one redaction: the saved log is the seat's view of the log
    assert saved == game.view(seat)["log"] == [redact(e, seat) for e in game.log]
    assert all("only" not in e and "seed" not in e for e in saved)
    for i in private:
        assert saved[i]["hidden"] is True and not set(saved[i]) & set(SECRET_FIELDS), saved[i]


def test_lifeboats_in_the_face_down_pile_look_like_every_other_passenger():
    rs = load_ruleset("sos-titanic")
    game = Game(rs, rs.min_players, seed=2)
    boats = [t.id for t in game.table.thing_list if t.kind == "lifeboat"]
    assert any(not can_see(game, 0, b) for b in boats)
    view = game.view(0)
    for zid in ("pile", "deck1", "deck2", "deck3", "deck4"):
        hidden = [t for t in view["zones"][zid]["things"] if t.get("hidden")]
        assert hidden and all(t == {"hidden": True, "back": "passenger"} for t in hidden), zid


def test_a_secret_scoring_card_is_narrated_to_its_owner_only():
    from interpreter.observe.narrate import narrate
    rs = load_ruleset("titanic")
    for seed in range(1, 40):
        game = Game(rs, rs.max_players, seed=seed)
        agents = make_agents("random", rs.max_players, seed)
        while not game.is_over and not any(e.get("e") == "move" and e["to"].startswith("end_slot@")
                                           for e in game.log):
            seat = game.deciding_players[0]
            game.apply(agents[seat].choose(game, seat, game.legal_actions(seat)))
        secret = [e for e in game.log if e.get("e") == "move" and e["to"].startswith("end_slot@")]
        if secret:
            break
    assert secret, "no secret card was played in 40 games: the test would show nothing"
    card, owner = game.table.things[secret[0]["thing"]], int(secret[0]["to"].split("@")[1])
    assert any(card.name in line for line in narrate(game, owner))
    for seat in [None] + [s for s in range(game.num_players) if s != owner]:
        lines = narrate(game, seat)
        assert not any(card.name in line for line in lines), seat
        assert any("secret end-game scoring card" in line for line in lines)
