"""The ``heuristics:`` section: a designer's advice to the search bots, compiled with the rules.

It never changes the rules: the bots read it (``agents/ismcts.py``,
``agents/priors.py``); a mistake in it is reported at its line like any other.
"""
from __future__ import annotations

from typing import Any

from ..dsl.static_types import ANY, BOOL, NUMBER, article
from ..errors import did_you_mean
from ..machine.waits import PASS

WORTHS = (ANY, NUMBER, BOOL)   # what an evaluation or a prior may give: a number (true and false count 1 and 0)


def _gives_a_number(builder, text, what: str, local, loc, list_too: bool = False) -> None:
    """A value the search reads as a number must be one: text or a thing passed validate, and the bots then
    judged by the scores (or dropped the prior) at every position without a word."""
    kind = builder.compiler.infer(text, what, local)
    if kind in WORTHS or (list_too and isinstance(kind, tuple) and kind[1] in WORTHS):
        return
    wanted = "a number, or a list of numbers (one a seat, in seat order)" if list_too else "a number"
    builder.error(f"{what} gives {article(kind)}: the search bots read it as {wanted}", loc, code="type")


def build_heuristics(builder) -> None:
    """Fill ``builder.rs``'s advice to the search bots from the data (a position's worth per player, rollout
    priors, budgets); problems go to ``builder.error``."""
    rs, compiler = builder.rs, builder.compiler
    spec: Any = builder.data.get("heuristics") or {}
    if spec.get("evaluate"):
        rs.evaluate = compiler.expression(spec["evaluate"], "heuristics evaluate", {"p", "player"})
        rs.evaluate_loc = spec.key_loc("evaluate")
        if rs.evaluate is not None:
            _gives_a_number(builder, spec["evaluate"], "heuristics evaluate", {"p", "player"}, spec.loc_of("evaluate"),
                            list_too=True)
    if spec.get("scale") is not None:
        rs.evaluate_scale = float(spec["scale"])
    rs.search = {k: spec[k] for k in ("iterations", "depth", "puct") if spec.get(k) is not None}
    if "seconds" in spec:   # the plain bots think a number of iterations, never a time: a seed replays its game
        builder.error("heuristics 'seconds' is no longer read: the plain search bots' budget is iterations, "
                      "never a time",
                      spec.key_loc("seconds"), "set 'iterations'; a time budget is the player's choice: ismcts:1.5s",
                      code="removed")
    priors: Any = spec.get("priors") or {}
    for aid, text in priors.items():
        adef = None if aid == PASS else rs.actions.get(aid)   # ending a turn has a prior too
        if adef is None and aid != PASS:
            builder.error(f"heuristics prior for unknown action '{aid}'", priors.key_loc(aid),
                          did_you_mean(aid, rs.actions), code="unknown-reference")
            continue
        local = {"p", "player"} | {name for name, _ in (adef.params if adef else ())}
        # the text as read (its place in the file: an error in it is said there), a number as text
        source = text if isinstance(text, str) else str(text)
        fn = compiler.expression(source, f"heuristics prior {aid}", local)
        if fn is not None:
            _gives_a_number(builder, source, f"heuristics prior {aid}", local, priors.loc_of(aid))
            rs.priors[aid] = fn
            rs.prior_locs[aid] = priors.loc_of(aid)
