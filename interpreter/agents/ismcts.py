"""Search bots that see only what their seat sees: ISMCTS and determinized MCTS.

Both search on states sampled by :func:`interpreter.play.determinize.determinize`
(hidden things dealt anew among the places they could be, a fresh random
stream, other seats' simultaneous choices forgotten), never on the real one:

* ``ismcts`` — information-set MCTS (Cowling, Powley & Whitehouse 2012,
  "single observer"): one tree over the seat's information; every iteration
  draws a new sample and walks the tree through the actions legal in it
  (UCB counts a child's availability, not its parent's visits).
* ``mcts`` — determinized UCT ("perfect-information Monte Carlo"): a few
  samples, a separate UCT tree on each, the root visits added up.

Every node keeps a reward per seat; the seat that moves picks by its own
(multi-player UCT). The ruleset's ``heuristics.priors`` steer the tree (an
untried action is drawn by its prior; a child's bound gets a progressive bias
that fades with its visits) and weight the rollouts' random moves. Rollouts
stop after ``depth`` decisions and the position is judged: at the end of a
game by the winners (a draw half a win for those it ranks first) and the scores, before it by the ruleset's
``heuristics.evaluate`` (or, without one, the score) of each seat against the
best other seat, relative to that lead at the root of the search, squashed to
0..1 with ``heuristics.scale``. An evaluation that gives a list gives every
seat's worth at once, in seat order (what the seats share worked out once).

A budget is a number of iterations (reproducible for a seed) or a time per
move (``ismcts:1.5s``; not reproducible: it depends on the machine's speed and
load). The plain bot (``ismcts``, ``mcts``) takes the ruleset's default
iterations (``heuristics.iterations``, else ``DEFAULT_ITERATIONS``) and
rollout ``depth``, and no time cap: the same game seed plays the same game on
an idle or a busy machine. A time cap is only ever the explicit ``:Xs``.
"""
from __future__ import annotations

import math
import random
import time
from itertools import repeat

from ..errors import GameError
from ..play.decisions import Action
from ..play.determinize import deal_plan, determinize
from ..play.playout import action_of, candidates_to_move, decide_by_index
from .bots import randbelow
from .priors import decide_by_prior
from .priors import weights as prior_weights
from .search_tally import SearchTally

EXPLORATION = 0.7        # UCB's c for rewards in 0..1
DEFAULT_ITERATIONS = 200   # the plain bot's budget a move when the ruleset's heuristics name none (never a time)
DEFAULT_DEPTH = 12       # rollout decisions before the position is judged
DEFAULT_SCALE = 10.0


PRIOR_BIAS = 0.3         # progressive bias: a prior-favoured child's bonus, fading as 1 / (visits + 1)


class Node:
    __slots__ = ("mover", "visits", "total", "children", "avail", "bias")

    def __init__(self, mover: int | None, seats: int):
        self.mover = mover          # the seat whose action led here
        self.visits = 0
        self.total = [0.0] * seats
        # keyed by the search's number for an action key (SearchAgent.key_ids)
        self.children: dict = {}    # action -> Node
        self.avail: dict = {}       # action -> how often it was legal when this node was passed
        self.bias: dict = {}        # action -> the ruleset's prior for it, relative to the best (0..1)


class SearchAgent:
    """The shared search; ``resample`` says whether every iteration draws a new sample (ISMCTS)."""
    kind = "ismcts"
    resample = True

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None,
                 depth: int | None = None):
        self.random = random.Random(seed)
        # the plain bot (no budget given) takes the ruleset's own default budget, read when it first moves
        self.default = iterations is None and seconds is None
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.last_iterations = 0
        self.tally = SearchTally()   # what its searches got past on their own (kept across its moves of a game)
        self.ids: dict = {}   # action key -> its number in the current search (see key_ids)
        budget = f"{seconds:g}s" if seconds is not None else str(iterations)
        self.name = self.kind if self.default else f"{self.kind}:{budget}"

    def budget(self, ruleset) -> tuple:
        """(iterations, seconds, depth) for a move in this ruleset: the agent's own, else the ruleset's, else ours.

        The plain bot's budget is iterations alone (seconds None), so it is reproducible whatever the machine.
        """
        search = ruleset.search
        depth = self.depth if self.depth is not None else search.get("depth", DEFAULT_DEPTH)
        if not self.default:
            return self.iterations, self.seconds, depth
        return search.get("iterations", DEFAULT_ITERATIONS), None, depth

    # -- choosing ------------------------------------------------------------------

    def choose(self, game, seat, actions):
        if len(actions) == 1:
            return actions[0]
        n = game.num_players
        visits: dict = {}
        for root in self._trees(game, seat, n):
            for key, child in root.children.items():
                visits[key] = visits.get(key, 0) + child.visits
        ids = self.ids
        counts = [visits.get(ids.get(action_key(a)), 0) for a in actions]
        best = max(counts)
        if best == 0:
            return actions[self.random.randrange(len(actions))]
        return actions[counts.index(best)]

    def _trees(self, game, seat, n):
        count, seconds, self._depth = self.budget(game.ruleset)
        self._puct = float(game.ruleset.search.get("puct", 0.0))
        deadline = time.perf_counter() + seconds if seconds is not None else None
        self._deadline = deadline
        self._baseline = None
        self.ids = {}
        if self.resample:
            root = Node(None, n)
            done = 0
            plan = deal_plan(game, seat)   # the same position every iteration: its hidden groups once
            while self._more(done, count, deadline):
                sample = determinize(game, seat, self.random, plan)
                if self._baseline is None:
                    self._baseline = _leads_or_none(sample, self.tally)
                self._iterate(root, sample, seat, n)
                done += 1
            self.last_iterations = done   # how far the budget went (an explicit time budget may stop it early)
            return [root]
        samples = max(1, min(8, (count or 80) // 25))
        roots = []
        plan = deal_plan(game, seat)
        for k in range(samples):
            base, root, done = determinize(game, seat, self.random, plan), Node(None, n), 0
            if self._baseline is None:
                self._baseline = _leads_or_none(base, self.tally)
            share = None if count is None else count // samples + (1 if k < count % samples else 0)
            part = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / (samples - k)
            while self._more(done, share, part):
                self._iterate(root, base.clone(), seat, n)
                done += 1
            roots.append(root)
        self.last_iterations = sum(r.visits for r in roots)
        return roots

    @staticmethod
    def _more(done, count, deadline) -> bool:
        if count is not None and done >= count:
            return False
        if deadline is not None and done > 0 and time.perf_counter() >= deadline:
            return False
        return True

    # -- one iteration -----------------------------------------------------------------

    def key_ids(self, seat, legal) -> list[int]:
        """Each action's key (:func:`action_key`) as its number in this search: the first key met is 0, the
        next new one 1, and so on (``list(self.ids)`` lists the keys by number). The tree's dicts are keyed by
        these numbers, so a step hashes each key once, not a tuple of references (each a Python ``__hash__``)
        at every lookup; equal keys get one number, as they were one dict key before. ``legal``: the
        actions of ``seat`` as :func:`candidates_to_move` lists them, :class:`Action` objects or (name, args) pairs."""
        ids = self.ids
        number = ids.setdefault
        try:
            return [number((seat, *a) if a.__class__ is tuple else (a.player, a.name, a.args), len(ids))
                    for a in legal]
        except TypeError:   # arguments that hold a list: keyed by their text (action_key)
            return [number(action_key(Action(seat, *a) if a.__class__ is tuple else a), len(ids)) for a in legal]

    def _iterate(self, root, sample, seat, n) -> None:
        path = [root]
        node = root
        self.tally.played += 1
        try:
            prefer = seat
            state = sample.state
            while not state.over:
                mover, legal = candidates_to_move(sample, prefer)
                prefer = None
                if mover is None:
                    break
                keys = self.key_ids(mover, legal)
                avail, children = node.avail, node.children
                for k in keys:
                    avail[k] = avail.get(k, 0) + 1
                priors = sample.ruleset.priors
                if priors and len(keys) > 1:
                    _bias(node, sample, mover, legal, keys, priors, self.tally)
                if node.bias and self._puct:
                    # with priors: PUCT picks among tried and untried actions alike, so a
                    # low-prior action need not be tried at all before the others are deepened
                    i = _puct(node, keys, mover, self._puct)
                else:
                    untried = [i for i, k in enumerate(keys) if k not in children]
                    i = self._expand(node, keys, untried) if untried else self._select(node, keys, mover)
                child = children.get(keys[i])
                new = child is None
                if new:   # the tree grows by one node an iteration; the rollout goes on from it
                    child = children[keys[i]] = Node(mover, n)
                # on the path before the move is carried out: a move the rules refuse in this sample
                # (GameError below) still counts the visit, so no child is left with none to divide by
                path.append(child)
                sample.carry_out_legal(action_of(sample, mover, legal[i]))   # (the sample's own list: no check)
                if new:
                    break
                node = child
            self._rollout(sample)
        except GameError as error:   # a sample the rules cannot carry on: judged as it stands, and reported
            self.tally.rules_raised(error)
        rewards = judge(sample, self._baseline, self.tally)
        # the offered actions point back at the sample (their labels are made from it): without the
        # cycle the sample is freed here, not left for the cyclic collector to find and walk
        sample.offered_cache = sample.committed = None
        for nd in path:
            nd.visits += 1
            total = nd.total
            for i in range(n):
                total[i] += rewards[i]

    def _expand(self, node, keys, untried) -> int:
        """An untried action, drawn in proportion to its prior (uniformly without priors)."""
        bias = node.bias
        if not bias:
            return untried[self.random.randrange(len(untried))]
        weights = [bias.get(keys[i], 1.0) + 0.05 for i in untried]
        x = self.random.random() * sum(weights)
        for i, w in zip(untried, weights):
            x -= w
            if x < 0:
                return i
        return untried[-1]

    @staticmethod
    def _select(node, keys, mover) -> int:
        """The index of the action with the best upper bound for the seat that moves (plus its fading prior)."""
        best, best_value = 0, -1.0
        children, avail, bias = node.children, node.avail, node.bias
        for i, k in enumerate(keys):
            child = children[k]
            visits = child.visits
            value = child.total[mover] / visits + EXPLORATION * math.sqrt(math.log(avail[k]) / visits)
            if bias:
                value += PRIOR_BIAS * bias.get(k, 1.0) / (visits + 1)
            if value > best_value:
                best, best_value = i, value
        return best

    def _rollout(self, sample) -> None:
        priors = sample.ruleset.priors
        deadline = self._deadline
        # without priors a uniform pick needs only how many actions there are: the playout loop's own step
        pickers = None if priors else [randbelow(self.random)] * sample.num_players
        # the rollout's steps read a turn's candidates as pairs and make an Action of the one taken only: the
        # rules' enumerations make pairs again (the tree's steps asked for objects: to_move)
        sample.offer_actions = False
        for _ in range(self._depth):
            if sample.is_over or (deadline is not None and time.perf_counter() >= deadline):
                return   # past the time cap the rollout stops and the position is judged as it stands
            if pickers is not None:
                if not decide_by_index(sample, pickers):
                    return
                continue
            if not decide_by_prior(sample, priors, self.random, self.tally):
                return


class ISMCTSAgent(SearchAgent):
    kind = "ismcts"
    resample = True


class MCTSAgent(SearchAgent):
    kind = "mcts"
    resample = False


def action_key(action):
    """A hashable key for an action (its arguments may hold lists)."""
    try:
        hash(action.args)
        return (action.player, action.name, action.args)
    except TypeError:
        return (action.player, action.name, repr(action.args))


def _puct(node, keys, mover, c) -> int:
    """PUCT (as in AlphaZero): mean reward plus an exploration bonus in proportion to the action's prior.

    An action not tried yet counts at the node's own mean for the mover, so the budget goes to the
    actions the priors favour and a much less favoured one is tried only once they look no better.
    """
    children, avail, bias = node.children, node.avail, node.bias
    priors = list(map(bias.get, keys, repeat(1.0, len(keys))))
    total = sum(priors) or 1.0
    first = node.total[mover] / node.visits if node.visits else 0.5
    best, best_value = 0, -1.0
    sqrt = math.sqrt
    for i, k in enumerate(keys):
        child = children.get(k)
        visits = child.visits if child is not None else 0
        q = child.total[mover] / visits if visits else first
        value = q + c * priors[i] / total * sqrt(avail[k]) / (1 + visits)
        if value > best_value:
            best, best_value = i, value
    return best


def _bias(node, sample, mover, legal, keys, priors, tally) -> None:
    """Remember the priors of the actions this node has not met yet, relative to the best of them."""
    bias = node.bias
    fresh = [i for i, k in enumerate(keys) if k not in bias]
    if not fresh:
        return
    weights = prior_weights(sample, mover, legal, priors, tally)
    top = max(weights) or 1.0
    for i in fresh:
        bias[keys[i]] = weights[i] / top


def leads(game, tally: SearchTally | None = None) -> list[float] | None:
    """Each seat's evaluation against the best other seat's (the team's mean when co-operative), or None."""
    if game.is_over:
        return None
    return _leads_in_play(game, tally)


def _leads_in_play(game, tally: SearchTally | None) -> list[float]:
    """``leads`` of a game not over."""
    values = _values(game, True, tally)
    n = len(values)
    if game.ruleset.team_var is not None:
        return [sum(values) / n] * n
    return [values[s] - max((values[o] for o in range(n) if o != s), default=0.0) for s in range(n)]


def _leads_or_none(sample, tally: SearchTally | None):
    try:
        return leads(sample, tally)
    except GameError:
        return None


def judge(game, baseline: list[float] | None = None, tally: SearchTally | None = None) -> list[float]:
    """Each seat's reward in 0..1 for this position (see the module text).

    ``baseline`` (the leads at the root of the search) centres the squashing
    before the end, so that small gains are told apart even by a seat far
    ahead or far behind; at the end of the game the result is absolute.
    """
    rs = game.ruleset
    n = game.num_players
    scale = rs.evaluate_scale or DEFAULT_SCALE
    over = game.is_over
    if not over:
        ahead = _leads_in_play(game, tally)
        if baseline is not None:
            ahead = [a - b for a, b in zip(ahead, baseline)]
        return [0.5 + 0.5 * math.tanh(a / scale) for a in ahead]
    values = _values(game, False, None)
    if rs.team_var is not None:
        squashed = 0.5 + 0.5 * math.tanh(sum(values) / n / scale)
        won = 1.0 if game.winners else 0.0
        return [0.8 * squashed + 0.2 * won] * n
    rewards = []
    winners = set(game.winners)
    # a draw is worth half a win to the players it ranks first (so a search prefers it to a loss)
    drawn = game.ranking if game.is_draw else None
    for s in range(n):
        others = [values[o] for o in range(n) if o != s]
        lead = values[s] - (max(others) if others else 0)
        r = 0.5 + 0.5 * math.tanh(lead / scale)
        result = 1.0 if s in winners else 0.5 if drawn is not None and drawn[s] == 1 else 0.0
        rewards.append(0.25 * r + 0.75 * result)
    return rewards


def _values(game, use_heuristic: bool, tally: SearchTally | None = None) -> list[float]:
    rs = game.ruleset
    if use_heuristic and rs.evaluate is not None:
        players = game.table.players
        if tally is not None:
            tally.judged += 1
        try:
            first = rs.evaluate(game, {"p": players[0], "player": players[0]})
            if first.__class__ is list:
                # every seat's worth at once, in seat order: what all seats share is worked out once a position
                values = [float(v) for v in first]
            else:
                values = [float(first)]
                values += [float(rs.evaluate(game, {"p": p, "player": p})) for p in players[1:]]
        except (GameError, TypeError, ValueError) as error:
            values = None   # an evaluation that does not apply here: fall back to the score (counted)
            if tally is not None:
                tally.evaluation_raised(error, rs.evaluate_loc)
        if values is not None:
            if len(values) != len(players):   # a mistake of the ruleset's, not a position it does not apply to
                raise GameError(f"heuristics evaluate gives a list of {len(values)} worths for {len(players)} "
                                "seats (one a seat, in seat order)", rs.evaluate_loc)
            return values
    scores = game.scores
    return [float(scores.get(p.seat, 0) or 0) for p in game.table.players]
