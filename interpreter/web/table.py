"""One game at a web table: the seats' secret tokens, the bots, and what each seat is shown.

The page of a seat is built only from ``game.view(seat)`` and the narration of
that view, so a seat learns in the browser exactly what it would at the terminal.
"""
from __future__ import annotations

import re
import secrets
import threading

from ..agents import HumanAgent, make_agents
from ..agents.human import action_label
from ..errors import DavitError, GameError
from ..observe.narrate import event_text
from ..observe.status import grouped, status
from ..play.game import Game
from ..play.saves import decisions_of, load_save, save_data
from .layout import seat_colours
from .tableview import table_view

RECENT = 8   # decisions whose changes a page highlights (at most; those since the seat's last one)


class Refused(Exception):
    """A request the table does not accept (a stale or unknown action); the text says why."""


class RulesStopped(Refused):
    """The rules stopped (a located runtime error) during a request's decisions; none of them was kept."""


class WebTable:
    """A game, its agents (``human`` seats are played in the browser) and one token per human seat."""

    def __init__(self, game, agents: str | list = "human,random", seed: int = 0, tokens: dict | None = None,
                 on_change=None):
        self.game = game
        self.agents = make_agents(agents, game.num_players, seed) if isinstance(agents, str) else list(agents)
        self.humans = [s for s, a in enumerate(self.agents) if isinstance(a, HumanAgent)]
        # a token is the only key to a seat's view: long, random, one per seat (kept ones: a restored table)
        self.tokens = dict(tokens) if tokens else {secrets.token_urlsafe(18): seat for seat in self.humans}
        if sorted(self.tokens.values()) != self.humans:
            raise ValueError("the table's links do not match its human seats")
        self.lock = threading.Lock()
        self.on_change = on_change   # called after every decision (web/store.py writes it down)
        self.decisions = game.decisions   # a restored game goes on at its step
        self.games = 1          # how many games this table has begun (davit serve --watch begins new ones)
        self.board_svg: str | None = None   # the drawing of the board, public; set by the server
        self.notice: str | None = None   # a problem every page shows (davit serve --watch: the edited ruleset's errors)
        self._stopped: str | None = None   # the notice of the last change the rules stopped (cleared by the next)
        self.recent: list = []  # [(seat, zones it changed)] of the last decisions, as anyone could see them
        self.undo_ask: dict | None = None   # {"seat", "agreed": {seats}}: an undo waiting for the other people's yes
        self.seen: dict | None = None   # the zones as anyone sees them after the last decision (None: not known)
        with self.lock:
            try:
                self._attempt(self._bots_decide, "the game waits before the bots' first decisions")
            except RulesStopped:
                pass   # every page shows where (the notice); the game is as it was given

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens, or None; compared in constant time."""
        for known, seat in self.tokens.items():
            if secrets.compare_digest(known.encode(), str(token).encode()):
                return seat
        return None

    def token_of(self, seat: int) -> str:
        return next(t for t, s in self.tokens.items() if s == seat)

    @property
    def step(self) -> int:
        """Grows with every applied decision: a page acts only on the step it has seen."""
        return self.decisions

    def _attempt(self, change, after: str, new_game: bool = False) -> None:
        """Carry out ``change`` (a request's decisions and the bots' after them) as one whole, then write it
        down (``on_change``). If the rules stop on the way (a located runtime error, say a division by zero
        only this move reaches), the table is left as it was before: the game (its position, its log, so the
        decisions an undo replays), the highlights, the open undo question, and the saved copy, which is
        written only after a whole change. Every page shows where the rules stopped; RulesStopped tells the
        request. A bare 500 left the half-made move standing, and the saved copy could not be played again."""
        # the one snapshot it takes: the web table keeps none (its undo plays the decisions again from the
        # seed), and a clone shares what is not written (State.clone), cheap beside drawing one page
        before = self.game.clone()
        kept = (self.recent, self.seen, self.undo_ask, self.games, self.board_svg)
        try:
            change()
            self._showable()
        except BaseException as exc:
            self.game = before
            self.recent, self.seen, self.undo_ask, self.games, self.board_svg = kept
            if not isinstance(exc, DavitError):
                raise
            self.notice = self._stopped = f"the rules stopped: {told(before, exc)}; {after}"
            self.decisions += 1   # every page redraws and shows it
            raise RulesStopped(self.notice) from None
        if self.notice is not None and self.notice is self._stopped:   # a change went through since: stale
            self.notice = None    # (a --watch edit's errors stay until a good edit: that notice is not ours)
        if self.on_change is not None:
            begin = getattr(self.on_change, "new_game", None)
            if new_game and begin is not None:   # a kept table: the new game is a new row of the database
                begin(self)
            self.on_change(self)

    def _showable(self) -> None:
        """Work out once what the pages will ask of the position (the deciding seats' actions, the status's
        worked-out values, the scores): rules that stop there stop the change, not every page after it."""
        game = self.game
        for seat in game.deciding_players:
            game.legal_actions(seat)
        seat_payload(game, None, self.step, since=len(game.log))

    def _bots_decide(self) -> None:
        """Let bot seats decide until a human seat must decide or the game ends."""
        game = self.game
        while not game.is_over:
            for seat in game.deciding_players:
                if seat in self.humans:
                    continue
                actions = game.legal_actions(seat)
                if actions:
                    action = self.agents[seat].choose(game, seat, actions)
                    self._apply(seat, action, RuntimeError, "a bot chose an illegal action: ")
                    break
            else:
                return

    def act(self, seat: int, index: int, step: int) -> None:
        """Apply the seat's ``index``-th legal action, if the page saw the current step."""
        with self.lock:
            if self.game.is_over:
                raise Refused("the game is over")
            if step != self.step:
                raise Refused("the table has moved on since this page was drawn; it reloads")
            actions = self.game.legal_actions(seat) if seat in self.game.deciding_players else []
            if not 0 <= index < len(actions):
                raise Refused("that is not one of your actions now")

            def move():
                self._apply(seat, actions[index], Refused, "refused: ")
                self.undo_ask = None   # a new decision answers an open question of undo: no
                self._bots_decide()
            # the rules stopping is one line for the seat and a notice on every page (it was a bare 500)
            self._attempt(move, "the move was taken back; the game is as it was before it")

    def _apply(self, seat: int, action, error, why: str) -> None:
        """Apply one decision and note which zones it changed, as a spectator sees them (nothing secret)."""
        before = self.seen if self.seen is not None else _public_zones(self.game)
        result = self.game.apply(action)
        if not result:
            raise error(why + str(result.reason))
        after = self.seen = _public_zones(self.game)
        changed = sorted(z for z in before.keys() | after.keys() if before.get(z) != after.get(z))
        self.recent = (self.recent + [(seat, changed)])[-RECENT:]
        self.decisions += 1

    def undo(self, seat: int, step: int) -> None:
        """Take back the seat's last decision and the bots' after it. Once another person has decided
        since, it is asked of them instead, and done when every one of them agrees (:meth:`agree`)."""
        with self.lock:
            self._current(step)
            last = self._last_of(seat)
            if self._others_since(seat, last):
                self.undo_ask = {"seat": seat, "agreed": set()}
                self.decisions += 1   # every page redraws and shows the question
                return
            self._attempt(lambda: self._take_back(last), "nothing was taken back")

    def agree(self, seat: int, step: int) -> None:
        """Agree to the undo another person asked for; the last agreement carries it out."""
        with self.lock:
            self._current(step)
            ask = self.undo_ask
            if ask is None or ask["seat"] == seat:
                raise Refused("nobody else asks to take a move back")
            ask["agreed"].add(seat)
            self.decisions += 1
            if ask["agreed"] >= set(self.humans) - {ask["seat"]}:
                self.undo_ask = None   # answered, whether or not the rules let it be done
                last = self._last_of(ask["seat"])
                self._attempt(lambda: self._take_back(last), "nothing was taken back")

    def decline(self, seat: int, step: int) -> None:
        """Refuse the undo another person asked for: the game goes on as it is."""
        with self.lock:
            self._current(step)
            if self.undo_ask is None or self.undo_ask["seat"] == seat:
                raise Refused("nobody else asks to take a move back")
            self.undo_ask = None
            self.decisions += 1

    def _current(self, step: int) -> None:
        if step != self.step:
            raise Refused("the table has moved on since this page was drawn; it reloads")
        if self.game.is_over:
            raise Refused("the game is over")

    def _last_of(self, seat: int) -> int:
        """The number of the seat's last decision (0: the first of the game)."""
        mine = [n for n, m in enumerate(decisions_of(self.game)) if m.get("player") == seat]
        if not mine:
            raise Refused("you have made no decision to take back")
        return mine[-1]

    def _others_since(self, seat: int, n: int) -> set:
        """The other people (not bots) who decided after decision ``n``."""
        return {m.get("player") for m in decisions_of(self.game)[n + 1:]} & (set(self.humans) - {seat})

    def _take_back(self, n: int) -> None:
        """The game played again from its seed with its first ``n`` decisions only (each checked)."""
        data = save_data(self.game)
        del data["state"]
        data["decisions"] = decisions_of(self.game)[:n]
        self.game = load_save(self.game.ruleset, data, "undo")
        self.recent, self.undo_ask, self.seen = [], None, None
        self.decisions += 1
        self._bots_decide()

    def rematch(self, seat: int, step: int | None = None) -> None:
        """A new game of the same ruleset at the same table (same links, same bots), dealt from the next seed."""
        with self.lock:
            if not self.game.is_over:
                raise Refused("the game is not over yet")
            old = self.game
            self._attempt(lambda: self._begin(Game(old.ruleset, old.num_players, seed=old.seed + 1)),
                          "no new game was begun", new_game=True)

    def restart(self, game, board_svg: str | None = None) -> None:
        """Begin ``game`` (same seats, same links, same bots): the ruleset was edited. If its rules stop
        before a person may decide, the game on the table goes on, and GameError says where they stopped."""
        with self.lock:
            if game.num_players != self.game.num_players:
                raise ValueError(f"the table has {self.game.num_players} seats, the new game {game.num_players}")

            def begin():
                self.board_svg = board_svg
                self._begin(game)
            try:
                self._attempt(begin, "the game goes on with the last good rules", new_game=True)
            except RulesStopped as exc:   # davit serve --watch reports it as an edit that cannot be played
                raise GameError(str(exc)) from None
            self.notice = None

    def _begin(self, game) -> None:
        """The new game on the table and the bots' first decisions (written down by :meth:`_attempt`)."""
        self.game = game
        self.games += 1
        self.decisions += 1   # every page sees a new step and redraws
        self.recent, self.undo_ask, self.seen = [], None, None
        self._bots_decide()

    def seat_state(self, seat: int, since: int = 0) -> dict:
        """What the page of ``seat`` shows: built from ``game.view(seat)`` only."""
        with self.lock:
            payload = seat_payload(self.game, seat, self.step, since,
                                   bots=set(range(self.game.num_players)) - set(self.humans))
            payload["game"] = self.games
            payload["notice"] = self.notice
            payload["humans"] = len(self.humans)
            moves = decisions_of(self.game) if not self.game.is_over else []
            last_mine = max((n for n, m in enumerate(moves) if m.get("player") == seat), default=None)
            payload["can_undo"] = last_mine is not None and self.undo_ask is None
            payload["undo_needs_yes"] = last_mine is not None and bool(self._others_since(seat, last_mine))
            ask = self.undo_ask
            payload["undo_asked"] = None if ask is None else {
                "by": self.game.player_name(ask["seat"]), "mine": ask["seat"] == seat,
                "agreed": sorted(self.game.player_name(s) for s in ask["agreed"]),
                "may_answer": ask["seat"] != seat and seat not in ask["agreed"]}
            payload["recent"] = _recent(self.recent, seat, self.game)
            return payload


def seat_payload(game, seat: int | None, step: int, since: int = 0, bots=()) -> dict:
    """What a page shows of ``game`` for ``seat`` (None: a spectator), from ``game.view(seat)`` only;
    the table part is the seat's status (:func:`interpreter.observe.status.status`), as at the terminal."""
    view = game.view(seat)
    names = [p["name"] for p in view["players"]]
    log = view["log"]
    since = max(0, min(since, len(log)))
    lines = [text for e in log[since:] if (text := event_text(game, e))]
    pending = view["pending"] or {}
    scores = game.scores
    shown = status(game, view)
    if shown["declared"]:
        public = dict(shown["vars"])
        values = {p["seat"]: dict(p["values"]) for p in shown["players"]}
    else:
        public = _scalars(view["vars"])
        values = {p["seat"]: _scalars(p["vars"]) for p in view["players"]}
    return {
        "ruleset": game.ruleset.name, "seat": seat, "you": names[seat] if seat is not None else None,
        "step": step, "over": view["over"], "winners": [names[s] for s in view["winners"]],
        "draw": view["draw"],
        # co-operative: the team's one score, and whether it reached the goal (None: the rules set none)
        "team": game.ruleset.team_var is not None,
        "team_won": bool(view["winners"]) if game.ruleset.team_var is not None and game.ruleset.win_if is not None
        else None,
        "phase": view["phase"], "vars": public,
        "players": [{"name": p["name"], "you": p["seat"] == seat, "out": p["out"],
                     "score": scores.get(p["seat"]), "vars": values[p["seat"]],
                     "bot": p["seat"] in bots} for p in view["players"]],
        "waiting_for": [names[s] for s in pending.get("deciding", [])],
        "question": pending.get("prompt") or pending.get("name"),
        "actions": [{"index": i, "label": action_label(a["label"])}
                    for i, a in enumerate(view["legal_actions"])],
        "zones": [_zone(z, names) for z in shown["zones"]],
        "log": lines, "log_size": len(log),
        "colours": seat_colours(names), "table": table_view(game, view, shown, seat, seat_colours(names)),
        "recent": [], "can_undo": False, "undo_needs_yes": False, "undo_asked": None, "notice": None,
    }


def told(game, exc: DavitError) -> str:
    """The rules' error as every page may read it: where they stopped, in their words, but with the name
    or id of each thing a spectator of ``game`` does not see put as its back (``cannot move NAME into ...``
    names the thing it moves, maybe a face-down card), and no words at all if they name a counter that not
    every seat sees (``red's gold would be -2``)."""
    try:
        view = game.view(None)
        seen = {t["id"] for z in view["zones"].values() for t in z["things"] if "id" in t}
    except DavitError:   # the rules stop while a spectator's view is made, too: every thing is put as its back
        seen = set()
    words = "; ".join((exc.message + (f" ({exc.hint})" if exc.hint else "")).splitlines())   # one line
    secret = [n for n, spec in game.ruleset.player_vars.items() if spec.visibility != "everyone"]
    if any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", words) for name in secret):
        words = "(its words name a counter not every seat sees)"
    backs = {word: t.back for tid, t in game.table.things.items() if tid not in seen
             for word in (t.name, t.id) if word}
    if backs:   # in one pass, the longest first: "a hidden card" is not read again for a thing named "card"
        either = "|".join(map(re.escape, sorted(backs, key=len, reverse=True)))
        words = re.sub(rf"(?<!\w)(?:{either})(?!\w)", lambda m: f"a hidden {backs[m.group(0)]}", words)
    return f"{exc.location}: {words}" if exc.location else words


def _public_zones(game) -> dict:
    """What anyone at the table sees in each zone: to tell which zones a decision changed."""
    return {zid: (z["count"], [t.get("id", t.get("back")) for t in z["things"]])
            for zid, z in game.view(None)["zones"].items()}


def _recent(recent: list, seat, game) -> list:
    """The zones changed by the decisions since ``seat``'s last one (and that one), newest last."""
    start = max((n for n, (who, _) in enumerate(recent) if who == seat), default=0)
    return [{"by": game.player_name(who), "zones": zones} for who, zones in recent[start:]]


def _scalars(values: dict) -> dict:
    return {k: v for k, v in values.items() if isinstance(v, (int, float, str, bool)) or v is None}


def _zone(z: dict, names: list) -> dict:
    if z["count_only"]:
        things = [str(z["count"])]
    else:
        things = grouped([text or f"a hidden {back or 'thing'}" for text, back in zip(z["things"], z["backs"])])
    owner = z["owner"]
    return {"id": z["id"], "name": z["name"], "owner": names[owner] if owner is not None else None,
            "mine": z["mine"], "count": z["count"], "things": things}
