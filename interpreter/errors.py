"""One exception root for everything davit reports to a user.

Every error carries a :class:`Location` so that it can be shown as
``file:line:col: message``; stages subclass :class:`DavitError` so callers can
tell a broken YAML file from a broken DSL snippet or a runaway game.
"""
from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Location:
    """A point in a source file; line and column are 1-based."""

    file: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class DavitError(Exception):
    """Root of every error davit reports; ``str()`` gives ``file:line:col: message``."""

    code = "error"
    severity = "error"

    def __init__(self, message: str, location: Location | None = None, hint: str | None = None,
                 code: str | None = None, severity: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = hint
        if code is not None:
            self.code = code
        if severity is not None:
            self.severity = severity

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}" if self.location else self.message
        if self.hint:
            text += f" ({self.hint})"
        return text


class LoadError(DavitError):
    """A file could not be read or parsed as safe YAML/JSON."""
    code = "load"


class SchemaError(DavitError):
    """A file does not match the JSON Schema of its kind."""
    code = "schema"
    # set by load/schema_messages.py on the findings it words, to merge and order them (absent until set)
    at: tuple
    wrong_type: bool
    key_of: tuple
    node_id: int
    suggests: tuple
    missing: tuple


class DslError(DavitError):
    """A DSL snippet is malformed or names something unknown."""
    code = "dsl"


class RulesetError(DavitError):
    """The ruleset is inconsistent (unknown reference, duplicate id, ...)."""
    code = "rules"


class ScenarioError(DavitError):
    """A scenario file is malformed or its expectation failed."""
    code = "scenario"


class GameError(DavitError):
    """The game reached an impossible point while running (a rules bug)."""
    code = "runtime"


class RunawayGameError(GameError):
    """The step guard stopped a game that did not end."""


class SaveError(DavitError):
    """A saved game cannot be restored."""


class Findings(DavitError):
    """Several errors found at once; ``errors`` holds each of them."""

    def __init__(self, errors: Sequence[DavitError]):
        errors = sorted(errors, key=_sort_key)
        super().__init__("\n".join(str(e) for e in errors), None)
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


def _sort_key(error: DavitError):
    loc = error.location
    return (loc.file, loc.line, loc.column) if loc else ("", 0, 0)


def raise_all(errors: Sequence[DavitError]) -> None:
    """Raise the errors collected by a stage, if there are any."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise Findings(errors)


def did_you_mean(name: str, candidates) -> str | None:
    """A hint naming the closest known name, if one is close."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.7)
    return f"did you mean '{close[0]}'?" if close else None


# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates (which can
# make a line read otherwise than it is): a ruleset's names and texts must not drive the terminal
_UNPRINTABLE = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x09), *range(0x0b, 0x20), *range(0x7f, 0xa0)]}
_UNPRINTABLE.update({c: f"\\u{c:04x}" for c in [0x061c, 0x200e, 0x200f, *range(0x202a, 0x202f),
                                                  *range(0x2066, 0x206a)]})


def printable(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``), for the terminal: a name
    holding ``\\x1b[2J`` shows those characters instead of clearing the screen. Newlines and tabs stay;
    the result has no control character left, so escaping it again changes nothing."""
    return text.translate(_UNPRINTABLE)


class PrintableStream:
    """A text stream that writes everything through :func:`printable` (``davit``'s standard output)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(printable(text))

    def __getattr__(self, name):   # flush, isatty, fileno, encoding, buffer... as the stream has them
        return getattr(self.stream, name)
