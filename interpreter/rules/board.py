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


class Board:
    def __init__(self, spaces: list[dict], edges: list[dict]):
        self.graph = nx.DiGraph()
        for space in spaces:
            self.graph.add_node(space["id"], **{k: v for k, v in space.items() if k != "id"})
        for edge in edges:
            kinds = [edge.get("kind", "path")]
            self._add_arc(edge["from"], edge["to"], kinds[0], one_way=bool(edge.get("one_way")))
        self._spaces = list(self.graph.nodes)
        self.order = {n: i for i, n in enumerate(self._spaces)}  # declaration order, for sorting
        # adjacency: space -> tuple of (neighbour, kind), in declaration order
        self.adjacency = {n: tuple((m, d["kind"]) for m, d in self.graph.adj[n].items()) for n in self.graph.nodes}
        self._trees: dict = {}   # breadth-first trees already walked (see _tree)
        self._kinds = {kind for arcs in self.adjacency.values() for _, kind in arcs}
        self._near: dict = {}    # (space, edge kind or None) -> its neighbours on the printed board
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
        return where.id if isinstance(where, ZoneRef) else str(where)

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

    def neighbours(self, g: GameHost, where, kind=None):
        node = self.space_id(where)
        zprops = g.state.zprops
        if zprops.get(node, _NO_PROPS).get("removed"):
            return []
        found: Any = self._printed(node, kind)   # a tuple, or a list with the added neighbours
        added = self._added(g).get(node) if g.state.links else None
        if added:
            found = list(found)
            for m, k in added:
                if (kind is None or k == kind) and m not in found:
                    found.append(m)
        zones = g.table.zones
        return [zones[m] for m in found if not zprops.get(m, _NO_PROPS).get("removed")]

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

    def _tree(self, g: GameHost, origin, kind=None):
        """Breadth-first from ``origin``: ({space: distance}, {space: parent}) in discovery order, and a
        dict where :meth:`reachable` keeps its answers from that tree.

        The board changes only by removed spaces and added links, so a tree is
        computed once per origin, edge kind and such change, and reused: the
        search bots ask the same distances at every position they judge.
        """
        st = g.state
        board_key = st.board_key   # worked out once per change of the board, not at every question
        if board_key is None:
            removed = tuple(n for n, props in st.zprops.items() if props.get("removed"))
            board_key = st.board_key = (removed, tuple(map(tuple, st.links)))
        key = (origin, kind, board_key)
        found = self._trees.get(key)
        if found is not None:
            return found
        # the arcs that arcs() gives, in its order, with removed spaces read from a set
        adjacency, added, gone = self.adjacency, self._added(g), set(board_key[0])
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
        found = dist, parent, {}
        if self._keep:
            if len(self._trees) > 4096:
                self._trees.clear()
            self._trees[key] = found
        return found

    def reachable(self, g: GameHost, start, steps=None, kind=None):
        origin = self.space_id(start)
        if g.state.zprops.get(origin, _NO_PROPS).get("removed"):
            return []
        dist, _, answers = self._tree(g, origin, kind)
        key = (steps, g.table) if steps is None or isinstance(steps, int) else None
        found = answers.get(key) if key is not None else None
        if found is None:
            zones = g.table.zones
            found = tuple(zones[m] for m, d in dist.items() if m != origin and (steps is None or d <= steps))
            if key is not None:
                answers[key] = found
        return list(found)

    def distance(self, g: GameHost, start, goal):
        """The number of edges on a shortest path from ``start`` to ``goal``, or None (``len(path) - 1``)."""
        a, b = self.space_id(start), self.space_id(goal)
        zprops = g.state.zprops
        if zprops.get(a, _NO_PROPS).get("removed") or zprops.get(b, _NO_PROPS).get("removed"):
            return None
        return self._tree(g, a)[0].get(b)

    def path(self, g: GameHost, start, goal):
        a, b = self.space_id(start), self.space_id(goal)
        zprops = g.state.zprops
        if zprops.get(a, _NO_PROPS).get("removed") or zprops.get(b, _NO_PROPS).get("removed"):
            return []
        _, parent, _ = self._tree(g, a)
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
            if end not in self.graph:
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
        g.emit({"e": "board", "link": link})
