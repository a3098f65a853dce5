"""YAML syntax errors in plain words, the same whichever parser (libyaml or PyYAML) found them.

Parsers describe what their grammar expected (``expected <block end>, but
found '?'``); a designer wants to know what is probably wrong with the line.
``plain_message`` maps each known problem to a sentence and keeps the raw
text only for problems it does not know.
"""
from __future__ import annotations

# libyaml (0.2.5 and later, the C parser PyYAML uses when it has it) refuses nesting past its own limit
# while it scans ahead, before davit's smaller limit is reached event by event
LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"


def nesting_message(levels: int) -> str:
    """davit's one message for a file nested too deep, whichever parser noticed it."""
    return f"nesting deeper than {levels} levels"


def too_deep(problem: str | None) -> bool:
    """Whether a parser's ``problem`` is libyaml's refusal of deep nesting (not a syntax error)."""
    return LIBYAML_TOO_DEEP in (problem or "")


def _opened(context_mark) -> str:
    if context_mark is None:
        return ""
    return f" that starts at line {context_mark.line + 1}, column {context_mark.column + 1}"


def plain_message(problem: str | None, context: str | None, context_mark=None) -> str:
    """A designer's sentence for a PyYAML/libyaml ``problem`` raised ``context``."""
    problem = problem or ""
    context = context or ""
    opened = _opened(context_mark)
    if "mapping values are not allowed" in problem:
        return ("a ':' where no key can start: put quotes around text that contains ': ', "
                "or check the indentation of this line")
    if "flow mapping" in context or "',' or '}'" in problem:
        return f"a '{{ ... }}' mapping{opened} is missing a ',' between its entries or its closing '}}'"
    if "flow sequence" in context or "',' or ']'" in problem:
        return f"a '[ ... ]' list{opened} is missing a ',' between its items or its closing ']'"
    if "block mapping" in context:
        return (f"this line is indented differently from the keys above it (the mapping{opened}): "
                "keys of one mapping must start in the same column")
    if "block collection" in context or "'-' indicator" in problem:
        return (f"this line does not fit the list{opened}: every item of a list starts with '- ' "
                "in the same column, and a key cannot follow a list at the same indentation")
    if "cannot start any token" in problem:
        return "a character that cannot start a value here (a tab? YAML indents with spaces only)"
    if "quoted scalar" in context and "end of stream" in problem:
        return f"a quoted text{opened} is never closed: add the closing quote"
    if "quoted scalar" in context:
        return f"in the quoted text{opened}: {problem} (inside double quotes, write a backslash as \\\\)"
    if "could not find expected ':'" in problem or "simple key" in context:
        return f"a key without ':'{opened}: each line of a mapping is `key: value`"
    if "block scalar" in context:
        return f"the '|' or '>' text block{opened} is malformed: {problem}"
    text = problem or context or "unreadable YAML"
    return f"{text} ({context}{opened})" if context and problem else text


def source_excerpt(file: str, line: int, column: int) -> list[str]:
    """The source line and a caret under ``column`` (two lines), or nothing if the file cannot be read."""
    from .limits import MAX_FILE_BYTES
    from .regular import read_capped
    try:
        lines = read_capped(file, MAX_FILE_BYTES).decode("utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return []   # a FIFO, a device, a file grown too large since: no excerpt
    if not 1 <= line <= len(lines):
        return []
    text = lines[line - 1].rstrip("\r").replace("\t", " ")
    return [f"    {text}", "    " + " " * max(column - 1, 0) + "^"]
