"""The walks of written-out comprehensions and ``count(xs)`` charge work as ``collection_of`` does
(interpreter/dsl/membership.py, ``count`` in interpreter/dsl/primitives.py), and ``==`` of two of the table's
zones is answered by identity (interpreter/dsl/fast_reads.py, ``zone_identity``).

Each helper is started at every work count from where the budget cannot run out to past the limit, and
compared with the plain ``collection_of`` walk it stands for: the same answer, the same work after, the same
error at the same place.
"""
from ruleset_builder import load

from interpreter import Game
from interpreter.dsl import primitives
from interpreter.dsl.membership import items_walked, things_walked
from interpreter.dsl.primitives import collection_of
from interpreter.errors import DavitError, Location
from interpreter.load.limits import MAX_WORK

SPEC = {
    "zones": [{"id": "pile"}, {"id": "other"}, {"id": "nothing"}],
    "things": [{"id": "chip", "count": 3, "start": "pile"}, {"id": "cube", "count": 2, "start": "other"}],
    "variables": {"got": []},
}
WALK, LOC = Location("walk.yaml", 1, 1), Location("loc.yaml", 2, 2)


def outcome(g, start: int, walk) -> tuple:
    """(answer, work after, error and its place) of ``walk(g)`` started at the work count ``start``."""
    g.work = start
    try:
        answer = walk(g)
    except DavitError as exc:
        return None, g.work, str(exc), exc.location
    return (list(answer) if not isinstance(answer, int) else answer), g.work, None, None


def same_at_every_start(g, walk, reference, size: int) -> int:
    """Compare ``walk`` with ``reference`` started around the limit; how many starts ran out of budget."""
    ran_out = 0
    for start in range(MAX_WORK - 2 * size - 2, MAX_WORK + 2):
        got = outcome(g, start, walk)
        assert got == outcome(g, start, reference), start
        ran_out += got[2] is not None
    return ran_out


def test_things_walked_charges_the_made_list_then_the_walk(tmp_path):
    g = Game(load(tmp_path, SPEC), 1, seed=1, record=False)
    for kind, size in (("chip", 3), ("cube", 2), (None, 5), ("none", 0)):
        ran_out = same_at_every_start(
            g, lambda g, kind=kind: things_walked(g, WALK, LOC, kind),
            lambda g, kind=kind: collection_of(g, primitives.things(g, LOC, kind), WALK), size)
        assert ran_out == 2 * size + 1   # past the limit at the first charge or the second
    # where the first charge runs out, its own place; where only the second does, the walk's
    assert outcome(g, MAX_WORK - 2, lambda g: things_walked(g, WALK, LOC, "chip"))[3] == LOC
    assert outcome(g, MAX_WORK - 4, lambda g: things_walked(g, WALK, LOC, "chip"))[3] == WALK


def test_items_walked_walks_a_list_or_a_zone_as_collection_of_makes_it(tmp_path):
    g = Game(load(tmp_path, SPEC), 1, seed=1, record=False)
    pile, nothing = g.table.zones["pile"], g.table.zones["nothing"]
    for value, size in (([1, 2, 3], 3), (pile, 3), (nothing, 0), ((4, 5), 2), ([], 0)):
        ran_out = same_at_every_start(g, lambda g, value=value: items_walked(g, value, LOC),
                                      lambda g, value=value: collection_of(g, value, LOC), size)
        assert ran_out == size + 1


def test_count_of_a_collection_charges_its_length_as_collection_of(tmp_path):
    g = Game(load(tmp_path, SPEC), 1, seed=1, record=False)
    pile, nothing = g.table.zones["pile"], g.table.zones["nothing"]
    for value, size in (([1, 2, 3], 3), (pile, 3), (nothing, 0), ((4, 5, 6, 7), 4), ({8}, 1)):
        ran_out = same_at_every_start(g, lambda g, value=value: primitives.count(g, LOC, value),
                                      lambda g, value=value: len(collection_of(g, value, LOC)), size)
        assert ran_out == size + 1
    assert outcome(g, 0, lambda g: primitives.count(g, LOC, 3))[2:] == \
        outcome(g, 0, lambda g: len(collection_of(g, 3, LOC)))[2:] != (None, None)


ZONES = {**SPEC, "flow": [{"do": """
p = pile
got = [count(filter(things("chip"), t -> t.zone == pile)), count(filter(things(), t -> t.zone != pile))]
got = got + [count(filter(things(), t -> t.zone == p)), count(filter(things("cube"), t -> other == t.zone))]
got = got + [pile == other, pile != other, pile == pile]
"""}]}


def test_zones_compared_by_identity_answer_as_equality(tmp_path):
    g = Game(load(tmp_path, ZONES), 1, seed=1, record=False)
    where = g.state.where
    in_pile = sum(1 for t in g.table.thing_list if where[t.id] == "pile")
    cubes_in_other = sum(1 for t in g.table.things_by_kind["cube"] if where[t.id] == "other")
    assert g.state.vars["got"] == [in_pile, len(g.table.thing_list) - in_pile, in_pile, cubes_in_other,
                                   False, True, True]
