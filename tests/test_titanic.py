"""Titanic (2020): seeded random games for 2-5 players, checked at every step.

At every step: each passenger is in exactly one place (a room still on the
board, a player's lifesavers, a lifeboat, or the iceberg); every component
(action cubes, star tokens, lifesaver tokens, star cards, flood cards,
standees) is conserved and only where the rules allow it; the limits of the
player mat hold (5 cubes, 3 added lifesavers, passengers only in vacant
lifesavers, 3 cards in hand); nothing stays on the board below the flood line.
"""
import random
from collections import Counter

import pytest

from interpreter import Game, load_ruleset

RID = "titanic"
BOATS = [f"boat{i}" for i in range(1, 10)]
COLLAPSIBLES = ["collapsible_small", "collapsible_four", "collapsible_five"]
PER_PLAYER = ["avail", "used", "savers", "rescued", "tokens", "hand", "played", "permanent", "end_slot", "objective"]


def _ruleset(variant=None):
    return load_ruleset(RID, variant)


def _zone_of(game):
    """thing id -> zone id, built from the zone lists (not from `where`)."""
    seen = {}
    for zid, items in game.state.zones.items():
        for tid in items:
            assert tid not in seen, f"{tid} is both in {seen[tid]} and in {zid}"
            seen[tid] = zid
    assert seen == game.state.where, "the zone lists and the where-index disagree"
    return seen


def _kind(game, tid):
    return game.table.things[tid].kind


def _removed(game, zid):
    return game.state.zprops.get(zid, {}).get("removed", False)


def _per_player(zid, base):
    return zid.startswith(base + "@")


def check_invariants(game, n):
    where = _zone_of(game)
    by_kind = Counter(_kind(game, t) for t in where)
    assert by_kind["passenger"] == 54
    assert by_kind["cube"] == 40 and by_kind["star"] == 15 and by_kind["buoy"] == 15
    assert by_kind["star_card"] == 44 and by_kind["objective"] == 7
    assert by_kind["flood"] == 15 and by_kind["pawn"] == n
    room_ids = {s for s in game.table.zones if s.startswith("r") and s[1:3].isdigit()}
    decks = {f"deck{c}" for c in range(1, 5)}
    flood_line = game.state.vars["flood_line"]
    started = game.state.vars.get("round") is not None
    for tid, zid in where.items():
        kind = _kind(game, tid)
        if zid in room_ids:
            assert not _removed(game, zid), f"{tid} lies on {zid}, which is no longer on the board"
            assert int(zid[1]) > flood_line, f"{tid} lies below the flood line on {zid}"
        if kind == "passenger":
            assert zid in room_ids or _per_player(zid, "rescued") or zid in BOATS or zid == "iceberg", \
                f"passenger {tid} is in {zid}"
        elif kind == "cube":
            assert zid in room_ids or zid in ("supply", "boat_cubes") or _per_player(zid, "avail") \
                or _per_player(zid, "used"), f"cube {tid} is in {zid}"
        elif kind == "star":
            assert zid in room_ids or zid == "supply" or _per_player(zid, "tokens"), f"star token {tid} in {zid}"
        elif kind == "buoy":
            assert zid in room_ids or zid == "supply" or _per_player(zid, "savers"), f"lifesaver {tid} in {zid}"
        elif kind == "pawn":
            if started:
                assert zid in room_ids or zid in decks or zid in COLLAPSIBLES or zid == "water", \
                    f"standee {tid} is in {zid}"
        elif kind == "star_card":
            assert zid.endswith("_deck") or zid == "star_discard" or any(
                _per_player(zid, z) for z in ("hand", "played", "permanent", "end_slot")), f"card {tid} in {zid}"
        elif kind == "flood":
            expected = ("flood_deck", "flood_discard") if (n == 5 or not tid.startswith("no_flood")) else ("box",)
            assert zid in expected, f"flood card {tid} is in {zid}"
    # one cube slot per lifeboat
    cubes_on_boats = len(game.state.zones["boat_cubes"])
    assert cubes_on_boats == sum(1 for b in BOATS if game.state.zprops.get(b, {}).get("cube"))
    for b in BOATS:
        cap = game.table.zones[b].defn.capacity
        assert len(game.state.zones[b]) <= cap
        if len(game.state.zones[b]) == cap and game.state.pending and game.state.pending.get("kind") == "turn":
            assert game.state.zprops[b]["launched"], f"{b} is full but not launched"
    for seat in range(n):
        def z(base, seat=seat):
            return game.state.zones[f"{base}@{seat}"]
        assert len(z("avail")) + len(z("used")) <= 5
        assert len(z("savers")) <= 3
        extra = any(game.table.things[c].attrs.get("hook") == "lifesaver_plus" for c in z("permanent"))
        assert len(z("rescued")) <= 2 + len(z("savers")) + (1 if extra else 0), "a passenger without a lifesaver"
        assert len(z("hand")) <= 3
    # every row at or below the flood line is gone
    for lvl in range(1, flood_line + 1):
        for c in range(1, 5):
            assert _removed(game, f"r{lvl}{c}a") and _removed(game, f"r{lvl}{c}b")


def _coords(zid):
    """(level, column, room) of a room or top deck space."""
    if zid.startswith("deck"):
        return 10, int(zid[4]), "a"
    return int(zid[1]), int(zid[2]), zid[3]


def _tile(game, lvl, c):
    return game.state.zprops[f"r{lvl}{c}a"]["tile"]


def _flooded(game, lvl, c):
    return lvl <= 9 and game.state.zprops.get(f"r{lvl}{c}a", {}).get("flooded", False)


def check_moves(game, seat, actions):
    """Every offered Move goes to the other room of the tile, or orthogonally to
    the next tile, and never through a wall of a tile that is not flooded."""
    layout = game.table.constants["tile_layout"]

    def walls(lvl, c):
        if lvl > 9 or _flooded(game, lvl, c):
            return []
        return layout[_tile(game, lvl, c).id]["walls"]

    for action in actions:
        if action.name != "move":
            continue
        a = _coords(game.state.where[f"pawn@{seat}"])
        b = _coords(action.arg("to").id)
        (la, ca, sa), (lb, cb, sb) = sorted([a, b])
        assert abs(la - lb) + abs(ca - cb) <= 1, f"{a} -> {b} is not orthogonal"
        if (la, ca) == (lb, cb):
            assert "mid" not in walls(la, ca), f"{a} -> {b} crosses a wall"
        elif la == lb:
            # (la, ca) is the left tile: its right side and the other's left side
            assert "right" not in walls(la, ca) and "left" not in walls(lb, cb), f"{a} -> {b} crosses a wall"
            if la <= 9 and not _flooded(game, la, ca):
                assert sa == "b", f"{a} -> {b} does not leave by the right room"
            if lb <= 9 and not _flooded(game, lb, cb):
                assert sb == "a", f"{a} -> {b} does not enter by the left room"
        else:
            assert f"up_{sa}" not in walls(la, ca), f"{a} -> {b} crosses a ceiling"
            if not _flooded(game, la, ca) and lb <= 9 and not _flooded(game, lb, cb):
                assert sa == sb, f"{a} -> {b} is not straight up"


def _play(game, seed, n, check=True):
    chooser = random.Random(seed)
    steps = 0
    while not game.is_over:
        if check:
            check_invariants(game, n)
        seat = game.deciding_players[0]
        actions = game.legal_actions(seat)
        if check:
            check_moves(game, seat, actions)
        assert game.apply(actions[chooser.randrange(len(actions))])
        steps += 1
        assert steps < 2000
    check_invariants(game, n)
    return steps


@pytest.mark.parametrize("variant", [None, "historical", "no-automata"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_piece_in_one_place(players, variant):
    rs = _ruleset(variant)
    for seed in (1, 2, 3):
        game = Game(rs, players, seed=seed)
        _play(game, seed, players)
        state = game.state
        # nine rounds, and the collapsible launched; the ship sank completely,
        # except with 3 players, who draw the printed one flood card a turn
        # (27 for 36 tiles) and end with the upper levels afloat
        if players == 3:
            assert state.vars["flood_line"] < 9
        else:
            assert state.vars["flood_line"] == 9
        assert state.vars["round"] == 9
        assert state.vars["collapsible_launched"]
        # passengers still in lifesavers were lost before scoring
        assert all(not state.zones[f"rescued@{s}"] for s in range(players))
        # survivors are exactly those aboard or (3-5 players) on the door
        for s in range(players):
            pawn_zone = state.where[f"pawn@{s}"]
            door = state.vars["door_holder"]
            safe = pawn_zone in COLLAPSIBLES or (players >= 3 and door is not None and door.seat == s)
            assert state.out[s] == (not safe)


@pytest.mark.parametrize("players, variant, cards", [(2, None, 36), (3, None, 27), (4, None, 36), (5, None, 36),
                                                     (3, "three-players-extra-flood-card", 36)])
def test_the_flood_deck_floods_every_tile_exactly_once(players, variant, cards):
    """Every column takes 9 flood cards in 9 rounds, but with 3 players, who draw one card a turn as printed
    (27 cards); the variant three-players-extra-flood-card draws the other 9 at the ends of the rounds."""
    rs = _ruleset(variant)
    game = Game(rs, players, seed=7)
    _play(game, 7, players, check=False)
    floods = [e for e in game.log if e.get("e") == "move" and e.get("to") == "flood_discard"]
    numbered = [f for f in floods if not str(f.get("thing", "")).startswith("no_flood")]
    assert len(numbered) == cards, f"{players} players: {len(numbered)} flood cards, not {cards}"


def test_a_human_can_play_at_the_terminal(monkeypatch, capsys):
    """`davit play titanic --players 3 --agents human,random,random`: the human
    sees the board, their own hidden objective and hand, and numbered actions."""
    import io
    import sys

    from interpreter.cli import main
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 2000))
    rc = main(["play", "titanic", "--players", "3", "--agents", "human,random,random", "--seed", "2"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "blue, placement:" in out and "start in " in out
    # the display section shows the seat its own objective card with its text
    card = out.split("your private objective:", 1)[1].splitlines()[1]
    assert card.strip().startswith("private objective card ") and "blue: " in card
    game = Game(_ruleset(), 3, seed=2)
    secret_names = {t.name for t in game.table.things.values() if t.kind in ("star_card", "objective")}
    for other in ("red", "white"):
        for place in ("hand", "end game scoring slot", "private objective"):
            for line in out.splitlines():
                if f"→ {other}'s {place}" in line:
                    assert line.split(":")[0] not in secret_names, f"the human sees {line!r}"
    assert "level 100, column 1, left room" in out
    assert "Game over" in out
