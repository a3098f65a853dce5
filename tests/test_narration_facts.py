"""What a reader checks in a narration, event by event, for each of the five Titanic games.

Three seeded games per ruleset (random seats, so they are quick) are played
and their narration (``event_text`` of every event, as ``davit play``
prints it) is read against the game's own log and state: the time in a
heading is the time of the turn it heads, a claim is made by the player the
rule names and only while the rule still applies, a heading appears only in
a round where its step happens, a co-operative game reports the team's
score. Nothing here is a string of one run: each expectation is worked out
from the log (phases, score events, triggers, moves) or the final state.
"""
import re

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents.seats import make_agents, play_out
from interpreter.observe.narrate import event_text

SEEDS = (1, 2, 3)
_RULES = {}


def _played(rid, players, seed):
    if rid not in _RULES:
        _RULES[rid] = load_ruleset(rid)
    game = Game(_RULES[rid], players, seed=seed)
    play_out(game, make_agents("random", players, seed))
    return game


def _narrated(game):
    """(event, text) for every event the narration prints."""
    return [(e, t) for e, t in ((e, event_text(game, e)) for e in game.log) if t]


def _constant(game, name):
    return game.ruleset.constants[name]["value"]


def _thing_named(game, name, kind):
    found = [t for t in game.table.things.values() if t.kind == kind and t.name == name]
    assert len(found) == 1, f"no single {kind} is called {name!r}"
    return found[0]


# --- Collapsible D ---------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_collapsible_d_headings_show_the_turns_own_time(seed):
    game = _played("collapsible-d", 4, seed)
    clock = _constant(game, "clock")
    turn = None
    alerted = 0
    for e, text in _narrated(game):
        if e["e"] == "phase":
            turn = e["vars"]["turn_no"]
            # every heading of turn t, the alarm first, shows the turn track's time t
            assert f"time {clock[turn - 1]}" in text, f"turn {turn}: {text!r}"
            step = e["name"]
            continue
        if e["e"] != "log" or turn is None:
            continue
        first = re.fullmatch(r"(\w+) is the First player \((.+)\)", text)
        if first:
            assert first.group(2) == clock[turn - 1], f"turn {turn}: {text!r}"
        woken = re.fullmatch(r"(.+) is alerted", text)
        if woken and step == "alarm":
            # the alarm step alerts the passengers whose alarm time is this turn's
            assert _thing_named(game, woken.group(1), "passenger").attrs["alarm"] == turn, f"turn {turn}: {text!r}"
            alerted += 1
    assert turn is not None and alerted > 0, "the game had turns and alarms to read"


# --- Titanic (2020) ---------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_titanic_heart_goes_to_the_lowest_and_never_after_the_collapsible(seed):
    game = _played("titanic", 4, seed)
    names = list(game.table.player_names)
    initial = game.ruleset.player_vars["score"].initial
    scores = {seat: initial for seat in range(len(names))}
    out, launched, claims = set(), False, 0
    for e, text in _narrated(game):
        if e["e"] == "score":
            scores[e["player"]] = e["total"]
        elif e["e"] == "eliminate":
            out.add(e["player"])
        elif e["e"] == "log":
            if text == "The collapsible lifeboat launches":
                launched = True
            taken = re.fullmatch(r"(\w+) (claims|takes) the Heart of the Ocean", text)
            if taken:
                assert not launched, f"{text!r} after the collapsible launched: the game is over"
                seat = names.index(taken.group(1))
                standing = {s: v for s, v in scores.items() if s not in out}
                low = min(standing.values())
                assert scores[seat] == low, f"{text!r}, but the scores are {scores}"
                if taken.group(2) == "claims":   # claimed only by the one player definitively lowest
                    assert list(standing.values()).count(low) == 1, f"{text!r} with a tie: {scores}"
                claims += 1
    assert launched == game.state.vars["collapsible_launched"], "the narration says the collapsible launched iff it did"
    assert claims > 0, "the Heart changed hands in the game"


# --- Titanic: Der Mythos -----------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_der_mythos_lifeboat_heading_only_in_rounds_with_a_lifeboat(seed):
    game = _played("der-mythos", 4, seed)
    headed, boats = set(), set()
    rounds = set()
    current = None
    for e, text in _narrated(game):
        if e["e"] == "phase":
            current = e["vars"]["round"]
            rounds.add(current)
            assert f"(round {current})" in text
            if e["name"] == "turn up the lifeboat":
                headed.add(current)
        elif e["e"] == "move" and e["from"] == "lifeboats":
            boats.add(current)   # the round's boat is scored: lowered or capsized
    assert rounds == set(range(1, _constant(game, "rounds") + 1))
    assert boats, "lifeboats were scored"
    assert headed == boats, f"headings in rounds {sorted(headed)}, boats scored in rounds {sorted(boats)}"


# --- SOS Titanic --------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_sos_titanic_ends_with_the_teams_score(seed):
    game = _played("sos-titanic", 2, seed)
    things = game.table.things
    # saved: the passengers in the lifeboats (a Collapsible Boat only carries them to a lifeboat)
    boats = [z for z in game.state.zones if re.fullmatch(r"boat\d", z)]
    saved = sum(1 for z in boats for t in game.state.zones[z] if things[t].kind == "passenger")
    last = event_text(game, game.log[-1])
    assert game.log[-1]["e"] == "end"
    assert "Winner" not in last, last
    assert f"The team scored {saved}." in last, f"{saved} passengers saved, but the narration ends {last!r}"


# --- Titanic: The Board Game --------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_board_game_moves_rolls_and_lifeboat_places(seed):
    game = _played("titanic-board-game", 3, seed)
    names = list(game.table.player_names)
    prices = _constant(game, "prices")
    rolled, places, transaction, previous = {}, [], {}, None
    for e, text in _narrated(game):
        if e["e"] == "log":
            roll = re.fullmatch(r"(\w+) (?:rolls|made a transaction and rolls again:) (\d)", text)
            if roll:
                who = roll.group(1)
                if "transaction" in text:   # a second roll only after paying for a card or taking the valuables
                    assert transaction.get(who), f"{text!r} with no transaction in that move"
                rolled[who] = int(roll.group(2))
                transaction[who] = False
            took = re.fullmatch(r"(\w+) takes their (\w+) card", text)
            if took and (took.group(2) == "valuables"
                         or previous == f"{took.group(1)} pays ${prices[took.group(2)]} to the Bank"):
                transaction[took.group(1)] = True   # bought in an office, or the free valuables from one's suite
            boat = re.fullmatch(r"(\w+) reaches their lifeboat \(place (\d)\)", text)
            if boat:
                places.append(boat.group(1))
                assert int(boat.group(2)) == len(places), text
            previous = text
        elif e["e"] == "decide" and e["action"]["action"] == "move":
            who = names[e["player"]]
            moved = re.fullmatch(r"\w+: move (\d) to .+", text)
            assert moved and int(moved.group(1)) == rolled.pop(who), f"{text!r}: not the number rolled"
            transaction[who] = False   # a payment before this move was not made in it
    end = game.log[-1]
    assert end["e"] == "end"
    out = {names[e["player"]] for e in game.log if e["e"] == "eliminate"}
    left = [n for n in names if n not in out]
    if places:   # the first into a lifeboat wins, and only they
        assert [names[s] for s in end["winners"]] == places[:1]
    elif len(left) == 1:   # everyone else was eliminated: the last one left wins
        assert [names[s] for s in end["winners"]] == left
    else:   # nobody arrived before the safety limit: nobody wins
        assert end["winners"] == [] and game.end_reason
