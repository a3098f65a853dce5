"""Safe YAML reading that remembers where every value came from.

The tree is built from PyYAML's event stream with an explicit stack, so a
deeply nested file cannot raise ``RecursionError``; anchors and aliases are
refused (no alias bombs); file size and nesting depth are capped; duplicate
keys are errors. Mappings, sequences and strings come back as ``dict``,
``list`` and ``str`` subclasses that carry their :class:`Location`, so later
stages (schema checks, the DSL compiler) can point at the exact line.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from ..errors import LoadError, Location
from .limits import MAX_FILE_BYTES, MAX_INT_DIGITS
from .regular import NotRegular, TooLarge, read_capped
from .yaml_messages import nesting_message, plain_message, too_deep

MAX_DEPTH = 48
MAX_NODES = 25_000    # values in one file (the largest bundled file has about 3,000): parsing stays within seconds

# libyaml's parser gives the same events and marks as the pure-Python one and
# is 16-22x faster; PyYAML built without libyaml falls back to the Python one.
FAST_LOADER = getattr(yaml, "CSafeLoader", None)
LOADER = FAST_LOADER or yaml.SafeLoader


class LocMap(dict):
    """A YAML mapping; ``loc`` is where it starts, ``key_locs``/``value_locs`` per key."""

    __slots__ = ("loc", "key_locs", "value_locs")
    loc: Location
    key_locs: dict[Any, Location]    # a YAML key may be a number or a boolean too
    value_locs: dict[Any, Location]

    def __init__(self, loc: Location):
        super().__init__()
        self.loc = loc
        self.key_locs = {}
        self.value_locs = {}

    def loc_of(self, key) -> Location:
        return self.value_locs.get(key, self.loc)

    def key_loc(self, key) -> Location:
        return self.key_locs.get(key, self.loc)


class LocList(list):
    """A YAML sequence; ``locs[i]`` is where item ``i`` starts."""

    __slots__ = ("loc", "locs")
    loc: Location
    locs: list[Location]

    def __init__(self, loc: Location):
        super().__init__()
        self.loc = loc
        self.locs = []

    def loc_of(self, index: int) -> Location:
        return self.locs[index] if 0 <= index < len(self.locs) else self.loc


class LocStr(str):
    """A YAML string that knows where its text starts in the file.

    ``style`` is PyYAML's scalar style (``None`` plain, ``'"'``, ``"'"``,
    ``'|'``, ``'>'``); with ``content_line``/``content_col`` and ``indent`` it
    lets :func:`position_in_file` turn an offset in the string into a file
    position (used for DSL errors).
    """

    __slots__ = ("loc", "style", "content_line", "content_col", "indent", "line_starts", "folds")
    loc: Location
    style: str | None          # PyYAML's scalar style: None (plain), "'", '"', "|" or ">"
    content_line: int          # where the text itself starts (a block scalar's first content line)
    content_col: int
    indent: int
    line_starts: list | None
    folds: list | None

    def __new__(cls, value: str, loc: Location, style=None, content_line=None, content_col=None, indent=0,
                line_starts=None, folds=None):
        obj = super().__new__(cls, value)
        obj.loc = loc
        obj.style = style
        obj.content_line = content_line if content_line is not None else loc.line
        obj.content_col = content_col if content_col is not None else loc.column
        obj.indent = indent
        obj.line_starts = line_starts   # a multi-line plain or quoted scalar: see _flow_line_starts
        obj.folds = folds               # a folded (>) block scalar: see _folded_lines
        return obj

    def __reduce__(self):  # pickles (for worker processes) as a plain string
        return (str, (str(self),))


def position_in_file(text: str, line: int, column: int) -> Location:
    """Map a 1-based (line, column) inside ``text`` to a location in its YAML file.

    ``text`` should be a :class:`LocStr`; a plain string maps to itself.
    """
    if not isinstance(text, LocStr):
        return Location("<dsl>", line, column)
    file = text.loc.file
    if text.style == "|":
        return Location(file, text.content_line + line - 1, text.indent + column)
    if text.style == ">":
        return _in_folded(text, line, column)
    if line == 1:
        return Location(file, text.content_line, text.content_col + column - 1)
    # a multi-line plain or quoted scalar: where its line starts in the file, if that could be worked out
    starts = text.line_starts
    start = starts[line - 2] if starts is not None and line - 2 < len(starts) else None
    if start is None:
        return text.loc   # the scalar's start: coarse, never a wrong line
    return Location(file, start[0], start[1] + column - 1)


def _in_folded(text: LocStr, line: int, column: int) -> Location:
    """A position in a folded (>) block scalar: on the file line that holds that part of the text."""
    offset = 0
    for _ in range(line - 1):
        offset = text.find("\n", offset) + 1
        if offset == 0:
            return text.loc
    offset += column - 1
    found = None
    for start, file_line, file_col in text.folds or ():
        if start > offset:
            break
        found = (file_line, file_col + offset - start)
    return Location(text.loc.file, *found) if found else text.loc   # unknown: the scalar's start, never wrong


def _folded_lines(value: str, lines: list[str], first: int, indent: int):
    """(offset in ``value``, line, column) where each non-empty line of a folded (>) block scalar starts,
    or None when the lines cannot be found in the text in order.

    Folding joins lines with a space or a newline, so a line of the text may span several lines of the
    file. Rather than redo YAML's folding rules, each file line is looked for in the text where the last
    one ended, past the spaces and newlines folding left: an offset is only claimed where the text is
    there, so a position is never put on a wrong line. ``first`` is the 0-based line after the indicator.
    """
    folds = []
    at = 0
    for number in range(first, len(lines)):
        raw = lines[number]
        if not raw.strip():
            continue
        if len(raw) - len(raw.lstrip(" ")) < indent:
            break   # the scalar has ended
        content = raw[indent:]
        while at < len(value) and value[at] in " \n" and not value.startswith(content, at):
            at += 1
        if not value.startswith(content, at):
            return None
        folds.append((at, number + 1, indent + 1))
        at += len(content)
    return tuple(folds)


def _flow_line_starts(value: str, lines: list[str], first: int, last: int):
    """(line, column) in the file where each line after the first of a multi-line plain or quoted scalar
    starts, None for an empty one; None for all when the text cannot be told from the lines.

    In such a scalar a single line break folds into a space and each empty line is one newline, so the
    lines of the text start at the first non-empty line after a run of empty ones. An escape such as
    ``\\n`` in double quotes breaks that count; then nothing is claimed. ``first`` and ``last`` are the
    scalar's first and last lines, 0-based.
    """
    starts: list = []
    after_blank = False
    for i in range(first + 1, min(last, len(lines) - 1) + 1):
        raw = lines[i]
        body = raw.lstrip()
        if not body.strip():
            starts.append(None)
            after_blank = True
            continue
        if after_blank:
            starts[-1] = (i + 1, len(raw) - len(body) + 1)
            after_blank = False
    return tuple(starts) if len(starts) == value.count("\n") else None


def located(value, default: Location | None) -> Location | None:
    """The location a value carries, or ``default`` for plain scalars."""
    return getattr(value, "loc", None) or default


_resolver = Resolver()
_constructor = SafeConstructor()
_SCALAR_TAGS = {
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:str",
}


def _location(file: str, mark) -> Location:
    return Location(file, mark.line + 1, mark.column + 1)


def _scalar(file: str, event, lines: list[str]):
    loc = _location(file, event.start_mark)
    tag = event.tag
    if tag is None or tag == "!":
        tag = _resolver.resolve(ScalarNode, event.value, event.implicit)
    if tag not in _SCALAR_TAGS:
        if tag.startswith("tag:yaml.org,2002:") and tag.rsplit(":", 1)[1] in ("timestamp", "binary"):
            tag = "tag:yaml.org,2002:str"  # keep dates and the like as text
        else:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise LoadError(f"unsupported YAML tag {shown!r}; rulesets hold plain data only", loc)
    if tag == "tag:yaml.org,2002:int" and len(event.value) > MAX_INT_DIGITS + 4:
        raise LoadError(f"a number of {len(event.value)} characters is too long (at most {MAX_INT_DIGITS} digits)",
                        loc)
    if tag != "tag:yaml.org,2002:str":
        value = _constructor.construct_object(ScalarNode(tag, event.value, event.start_mark, event.end_mark))
        if value.__class__ is float and not math.isfinite(value):
            # .nan passed every range check (nan > 0 is false, and so is nan <= 0), and .inf or 1.0e+400
            # became a game's score or a bot's scale far from the line that wrote it
            raise LoadError(f"{event.value} is not a finite number (YAML reads it as {value}): write a number "
                            "such as 1.5", loc)
        return value
    style = event.style or None  # libyaml says '' for a plain scalar, PyYAML None
    if style in ("|", ">"):
        # Block scalars: the text starts on the line after the indicator, at
        # the indentation of its first non-blank line.
        first = event.start_mark.line + 1
        indent = 0
        for raw in lines[first:]:
            if raw.strip():
                indent = len(raw) - len(raw.lstrip(" "))
                break
        folds = _folded_lines(event.value, lines, first, indent) if style == ">" else None
        return LocStr(event.value, loc, style, content_line=first + 1, content_col=indent + 1, indent=indent,
                      folds=folds)
    col = loc.column + (1 if style in ('"', "'") else 0)
    starts = None
    if "\n" in event.value:
        starts = _flow_line_starts(event.value, lines, event.start_mark.line, event.end_mark.line)
    return LocStr(event.value, loc, style, content_line=loc.line, content_col=col, indent=loc.column - 1,
                  line_starts=starts)


_SCALAR_EVENT = yaml.ScalarEvent
_NO_VALUE, _DOCUMENT_START = object(), object()
_OPENINGS = ((yaml.MappingStartEvent, LocMap, "tag:yaml.org,2002:map"),
             (yaml.SequenceStartEvent, LocList, "tag:yaml.org,2002:seq"))


def _structure(event, file: str, stack: list, lines: list):
    """What an event other than a plain scalar does: opens a container (``_NO_VALUE``), closes one (its
    value), starts a document (``_DOCUMENT_START``: the caller counts them), or is refused."""
    if isinstance(event, yaml.AliasEvent):
        raise LoadError("YAML aliases (*name) are not allowed; use `include` or a variant instead",
                        _location(file, event.start_mark))
    anchor = getattr(event, "anchor", None)
    if anchor is not None:
        raise LoadError(f"YAML anchors (&{anchor}) are not allowed; use `include` or a variant instead",
                        _location(file, event.start_mark))
    if isinstance(event, yaml.DocumentStartEvent):
        return _DOCUMENT_START
    if isinstance(event, (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent)):
        return _NO_VALUE
    if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
        return stack.pop()[0]
    for opening, container, tag in _OPENINGS:
        if isinstance(event, opening):
            if len(stack) >= MAX_DEPTH:
                raise LoadError(nesting_message(MAX_DEPTH), _location(file, event.start_mark))
            if event.tag not in (None, "!", tag):
                raise LoadError(f"unsupported YAML tag {event.tag!r}", _location(file, event.start_mark))
            stack.append([container(_location(file, event.start_mark)), None, None])
            return _NO_VALUE
    return _scalar(file, event, lines)   # a scalar of another class (a loader's own events)


def parse_yaml(text: str, file: str = "<string>", loader=None):
    """Parse one YAML document from ``text`` into located plain data.

    ``loader`` is a PyYAML loader class (default: libyaml's when present).
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise LoadError(f"file is larger than {MAX_FILE_BYTES} bytes", Location(file))
    lines = text.splitlines()
    stack: list = []  # open containers: [container, pending_key or None]
    root = None
    documents = 0
    nodes = 0
    try:
        for event in yaml.parse(text, Loader=loader or LOADER):
            nodes += 1
            if nodes > 2 * MAX_NODES:   # a start and an end event per container, one per plain value
                raise LoadError(f"more than {MAX_NODES} values in one file", _location(file, event.start_mark))
            if event.__class__ is _SCALAR_EVENT and event.anchor is None:   # most events: tested by class first
                value = _scalar(file, event, lines)
            else:
                value = _structure(event, file, stack, lines)
                if value is _NO_VALUE:
                    continue
                if value is _DOCUMENT_START:
                    documents += 1
                    if documents > 1:
                        raise LoadError("a file holds one YAML document; found a second one",
                                        _location(file, event.start_mark))
                    continue
            loc = getattr(value, "loc", None) or _location(file, event.start_mark)
            if not stack:
                root = value
                continue
            top = stack[-1]
            container = top[0]
            if container.__class__ is LocList:
                container.append(value)
                container.locs.append(loc)
            elif top[1] is None and top[2] is None:
                # A key: only plain scalars may be keys.
                if isinstance(value, (LocMap, LocList)):
                    raise LoadError("mapping keys must be plain values", loc)
                key = value if value is not None else "null"
                if isinstance(key, str):
                    key = str(key)
                if key in container:
                    raise LoadError(f"duplicate key {key!r} (first at line {container.key_locs[key].line})", loc)
                top[1] = key
                top[2] = loc
            else:
                key = top[1]
                container[key] = value
                container.key_locs[key] = top[2]
                container.value_locs[key] = loc
                top[1] = None
                top[2] = None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if too_deep(exc.problem):
            raise _too_deep(text, file, mark, loader or LOADER) from None
        message = plain_message(exc.problem, exc.context, exc.context_mark)
        raise LoadError(f"YAML syntax error: {message}", _location(file, mark) if mark else Location(file)) from None
    except yaml.YAMLError as exc:
        raise LoadError(f"YAML error: {exc}", Location(file)) from None
    except RecursionError:
        raise LoadError("YAML nesting is too deep", Location(file)) from None
    return root


def _too_deep(text: str, file: str, mark, loader) -> LoadError:
    """libyaml refused the nesting while scanning ahead, past davit's own limit: the pure-Python parser,
    which reads event by event, finds where davit's limit is crossed, so the message and its place are
    the same whichever parser PyYAML has."""
    where = _location(file, mark) if mark else Location(file)
    if loader is not yaml.SafeLoader:
        try:
            parse_yaml(text, file, loader=yaml.SafeLoader)
        except LoadError as exc:
            if exc.message == nesting_message(MAX_DEPTH):
                return exc
    return LoadError(nesting_message(MAX_DEPTH), where)


def load_yaml_file(path: str | Path, display: str | None = None):
    """Read and parse a YAML file; errors name ``display`` (default: the path).

    Only a regular file is read (a device, FIFO or socket is refused, and a FIFO cannot block the open), and
    never more than :data:`MAX_FILE_BYTES`, whatever its size seemed (:mod:`interpreter.load.regular`).
    """
    path = Path(path)
    name = display or str(path)
    try:
        raw = read_capped(path, MAX_FILE_BYTES)
    except TooLarge:
        raise LoadError(f"file is larger than {MAX_FILE_BYTES} bytes", Location(name)) from None
    except NotRegular as exc:
        raise LoadError(f"cannot read file: it is {exc.kind}, not a regular file", Location(name)) from None
    except OSError as exc:
        raise LoadError(f"cannot read file: {exc.strerror or exc}", Location(name)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise LoadError("file is not valid UTF-8", Location(name, line, col)) from None
    return parse_yaml(text, name)


def plain(value):
    """Strip locations: the same data as ordinary dicts, lists and strings."""
    cls = value.__class__
    if cls is LocStr:   # the commonest first, by class: a cold validate strips 90,000 values
        return str(value)
    if cls in _PLAIN_SCALARS:
        return value
    if isinstance(value, dict):
        return {str(k) if isinstance(k, str) else k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


_PLAIN_SCALARS = frozenset({str, int, float, bool, type(None)})
# the classes of a tree's leaves, for walks that skip them by class (nothing subclasses LocStr)
SCALAR_CLASSES = _PLAIN_SCALARS | {LocStr}
