"""Collapsible D: invariants checked at every step of seeded games, and the water model.

At every decision of seeded games for 2 (variant), 3, 4, 5 and 6 players:
no space that is not white holds more than two pawns, and every passenger is
in exactly one place (dealt ones on the ship, on a priority table or lost;
the others in the box). The bots are "keen": they rarely pass, so boats are
boarded, aids taken and crowds moved.
"""
import functools
import random

import pytest

from interpreter import Game, load_ruleset
from interpreter.errors import GameError

RID = "collapsible-d"
VARIANTS = [None, "crew-abilities", "ankle-deep-water", "hang-on", "composure", "women-and-children-first"]
OPTIONAL = VARIANTS[1:]
# Variants cannot extend each other yet, so the combinations the rulebook allows
# ("the optional rules can also be used in combination with each other", and
# with the 2-player game) are files of their own, named after their parts.
COMBINED = {f"two-player-{v}": ["two-player", v] for v in OPTIONAL}
COMBINED["all-optional-rules"] = OPTIONAL
COMBINED["two-player-all-optional-rules"] = ["two-player", *OPTIONAL]


def _rs(variant=None):
    return load_ruleset(RID, variant)


def _prop(game, tid, name):
    props = game.state.props.get(tid, {})
    if name in props:
        return props[name]
    return game.ruleset.thing_props[name]


def _passengers(rs):
    return [t["id"] for t in rs.data["things"] if t.get("kind") == "passenger"]


def _check(game, passengers):
    rs = game.ruleset
    st = game.state
    # every passenger listed in exactly one zone, and that zone is where it is
    holders = {}
    for zid, things in st.zones.items():
        for tid in things:
            holders.setdefault(tid, []).append(zid)
    for tid in passengers:
        assert len(holders.get(tid, [])) == 1, f"{tid} is in {holders.get(tid)}"
        zid = holders[tid][0]
        assert st.where[tid] == zid
        seat = _prop(game, tid, "seat")
        if seat < 0:
            assert zid == "box", f"undealt {tid} is in {zid}"
        else:
            z = rs.zones[zid]
            assert zid == "lost" or zid.startswith("table_") or "row" in z.attrs, f"{tid} is in {zid}"
    # at most two pawns on a space unless it is white
    for zid, things in st.zones.items():
        z = rs.zones.get(zid)
        if z is None or "row" not in z.attrs or z.attrs["colour"] == "white":
            continue
        pawns = [t for t in things if t in passengers]
        assert len(pawns) <= 2, f"{zid} holds {pawns}"
    # the water only rises and never passes the boat deck
    water = st.vars["water"]
    assert all(0 <= w <= 9 for w in water)


def _keen_choice(game, chooser, actions):
    """Board when you can, climb when you can, rarely pass; otherwise at random."""
    zones = game.ruleset.zones

    def value(action):
        if action.name == "embark":
            return 100
        if action.name == "step":
            args = action.to_json()["args"]
            here = zones[game.state.where[args["passenger"]["thing"]]]
            there = zones[args["to"]["zone"] if isinstance(args["to"], dict) else args["to"]]
            return 10 * (there.attrs["row"] - here.attrs["row"]) + 5
        if action.name in ("pass", "leave_table"):
            return -10
        return 1

    scored = [(value(a) + chooser.random() * 8, i) for i, a in enumerate(actions)]
    return actions[max(scored)[1]]


@functools.cache   # a seeded game is the same game every time: tests that only read it share it
def _play(variant, players, seed):
    """A seeded game of keen bots, its invariants checked at every step; callers only read it."""
    rs = _rs(variant)
    game = Game(rs, players, seed=seed)
    passengers = _passengers(rs)
    chooser = random.Random(seed)
    last_water = list(game.state.vars["water"])
    steps = 0
    while not game.is_over:
        _check(game, passengers)
        water = game.state.vars["water"]
        assert all(a >= b for a, b in zip(water, last_water)), "the water never goes down"
        last_water = list(water)
        seat = game.deciding_players[0]
        assert game.apply(_keen_choice(game, chooser, game.legal_actions(seat)))
        steps += 1
        assert steps < 4000
    _check(game, passengers)
    return game


CASES = ([(None, n) for n in (3, 4, 5, 6)] + [("two-player", 2)] + [(v, 4) for v in VARIANTS[1:]]
         + [("all-optional-rules", 4), ("two-player-all-optional-rules", 2)])


# a variant's cases are slow: the fast tier checks the base game at every player count
@pytest.mark.parametrize("variant,players", [pytest.param(v, n, id=f"{v or 'base'}-{n}p",
                                                          marks=() if v is None else pytest.mark.slow)
                                             for v, n in CASES])
def test_invariants_hold_at_every_step(variant, players):
    for seed in (1, 2, 3):
        game = _play(variant, players, seed)
        dealt = [t for t in _passengers(game.ruleset) if _prop(game, t, "seat") >= 0]
        expected = {2: 12, 3: 12}.get(players, 3 * players)
        assert len(dealt) == expected


def test_keen_bots_launch_boats_and_score():
    """The playout exercises the lifeboats: over a few games someone is rescued and scores."""
    rescued = 0
    for seed in range(1, 6):
        game = _play(None, 4, seed)
        rescued += sum(1 for t in _passengers(game.ruleset) if _prop(game, t, "saved"))
        for t in _passengers(game.ruleset):
            if _prop(game, t, "saved"):
                assert game.state.where[t].startswith("table_")
    assert rescued > 0


def test_dealing_by_player_count():
    for players, per_player in ((3, 4), (4, 3), (6, 3)):
        game = Game(_rs(), players, seed=7)
        for seat in range(players):
            mine = [t for t in _passengers(game.ruleset) if _prop(game, t, "seat") == seat]
            assert len(mine) == per_player
            defs = {d["id"]: d for d in game.ruleset.data["things"]}
            classes = sorted(defs[t]["attrs"]["class"] for t in mine)
            expected = ["crew", "first", "second", "third"] if players == 3 else ["crew", "first", "third"]
            assert classes == expected
    with pytest.raises(GameError, match="for 3–6 players, not 2"):
        Game(_rs(), 2, seed=1)


def test_water_capacity_is_never_exceeded_and_card_values_are_used():
    """Every level of a flooding card raises a token until the whole ship is under water."""
    game = _play(None, 3, 5)
    flooded = [c for c in game.state.zones["flooded_cards"]]
    assert len(flooded) == 16
    total = sum(next(d for d in game.ruleset.data["things"] if d["id"] == c)["attrs"]["value"] for c in flooded)
    start = game.ruleset.constants["water_start"]["value"]
    rise = sum(game.state.vars["water"]) - sum(start)
    capacity = sum(9 - s for s in start)
    assert rise == min(total, capacity)


def test_no_space_under_water_keeps_a_pawn_in_the_base_game():
    game = _play(None, 5, 4)
    rs = game.ruleset
    water = game.state.vars["water"]
    for zid, things in game.state.zones.items():
        z = rs.zones.get(zid)
        if z is None or "row" not in z.attrs:
            continue
        if z.attrs["row"] <= water[z.attrs["section"] - 1]:
            assert not [t for t in things if t in _passengers(rs)], f"{zid} is under water"


# every combination; after the first, slow (a sweep over the variants)
@pytest.mark.parametrize("combined", [pytest.param(c, marks=pytest.mark.slow if i else ())
                                      for i, c in enumerate(sorted(COMBINED))])
def test_a_combined_variant_is_exactly_its_parts(combined):
    """Each combination changes what its parts change, to the same values, and nothing else."""
    base = _rs()
    whole = _rs(combined)
    expected = dict(base.constants)
    for part in COMBINED[combined]:
        rs = _rs(part)
        changed = {k: v for k, v in rs.constants.items() if base.constants.get(k) != v}
        assert changed, f"{part} changes no constant"
        expected.update(changed)
        if (rs.min_players, rs.max_players) != (base.min_players, base.max_players):
            assert (whole.min_players, whole.max_players, whole.player_names) == \
                (rs.min_players, rs.max_players, rs.player_names)
    assert whole.constants == expected


def test_a_face_down_lifeboat_shows_the_capacity_printed_on_its_back():
    """Issue 14, point 10: capacities are printed on the card backs 'to give indications to the players'."""
    from interpreter import Game, load_ruleset
    from interpreter.observe.narrate import describe_view
    game = Game(load_ruleset("collapsible-d"), 3, seed=1)
    lines = [line for line in describe_view(game, game.view(0)) if line.strip().startswith("lifeboat at access ")]
    assert lines and all("a face-down lifeboat (capacity " in line for line in lines)
    shown = {int(line.rsplit("capacity ", 1)[1].rstrip(")")) for line in lines}
    assert shown <= {3, 4, 5, 6} and len(shown) > 1
    assert not any("Boat" in line or "Collapsible" in line for line in lines), "the face stays hidden"


def test_each_alarm_heading_shows_its_own_turns_time():
    """The '— alarm (time …)' heading of turn k reads the Turn Track's k-th time, not the time of turn k - 1."""
    from interpreter.observe.narrate import event_text
    rs = _rs()
    game = Game(rs, 3, seed=1)
    chooser = random.Random(1)
    while not game.is_over:
        actions = game.legal_actions(game.deciding_players[0])
        game.apply(actions[chooser.randrange(len(actions))])
    clock = game.table.constants["clock"]
    headings = [event_text(game, e) for e in game.log if e.get("e") == "phase" and e.get("name") == "alarm"]
    assert len(headings) == len(clock)
    for time, heading in zip(clock, headings):
        assert heading.startswith(f"— alarm (time {time}"), heading


def _flood_order(rs, highest):
    """Pins laying each flooding deck in order of value (the highest or the lowest cards first)."""
    cards = [t for t in rs.data["things"] if t.get("kind") == "flood"]
    pins = {}
    for deck in "ABCD":
        mine = sorted((c for c in cards if c["attrs"]["deck"] == deck), key=lambda c: c["attrs"]["value"],
                      reverse=highest)
        pins[f"shuffle flood {deck}"] = [[c["id"] for c in mine]]
    return pins


def _class_order(rs, reverse):
    """Pins dealing each passenger deck in card order (or reversed), so two 6-player games deal every card."""
    pins = {}
    for deck, cls in (("first class", "first"), ("second class", "second"), ("third class", "third"), ("crew", "crew")):
        ids = [t["id"] for t in rs.data["things"] if t.get("kind") == "passenger" and t["attrs"]["class"] == cls]
        pins[f"shuffle {deck}"] = [ids[::-1] if reverse else ids]
    return pins


@pytest.mark.parametrize("highest", [False, True], ids=["lowest cards first", "highest cards first"])
def test_a_passenger_who_stays_put_is_alerted_before_the_water_reaches_them(highest):
    """Issue 31: nobody moves; whatever flooding cards come (the lowest or the highest of each deck first), no
    passenger is lost before the Alarm phase of their alarm time alerts them."""
    from interpreter.authoring.scenario import PassAgent
    rs = _rs()
    agent = PassAgent()
    seen, lost = set(), 0
    for players, reverse in ((6, False), (6, True), (3, False)):   # only 3 players use the 2nd Class
        pins = {**_flood_order(rs, highest), **_class_order(rs, reverse)}
        game = Game(rs, players, seed=1, pins=pins)
        while not game.is_over:
            seat = game.deciding_players[0]
            assert game.apply(agent.choose(game, seat, game.legal_actions(seat)))
        for tid in _passengers(rs):
            if _prop(game, tid, "seat") < 0:
                continue
            seen.add(tid)
            assert not _prop(game, tid, "moved"), f"{tid} moved"
            if game.state.where[tid] == "lost":
                lost += 1
                assert _prop(game, tid, "alerted"), f"{tid} was lost before their alarm"
    assert seen == set(_passengers(rs)), "every passenger card was dealt in one of the games"
    if highest:   # the water does come: the test does not pass because it never reaches anyone
        assert lost > 0


@pytest.mark.slow
def test_the_board_is_what_its_generator_prints():
    """board.yaml is generated (its starting positions from the alarm times, the water and the cards): an edit
    by hand, or a changed constant the generator reads, must not leave the two apart."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    made = subprocess.run([sys.executable, str(root / "tools" / "generators" / "collapsible_d_board.py")],
                          capture_output=True, text=True, check=True).stdout
    assert made == (root / "rulesets" / RID / "board.yaml").read_text()


@pytest.mark.slow
def test_the_pages_table_of_losses_before_the_alarm_is_what_its_command_prints():
    """docs/rulesets/collapsible-d.md shows a command and the table it printed: play the games again."""
    import re
    import shlex
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "rulesets" / f"{RID}.md").read_text()
    found = re.search(r"```sh\npython3 (tools/collapsible_d_alarm_losses\.py [^\n]*)\n```\n\n((?:\|[^\n]*\n)+)", text)
    assert found, "the page shows the command and its table"
    argv = shlex.split(found.group(1))
    sys.path.insert(0, str(root / "tools"))
    import collapsible_d_alarm_losses as tool
    args = dict(zip(argv[1::2], argv[2::2]))
    assert int(args["--games"]) == 200
    counts = tool.tally(int(args["--games"]), int(args["--players"]), args["--agents"], int(args["--seed"]))
    assert tool.table(counts) == found.group(2)
    # with 3 players every card is dealt in some game
    assert all(dealt for dealt, *_ in counts.values())
