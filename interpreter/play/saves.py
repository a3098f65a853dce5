"""Saved games that cannot lie: the ruleset's fingerprint, the seed, the agents and the decisions.

A save (``davit play``'s ``save FILE``, Ctrl-C, and every web table's database)
holds what made the game, not the position: loading plays the decisions again
from the seed, each checked as if a person had just made it, so a changed file
can never give a position the rules could not reach. The position the save was
made in is kept beside them only as a check: the replay must arrive at it.

Whatever does not replay is refused in one located line, ``FILE: decision 12:
...`` or ``FILE:LINE:COL: ...`` (a :class:`SaveError`), never a traceback.
"""
from __future__ import annotations

import json
from typing import Any

from ..errors import DavitError, SaveError
from .game import Game

FORMAT = 2
# what a save holds (save_data, with `warning` beside a hot seat's; `work` and `log` in a first-format save,
# Game.to_json's), and what a decision holds (Action.to_json): a key besides these was read past, so a file
# could seem to say what it did not ("sed": 4 played seed 0)
SAVE_KEYS = ("davit", "ruleset", "variant", "fingerprint", "players", "seed", "agents", "decisions", "state",
             "warning", "work", "log")
DECISION_KEYS = ("player", "action", "args")
HOT_SEAT_WARNING = ("this file holds every seat's cards (the seed deals them all): "
                    "do not let a player read it")


def save_data(game, agents=None) -> dict:
    """What a save holds of ``game``: enough to play it again, and the position to check the replay by."""
    names = [a if isinstance(a, str) else getattr(a, "name", "random") for a in agents] if agents else None
    data = {"davit": FORMAT, "ruleset": game.ruleset.id, "variant": game.ruleset.variant,
            "fingerprint": game.ruleset.fingerprint, "players": game.num_players, "seed": game.seed,
            "agents": names, "decisions": decisions_of(game), "state": game.state.to_json()}
    if names and names.count("human") > 1:
        data["warning"] = HOT_SEAT_WARNING
    return data


def decisions_of(game) -> list:
    """The decisions made so far, in order, as JSON (from the game's log)."""
    return [e["action"] for e in game.log if e.get("e") == "decide"]


def write_save(game, path: str, agents=None) -> None:
    from ..load.files import write_atomically
    write_atomically(path, json.dumps(save_data(game, agents)).encode())


def parse_save(where: str, text: str) -> dict:
    """The JSON object of a save; not JSON is refused at its line and column."""
    try:
        data = json.loads(text, object_pairs_hook=_no_key_twice)
    except _KeyTwice as exc:
        raise SaveError(f"{where}: the key {exc.args[0]!r} is given twice in one object (JSON would keep only "
                        "the last)") from None
    except json.JSONDecodeError as exc:
        raise SaveError(f"{where}:{exc.lineno}:{exc.colno}: not a saved game: {exc.msg}") from None
    except ValueError as exc:
        raise SaveError(f"{where}: not a saved game ({exc})") from None
    except RecursionError:
        raise SaveError(f"{where}: not a saved game (nested too deeply)") from None
    if not isinstance(data, dict):
        raise SaveError(f"{where}: not a saved game (not a JSON object)")
    return data


class _KeyTwice(ValueError):
    pass


def _no_key_twice(pairs) -> dict:
    """A JSON object whose keys are all different (json keeps the last of a key given twice)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set = set()
        for key, _ in pairs:
            if key in seen:
                raise _KeyTwice(key)
            seen.add(key)
    return found


def saved_variant(where: str, data: dict):
    variant = data.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise SaveError(f"{where}: variant: must be a name or null, not {variant!r}")
    return variant


def _whole(where: str, data: dict, key: str, default=None) -> int:
    value = data.get(key, default)
    if type(value) is not int:
        raise SaveError(f"{where}: {key}: must be a whole number, not {value!r}")
    return value


def saved_agents(where: str, data: dict) -> list | None:
    """The agents of the save's seats (None: the save does not say)."""
    agents = data.get("agents")
    if agents is None:
        return None
    if not isinstance(agents, list) or not all(isinstance(a, str) and a for a in agents):
        raise SaveError(f"{where}: agents: must be a list of agent names, not {agents!r}")
    if len(agents) != data.get("players"):
        raise SaveError(f"{where}: agents: {len(agents)} names for {data.get('players')} players")
    return agents   # whether each name is a known agent is checked where the agents are made


def load_save(ruleset, data: dict, where: str = "saved game", on_step=None) -> Game:
    """The game ``data`` saved, played again from its seed; ``on_step(game)`` after each decision."""
    unknown = [key for key in data if key not in SAVE_KEYS]
    if unknown:
        raise SaveError(f"{where}: {unknown[0]!r} is not a key of a saved game (its keys: {', '.join(SAVE_KEYS)})")
    version = data.get("davit")
    if version not in (1, FORMAT) or type(version) is not int:
        raise SaveError(f"{where}: davit: not a save format this davit reads ({version!r})")
    if data.get("ruleset") != ruleset.id or saved_variant(where, data) != ruleset.variant:
        raise SaveError(f"{where}: the game is of ruleset {data.get('ruleset')!r} "
                        f"(variant {data.get('variant')!r}), not {ruleset.id!r}")
    if data.get("fingerprint") != ruleset.fingerprint:
        raise SaveError(f"{where}: fingerprint: the game was made with another version of ruleset "
                        f"{ruleset.id!r}; it cannot be played again with this one")
    players = _whole(where, data, "players")
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise SaveError(f"{where}: players: {ruleset.id} is for {ruleset.min_players}–{ruleset.max_players} "
                        f"players, not {players}")
    seed = _whole(where, data, "seed", 0)
    saved_agents(where, data)
    if version == 1:   # an older save: its decisions are in its log
        log = data.get("log")
        if not isinstance(log, list) or not all(isinstance(e, dict) for e in log):
            raise SaveError(f"{where}: log: must be a list of events")
        moves: Any = [e.get("action") for e in log if e.get("e") == "decide"]
    else:
        moves = data.get("decisions")
        if not isinstance(moves, list):
            raise SaveError(f"{where}: decisions: must be a list of decisions")
    try:
        game = Game(ruleset, players, seed=seed)
    except DavitError as exc:
        raise SaveError(f"{where}: players: {exc.message}") from None
    for n, move in enumerate(moves, 1):
        _replay_one(game, move, f"{where}: decision {n}")
        if on_step is not None:
            on_step(game)
    state = data.get("state")
    if state is not None and state != json.loads(json.dumps(game.state.to_json())):
        raise SaveError(f"{where}: state: the position saved is not the one its {len(moves)} decisions give "
                        f"from seed {seed} (the file was changed)")
    return game


def _replay_one(game, move, where: str) -> None:
    if game.is_over:
        raise SaveError(f"{where}: the game is already over")
    if not isinstance(move, dict):
        raise SaveError(f"{where}: not a decision: {move!r}"[:300])
    unknown = [key for key in move if key not in DECISION_KEYS]
    if unknown:
        raise SaveError(f"{where}: {unknown[0]!r} is not a key of a decision (its keys: "
                        f"{', '.join(DECISION_KEYS)})"[:300])
    seat = move.get("player")
    waiting = game.deciding_players
    if type(seat) is not int or seat not in waiting:
        whom = ", ".join(game.player_name(s) for s in waiting)
        raise SaveError(f"{where}: seat {seat!r} decides, but the game waits for {whom}"[:300])
    try:
        result = game.apply(move)
    except DavitError as exc:
        raise SaveError(f"{where}: does not replay: {exc.message}"[:300]) from None
    except Exception as exc:  # noqa: BLE001 -- a decision the rules cannot carry out: refused, never a traceback
        raise SaveError(f"{where}: does not replay: {type(exc).__name__} {exc}"[:300]) from None
    if not result:
        raise SaveError(f"{where}: seat {seat}'s decision is refused: {result.reason}"[:300])
