"""``davit serve --watch``: a new game at the same table whenever the ruleset's files change.

A designer edits the YAML and sees the result in the open pages: the seats keep
their links, the game starts again with the reloaded rules. A ruleset that no
longer loads, or whose rules stop before a person may decide (a bot's first
decision meets a division by zero), leaves the running game as it is and
reports its errors.
"""
from __future__ import annotations

import threading

from ..errors import DavitError
from ..load.files import resolve_ruleset
from ..rules import loading


class RulesetWatcher:
    """Polls the modification times of the ruleset's YAML files; calls back with the reloaded ruleset."""

    def __init__(self, ref: str, variant: str | None, on_change, on_error, interval: float = 1.0):
        ruleset_file, _ = resolve_ruleset(str(ref))
        self.folder = ruleset_file.resolve().parent
        self.ref, self.variant = ref, variant
        self.on_change, self.on_error, self.interval = on_change, on_error, interval
        self.stopped = threading.Event()
        self.seen = self._times()
        self.thread = threading.Thread(target=self._run, daemon=True, name="davit-watch")

    def _times(self) -> dict:
        times = {}
        for path in sorted(self.folder.rglob("*.yaml")):
            try:
                times[path] = path.stat().st_mtime_ns
            except OSError:   # removed between listing and reading
                continue
        return times

    def check(self) -> bool:
        """Reload if a file changed since the last check; True when a new ruleset was handed on."""
        now = self._times()
        if now == self.seen:
            return False
        self.seen = now
        loading._load.cache_clear()   # load_ruleset caches by path; these files are new
        try:
            ruleset = loading.load_ruleset(self.ref, self.variant)
        except DavitError as exc:
            self.on_error(str(exc))
            return False
        try:
            self.on_change(ruleset)
        except DavitError as exc:   # the new rules stopped before a person could decide: reported, still watched
            self.on_error(str(exc))
            return False
        return True

    def _run(self) -> None:
        while not self.stopped.wait(self.interval):
            self.check()

    def start(self) -> RulesetWatcher:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=max(1.0, 3 * self.interval))

