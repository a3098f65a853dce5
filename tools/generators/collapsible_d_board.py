"""Generates board.yaml for collapsible-d (the layout is our reconstruction).

Run: python3 tools/generators/collapsible_d_board.py > rulesets/collapsible-d/board.yaml

The geometry, colours, stairways and aid letters are ours. The starting positions are
placed from the rulebook's own numbers (each passenger's start number, class and alarm
time, the water's order and the flooding cards): see earliest_safe().
"""
import sys
from pathlib import Path

import yaml

RULESET = Path(__file__).resolve().parents[2] / "rulesets" / "collapsible-d"


def _read(name):
    with open(RULESET / name) as f:
        return yaml.safe_load(f)


def _constant(rules, name):
    c = rules["constants"][name]
    return c["value"] if isinstance(c, dict) else c


RULES, PIECES = _read("ruleset.yaml"), _read("pieces.yaml")["things"]
WIDTH = [1, 2, 2, 2, 2, 2, 2, 2, 1, 2]          # columns per section 1..10 (bow = section 1, on the right)
START = _constant(RULES, "water_start")         # water token start level per section
TOP = _constant(RULES, "deck_top")              # the boat deck row

# x of each column, section 10 on the left (x = 0)
cols = []   # (x, section)
x = 0
for sec in range(10, 0, -1):
    for _ in range(WIDTH[sec - 1]):
        cols.append((x, sec))
        x += 1
SECTION = dict(cols)
FLOOR = {sec: START[sec - 1] + 1 for sec in range(1, 11)}


def colour(r, x):
    if r == 9:
        return "white"
    if r == 8:
        return "white" if x in (3, 9, 15) else "blue"
    if r == 7:
        return "white" if x in (6, 12) else ("blue" if x >= 9 else "green")
    if r == 6:
        return "white" if x in (2, 14) else ("blue" if x >= 11 else "green")
    if r == 5:
        return "white" if x == 8 else ("red" if x >= 11 else "green")
    if r == 4:
        return "white" if x in (4, 13) else "red"
    if r == 3:
        return "white" if x == 11 else ("red" if x >= 9 else "black")
    if r == 2:
        return "red" if x in (13, 14) else "black"
    return "black"


# Crew spaces the water reaches last: the crew alerted last (Lightoller and Lucas at 01:30,
# Phillips at 01:40) had no black space the water could not reach before then. The crew's
# quarters aft climb to deck 5 in section 10's fore column, and the crew shaft at x = 6 opens
# onto a crew space on deck 8, under the boat deck.
CREW_LATE = {(4, 1), (5, 1), (8, 6)}


def paint(r, x):
    return "black" if (r, x) in CREW_LATE else colour(r, x)


def sid(r, x):
    return f"r{r}x{x:02d}"


spaces = {}
for x, sec in cols:
    for r in range(FLOOR[sec], TOP + 1):
        spaces[(r, x)] = dict(colour=paint(r, x), section=sec, row=r, x=x)

# boat deck: lifeboat access spaces 1..8 (8 serves three boats) and bonus marks
ACCESS = {15: 1, 13: 2, 11: 3, 9: 4, 7: 5, 5: 6, 3: 7, 1: 8}
BONUS = {0: 3, 6: 2, 12: 1}
for x, k in ACCESS.items():
    spaces[(9, x)]["access"] = k
for x, b in BONUS.items():
    spaces[(9, x)]["bonus"] = b

# stairways: yellow where (x + r) % 4 == 0, black in the crew shafts x = 6 and x = 13
edges = []
for r, x in spaces:
    if (r, x + 1) in spaces:
        edges.append((sid(r, x), sid(r, x + 1), "walk"))
    if (r + 1, x) in spaces:
        if x in (6, 13):
            edges.append((sid(r, x), sid(r + 1, x), "black_stairs"))
        elif (x + r) % 4 == 0 or x == 17:
            edges.append((sid(r, x), sid(r + 1, x), "yellow_stairs"))

# aid spaces A..T: non-white spaces below the boat deck, spread along the ship (fixed
# here so that moving a starting position never moves a letter)
AIDS = {"A": (3, 1), "B": (8, 1), "C": (3, 3), "D": (7, 3), "E": (8, 4), "F": (6, 5), "G": (6, 6),
        "H": (3, 7), "I": (1, 8), "J": (8, 8), "K": (7, 9), "L": (6, 10), "M": (8, 11), "N": (6, 12),
        "O": (8, 13), "P": (7, 14), "Q": (5, 15), "R": (3, 16), "S": (7, 16), "T": (6, 17)}
for letter, key in AIDS.items():
    spaces[key]["aid"] = letter

# starting positions 1..30. The first reconstruction spread them over the spaces of each
# class colour (FIRST_STARTS, row and x). Each stays where it was unless the water can reach
# it before the passenger's alarm time; those move (earliest_safe) to a space of their class
# colour that no draw of flooding cards floods before the alarm, and of those the one the
# water reaches first, so that once alerted the passenger still has to run.
FIRST_STARTS = {1: (8, 0), 2: (8, 2), 3: (8, 5), 4: (8, 7), 5: (8, 10), 6: (8, 12), 7: (8, 14), 8: (7, 10),
                9: (7, 13), 10: (7, 0), 11: (6, 1), 12: (5, 0), 13: (5, 11), 14: (5, 13), 15: (4, 0), 16: (4, 2),
                17: (4, 5), 18: (4, 7), 19: (4, 9), 20: (4, 11), 21: (4, 14), 22: (3, 0), 23: (3, 2), 24: (3, 4),
                25: (3, 6), 26: (3, 8), 27: (2, 4), 28: (2, 6), 29: (2, 8), 30: (2, 12)}
COLOUR = {"first": "blue", "second": "green", "third": "red", "crew": "black"}


def water_order(start, bulkhead, top):
    """{(section, row): n}: the n-th level of water poured into the ship reaches that space.

    The same rule as ``water_target`` in ruleset.yaml: the first section from the bow that
    has not exceeded its bulkhead by one space takes the level, unless an earlier section
    (not yet at the top) stands at or below its level; once every token has spilled, the
    lowest section from the bow. The order never depends on the cards, only how fast it goes."""
    water, order, n = list(start), {}, 0
    while True:
        active = next((i for i, w in enumerate(water) if w <= bulkhead[i] and w < top), None)
        level = water[active] if active is not None else min((w for w in water if w < top), default=None)
        if level is None:
            return order
        earlier = range(active if active is not None else len(water))
        s = next((j for j in earlier if water[j] <= level and water[j] < top), active)
        water[s] += 1
        n += 1
        order[(s + 1, water[s])] = n


def most_water_before(turn, decks, per_deck=4):
    """The most levels of water the flooding cards of turns 1 .. turn - 1 can pour."""
    total, left = 0, turn - 1
    for values in decks:
        k = min(per_deck, max(0, left))
        total += sum(sorted(values, reverse=True)[:k])
        left -= k
    return total


ORDER = water_order(START, _constant(RULES, "bulkhead"), TOP)
DECKS = [[t["attrs"]["value"] for t in PIECES if t.get("kind") == "flood" and t["attrs"]["deck"] == d] for d in "ABCD"]
PASSENGERS = sorted((t["attrs"] for t in PIECES if t.get("kind") == "passenger"),
                    key=lambda a: (-a["alarm"], a["start"]))


def need(attrs):
    """The first level of water that cannot have come before the passenger's alarm."""
    return most_water_before(attrs["alarm"], DECKS) + 1


def level_of(key):
    return ORDER[(spaces[key]["section"], key[0])]


def earliest_safe(attrs, taken):
    """Of the free spaces of the passenger's class colour that no draw of flooding cards floods before its
    alarm, the one the water reaches first (of two, the one nearer the bow)."""
    cands = [(level_of(key), -key[1], key) for key, s in spaces.items()
             if s["colour"] == COLOUR[attrs["class"]] and key[0] < TOP and "aid" not in s and key not in taken
             and level_of(key) >= need(attrs)]
    if not cands:
        sys.exit(f"no {COLOUR[attrs['class']]} space is dry until {attrs['alarm']}: nowhere for start {attrs['start']}")
    return min(cands)[2]


def safe_where_it_was(attrs):
    key = FIRST_STARTS[attrs["start"]]
    return spaces[key]["colour"] == COLOUR[attrs["class"]] and level_of(key) >= need(attrs)


kept = [a for a in PASSENGERS if safe_where_it_was(a)]
taken = {FIRST_STARTS[a["start"]] for a in kept}
placed = {a["start"]: FIRST_STARTS[a["start"]] for a in kept}
for attrs in PASSENGERS:
    if attrs["start"] not in placed:
        placed[attrs["start"]] = earliest_safe(attrs, taken)
        taken.add(placed[attrs["start"]])
for number, key in placed.items():
    spaces[key]["start"] = number
MOVED = {a["start"] for a in PASSENGERS} - {a["start"] for a in kept}

print("# yaml-language-server: $schema=../../schemas/part.schema.json")
print("# GENERATED by tools/generators/collapsible_d_board.py: the starboard section of the ship.")
print("# Rows are decks (1 = lowest, 9 = the boat deck); x runs from the stern end of")
print("# section 10 (x = 0) to the bow (x = 17). Sections 1 and 9 are one column wide,")
print("# the others two. Every value here is our reconstruction: the rulebook's board")
print("# picture is not reproduced in the text (see docs/rulesets/collapsible-d.md). No")
print("# starting position can be reached by the water before its passenger's alarm time.")
print("board:")
print("  spaces:")
for (r, x), s in sorted(spaces.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
    attrs = dict(colour=s["colour"], section=s["section"], row=r, x=x,
                 aid=s.get("aid", ""), gate=s.get("access", 0), bonus=s.get("bonus", 0), start=s.get("start", 0))
    a = ", ".join(f"{k}: {v!r}" if isinstance(v, str) else f"{k}: {v}" for k, v in attrs.items()).replace("'", '"')
    name = f"deck {r}, section {s['section']}"
    if WIDTH[s["section"] - 1] == 2:
        # two spaces side by side on a deck of one section: the rulebook names neither, so
        # we say which one by the end of the ship it lies towards (the bow is at higher x)
        name += " fore" if SECTION.get(x + 1) != s["section"] else " aft"
    if s.get("start"):
        name += f", start {s['start']}"
    if s.get("aid"):
        name += f", aid {s['aid']}"
    if s.get("access"):
        name += f", lifeboat access {s['access']}"
    if s.get("bonus"):
        name += f", bonus {s['bonus']}"
    extra = ""
    if s["colour"] != "white":
        extra = ', admit: "room_for(thing, zone)", admit_reason: "at most two pawns on a space unless it is white"'
    print(f'    - {{id: {sid(r, x)}, name: "{name} ({s["colour"]})", attrs: {{{a}}}, pos: [{x}, {r}]{extra},')
    why = "board layout not given in the rulebook text"
    if s.get("start") in MOVED:
        why = (f"start {s['start']} is not located in the text; moved here so that no flooding cards "
               "bring the water before its alarm time")
    elif (r, x) in CREW_LATE:
        why = "board layout not given; black so that the crew alerted last can start where the water comes late"
    print(f'       reconstructed: "{why}"}}')
print("  edges:")
for a, b, k in edges:
    print(f"    - {{from: {a}, to: {b}, kind: {k}}}")
