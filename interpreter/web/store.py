"""The tables of ``davit serve`` kept in SQLite, each decision written as it is made.

A table is a row (the ruleset, its variant and fingerprint, the players, the
seed, the agents and the seats' link tokens) and its decisions, one row each:
the save of play/saves.py, spread over two tables. Killing the server loses
nothing, and ``davit serve --db FILE`` plays an unfinished table's decisions
again (each checked) and opens it with the same links.

The file is the server's: it holds every seat's token and, with the seed, every
seat's cards. It is never served.
"""
from __future__ import annotations

import json
import sqlite3
from collections import namedtuple

from ..errors import DavitError, SaveError
from ..play.saves import FORMAT, decisions_of, load_save

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY, ruleset TEXT NOT NULL, rules_id TEXT NOT NULL, variant TEXT,
    fingerprint TEXT NOT NULL, players INTEGER NOT NULL, seed INTEGER NOT NULL, agents TEXT NOT NULL,
    tokens TEXT NOT NULL, over INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS decisions (
    table_id INTEGER NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (table_id, n));
"""


Row = namedtuple("Row", ["id", "ruleset", "rules_id", "variant", "fingerprint", "players", "seed", "agents", "tokens"])
COLUMNS = ", ".join(Row._fields)


class TableStore:
    """One SQLite file of tables; every write is committed at once (autocommit)."""

    def __init__(self, path: str):
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise DavitError(f"davit: {path}: cannot use it as the tables' database: {exc}") from None

    def close(self) -> None:
        self.db.close()

    def unfinished(self, ruleset_arg: str | None, variant=None, agents: list | None = None):
        """The last unfinished game begun with this ruleset, variant and agents (ruleset None: of any), or None."""
        rows = self.db.execute(f"SELECT {COLUMNS} FROM tables WHERE over = 0 ORDER BY id DESC").fetchall()
        for row in map(Row._make, rows):
            if ruleset_arg is None or (row.ruleset == ruleset_arg and row.variant == variant and
                                       row.agents == json.dumps(agents)):
                return row
        return None

    def others(self, but: int) -> list:
        """Every other unfinished game of the file (rows), newest first."""
        rows = self.db.execute(f"SELECT {COLUMNS} FROM tables WHERE over = 0 AND id != ? ORDER BY id DESC",
                               (but,)).fetchall()
        return [Row._make(r) for r in rows]

    def restore(self, ruleset, row):
        """The game of a stored table, its decisions played again and checked, and its tokens {token: seat}."""
        table_id, _, rules_id, variant, fingerprint, players, seed, agents, tokens = row
        where = f"{self.path}: table {table_id}"
        moves = [json.loads(a) for (a,) in self.db.execute(
            "SELECT action FROM decisions WHERE table_id = ? ORDER BY n", (table_id,))]
        data = {"davit": FORMAT, "ruleset": rules_id, "variant": variant, "fingerprint": fingerprint,
                "players": players, "seed": seed, "agents": json.loads(agents), "decisions": moves}
        game = load_save(ruleset, data, where)
        try:
            tokens = {str(t): int(s) for t, s in json.loads(tokens).items()}
        except (ValueError, AttributeError, TypeError):
            raise SaveError(f"{where}: tokens: not a mapping of links to seats") from None
        return game, tokens

    def begin(self, ruleset_arg: str, game, agents: list, tokens: dict) -> int:
        rs = game.ruleset
        cur = self.db.execute(
            "INSERT INTO tables (ruleset, rules_id, variant, fingerprint, players, seed, agents, tokens) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (ruleset_arg, rs.id, rs.variant, rs.fingerprint, game.num_players, game.seed,
             json.dumps(agents), json.dumps(tokens)))
        return cur.lastrowid  # type: ignore[return-value]  # always set after an INSERT


class Keeper:
    """Called by a web table after every change: writes the decisions not written yet, and the end.

    A decision taken back (undo) is deleted from the file with the ones after it, so
    the file always holds the decisions of the game on the table, no others."""

    def __init__(self, store: TableStore, table_id: int, written: int = 0):
        self.store, self.table_id, self.written = store, table_id, written
        self.kept: list | None = None   # the decisions in the file (the game's first ``written`` until the first call)

    def __call__(self, table) -> None:
        moves = decisions_of(table.game)
        if self.kept is None:
            self.kept = moves[:self.written]
        same = 0
        for old, new in zip(self.kept, moves):
            if old != new:
                break
            same += 1
        db = self.store.db
        if same < len(self.kept) or len(moves) > same:
            db.execute("BEGIN")
            db.execute("DELETE FROM decisions WHERE table_id = ? AND n > ?", (self.table_id, same))
            db.executemany("INSERT INTO decisions (table_id, n, action) VALUES (?, ?, ?)",
                           [(self.table_id, n, json.dumps(m)) for n, m in enumerate(moves[same:], same + 1)])
            db.execute("COMMIT")
            self.kept = list(moves)
            self.written = len(moves)
        if table.game.is_over:
            db.execute("UPDATE tables SET over = 1 WHERE id = ?", (self.table_id,))

    def new_game(self, table) -> None:
        """A rematch or a new game at the same table: the old row is closed, the new game gets its own."""
        db = self.store.db
        db.execute("UPDATE tables SET over = 1 WHERE id = ?", (self.table_id,))
        ruleset_arg, agents = db.execute("SELECT ruleset, agents FROM tables WHERE id = ?",
                                         (self.table_id,)).fetchone()
        self.table_id = self.store.begin(ruleset_arg, table.game, json.loads(agents), table.tokens)
        self.kept, self.written = [], 0
