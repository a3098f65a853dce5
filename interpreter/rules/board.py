"""The board graph: spaces and edges, their adjacency, plus fast queries.

The static graph is built once per ruleset (two-way edges become two arcs).
During play the board changes through the state only — spaces removed
(``zprops[space]["removed"]``) and edges added (``state.links``) — so the
queries below combine the precomputed adjacency with those changes instead
of copying the graph. The same graph as a networkx ``DiGraph`` (for drawing)
is made only when asked for: building and checking a ruleset never imports
networkx.
"""
from __future__ import annotations

from collections import deque

from ..errors import GameError
from ..machine.values import ZoneRef


class Board:
    def __init__(self, spaces: list[dict], edges: list[dict]):
        self._given = (spaces, edges)
        self.attrs: dict = {}   # space -> its attributes (a space given twice: the later values win)
        for space in spaces:
            self.attrs.setdefault(space["id"], {}).update({k: v for k, v in space.items() if k != "id"})
        arcs: dict = {n: {} for n in self.attrs}   # space -> {neighbour: kind}, in the order arcs were added
        for edge in edges:
            kind, ends = edge.get("kind", "path"), (edge["from"], edge["to"])
            for a, b in (ends,) if edge.get("one_way") else (ends, ends[::-1]):
                for node in (a, b):
                    arcs.setdefault(node, {})
                    self.attrs.setdefault(node, {})
                arcs[a][b] = kind   # an arc given again keeps its place and takes the later kind
        self._spaces = list(self.attrs)
        self.order = {n: i for i, n in enumerate(self._spaces)}  # declaration order, for sorting
        # adjacency: space -> tuple of (neighbour, kind), in declaration order
        self.adjacency = {n: tuple(arcs[n].items()) for n in self._spaces}
        self._graph = None

    @property
    def graph(self):
        """The board as a networkx ``DiGraph`` (arcs carry ``kind`` and ``one_way``), made on first use."""
        if self._graph is None:
            import networkx as nx
            graph = nx.DiGraph()
            spaces, edges = self._given
            for space in spaces:
                graph.add_node(space["id"], **{k: v for k, v in space.items() if k != "id"})
            for edge in edges:
                kind, one_way = edge.get("kind", "path"), bool(edge.get("one_way"))
                graph.add_edge(edge["from"], edge["to"], kind=kind, one_way=one_way)
                if not one_way:
                    graph.add_edge(edge["to"], edge["from"], kind=kind, one_way=False)
            self._graph = graph
        return self._graph

    def __contains__(self, space) -> bool:
        try:
            return space in self.order
        except TypeError:   # an unhashable value is no space
            return False

    @property
    def spaces(self) -> list:
        """Space ids in declaration order."""
        return self._spaces

    # -- dynamic queries ----------------------------------------------------------

    def _id(self, where) -> str:
        return where.id if isinstance(where, ZoneRef) else str(where)

    def _arcs(self, g, node):
        zprops = g.state.zprops
        for m, kind in self.adjacency.get(node, ()):
            if not zprops.get(m, {}).get("removed"):
                yield m, kind
        for a, b, kind, one_way in g.state.links:
            if a == node and not zprops.get(b, {}).get("removed"):
                yield b, kind
            elif b == node and not one_way and not zprops.get(a, {}).get("removed"):
                yield a, kind

    def neighbours(self, g, where, kind=None):
        node = self._id(where)
        if g.state.zprops.get(node, {}).get("removed"):
            return []
        seen = []
        for m, k in self._arcs(g, node):
            if (kind is None or k == kind) and m not in seen:
                seen.append(m)
        return [g.table.zones[m] for m in seen]

    def reachable(self, g, start, steps=None, kind=None):
        origin = self._id(start)
        if g.state.zprops.get(origin, {}).get("removed"):
            return []
        dist = {origin: 0}
        todo = deque([origin])
        while todo:
            node = todo.popleft()
            if steps is not None and dist[node] >= steps:
                continue
            for m, k in self._arcs(g, node):
                if (kind is None or k == kind) and m not in dist:
                    dist[m] = dist[node] + 1
                    todo.append(m)
        del dist[origin]
        return [g.table.zones[m] for m in dist]

    def path(self, g, start, goal):
        a, b = self._id(start), self._id(goal)
        if g.state.zprops.get(a, {}).get("removed") or g.state.zprops.get(b, {}).get("removed"):
            return []
        parent = {a: None}
        todo = deque([a])
        while todo:
            node = todo.popleft()
            if node == b:
                route = []
                while node is not None:
                    route.append(g.table.zones[node])
                    node = parent[node]
                return route[::-1]
            for m, _ in self._arcs(g, node):
                if m not in parent:
                    parent[m] = node
                    todo.append(m)
        return []

    # -- changes ------------------------------------------------------------------

    def set_removed(self, g, where, removed: bool):
        node = self._id(where)
        if node not in self.order:
            raise GameError(f"'{node}' is not a board space")
        g.set_zone_prop(node, "removed", bool(removed))
        g.emit({"e": "board", "space": node, "removed": bool(removed)})

    def connect(self, g, a, b, kind, one_way):
        link = [self._id(a), self._id(b), str(kind), bool(one_way)]
        for end in link[:2]:
            if end not in self.order:
                raise GameError(f"'{end}' is not a board space")
        g.state.links.append(link)
        g.emit({"e": "board", "link": link})
