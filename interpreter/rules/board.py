"""The board graph: spaces and edges as a networkx DiGraph, plus fast queries.

The static graph is built once per ruleset (two-way edges become two arcs).
During play the board changes through the state only — spaces removed
(``zprops[space]["removed"]``) and edges added (``state.links``) — so the
queries below combine the precomputed adjacency with those changes instead
of copying the graph.
"""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

import networkx as nx

from ..errors import GameError
from ..machine import fast_paths
from ..machine.values import ZoneRef

if TYPE_CHECKING:
    from ..machine.host import GameHost

_NO_PROPS: dict = {}   # read only: a space with no dynamic property set


class _Standing:
    """What the board answers while it stands one way (its removed spaces and added links)."""
    __slots__ = ("gone", "trees", "near", "reach", "walks", "answers")

    def __init__(self, gone: frozenset):
        self.gone = gone   # the removed spaces
        self.trees: dict = {}   # (origin, edge kind or None) -> Board._tree's answer
        self.near: dict = {}    # (space, edge kind or None, table) -> its neighbours' zones, a tuple
        self.reach: dict = {}   # (space, steps or None, edge kind or None, table) -> reachable's zones, a tuple
        self.answers: dict = {}  # the kept answers of ruleset functions that read only this (dsl/state_free.py)
        self.walks: dict | None = None   # frozenset of edge kinds or None -> {space: walk_step's answer}, filled
        # as asked; made at the first walk (a board that changes every move makes many standings that walk none)


class Board:
    def __init__(self, spaces: list[dict], edges: list[dict]):
        self.graph = nx.DiGraph()
        for space in spaces:
            self.graph.add_node(space["id"], **{k: v for k, v in space.items() if k != "id"})
        for edge in edges:
            kinds = [edge.get("kind", "path")]
            self._add_arc(edge["from"], edge["to"], kinds[0], one_way=bool(edge.get("one_way")))
        self._spaces = list(self.graph.nodes)
        # declaration order, for sorting; also the spaces to look a space up in (a dict: no call, as the
        # graph's own `in` takes, on the paths that ask at every move)
        self.order = {n: i for i, n in enumerate(self._spaces)}
        # adjacency: space -> tuple of (neighbour, kind), in declaration order
        self.adjacency = {n: tuple((m, d["kind"]) for m, d in self.graph.adj[n].items()) for n in self.graph.nodes}
        self._kinds = {kind for arcs in self.adjacency.values() for _, kind in arcs}
        self._near: dict = {}    # (space, edge kind or None) -> its neighbours on the printed board
        self._standings: dict = {}   # board_key -> _Standing: the answers kept per way the board stands
        self._last: tuple = (None, None)   # the board_key asked last and its _Standing
        self._kept = 0   # answers kept in all the standings (bounded: see _keeping)
        self._keep = fast_paths.on()   # keep trees and neighbour lists (off: each question walks again)

    def _add_arc(self, a, b, kind, one_way):
        self.graph.add_edge(a, b, kind=kind, one_way=one_way)
        if not one_way:
            self.graph.add_edge(b, a, kind=kind, one_way=False)

    @property
    def spaces(self) -> list:
        """Space ids in declaration order."""
        return self._spaces

    # -- dynamic queries ----------------------------------------------------------

    def space_id(self, where) -> str:
        return where.id if where.__class__ is ZoneRef else str(where)   # (no class derives from ZoneRef)

    def arcs(self, g: GameHost, node):
        """The arcs ``(to, kind)`` out of ``node`` to spaces still on the board, the printed ones then the
        added ones: a sequence to read, not to change."""
        arcs: Any = self.adjacency.get(node, ())   # a tuple, or a list with the added arcs
        if g.state.links:
            added = self._added(g).get(node)
            if added:
                arcs = [*arcs, *added]
        zprops = g.state.zprops
        if not zprops:   # nothing removed (nor any zone property set): every arc stands
            return arcs
        return [(m, kind) for m, kind in arcs if not zprops.get(m, _NO_PROPS).get("removed")]

    @staticmethod
    def _added(g: GameHost) -> dict:
        """The state's added links as arcs by space, in the order they were added: {space: [(to, kind)]}.

        Worked out once and kept in the state (links are only ever added, by :meth:`connect`, which
        adds to it); a game that rewires its board as it goes (one bundled ruleset adds a link for
        each room it merges, a hundred and more a game) would otherwise scan every link at every space.
        """
        st = g.state
        added = st.added_arcs
        if added is None:
            added = {}
            for a, b, kind, one_way in st.links:
                added.setdefault(a, []).append((b, kind))
                if not one_way and b != a:
                    added.setdefault(b, []).append((a, kind))
            st.added_arcs = added
        return added

    def _standing(self, st) -> _Standing:
        """The answers kept for the board as it stands in state ``st`` (its removed spaces and links).

        ``st.board_key`` is worked out once per change of the board, not at every question, and a
        clone shares its tuple: the samples of one position that a search bot plays find their
        answers by the key's identity, without hashing it.
        """
        board_key = st.board_key
        if board_key is None:
            removed = tuple(n for n, props in st.zprops.items() if props.get("removed"))
            board_key = st.board_key = (removed, tuple(map(tuple, st.links)))
        last = self._last
        if last[0] is board_key:
            return last[1]
        standing = self._standings.get(board_key) if self._keep else None
        if standing is None:
            standing = _Standing(frozenset(board_key[0]))
            if self._keep:
                self._standings[board_key] = standing
        if self._keep:
            self._last = (board_key, standing)
        return standing

    def kept_answers(self, g: GameHost) -> dict:
        """The answers of ruleset functions kept for the board as it stands in ``g.state``, to look up (a
        function that reads only its arguments, the table and the board: dsl/state_free.py); kept with
        :meth:`keep_answer`, within the bound on all the board keeps."""
        st = g.state
        board_key, last = st.board_key, self._last
        return (last[1] if board_key is not None and last[0] is board_key else self._standing(st)).answers

    def keep_answer(self, answers: dict, key, answer) -> None:
        """``answer`` kept in ``answers`` (:meth:`kept_answers`'s dict) under ``key``."""
        self._keeping(answers, key, answer)

    def _keeping(self, answers: dict, key, found):
        """``found`` kept in ``answers`` (a dict of a _Standing) under ``key``, within a bound on all kept."""
        if self._keep:
            self._kept += 1
            if self._kept > 4096:   # many boards over many games: start again rather than grow
                self._standings.clear()
                self._last = (None, None)
                self._kept = 0
            answers[key] = found
        return found

    def walk_steps(self, g: GameHost, kinds) -> dict:
        """The steps kept for walks along edges of ``kinds`` (a frozenset, or None: any) on the board as it
        stands in ``g.state``: {space: :meth:`walk_step`'s answer}, filled as the walks ask.

        Right only while ``g.state.board_key`` stays the object it is after this call: a walk whose rules
        might change the board asks again when it does not (``dsl/prims_movement.py``). The walks also
        keep their shapes in it, under tuple keys (their questions; no space id is a tuple).
        """
        st = g.state
        board_key, last = st.board_key, self._last
        standing = last[1] if board_key is not None and last[0] is board_key else self._standing(st)
        walks = standing.walks
        if walks is None:
            walks = standing.walks = {}
        steps = walks.get(kinds)
        if steps is None:
            steps = walks[kinds] = {}   # (kept by the standing; off, _keeping keeps no step in it)
        return steps

    def walk_step(self, g: GameHost, steps: dict, node, kinds) -> tuple:
        """(the work of one step from ``node``, the spaces an edge of ``kinds`` leads to from it), kept in
        ``steps`` (:meth:`walk_steps`): the work counts every arc :meth:`arcs` gives, of any kind, and the
        spaces are in its order, once for each arc (an added link may double a printed edge)."""
        arcs = self.arcs(g, node)
        found = (1 + len(arcs), tuple(m for m, k in arcs if kinds is None or k in kinds))
        return self._keeping(steps, node, found)

    def neighbours(self, g: GameHost, where, kind=None):
        node = where.id if where.__class__ is ZoneRef else self.space_id(where)
        st = g.state
        board_key, last = st.board_key, self._last
        if board_key is not None and (kind is None or kind.__class__ is str):
            standing = last[1] if last[0] is board_key else self._standing(st)
            key = (node, kind, g.table)
            found = standing.near.get(key)
            if found is None:
                found = self._keeping(standing.near, key, self._near_now(g, node, kind, standing.gone))
            return list(found)
        # the board just changed (a game that floods or rewires asks between its changes): answered from
        # the zone properties, without working out the key of a board that may change again at once
        zprops = st.zprops
        if zprops and zprops.get(node, _NO_PROPS).get("removed"):
            return []
        zones = g.table.zones
        # _near_printed, the printed answer looked up here first (a board that changes asks often)
        found = self._near.get((node, kind)) if kind is None or kind.__class__ is str else None
        if found is None:
            found = self._printed(node, kind)
        if st.links:
            found = self._with_added(g, node, kind, found)
        if not zprops:   # nothing removed (nor any zone property set)
            return [zones[m] for m in found]
        return [zones[m] for m in found if not zprops.get(m, _NO_PROPS).get("removed")]

    def _near_now(self, g: GameHost, node, kind, gone: frozenset) -> tuple:
        """The zones one edge of ``kind`` (any kind: None) from ``node``, but for the ``gone`` spaces."""
        if node in gone:
            return ()
        zones = g.table.zones
        return tuple(zones[m] for m in self._near_printed(g, node, kind) if m not in gone)

    def _near_printed(self, g: GameHost, node, kind):
        """The spaces one edge of ``kind`` from ``node``, removed ones too: the printed then the added."""
        found = self._printed(node, kind)
        return self._with_added(g, node, kind, found) if g.state.links else found

    def _with_added(self, g: GameHost, node, kind, printed: tuple):
        """``printed`` (the printed neighbours of ``node``), then those added links of ``kind`` lead to."""
        found: Any = printed   # a tuple, or a list with the added neighbours
        added = g.state.added_arcs
        added = (added if added is not None else self._added(g)).get(node)
        if added:
            found = list(found)
            for m, k in added:
                if (kind is None or k == kind) and m not in found:
                    found.append(m)
        return found

    def _printed(self, node, kind) -> tuple:
        """The printed neighbours of ``node`` by edges of ``kind`` (any kind: None), worked out once each."""
        if node not in self.adjacency or not (kind is None or (isinstance(kind, str) and kind in self._kinds)):
            return ()   # not a space, or no printed edge of that kind (an added one may have it)
        near = self._near.get((node, kind))
        if near is None:
            near = tuple(m for m, k in self.adjacency[node] if kind is None or k == kind)
            if self._keep:
                self._near[(node, kind)] = near
        return near

    def _tree(self, g: GameHost, origin, kind=None, standing=None):
        """Breadth-first from ``origin``: ({space: distance}, {space: parent}) in discovery order.

        The board changes only by removed spaces and added links, so a tree is
        computed once per origin, edge kind and such change, and reused: the
        search bots ask the same distances at every position they judge.
        """
        if standing is None:
            standing = self._standing(g.state)
        trees = standing.trees
        found = trees.get((origin, kind))
        if found is not None:
            return found
        # the arcs that arcs() gives, in its order, with removed spaces read from a set
        adjacency, added, gone = self.adjacency, self._added(g), standing.gone
        dist, parent = {origin: 0}, {origin: None}
        todo = deque([origin])
        while todo:
            node = todo.popleft()
            step = dist[node] + 1
            for arcs in (adjacency.get(node, ()), added.get(node, ())):
                for m, k in arcs:
                    if m not in dist and m not in gone and (kind is None or k == kind):
                        dist[m] = step
                        parent[m] = node
                        todo.append(m)
        return self._keeping(trees, (origin, kind), (dist, parent))

    def reachable(self, g: GameHost, start, steps=None, kind=None):
        origin = start.id if start.__class__ is ZoneRef else self.space_id(start)
        st = g.state
        board_key, last = st.board_key, self._last
        standing = last[1] if board_key is not None and last[0] is board_key else self._standing(st)
        if (steps is None or steps.__class__ is int) and (kind is None or kind.__class__ is str):
            key = (origin, steps, kind, g.table)   # the usual question, answered from one dict
            found = standing.reach.get(key)
            if found is None:
                found = self._keeping(standing.reach, key, self._reachable_now(g, standing, origin, steps, kind))
            return list(found)
        return list(self._reachable_now(g, standing, origin, steps, kind))

    def _reachable_now(self, g: GameHost, standing, origin, steps, kind) -> tuple:
        if origin in standing.gone:
            return ()
        dist = self._tree(g, origin, kind, standing)[0]   # (reachable keeps the answer in the standing)
        zones = g.table.zones
        return tuple(zones[m] for m, d in dist.items() if m != origin and (steps is None or d <= steps))

    def distance(self, g: GameHost, start, goal):
        """The number of edges on a shortest path from ``start`` to ``goal``, or None (``len(path) - 1``)."""
        a = start.id if start.__class__ is ZoneRef else self.space_id(start)
        b = goal.id if goal.__class__ is ZoneRef else self.space_id(goal)
        st = g.state
        board_key, last = st.board_key, self._last
        standing = last[1] if board_key is not None and last[0] is board_key else self._standing(st)
        gone = standing.gone
        if gone and (a in gone or b in gone):
            return None
        tree = standing.trees.get((a, None))
        if tree is None:
            tree = self._tree(g, a, None, standing)
        return tree[0].get(b)

    def path(self, g: GameHost, start, goal):
        a, b = self.space_id(start), self.space_id(goal)
        standing = self._standing(g.state)
        if a in standing.gone or b in standing.gone:
            return []
        parent = self._tree(g, a, None, standing)[1]
        if b not in parent:
            return []
        route, node = [], b
        while node is not None:
            route.append(g.table.zones[node])
            node = parent[node]
        return route[::-1]

    # -- changes ------------------------------------------------------------------

    def set_removed(self, g: GameHost, where, removed: bool):
        node = self.space_id(where)
        if node not in self.graph:
            raise GameError(f"'{node}' is not a board space")
        g.set_zone_prop(node, "removed", bool(removed))
        g.emit({"e": "board", "space": node, "removed": bool(removed)})

    def connect(self, g: GameHost, a, b, kind, one_way):
        link = [self.space_id(a), self.space_id(b), str(kind), bool(one_way)]
        for end in link[:2]:
            if end not in self.order:
                raise GameError(f"'{end}' is not a board space")
        st = g.state
        g.hold_link(link)   # the position's size (play/position.py)
        st.links.append(link)
        st.board_key = None
        added = st.added_arcs
        if added is not None:   # kept up to date (rules may ask between links); clones share it: a new dict
            start, end, kind, one_way = link
            added = st.added_arcs = dict(added)
            added[start] = added.get(start, []) + [(end, kind)]
            if not one_way and end != start:
                added[end] = added.get(end, []) + [(start, kind)]
        if g.record:
            g.emit({"e": "board", "link": link})
