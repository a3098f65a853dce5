"""``davit serve``: play one game at a local web table, one private link per human seat."""
from __future__ import annotations

import json
import sys

from ..errors import DavitError, printable
from .players import players_for_agents, variant_of

SEATS = "human,random"   # the table's agents when --agents is not given


DEFAULT_DB = "davit-tables.db"


def _refuse_unused_options(args) -> None:
    """An option the chosen kind of table does not read is refused, not dropped: a replay shows the saved game
    as it was (its seed, seats and agents), and a --watch table keeps nothing in a database."""
    if args.replay:
        given = [("--players", args.players), ("--agents", args.agents), ("--seed", args.seed), ("--db", args.db),
                 ("--watch", args.watch or None), ("--new", args.new or None)]
        what = "--replay (a replay shows the saved game as it was: its seed, seats and agents)"
    elif args.watch:
        given = [("--db", args.db), ("--new", args.new or None)]
        what = "--watch (its table begins again at every edit and is kept in no database)"
    else:
        return
    for option, value in given:
        if value is not None:
            raise DavitError(f"davit: {option} does not go with {what}")


def cmd_serve(args) -> int:
    try:
        from ..web.server import make_app, make_replay_app
    except ImportError as exc:
        raise DavitError(f"davit: serve needs the web extra: pip install 'davit[web]' ({exc.name} is missing)") \
            from None
    if not 0 <= args.port <= 65535:
        raise DavitError(f"davit: --port must be between 0 and 65535, not {args.port}")
    _refuse_unused_options(args)
    args.seed = 0 if args.seed is None else args.seed
    args.db = DEFAULT_DB if args.db is None else args.db
    if args.replay:
        if args.ruleset is None:   # it said "no ruleset 'None'"
            raise DavitError("davit: serve --replay needs the RULESET the game was played with, as "
                             "`davit serve RULESET --replay FILE`")
        from ..web.replay import ReplayTable
        from .terminal import read_saved_game
        rs, data = read_saved_game(args.ruleset, variant_of(args), args.replay)
        replay = ReplayTable(rs, data, args.replay)
        links = {f"{rs.name}, {replay.last} decisions (replay)": f"/replay/{replay.token}"}
        return _run(make_replay_app(replay, _board(rs)), links, args)
    from ..agents import HumanAgent, make_agents
    from ..play.game import Game
    from ..rules.loading import load_ruleset
    from ..web.table import WebTable
    if args.ruleset is None:
        if args.watch:
            raise DavitError("davit: serve --watch needs a RULESET")
        table = _kept_table(args, None, None, None)
        rs, players = table.game.ruleset, table.game.num_players
    else:
        rs = load_ruleset(args.ruleset, variant_of(args))
        players = players_for_agents(rs, args.players, args.agents or SEATS)
        try:   # by default a human and random bots; alone (one player), the human
            agents = make_agents(args.agents or ",".join(SEATS.split(",")[:players]), players, args.seed)
        except ValueError as exc:
            raise DavitError(f"davit: {exc}") from None
        if not any(isinstance(a, HumanAgent) for a in agents):
            raise DavitError("davit: serve needs at least one human seat, e.g. --agents human,random")
        if args.watch:   # a designer's table begins again at every edit: nothing to keep
            table = WebTable(Game(rs, players, seed=args.seed), agents, args.seed)
        else:
            table = _kept_table(args, rs, players, agents)
            rs, players = table.game.ruleset, table.game.num_players
    print(f"{rs.name}: {players} player{'s' * (players != 1)}. Each link is private to its seat:")
    links = {table.game.player_name(seat): f"/seat/{table.token_of(seat)}" for seat in table.humans}
    app = make_app(table, _board(rs))
    if not args.watch:
        return _run(app, links, args)
    from ..web.watch import RulesetWatcher

    def reloaded(new_rs):
        try:
            table.restart(Game(new_rs, players, seed=args.seed), _board(new_rs))
        except (DavitError, ValueError) as exc:
            table.notice = printable(f"davit: the edited ruleset cannot be played with {players} players: {exc}")
            print(table.notice, file=sys.stderr)
            return
        print(f"The ruleset changed: a new game of {new_rs.name} has begun.")
        sys.stdout.flush()

    def failed(text):
        table.notice = printable(f"{text}\ndavit: the edited ruleset does not load; "
                                 "the game goes on with the last good one")
        print(table.notice, file=sys.stderr)   # and on every open page

    watcher = RulesetWatcher(args.ruleset, variant_of(args), reloaded, failed).start()
    try:
        return _run(app, links, args)
    finally:
        watcher.stop()


def _kept_table(args, rs, players, agents):
    """The unfinished game of the database with this ruleset, variant and agents (its links), or a new one
    (``rs`` None: the last unfinished game of any ruleset); every decision is written as it is made."""
    from pathlib import Path

    from ..agents import make_agents
    from ..play.game import Game
    from ..rules.loading import load_ruleset
    from ..web.store import Keeper, TableStore
    from ..web.table import WebTable
    if rs is None and not Path(args.db).is_file():
        raise DavitError(f"davit: serve needs a RULESET ({args.db} holds no unfinished game)")
    store = TableStore(args.db)
    row = None if args.new else store.unfinished(args.ruleset, rs.variant if rs is not None else None,
                                                 [a.name for a in agents] if rs is not None else None)
    if row is None and rs is None:
        raise DavitError(f"davit: serve needs a RULESET ({args.db} holds no unfinished game)")
    if row is not None:
        try:
            kept_rs = load_ruleset(row.ruleset, row.variant)
            game, tokens = store.restore(kept_rs, row)
            kept = make_agents(",".join(json.loads(row.agents)), game.num_players, game.seed)
            table = WebTable(game, kept, game.seed, tokens=tokens, on_change=Keeper(store, row.id, game.decisions))
        except (DavitError, ValueError) as exc:
            if rs is None:
                raise DavitError(f"davit: {args.db}: game {row.id} cannot go on: {exc}") from None
            print(printable(f"davit: {args.db}: game {row.id} cannot go on ({exc}); a new game begins"),
                  file=sys.stderr)
        else:
            print(f"Resumed the unfinished game {row.id} of {args.db} at decision {game.decisions} "
                  f"(--new begins another).")
            _mention_others(store, row.id, args.db)
            return table
    game = Game(rs, players, seed=args.seed)
    table = WebTable(game, agents, args.seed)
    keeper = Keeper(store, 0)
    with table.lock:
        keeper.table_id = store.begin(args.ruleset, game, [a.name for a in agents], table.tokens)
        table.on_change = keeper
        keeper(table)   # the bots' first decisions
    _mention_others(store, keeper.table_id, args.db)
    return table


def _mention_others(store, table_id: int, db: str) -> None:
    others = store.others(table_id)
    if others:
        listed = "; ".join(f"{r.ruleset} --agents {','.join(json.loads(r.agents))}" for r in others[:5])
        print(printable(f"{db} also holds {len(others)} unfinished game(s), each brought back by davit serve "
                        f"with its ruleset and agents: {listed}"))


def _board(rs) -> str | None:
    from ..authoring.draw import to_svg
    try:
        return to_svg(rs)
    except (DavitError, ValueError, KeyError, TypeError):  # a board that cannot be drawn still plays, undrawn
        return None


def _run(app, links: dict, args) -> int:
    """Serve ``app`` on 127.0.0.1 until Ctrl-C, after printing (and opening) its links."""
    from ..web.server import make_server, open_socket
    try:
        sock = open_socket("127.0.0.1", args.port)
    except OSError as exc:
        raise DavitError(f"davit: cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}") from None
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    for who, path in links.items():
        print(f"  {who}: {base}{path}")
    sys.stdout.flush()

    def ready():   # only now does Ctrl-C stop the table (web/server.py's make_server)
        print("Press Ctrl-C to stop the table.")
        sys.stdout.flush()
        if not args.no_browser:
            import webbrowser
            webbrowser.open(base + next(iter(links.values())))

    server = make_server(app, sock, on_ready=ready)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:   # uvicorn shuts down on Ctrl-C, then passes the signal on
        pass
    finally:
        sock.close()
    print("The table is closed.")
    return 0
