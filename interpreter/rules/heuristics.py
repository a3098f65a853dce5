"""The ``heuristics:`` section: a designer's advice to the search bots, compiled with the rules.

It never changes the rules: the bots read it (``agents/ismcts.py``,
``agents/priors.py``); a mistake in it is reported at its line like any other.
"""
from __future__ import annotations

from typing import Any

from ..errors import did_you_mean
from ..machine.waits import PASS


def build_heuristics(builder) -> None:
    """Fill ``builder.rs``'s advice to the search bots from the data (a position's worth per player, rollout
    priors, budgets); problems go to ``builder.error``."""
    rs, compiler = builder.rs, builder.compiler
    spec: Any = builder.data.get("heuristics") or {}
    if spec.get("evaluate"):
        rs.evaluate = compiler.expression(spec["evaluate"], "heuristics evaluate", {"p", "player"})
        rs.evaluate_loc = spec.key_loc("evaluate")
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
        fn = compiler.expression(str(text), f"heuristics prior {aid}", local)
        if fn is not None:
            rs.priors[aid] = fn
