"""The engine's written-out paths do what the general ones do.

A move without the log is made as the logged move makes it (the same zones, sides and
``known_to``), a side set from a flag as from any other value, a bot's stream seeded as
``random.Random`` seeds it, and the playout loop's simultaneous step finds the seats still to
commit whoever committed before it (the loop itself, the public API, a clone, a saved game).
"""
import random
import re

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.agents.bots import RandomAgent, seeded
from interpreter.dsl.primitives import PRIMITIVES
from interpreter.errors import GameError, Location
from interpreter.load.limits import MAX_ITEMS, MAX_TEXT
from interpreter.machine import rng
from interpreter.machine.budget import MAX_SMALL_INT
from interpreter.machine.values import PlayerRef
from interpreter.machine.waits import turn_taken
from interpreter.play.decisions import _start_action as start_action
from interpreter.play.decisions import commit
from interpreter.play.playout import decide_by_index
from interpreter.play.position import counted, grow, hold, measure_charged
from interpreter.play.runtime import checked_size

SPACE = "r9x00"
LOC = Location("rules.yaml", 3, 4)


@pytest.mark.parametrize("seed", [0, 1, -5, 17, 2 ** 62 + 5, 2 ** 63 - 1, -2 ** 70, 2 ** 100])
def test_a_bots_stream_is_seeded_as_random_seeds_it(seed):
    ours, theirs = seeded(seed), random.Random(seed)
    assert ours.getstate() == theirs.getstate()
    assert [ours.random() for _ in range(5)] == [theirs.random() for _ in range(5)]
    assert ours.gauss(0, 1) == theirs.gauss(0, 1) and ours.gauss(0, 1) == theirs.gauss(0, 1)
    assert RandomAgent(seed).random.getstate() == random.Random(seed).getstate()


def test_a_seed_that_is_no_whole_number_takes_the_general_way():
    for seed in ("deck", 2.5, True, None):
        if seed is None:
            assert isinstance(seeded(seed), random.Random)
            continue
        assert seeded(seed).getstate() == random.Random(seed).getstate()


def _moves(game):
    """Every kind of move on one game: each place (bottom, top, a position), each side, a peeked thing."""
    things, zones = game.table.things, game.table.zones
    boat, other = things["boat-I.1"], things["boat-II.1"]
    card = game.table.zones["hand@0"]
    first = things[game.state.zones[card.id][0]]
    game.let_see(PlayerRef(1), first, None)   # known_to, which a move forgets
    steps = [(first, zones["lowered"], "bottom", None), (boat, zones["lowered"], "top", None),
             (other, zones["lowered"], 2, "down"), (first, zones["capsized"], "top", "up"),
             (boat, zones["capsized"], 1, None), (other, zones["played@1"], "bottom", "up"),
             (first, zones["played@0"], "bottom", None), (boat, zones["lowered"], True, "down")]
    for thing, zone, at, face in steps:
        game.move_thing(thing, zone, at, face, None)
        game.set_face(boat, 1, None)   # a side from a number, as from a flag
        game.set_face(other, None, None)
    return game


def test_a_move_without_the_log_is_the_logged_move():
    rs = load_ruleset("der-mythos")
    logged, quiet = _moves(Game(rs, 3, seed=4)), _moves(Game(rs, 3, seed=4, record=False))
    assert quiet.state.to_json() == logged.state.to_json()
    assert any(e["e"] == "move" for e in logged.log) and not quiet.log
    flagged = Game(rs, 3, seed=4, record=False)
    boat = flagged.table.things["boat-I.1"]
    flagged.set_face(boat, False, None)
    flagged.set_face(boat, True, None)
    numbered = Game(rs, 3, seed=4, record=False)
    numbered.set_face(boat, 0, None)
    numbered.set_face(boat, 1, None)
    assert flagged.state.to_json() == numbered.state.to_json()


def _played(game, agents):
    play_out(game, agents)
    return game.state.to_json(), game.scores


@pytest.mark.parametrize("first", [0, 2, 3])
def test_the_playout_loop_finds_the_seats_still_to_commit(first):
    """Seat ``first`` commits through the public API; the playout loop commits the others, in seat order,
    as the public loop does; so do a clone and a reloaded save taken there (they know no commitment by
    number). A commitment the loop made itself is found by number."""
    rs = load_ruleset("der-mythos")
    games = []
    for _ in range(4):
        game = Game(rs, 4, seed=23, record=False)
        assert game.state.pending["kind"] == "simultaneous"
        action = game.legal_actions(first)[0]
        assert game.apply(action)
        games.append(game)
    plain, fused, clone, loaded = games[0], games[1], games[2].clone(), Game.from_json(rs, games[3].to_json())
    results = []
    for game, fused_loop in ((plain, False), (fused, True), (clone, True), (loaded, True)):
        agents = make_agents("random", 4, 23)
        made = 0
        if fused_loop:
            pickers = [agent.pick for agent in agents]
            while not game.is_over:
                assert decide_by_index(game, pickers)
                made += 1
        else:
            made = play_out(game, agents, fused=False)
        results.append((game.state.to_json(), game.scores, made))
    assert results[0][2] > 0 and all(r == results[0] for r in results)


def _stored(game):
    st = game.state
    return st.to_json(), dict(st.held or {}), st.held_total


def _generic_set_var(game, name, value):
    """set_var as it was before its checks were written out: checked_size, then a counted value held."""
    checked_size(value)
    if counted(value):
        hold(game, name, value, None)
    game.state.vars[name] = value


def _generic_zone_prop(game, zone, name, value, loc):
    """set_attr's general way for a zone: checked_size with the place, the declared name, set_zone_prop."""
    checked_size(value, loc)
    if name not in game.ruleset.zone_props:
        raise GameError(f"'{name}' is not a declared zone property", loc)
    game.set_zone_prop(zone.id, name, value)


VALUES = [True, None, 0, -3, 2.5, "", "x" * 63, "y" * 64, "z" * 200, [1, 2], [], {"a": [1]}, (1, 2),
          10 ** 400, "w" * (MAX_TEXT + 1), list(range(MAX_ITEMS + 1))]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: f"{type(v).__name__}{len(v) if hasattr(v, '__len__') else ''}")
def test_a_variable_and_a_zone_property_are_set_as_the_general_way_sets_them(value):
    rs = load_ruleset("collapsible-d")
    results = []
    for setter in (lambda g, v: g.set_var("last_moves", v), lambda g, v: _generic_set_var(g, "last_moves", v),
                   lambda g, v: g.set_attr(g.table.zones[SPACE], "flooded", v, LOC),
                   lambda g, v: _generic_zone_prop(g, g.table.zones[SPACE], "flooded", v, LOC),
                   lambda g, v: g.set_attr(g.table.zones[SPACE], "undeclared", v, LOC),
                   lambda g, v: _generic_zone_prop(g, g.table.zones[SPACE], "undeclared", v, LOC)):
        game = Game(rs, 4, seed=2, record=False)
        try:
            setter(game, value)
            results.append(_stored(game))
        except GameError as error:
            results.append((str(error), error.location))
    assert results[0] == results[1] and results[2] == results[3] and results[4] == results[5]


def _old_set_zone_prop(game, zid, name, value):
    """set_zone_prop before its checks were written out."""
    kind = type(value)
    if not (kind is bool or value is None or (kind is int and -MAX_SMALL_INT < value < MAX_SMALL_INT)):
        checked_size(value)
        if counted(value):
            hold(game, ("z", zid, name), value, None)
    st = game.state
    st.own_zprops(zid)[name] = value
    if name == "removed":
        st.board_key = None
    if isinstance(value, (list, dict)) and st.zprops_deep is not None:
        st.zprops_deep.add(zid)


def _old_set_item(game, obj, index, value, loc):
    """set_item before a plain value skipped its checks."""
    checked_size(value, loc)
    grows = counted(value)
    if grows:
        measure_charged(game, value, loc)
    if not grows and type(index) is int and type(obj) is list and -len(obj) <= index < len(obj) \
            and not counted(obj[index]):
        obj[index] = value
        return
    obj[index] = value
    game.state.held = None
    game.item_loc = loc


@pytest.mark.parametrize("value", VALUES + [PlayerRef(1)], ids=lambda v: f"{type(v).__name__}")
def test_a_zone_property_and_an_item_are_set_as_before(value):
    rs = load_ruleset("collapsible-d")
    results = []
    for setter in (lambda g, v: g.set_zone_prop(SPACE, "flooded", v),
                   lambda g, v: _old_set_zone_prop(g, SPACE, "flooded", v),
                   lambda g, v: g.set_item(g.state.vars["last_moves"], 0, v, LOC),
                   lambda g, v: _old_set_item(g, g.state.vars["last_moves"], 0, v, LOC)):
        game = Game(rs, 4, seed=2, record=False)
        game.set_var("last_moves", [1, [2], "x"])
        game.work = 0
        try:
            setter(game, value)
            results.append((_stored(game), game.work, game.item_loc, game.state.zprops_deep))
        except GameError as error:
            results.append((str(error), error.location))
    assert results[0] == results[1] and results[2] == results[3]


def test_a_move_into_a_space_off_the_board_is_refused_as_before():
    """A space with properties is entered at once unless it is removed; removed, it refuses with can_enter's
    reason; a link is counted as grow() counts it, also when the position is to be counted afresh."""
    rs = load_ruleset("collapsible-d")
    game = Game(rs, 4, seed=2, record=False)
    space, other = game.table.zones[SPACE], game.table.zones["r9x01"]
    pawn = game.table.things[game.state.zones["box"][0]]
    game.set_zone_prop(SPACE, "flooded", True)
    game.move_thing(pawn, space, "bottom", None, None)
    assert game.state.where[pawn.id] == SPACE
    game.set_zone_prop("r9x01", "removed", True)
    why = game.can_enter(pawn, other)
    assert why is not None
    with pytest.raises(GameError, match=re.escape(why)):
        game.move_thing(pawn, other, "bottom", None, None)
    assert game.state.where[pawn.id] == SPACE
    totals = []
    for unknown in (False, True):
        for counts in (lambda g, link: g.hold_link(link), lambda g, link: grow(g, 4 + len(link[2]) // 64, None)):
            game = Game(rs, 4, seed=2, record=False)
            if unknown:
                game.state.held = None
            counts(game, ["r9x00", "r9x01", "k" * 130, False])
            totals.append((game.state.held_total, game.state.held))
    assert totals[0] == totals[1] and totals[2] == totals[3]


def _calls(answers):
    """A predicate answering ``answers`` in turn, and the items it was asked about."""
    asked = []

    def predicate(x):
        asked.append(x)
        return answers[x]
    return predicate, asked


@pytest.mark.parametrize("answers", [[True, 0, 1, None, "", "t", [], [0]], [0, 0], [5, 2, 5], [True], [[1], 2]])
def test_collection_built_ins_ask_and_answer_as_a_loop_would(answers):
    """count, any, all, sum, min, max, lowest and highest, their predicate or key over a list: the same answers
    and the same items asked, in order, as a plain loop (any and all stop at the first that decides)."""
    game = Game(load_ruleset("tutorial"), 2, seed=1, record=False)
    items = list(range(len(answers)))
    loops = {"count": lambda p: sum(1 for x in items if p(x)), "any": lambda p: any(p(x) for x in items),
             "all": lambda p: all(p(x) for x in items)}
    for name, loop in loops.items():
        fn = PRIMITIVES[name].fn
        ours, ours_asked = _calls(answers)
        theirs, theirs_asked = _calls(answers)
        assert fn(game, None, items, ours) == loop(theirs) and ours_asked == theirs_asked
    numbers = [a for a in answers if type(a) is int]
    if numbers:
        keyed = list(range(len(numbers)))
        for name, loop in {"sum": sum, "min": min, "max": max}.items():
            assert PRIMITIVES[name].fn(game, None, keyed, numbers.__getitem__) == loop(numbers)
        low, high = min(numbers), max(numbers)
        assert PRIMITIVES["lowest"].fn(game, None, keyed, numbers.__getitem__) == \
            [x for x in keyed if numbers[x] == low]
        assert PRIMITIVES["highest"].fn(game, None, keyed, numbers.__getitem__) == \
            [x for x in keyed if numbers[x] == high]


def _shuffled_by_below(state, items):
    """rng.shuffled as it was: Fisher-Yates, each index from rng.below."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        state, j = rng.below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state, items


@pytest.mark.parametrize("seed", [0, 1, 7, 2 ** 40, -3])
def test_a_shuffle_draws_as_below_draws(seed):
    state = rng.seed_state(seed)
    for size in (0, 1, 2, 3, 7, 52, 200):
        items = [f"t{i}" for i in range(size)]
        ours, theirs = rng.shuffled(state, items), _shuffled_by_below(state, items)
        assert ours == theirs
        state = ours[0] ^ size


@pytest.mark.parametrize("seed", [0, 5, 2 ** 63 + 1])
def test_a_draw_below_n_is_next_u64_until_it_falls_under_the_limit(seed):
    state = rng.seed_state(seed)
    for n in [1, 2, 3, 6, 7, 100, 2 ** 63 + 7, 2 ** 64 - 1] * 5:
        limit = (1 << 64) - ((1 << 64) % n)
        theirs = state
        while True:
            theirs, value = rng.next_u64(theirs)
            if value < limit:
                break
        assert rng.below(state, n) == (theirs, value % n)
        state = theirs


@pytest.mark.parametrize("rid, players", [("collapsible-d", 4), ("titanic", 3), ("sos-titanic", 2)])
def test_the_playout_loop_takes_a_choice_as_legal_actions_lists_it(rid, players):
    """At each choose() a random bot answers through the playout loop's own way and, on a clone, through
    legal_actions: the same count of options, and the option taken leaves the same position and the same
    log (its label included)."""
    game = Game(load_ruleset(rid), players, seed=3)
    agents = make_agents("random", players, 3)
    pickers = [agent.pick for agent in agents]
    choices = 0
    while not game.is_over and choices < 25:
        pending = game.state.pending
        if pending["kind"] != "choice":
            assert decide_by_index(game, pickers)
            continue
        choices += 1
        seat = pending["player"]
        twin = game.clone()
        legal = twin.legal_actions(seat)
        asked = []

        def picker(count, pick=pickers[seat], asked=asked):
            asked.append(count)
            asked.append(pick(count))
            return asked[-1]

        assert decide_by_index(game, pickers[:seat] + [picker] + pickers[seat + 1:])
        assert asked[0] == len(legal)
        twin.carry_out_legal(legal[asked[1]])
        assert twin.state.to_json() == game.state.to_json() and twin.log == game.log
    assert choices > 0


@pytest.mark.parametrize("rid, players", [("tutorial", 3), ("collapsible-d", 4), ("der-mythos", 3)])
def test_an_action_is_started_as_start_action_starts_it(rid, players):
    """commit starts an action without a cost in place: the same frames, locals and counters as
    _start_action (which pays the costs), for actions offered along a game (a turn's, or a
    simultaneous step's, every seat committing)."""
    game = Game(load_ruleset(rid), players, seed=6, record=False)
    agents = make_agents("random", players, 6)
    checked = 0
    while not game.is_over and checked < 60:
        pending = game.state.pending
        if pending["kind"] == "turn":
            seat = pending["player"]
            for action in [a for a in game.legal_actions(seat) if a.name in game.ruleset.actions][:4]:
                ours, theirs = game.clone(), game.clone()
                commit(ours, action)
                theirs.state.pending = None
                if turn_taken(theirs.state.stack[-1][2], pending, action.name):
                    theirs.state.stack[-1][1] += 1
                else:
                    start_action(theirs, action)
                assert ours.state.to_json() == theirs.state.to_json()
                checked += 1
        elif pending["kind"] == "simultaneous" and not pending["commits"]:
            ours, theirs = game.clone(), game.clone()
            taken = {seat: ours.legal_actions(seat)[-1] for seat in pending["players"]}
            for seat in pending["players"]:
                commit(ours, taken[seat])
            theirs.state.stack = []
            for seat in sorted(taken, reverse=True):
                start_action(theirs, taken[seat])
            assert ours.state.stack[-len(taken):] == theirs.state.stack
            assert ours.state.pvars == theirs.state.pvars
            checked += 1
        play_out(game, agents, max_decisions=1)
    assert checked > 0
