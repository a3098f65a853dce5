"""How a game ends, read from the ruleset: ``end`` (when, and with what outcome) and ``scoring``.

``end: {when: ..., outcome: draw}`` makes the end condition a draw: nobody
wins and every player still in ranks equal. ``scoring.tie: draw`` makes a
tie for the best rank a draw instead of a shared win (the default,
``share``). ``scoring.payoffs`` says what each seat gets from the outcome
(:func:`interpreter.play.outcome.payoffs`): ``outcome`` (the default: +1 a
win, 0 a draw, -1 a loss; ``{win, draw, loss}`` sets other numbers) or
``scores`` (each seat's final score). A ``repeat: until_end`` loop needs
something that ends the game: :func:`endless_loop_warnings`.
"""
from __future__ import annotations

from typing import Any

from ..errors import RulesetError, did_you_mean
from ..load.yaml_reader import LocMap, plain

OUTCOMES = ("ranked", "draw")
TIES = ("share", "draw")
PAYOFF_MODES = ("outcome", "scores")
DEFAULT_PAYOFFS = ("outcome", 1.0, 0.0, -1.0)   # win, draw, loss


def _at(spec, key, default):
    return spec.loc_of(key) if isinstance(spec, LocMap) and key in spec else default


def build_ending(builder) -> None:
    """Fill ``builder.rs``'s end and scoring fields from the data; problems go to ``builder.error``."""
    rs, compiler, data = builder.rs, builder.compiler, builder.data
    end = data.get("end") or {}
    root = builder.root_loc
    if end.get("when"):
        rs.end_when = compiler.expression(end["when"], "end condition")
    outcome = end.get("outcome", "ranked")
    if outcome not in OUTCOMES:
        builder.error(f"end outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}", _at(end, "outcome", root),
                      did_you_mean(str(outcome), OUTCOMES), code="bad-value")
    elif outcome == "draw" and not end.get("when"):
        builder.error("end outcome draw needs the condition it belongs to (end.when)", _at(end, "outcome", root),
                      code="bad-value")
    rs.end_is_draw = outcome == "draw"
    scoring: Any = data.get("scoring") or {}   # a LocMap when given
    if scoring.get("final"):
        code = compiler.block(scoring["final"], "final", "final scoring", (), (), pure=False)
        rs.final_code = "final" if code else None
    ranks = scoring.get("rank") or [f"p.{rs.score_counter}"]
    if isinstance(ranks, str):
        ranks = [ranks]
    for text in ranks:
        fn = compiler.expression(text, "ranking", {"p", "player"})
        if fn is not None:
            rs.rank_fns.append(fn)
    rs.has_winners = bool(scoring.get("winners", True))
    tie = scoring.get("tie", "share")
    if tie not in TIES:
        builder.error(f"scoring tie must be one of {', '.join(TIES)}, not {tie!r}", _at(scoring, "tie", root),
                      did_you_mean(str(tie), TIES), code="bad-value")
    rs.tie_is_draw = tie == "draw"
    rs.payoffs = _payoffs(builder, scoring, root)
    if scoring.get("team"):
        rs.team_var = str(scoring["team"])
        if rs.team_var not in rs.globals:
            builder.error(f"team score '{rs.team_var}' is not a variable", scoring.loc_of("team"),
                          did_you_mean(rs.team_var, rs.globals), code="unknown-reference")
        if scoring.get("win_if"):
            rs.win_if = compiler.expression(scoring["win_if"], "win_if")
    if scoring.get("benchmark"):
        rs.benchmark = plain(scoring["benchmark"])


def _payoffs(builder, scoring, root) -> tuple:
    spec = scoring.get("payoffs", "outcome")
    where = _at(scoring, "payoffs", root)
    if isinstance(spec, dict):
        numbers = []
        for key, default in zip(("win", "draw", "loss"), DEFAULT_PAYOFFS[1:]):
            value = spec.get(key, default)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                builder.error(f"payoff for a {key} must be a number, not {value!r}", _at(spec, key, where),
                              code="bad-value")
                value = default
            numbers.append(float(value))
        for key in spec:
            if key not in ("win", "draw", "loss"):
                builder.error(f"unknown payoff '{key}'; payoffs are given for a win, a draw and a loss",
                              spec.key_loc(key) if isinstance(spec, LocMap) else where,
                              did_you_mean(str(key), ("win", "draw", "loss")), code="bad-value")
        return ("outcome", *numbers)
    if spec not in PAYOFF_MODES:
        builder.error(f"scoring payoffs must be one of {', '.join(PAYOFF_MODES)} or {{win, draw, loss}}, "
                      f"not {spec!r}", where, did_you_mean(str(spec), PAYOFF_MODES), code="bad-value")
        return DEFAULT_PAYOFFS
    return DEFAULT_PAYOFFS if spec == "outcome" else ("scores",)


def endless_loop_warnings(rs, endless: list, data) -> list:
    """A ``repeat: until_end`` loop in a ruleset that has nothing to end the game but the length limit."""
    if not endless or rs.end_when is not None or "end_game(" in repr(plain(data)):
        return []
    return [RulesetError("this loop repeats until the game ends, but nothing ends the game: there is no "
                         "end.when and no end_game()", loc, "add `end: {when: ...}` (checked after every step) "
                         "or call end_game() in a rule", code="endless-loop", severity="warning")
            for loc in endless]
