"""``davit play``: one game at the terminal, bots and people (``--agents human,...``).

The loop keeps a snapshot before each decision of a person, so ``undo`` can take
it back when nothing hidden came to light since; Ctrl-C and ``quit`` save the
game to a file that ``--resume FILE`` continues.
"""
from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path

from ..errors import DavitError, printable
from ..load.regular import TooLarge, read_capped
from .paths import check_writable
from .players import players_for_agents, variant_of

EXIT_OK, EXIT_INTERRUPTED = 0, 130
# events after which an undo could let a person try again for a better draw, roll or look
_REVEALING = {"random", "shuffle", "flip", "reveal", "peek"}


def _visible_ids(view) -> set:
    return {t["id"] for z in view["zones"].values() for t in z["things"] if "id" in t}


def _undo_refusal(snapshot, game, seat) -> str | None:
    """Why ``seat`` may not go back to ``snapshot`` (None: it may)."""
    if any(e.get("e") in _REVEALING for e in game.log[len(snapshot.log):]):
        return "something was drawn, rolled, shuffled or revealed since"
    if not _visible_ids(game.view(seat)) <= _visible_ids(snapshot.view(seat)):
        return "you have seen a hidden card since"
    return None


MAX_SAVED_GAME_BYTES = 200_000_000


def read_saved_game(ruleset_arg, variant, path):
    """The ruleset and the JSON of a saved game (its variant unless ``variant`` is given); one-line errors."""
    from ..play.saves import parse_save, saved_variant
    from ..rules.loading import load_ruleset
    try:
        raw = read_capped(path, MAX_SAVED_GAME_BYTES)
    except TooLarge:
        raise DavitError(f"davit: {path} is larger than a saved game may be ({MAX_SAVED_GAME_BYTES} bytes)") from None
    except OSError as exc:
        raise DavitError(f"davit: cannot read the saved game {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DavitError(f"davit: {path}: not a saved game (not UTF-8 text)") from None
    data = parse_save(path, text)
    return load_ruleset(ruleset_arg, variant if variant is not None else saved_variant(path, data)), data


def _load_game(args):
    """The ruleset, the game and the agents' names: a new game, or a saved one played again."""
    from ..agents import make_agents
    from ..play.game import Game
    from ..play.saves import load_save, saved_agents
    from ..rules.loading import load_ruleset
    if not args.resume:
        rs = load_ruleset(args.ruleset, variant_of(args))
        players = players_for_agents(rs, args.players, args.agents or "random")
        seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
        return rs, Game(rs, players, seed=seed), args.agents or "random"
    if args.seed is not None:   # it was dropped: the game went on from the save's own seed without a word
        raise DavitError("davit: --seed does not go with --resume: a saved game goes on from its own seed")
    rs, data = read_saved_game(args.ruleset, variant_of(args), args.resume)
    game = load_save(rs, data, args.resume)
    if args.players is not None and args.players != game.num_players:
        raise DavitError(f"davit: the saved game has {game.num_players} players, not {args.players}")
    if args.agents:
        return rs, game, args.agents
    agents = ",".join(saved_agents(args.resume, data) or ["random"])
    try:
        make_agents(agents, game.num_players, 0)
    except ValueError as exc:
        raise DavitError(f"davit: {args.resume}: agents: {exc}") from None
    return rs, game, agents


def _offer_save(game, why: str, agents) -> None:
    from ..agents.human import save_game
    path = f"davit-{game.ruleset.id}-saved.json"
    n = 1
    while Path(path).exists():
        n += 1
        path = f"davit-{game.ruleset.id}-saved-{n}.json"
    try:
        save_game(game, path, agents)
    except OSError as exc:
        print(printable(f"\ndavit: {why}; could not save the game: {exc.strerror or exc}"), file=sys.stderr)
        return
    print(printable(f"\ndavit: {why}; the game is saved in {path} — continue with: "
                    f"davit play {game.ruleset.id} --resume {path}"), file=sys.stderr)
    if sum(getattr(a, "name", a) == "human" for a in agents) > 1:
        from ..play.saves import HOT_SEAT_WARNING
        print(f"davit: warning: {HOT_SEAT_WARNING}", file=sys.stderr)


def cmd_play(args) -> int:
    from ..agents import HumanAgent, make_agents
    from ..agents.human import Quit, Undo
    from ..agents.search_tally import search_troubles, trouble_lines
    from ..observe.narrate import event_text
    from ..play.visibility import redact
    rs, game, agent_names = _load_game(args)
    players = game.num_players
    try:
        agents = make_agents(agent_names, players, game.seed)
    except ValueError as exc:
        raise DavitError(f"davit: {exc}") from None
    log_seat = _log_seat(args, players)
    if args.log:
        _check_writable(args.log)
    if args.seed is None and not args.resume and not args.json:   # a random deal, yet one that can be replayed
        print(f"davit: seed {game.seed} (play this game again with --seed {game.seed})", file=sys.stderr)
    if args.resume and not (args.json or args.quiet):
        print(printable(f"davit: {args.resume}: {game.decisions} decisions played again from seed {game.seed}; "
                        f"the seats: {', '.join(a.name for a in agents)}"), file=sys.stderr)
    humans = [s for s, a in enumerate(agents) if isinstance(a, HumanAgent)]
    screen = {"last": None} if len(humans) > 1 else None   # hot seat: one screen for several people
    for seat in humans:
        agents[seat].table_agents = agents
        agents[seat].hot_seat = screen
    narrate = not (args.json or args.quiet or humans)
    shown = len(game.log) if args.resume else 0
    snapshots: dict[int, list] = {seat: [] for seat in humans}   # the game before each decision of a person
    try:
        while not game.is_over:
            if narrate:
                for e in game.log[shown:]:
                    text = event_text(game, redact(e, None))
                    if text:
                        print(text)
                shown = len(game.log)
            seat = game.deciding_players[0]
            actions = game.legal_actions(seat)
            try:
                action = agents[seat].choose(game, seat, actions)
            except Undo:
                if not snapshots[seat]:
                    print("Nothing to undo yet.")
                    continue
                why = _undo_refusal(snapshots[seat][-1], game, seat)
                if why:
                    print(f"Cannot undo: {why}.")
                    continue
                game = snapshots[seat].pop().clone()
                for other in humans:   # later snapshots belong to the future that was undone
                    snapshots[other] = [g for g in snapshots[other] if len(g.log) <= len(game.log)]
                print("Undone: back to your last decision.")
                continue
            if seat in snapshots and len(actions) > 1:
                snapshots[seat].append(game.clone())
            result = game.apply(action)
            if not result:
                raise DavitError(f"davit: an agent chose an illegal action: {result.reason}")
    except (KeyboardInterrupt, EOFError, Quit) as exc:
        # the end of input (a pipe ran dry, Ctrl-D) abandons; Ctrl-C and quit keep the game
        if not isinstance(exc, EOFError) and (humans or args.resume):
            _offer_save(game, "stopped" if isinstance(exc, Quit) else "interrupted", agents)
        else:
            print("\ndavit: game abandoned", file=sys.stderr)
        return EXIT_INTERRUPTED
    # with a person at the table an error's words stay unsaid: they are of a bot's sample of the position,
    # dealt from what that bot's seat knows
    for line in trouble_lines(search_troubles(agents), hidden="play the bots alone to see it" if humans else None):
        print(printable(f"davit: {line}"), file=sys.stderr)
    if args.log:
        from ..load.files import write_atomically
        events = game.log if log_seat is _WHOLE_LOG else [redact(e, log_seat) for e in game.log]
        write_atomically(args.log, "".join(json.dumps(e, sort_keys=True) + "\n" for e in events).encode())
    if args.json:
        print(json.dumps({"ruleset": rs.id, "variant": rs.variant, "seed": game.seed, "players": players,
                          "agents": [a.name for a in agents], "scores": [game.scores[s] for s in range(players)],
                          "winners": game.winners, "draw": game.is_draw, "ranking": game.ranking,
                          "payoffs": game.payoffs, "names": list(game.table.player_names)}))
        return EXIT_OK
    if narrate:
        for e in game.log[shown:]:
            text = event_text(game, redact(e, None))
            if text:
                print(text)
    elif humans:
        # what the last decisions did, as the first person may read it, then the result
        start = min(agents[humans[0]].seen.get(humans[0], 0), len(game.log))
        for e in game.log[start:]:
            text = event_text(game, redact(e, humans[0]))
            if text:
                print(text)
    else:
        print(event_text(game, game.log[-1]))
    return EXIT_OK


_WHOLE_LOG = object()


def _log_seat(args, players: int):
    """The seat whose log ``--log`` writes (None: a spectator), or the whole log; a bad seat is one line."""
    text = getattr(args, "log_seat", None)
    if text is None:
        return _WHOLE_LOG
    if not args.log:
        raise DavitError("davit: --log-seat needs --log FILE")
    if text.strip().lower() == "spectator":
        return None
    if not text.strip().isdigit() or int(text) >= players:
        raise DavitError(f"davit: --log-seat must be a seat from 0 to {players - 1} or 'spectator', not {text!r}")
    return int(text)


def _check_writable(path: str) -> None:
    """Refuse a log file that cannot be written, before the game starts (not after it)."""
    check_writable(path, "the log")
