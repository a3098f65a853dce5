"""``davit serve``: play one game at a local web table, one private link per human seat."""
from __future__ import annotations

import sys

from ..errors import DavitError, printable
from .players import players_for_agents, variant_of


def cmd_serve(args) -> int:
    try:
        from ..web.server import make_app, make_replay_app
    except ImportError as exc:
        raise DavitError(f"davit: serve needs the web extra: pip install 'davit[web]' ({exc.name} is missing)") \
            from None
    if not 0 <= args.port <= 65535:
        raise DavitError(f"davit: --port must be between 0 and 65535, not {args.port}")
    if args.replay:
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
    rs = load_ruleset(args.ruleset, variant_of(args))
    players = players_for_agents(rs, args.players, args.agents)
    try:
        agents = make_agents(args.agents, players, args.seed)
    except ValueError as exc:
        raise DavitError(f"davit: {exc}") from None
    if not any(isinstance(a, HumanAgent) for a in agents):
        raise DavitError("davit: serve needs at least one human seat, e.g. --agents human,random")
    if args.watch:   # a designer's table begins again at every edit: nothing to keep
        table = WebTable(Game(rs, players, seed=args.seed), agents, args.seed)
    else:
        table = _kept_table(args, rs, players, agents)
    print(f"{rs.name}: {players} players. Each link is private to its seat:")
    links = {table.game.player_name(seat): f"/seat/{table.token_of(seat)}" for seat in table.humans}
    app = make_app(table, _board(rs))
    if not args.watch:
        return _run(app, links, args)
    from ..web.watch import RulesetWatcher

    def reloaded(new_rs):
        try:
            table.restart(Game(new_rs, players, seed=args.seed), _board(new_rs))
        except (DavitError, ValueError) as exc:
            print(printable(f"davit: the edited ruleset cannot be played with {players} players: {exc}"),
                  file=sys.stderr)
            return
        print(f"The ruleset changed: a new game of {new_rs.name} has begun.")
        sys.stdout.flush()

    def failed(text):
        print(printable(f"{text}\ndavit: the edited ruleset does not load; the game goes on with the last good one"),
              file=sys.stderr)

    watcher = RulesetWatcher(args.ruleset, variant_of(args), reloaded, failed).start()
    try:
        return _run(app, links, args)
    finally:
        watcher.stop()


def _kept_table(args, rs, players, agents):
    """The unfinished table of the database with these rules and agents (the same links), or a new one;
    either way every decision is written to the database as it is made."""
    from ..play.game import Game
    from ..web.store import Keeper, TableStore
    from ..web.table import WebTable
    store = TableStore(args.db)
    names = [a.name for a in agents]
    row = store.unfinished(args.ruleset, rs.variant, names)
    if row is not None and row[4] == players:
        try:
            game, tokens = store.restore(rs, row)
        except DavitError as exc:
            print(printable(f"davit: {exc}; a new game begins"), file=sys.stderr)
            row = None
    if row is not None:
        table = WebTable(game, agents, game.seed, tokens=tokens, on_change=Keeper(store, row[0], game.decisions))
        print(f"Resumed the unfinished game {row[0]} of {args.db} at decision {game.decisions}.")
        return table
    game = Game(rs, players, seed=args.seed)
    keeper = Keeper(store, 0)
    table = WebTable(game, agents, args.seed, on_change=None)
    with table.lock:
        keeper.table_id = store.begin(args.ruleset, game, names, table.tokens)
        table.on_change = keeper
        keeper(table)   # the bots' first decisions
    return table


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
    print("Press Ctrl-C to stop the table.")
    sys.stdout.flush()
    if not args.no_browser:
        import webbrowser
        webbrowser.open(base + next(iter(links.values())))
    server = make_server(app, sock)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:   # uvicorn shuts down on Ctrl-C, then passes the signal on
        pass
    finally:
        sock.close()
    print("The table is closed.")
    return 0
