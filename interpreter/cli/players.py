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
