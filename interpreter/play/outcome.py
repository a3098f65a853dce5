"""A finished game's outcome beyond its winners: whether it is a draw, each seat's rank and payoff.

Nothing here is kept in the state but the mark of a draw (``%draw``, set by
:meth:`Game.finish` only when the game ends in one): ranks are read from the
ruleset's ranking keys on the final position, payoffs from the ranks, the
winners and ``scoring.payoffs``.

* **ranks** (1 is best, ties share a rank, the next rank skips: 1, 1, 3):
  players still in by the ranking keys; in a declared draw or a
  co-operative game every player still in ranks first; eliminated players
  share the place after all of them.
* **payoffs**, by default (``outcome``, +1 / 0 / -1, or the ruleset's
  ``{win, draw, loss}``): a winner gets ``win``, every other seat ``loss``;
  in a draw the seats ranked first get ``draw``, the others ``loss``; a
  co-operative game lost gets ``loss`` for all; a game that names no winner
  and is no draw (``winners: false``, everyone eliminated) ``draw`` for all.
  ``scores``: each seat's final score.
"""
from __future__ import annotations

DECLARED = "declared"   # end.outcome: draw, end_game(draw=true), limits.at_length_limit: draw
TIE = "tie"             # scoring.tie: draw and a tie for the best rank


def is_draw(g) -> bool:
    return g.state.over and bool(g.state.vars.get("%draw"))


def ranks(g) -> list[int]:
    """Each seat's rank once the game is over (``[]`` before)."""
    st = g.state
    if not st.over:
        return []
    rs = g.ruleset
    players = g.table.players
    inside = [p for p in players if not st.out[p.seat]]
    if rs.team_var is not None or st.vars.get("%draw") == DECLARED:
        keys = {p.seat: () for p in inside}
    else:
        keys = {p.seat: tuple(fn(g, {"p": p, "player": p}) for fn in rs.rank_fns) for p in inside}
    out = []
    for p in players:
        if st.out[p.seat]:
            out.append(len(inside) + 1)
        else:
            out.append(1 + sum(1 for other in keys.values() if other > keys[p.seat]))
    return out


def payoffs(g) -> list[float]:
    """Each seat's payoff once the game is over (zeros before): see the module's text."""
    n = len(g.table.players)
    if not g.state.over:
        return [0.0] * n
    spec = g.ruleset.payoffs
    if spec[0] == "scores":
        scores = g.scores
        return [float(scores[s]) for s in range(n)]
    win, draw, loss = spec[1:]
    winners = g.winners
    if winners:
        return [win if s in winners else loss for s in range(n)]
    if is_draw(g):
        return [draw if r == 1 else loss for r in ranks(g)]
    if g.ruleset.team_var is not None:
        return [loss] * n
    return [draw] * n
