"""What a search bot got past on its own, kept so the commands that play bots can say so.

A search judges many positions it only imagines. Two things it meets there
are handled without stopping, and each could hide a mistake of the ruleset's:

* ``heuristics.evaluate`` raising at a position: the scores stand in there;
  a prior (``heuristics.priors``) raising for an action: it weighs 1. Either
  need not apply everywhere, but one that raises everywhere weakens the bot
  without a word.
* the rules raising in a sampled position (a deal of what the bot's seat
  cannot see, one it cannot rule out): that sample is judged as it stands.
  The rules failing on a deal the seat cannot rule out is most often a
  mistake in them that games between random bots never show.

Each bot keeps a :class:`SearchTally` for its game; :func:`search_troubles`
sums the bots' tallies as plain data (a game's record) and
:func:`trouble_lines` words them, each with the first error at its place.
"""
from __future__ import annotations

from ..errors import DavitError

COUNTS = ("judged", "evaluate_failed", "weighed", "prior_failed", "played", "rules_failed")
FIRSTS = ("evaluate_error", "prior_error", "rules_error")


class SearchTally:
    __slots__ = (*COUNTS, *FIRSTS)

    def __init__(self):
        self.judged = 0            # positions judged by heuristics.evaluate
        self.evaluate_failed = 0   # ... of them where it raised
        self.weighed = 0           # actions weighed by a prior
        self.prior_failed = 0      # ... of them where it raised
        self.played = 0            # samples the search played (iterations)
        self.rules_failed = 0      # ... of them where the rules raised
        self.evaluate_error: str | None = None
        self.prior_error: str | None = None
        self.rules_error: str | None = None

    def evaluation_raised(self, error: Exception, where) -> None:
        self.evaluate_failed += 1
        if self.evaluate_error is None:
            self.evaluate_error = _located(error, where)

    def prior_raised(self, error: Exception, where) -> None:
        self.prior_failed += 1
        if self.prior_error is None:
            self.prior_error = _located(error, where)

    def rules_raised(self, error: Exception) -> None:
        self.rules_failed += 1
        if self.rules_error is None:
            self.rules_error = str(error)


def _located(error: Exception, where) -> str:
    """The error's text with its place: a Python error from the value (a text as a number) gets the line."""
    located = isinstance(error, DavitError) and error.location is not None
    return str(error) if located or where is None else f"{where}: {error}"


def search_troubles(agents) -> dict | None:
    """The tallies of the search bots among ``agents`` added up, as plain data, where any met trouble; else
    None."""
    tallies = [a.tally for a in agents if isinstance(getattr(a, "tally", None), SearchTally)]
    return merged([{**{k: getattr(t, k) for k in COUNTS}, **{k: getattr(t, k) for k in FIRSTS}}
                   for t in tallies])


def merged(troubles: list[dict]) -> dict | None:
    """Tallies (or sums of them) added up, with the first error of each kind; None where none met trouble."""
    total = {k: sum(t.get(k, 0) for t in troubles) for k in COUNTS}   # (a study kept from before a count: 0)
    if not any(total[k] for k in ("evaluate_failed", "prior_failed", "rules_failed")):
        return None
    for k in FIRSTS:
        total[k] = next((t[k] for t in troubles if t.get(k) is not None), None)
    return total


def trouble_lines(troubles: dict | None, games: int | None = None, hidden: str | None = None) -> list[str]:
    """A warning line for each kind of trouble the search bots met; ``hidden`` stands for the errors' words
    where a person at the table may not read them (an error of a bot's sample shows what its seat holds)."""
    if not troubles:
        return []
    where = f" in {games} game{'s' if games != 1 else ''}" if games is not None else ""
    lines = []
    if troubles["evaluate_failed"]:
        lines.append(f"warning: heuristics evaluate raised at {troubles['evaluate_failed']} of the "
                     f"{troubles['judged']} positions the search bots judged{where}; the scores stood in there, "
                     f"so the bots may play weaker than meant (the first: {hidden or troubles['evaluate_error']})")
    if troubles.get("prior_failed"):
        lines.append(f"warning: a heuristics prior raised for {troubles['prior_failed']} of the "
                     f"{troubles['weighed']} actions the search bots weighed{where}; those weighed 1, so the "
                     f"bots may play weaker than meant (the first: {hidden or troubles['prior_error']})")
    if troubles["rules_failed"]:
        lines.append(f"warning: the rules raised in {troubles['rules_failed']} of the {troubles['played']} "
                     f"positions the search bots played out{where} (deals of what their seats cannot see, none "
                     f"ruled out by what they see); the bots judged them as they stood "
                     f"(the first: {hidden or troubles['rules_error']})")
    return lines
