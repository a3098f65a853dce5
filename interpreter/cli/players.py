"""How many players a command plays with: the one asked for, checked, or a default."""
from __future__ import annotations

from ..errors import DavitError


def players_for(rs, wanted):
    """``wanted`` if the ruleset allows it (else a one-line error); by default 4, or the nearest allowed."""
    if wanted is None:
        return max(rs.min_players, min(4, rs.max_players))
    if not rs.min_players <= wanted <= rs.max_players:
        raise DavitError(f"davit: {rs.id} is for {rs.min_players}–{rs.max_players} players, not {wanted}")
    return wanted


def players_for_agents(rs, wanted, agents: str | None):
    """As :func:`players_for`, but without ``wanted`` a list of several agents sets the count
    (raised to the ruleset's least number of players: the last agent repeats)."""
    names = [n for n in (agents or "").split(",") if n.strip()]
    if wanted is None and len(names) > 1:
        return players_for(rs, max(len(names), rs.min_players))
    return players_for(rs, wanted)


def variant_of(args):
    """The --variant options as one ``a+b`` string (or None): the loaders take either form."""
    return "+".join(args.variant) if getattr(args, "variant", None) else None
