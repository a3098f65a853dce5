"""One game driven token by token: what both adapters (PettingZoo, OpenSpiel) share.

The acting seat is the first of ``game.deciding_players``; in a simultaneous
decision the seats act one after the other, and each commitment stays
private (the engine keeps commits hidden until every seat has chosen). While
a seat spells an action (see :mod:`interpreter.rl.catalogue`) it stays the
acting seat; the action is applied when its last token is chosen.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..errors import RunawayGameError
from ..machine.waits import CHOOSE
from ..play import decisions, views
from ..play.game import Game
from .catalogue import Catalogue, CatalogueError
from .incremental import Following
from .state_encoding import state_encoder

REWARDS = ("win", "score")


@lru_cache(maxsize=32)
def catalogue_for(ruleset, players: int) -> Catalogue:
    return Catalogue(ruleset, players)


class Replay:
    """A pickled session: the OpenSpiel actions (tokens and chance outcomes) to play again from the start."""

    def __init__(self, history, fingerprint=None):
        self.history = list(history)
        self.fingerprint = fingerprint   # the rules it was played with


class Session:
    """A :class:`Game` plus the partly spelt action of the acting seat."""

    def __init__(self, ruleset, players: int, seed: int = 0, record: bool = False, reward: str = "win",
                 start: Game | None = None):
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.ruleset = ruleset
        self.players = players
        self.record = record
        self.reward = reward
        self.catalogue = catalogue_for(ruleset, players)
        # encoder -> its Following of this session's games (observation()): kept across games, as a new game
        # of the same table differs from the last one's end in part only
        self._following: dict = {}
        self.reset(seed, start)

    def reset(self, seed: int, start: Game | None = None) -> None:
        """A new game with ``seed``; ``start``: a game just set up with that seed, to clone (setting up is slow)."""
        self.game = start.clone() if start is not None else Game(self.ruleset, self.players, seed=seed,
                                                                 record=self.record)
        self.prefix: list[int] = []
        self.truncated = False
        self._seen: dict = {}   # seat -> (view, encoding) of the current state: observers ask many times
        self._spelt: dict = {}  # seat -> (sequences -> action, prefix -> next tokens) for the current decision
        # what an OpenSpiel state answered at this position (current player, legal ids, returns), once the
        # session is frozen (no one changes it any more): solvers ask each state many times
        self.memo: dict = {}

    def clone(self) -> Session:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.frozen = False
        other.history = None
        other.__dict__.pop("_strings", None)   # the observer's strings of this position (openspiel.py)
        other.memo = {}
        other.game = self.game.clone()
        other.prefix = list(self.prefix)
        other._spelt = dict(self._spelt)
        # the encodings are the Following's arrays, changed in place as this session goes on: not shared
        other._seen = {seat: (view, None) for seat, (view, _) in self._seen.items()}
        other._following = {}
        return other

    frozen = False   # a session no one changes any more (the OpenSpiel adapter's): copies share it
    history: list | None = None   # the OpenSpiel actions that led to a frozen session, for pickling

    def __reduce__(self):
        # OpenSpiel serialises a Python state by pickling its attributes: a session goes as its history
        if self.history is None:
            raise TypeError("only a session of the OpenSpiel adapter (which knows its history) can be pickled")
        return (Replay, (list(self.history), self.ruleset.fingerprint))

    def __deepcopy__(self, memo):
        # OpenSpiel clones a Python state by deep-copying its attributes: share the ruleset, copy the game
        return self if self.frozen else self.clone()

    @property
    def over(self) -> bool:
        return self.game.is_over or self.truncated

    def acting(self) -> int | None:
        """The seat whose token comes next (None when the game is over)."""
        st = self.game.state   # read directly: asked several times a step, through properties it cost more
        if st.over or self.truncated:
            return None
        return decisions.deciding(st.pending)[0]

    def legal_tokens(self, seat: int | None = None) -> list[int]:
        """The ids ``seat`` (default: the acting seat) may choose next.

        A seat that decides at the same time as the acting one (a simultaneous
        decision) gets the ids it could start its action with: it will choose
        when its turn in the AEC order comes.
        """
        return list(self._next_tokens(seat))

    def _next_tokens(self, seat: int | None):
        """``legal_tokens`` without the copy: the list kept for the decision (do not change it)."""
        acting = self.acting()
        if acting is None:
            return ()
        if seat is None or seat == acting:
            return self._spellings(acting)[1].get(tuple(self.prefix), ())
        if seat not in self.game.deciding_players:
            return ()
        return self._spellings(seat)[1].get((), ())

    def legal_mask(self, seat: int):
        """``legal_tokens(seat)`` as an int8 array over the catalogue, 1 at each legal id: kept for the decision,
        so copy it before changing it."""
        acting = self.acting()
        if acting is None or (seat != acting and seat not in self.game.deciding_players):
            return np.zeros(self.catalogue.size, np.int8)
        prefix = tuple(self.prefix) if seat == acting else ()
        spelt = self._spellings(seat)
        found = spelt[2].get(prefix)
        if found is None:
            found = spelt[2][prefix] = np.zeros(self.catalogue.size, np.int8)
            ids = spelt[1].get(prefix)
            if ids:
                found[ids] = 1
        return found

    def _spellings(self, seat: int):
        found = self._spelt.get(seat)
        if found is not None:
            return found
        sequences: dict = {}
        for index, action in enumerate(self.game.legal_actions(seat)):
            # "choose" is reserved: no action of a ruleset has that id; a choice lists its options in order
            seq = (self.catalogue.spell_choice(action.arg("option"), index) if action.name == CHOOSE
                   else self.catalogue.spell(action))
            if len(seq) > self.catalogue.max_length:   # the bound the OpenSpiel game declares rests on it
                raise CatalogueError(f"{action} is spelt in {len(seq)} ids, more than the catalogue's bound "
                                     f"of {self.catalogue.max_length}")
            if seq in sequences and sequences[seq] != action:
                raise CatalogueError(f"two legal actions get the same ids: {sequences[seq]} and {action}")
            sequences[seq] = action
        # the ids that may follow each prefix, sorted once per decision: the mask, the check of a step and
        # OpenSpiel all ask for them
        following: dict = {}
        if set(map(len, sequences)) == {1}:   # most decisions: every action one id (distinct, above)
            following[()] = sorted(seq[0] for seq in sequences)
        else:
            for seq in sequences:
                for k in range(len(seq)):
                    following.setdefault(seq[:k], set()).add(seq[k])
            following = {prefix: sorted(tokens) for prefix, tokens in following.items()}
        self._spelt[seat] = (sequences, following, {})   # and the masks made, by prefix (legal_mask)
        return self._spelt[seat]

    def step(self, token: int) -> None:
        """Choose the next token of the acting seat's action; the action is applied when complete."""
        acting = self.acting()
        if acting is None or token not in self._spellings(acting)[1].get(tuple(self.prefix), ()):
            raise ValueError(f"action id {token!r} is not legal now (legal: {self.legal_tokens()[:20]})")
        self.prefix.append(int(token))
        self._seen = {}
        action = self._spellings(acting)[0].get(tuple(self.prefix))
        if action is None:
            return
        self.prefix = []
        self._spelt = {}
        try:
            self._act(action)
        except RunawayGameError:
            # the ruleset's limits.max_steps: the game is cut short (truncation)
            self.truncated = True

    def _act(self, action) -> None:
        """Play a complete, legal action (a session with explicit chance plays it up to its chance event)."""
        # one of the actions the game listed for this very position (the spellings are made again after every
        # action): legal, so carried out unchecked, as the engine's own playout loop does
        self.game.carry_out_legal(action)

    def view(self, seat: int | None, legal: bool = False) -> dict:
        """``game.view(seat)`` without the event log, kept until the next step (do not change it). Its legal
        actions are left out (the encoder never reads them; labelling them was a third of a view) unless
        ``legal``: that view is made afresh each time."""
        if legal:
            return self._view(seat, True)
        view, encoded = self._seen.get(seat, (None, None))
        if view is None:
            view = self._view(seat, False)
            self._seen[seat] = (view, encoded)
        return view

    def _view(self, seat: int | None, legal: bool) -> dict:
        game = self.game
        log, game.log = game.log, []   # redacting the whole log at every step is the slow part
        try:
            view = views.view(game, seat, legal=legal)
        finally:
            game.log = log
        view.pop("log", None)
        return view

    def observation(self, seat: int, encoder):
        """The seat's encoded view (numpy array, kept until the next step and then changed in place: copy it
        to keep or change it), read from the game's state as the encoder would read ``view(seat)``. A session
        that goes on follows the game's changes (:mod:`interpreter.rl.incremental`); a frozen one (a state of
        the OpenSpiel adapter, asked once) encodes it whole."""
        view, encoded = self._seen.get(seat, (None, None))
        if encoded is None:
            partial = self.prefix if self.acting() == seat else ()
            if self.frozen:
                encoded = state_encoder(encoder).encode(self.game, seat, partial)
            else:
                following = self._following.get(encoder)
                if following is None:
                    following = self._following[encoder] = Following(state_encoder(encoder))
                encoded = following.encode(self.game, seat, partial)
            self._seen[seat] = (view, encoded)
        return encoded

    def returns(self) -> list[float]:
        """Each seat's reward at the end (see docs/rl.md): ``reward="win"`` the game's payoffs
        (``Game.payoffs``), ``"score"`` the final scores; zeros while playing and after truncation."""
        n = self.players
        if not self.game.is_over:
            return [0.0] * n
        if self.reward == "score":
            scores = self.game.scores
            return [float(scores[s]) for s in range(n)]
        # the ruleset's payoffs (scoring.payoffs): by default +1 a win, 0 a draw, -1 a loss
        return [float(x) for x in self.game.payoffs]
