"""Schema violations in davit's words, each at the line it is about.

jsonschema describes a violation in its own terms (``True is not of type
'string'``, ``... is not valid under any of the given schemas``) and shows
values as Python writes them. A designer wants to know which key is wrong
and how to fix it, so :func:`findings` turns each violation into a plain
sentence: an unknown key gets a "did you mean" (also inside the
alternatives of ``anyOf``/``oneOf``/``if``: the alternative the value was
meant to be is worked out first), a YAML boolean, number or null where a DSL
snippet or text is expected says how YAML read it and to write it in quotes,
and values are shown as YAML writes them.
"""
from __future__ import annotations

import json
import linecache
import re
from functools import cache

import yaml

from ..errors import Location, SchemaError, did_you_mean
from .schema_refs import inline_refs
from .yaml_reader import LocList, LocMap

# what a value of a schema definition is, in words (matched by content: the same definition wherever it is used)
NAMED = {
    "dsl_expression": "a DSL expression",
    "dsl_condition": "a DSL condition",
    "dsl_statements": "DSL statements",
    "text": "text",
    "scalar": "a single value (text, a number or true/false)",
}
SNIPPETS = {"a DSL expression", "a DSL condition", "DSL statements"}
# patterns whose schema gives no description of its own
PATTERN_WORDS = {"^[1-9][0-9]*$": "a player count: a whole number, 1 or more"}
TYPE_WORDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping (`key: value` lines)",
    "null": "nothing (null)",
}


@cache
def _named_definitions() -> dict:
    from .files import schemas_dir
    named = {}
    for path in sorted(schemas_dir().glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        # as written, and as the checker sees it with its references written out (schema_check.inline_refs)
        for definitions in (schema.get("definitions", {}), inline_refs(schema, path.name).get("definitions", {})):
            for name, words in NAMED.items():
                if name in definitions:
                    named[_key(definitions[name])] = words
    return named


def _key(schema) -> str:
    return json.dumps(schema, sort_keys=True)


# --- where, and the value ---------------------------------------------------------------

def locate(root, path, fallback: Location) -> tuple[Location, object]:
    """The location of the value at ``path`` (and the value)."""
    node, loc = root, getattr(root, "loc", fallback)
    for part in path:
        if isinstance(node, LocMap) and part in node:
            loc = node.loc_of(part)
            node = node[part]
        elif isinstance(node, LocList) and isinstance(part, int) and part < len(node):
            loc = node.loc_of(part)
            node = node[part]
        else:
            break
    return loc, node


def path_text(path) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _prefix(path) -> str:
    return f"{path_text(path)}: " if path else ""


def _named(path) -> tuple[str, str]:
    """(prefix, subject): the value at ``path`` as the subject of a sentence, by its whole path
    (```flow[0].while` needs ...``), or the file."""
    return "", f"`{path_text(path)}`" if path else "the file"


def show(value) -> str:
    """A value as YAML writes it (never a Python repr)."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        text = str(value)
        return "'" + (text if len(text) <= 40 else text[:37] + "...") + "'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "this value"


def _raw(loc: Location | None, value) -> str:
    """The scalar as it is written in the file (`yes` for a boolean YAML read from `yes`), else as YAML
    writes the value."""
    default = show(value)
    if loc is None or not loc.line or not loc.column:
        return default
    linecache.checkcache(loc.file)
    line = linecache.getline(loc.file, loc.line)
    # * matches at worst ""
    token = re.match(r"[^,}\]#\n]*", line[loc.column - 1:]).group(0).strip() if line else ""  # type: ignore[union-attr]
    try:
        same = token and type(yaml.safe_load(token)) is type(value) and yaml.safe_load(token) == value
    except yaml.YAMLError:
        same = False
    return token if same else default   # the file changed since, or the value is not this token


def _read_as(value, raw: str) -> str:
    """How YAML read a value that was meant as something else."""
    if isinstance(value, bool):
        shown = show(value)
        return f"YAML read {raw} as a boolean" + ("" if raw.lower() == shown else f" ({shown})")
    if isinstance(value, (int, float)):
        return f"YAML read {raw} as a number"
    if value is None:
        return "YAML read an empty value (null)" if raw in ("null", "") else f"YAML read {raw} as null"
    if isinstance(value, str):
        return f"it is the text {show(value)}"
    if isinstance(value, list):
        return "it is a list"
    if isinstance(value, dict):
        return "it is a mapping"
    return "it is something else"


# --- the violations ---------------------------------------------------------------------

def findings(error, data, fallback: Location) -> list[SchemaError]:
    """The findings for one violation jsonschema reported (``iter_errors``), in davit's words."""
    out = _explain(error, data, fallback)
    for finding in out:
        if not hasattr(finding, "at"):
            finding.at = tuple(error.absolute_path)
    return out


def _explain(error, data, fallback) -> list[SchemaError]:
    if error.validator in ("anyOf", "oneOf") and error.context:
        kinds = alternative_keys(error)
        if kinds and isinstance(error.instance, dict):
            said, branch = _one_kind(error, kinds, data, fallback)
            if said is not None:
                return said
        else:
            branch = _best_branch(error)
        if branch is None:
            return [_wrong_type(error, data, fallback)]
        out = []
        for sub in error.context:
            if sub.relative_schema_path[0] == branch:
                out.extend(_explain(sub, data, fallback))
        return out
    return _leaf(error, data, fallback)


def alternative_keys(error) -> list:
    """For a oneOf/anyOf whose alternatives are told apart by a key (the first one each
    requires: `do`, `phase`, `act`, ...), those keys."""
    if error.validator not in ("oneOf", "anyOf") or not isinstance(error.validator_value, list):
        return []
    keys = []
    for alternative in error.validator_value:
        required = alternative.get("required") if isinstance(alternative, dict) else None
        if not required or required[0] in keys:
            return []
        keys.append(required[0])
    return keys


def _one_kind(error, kinds, data, fallback):
    """A mapping that must have exactly one of ``kinds`` (a flow step, a scenario step): said in those
    words. Returns (findings, None), or (None, the alternative to explain further)."""
    path = list(error.absolute_path)
    loc, node = locate(data, path, fallback)
    node = node if isinstance(node, LocMap) else error.instance
    prefix = _prefix(path)
    unknown = [k for k in node if k not in error.schema.get("properties", {})]
    present = [k for k in kinds if k in node]
    if unknown and error.schema.get("additionalProperties") is False:
        # the mapping's own check reports each unknown key; they get this hint
        return [_Hint(id(node), f"expected one of: {', '.join(kinds)}")], None
    if len(present) > 1:
        return [SchemaError(f"{prefix}has more than one of {', '.join(present)}; use exactly one",
                            getattr(node, "loc", loc))], None
    if not present:
        return [SchemaError(f"{prefix}needs one of: {', '.join(kinds)}", getattr(node, "loc", loc))], None
    kind = present[0]
    branch = error.validator_value[kinds.index(kind)]
    allowed = (branch.get("propertyNames") or {}).get("enum")
    said = []
    key_loc = node.key_loc if isinstance(node, LocMap) else (lambda key: loc)
    for key in node:
        if allowed and key not in allowed:
            said.append(SchemaError(f"{prefix}'{key}' does not go with '{kind}' "
                                    f"(allowed with it: {', '.join(allowed)})", key_loc(key)))
    for key in branch.get("required", []):
        if key not in node:
            said.append(SchemaError(f"{prefix}'{kind}' needs '{key}'", key_loc(kind)))
    return (said, None) if said else (None, kinds.index(kind))


class _Hint(SchemaError):
    """Not a finding: a hint for the unknown keys of the mapping ``node_id`` (see :func:`tidy`)."""

    def __init__(self, node_id: int, hint: str):
        super().__init__("", None, hint)
        self.node_id = node_id


def _at_top(sub) -> bool:
    return not sub.relative_path


def _best_branch(error):
    """The alternative of an anyOf/oneOf the value was most likely meant to be: one of its type, missing
    the fewest required keys, with the fewest errors. None when the value has the type of none of them."""
    ranked = []
    for index in range(len(error.validator_value)):
        subs = [s for s in error.context if s.relative_schema_path[0] == index]
        if not subs:
            continue
        # a value against a list of choices none of which is of its kind (a number or a mapping where
        # the only choice is a word) is of the wrong type too
        wrong_type = any(_at_top(s) and (s.validator == "type" or _other_kind(s)) for s in subs)
        missing = sum(1 for s in subs if s.validator == "required" and _at_top(s))
        ranked.append((wrong_type, missing, len(subs), index))
    ranked.sort()
    if not ranked or ranked[0][0]:
        return None
    return ranked[0][3]


def _other_kind(error) -> bool:
    if error.validator not in ("enum", "const"):
        return False
    choices = error.validator_value if error.validator == "enum" else [error.validator_value]
    return not any(type(choice) is type(error.instance) for choice in choices)


def _expected(schema, types=None) -> list[str]:
    """What a schema asks for, in words (a list: one per type it allows)."""
    named = _named_definitions().get(_key(schema)) if isinstance(schema, dict) else None
    if named:
        return [named]
    if types is None:
        types = schema.get("type") if isinstance(schema, dict) else None
    types = [types] if isinstance(types, str) else list(types or [])
    if {"string", "number", "boolean"} <= set(types):
        rest = [t for t in types if t not in ("string", "number", "boolean", "null", "integer")]
        return [NAMED["scalar"]] + [TYPE_WORDS[t] for t in rest if t in TYPE_WORDS]
    return [TYPE_WORDS.get(t, t) for t in types]


def _wrong_type(error, data, fallback) -> SchemaError:
    """The value has none of the types allowed here (a type error, or every alternative's type is wrong)."""
    path = list(error.absolute_path)
    loc, _ = locate(data, path, fallback)
    if error.validator == "type":
        wanted = _expected(error.schema, error.validator_value)
    else:
        wanted = []
        for index in range(len(error.validator_value)):
            for sub in error.context:
                if sub.relative_schema_path[0] == index and sub.validator == "type" and _at_top(sub):
                    wanted.extend(w for w in _expected(sub.schema, sub.validator_value) if w not in wanted)
                    break
    prefix, subject = _named(path)
    finding = SchemaError(prefix + type_sentence(subject, wanted, error.instance, loc), loc)
    finding.at, finding.wrong_type = tuple(path), True
    return finding


def type_sentence(subject: str, wanted: list, value, loc) -> str:
    """`while` needs a DSL condition in quotes, but YAML read true as a boolean: write "true" in quotes."""
    scalar = value is None or isinstance(value, (bool, int, float))
    quoted = [w + (" in quotes" if value is not None and scalar and (w in SNIPPETS or w == "text") else "")
              for w in wanted]
    needs = " or ".join(quoted) if len(quoted) < 3 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    raw = _raw(loc, value) if scalar else show(value)
    wants_text = any(w in SNIPPETS or w == "text" for w in wanted)
    fix = ""
    if wants_text and isinstance(value, (bool, int, float)):
        fix = f': write "{raw}" in quotes'
    elif value is None:
        fix = ": write the value after the colon"
    elif isinstance(value, list) and len(wanted) == 1 and wanted[0].startswith("a mapping"):
        fix = ": write `key: value` lines instead of `- ` items"
    elif isinstance(value, dict) and wanted == ["a list"]:
        fix = ": start each item of a list with `- `"
    return f"{subject} needs {needs or 'another kind of value'}, but {_read_as(value, raw)}{fix}"


def _leaf(error, data, fallback) -> list[SchemaError]:
    path = list(error.absolute_path)
    loc, node = locate(data, path, fallback)
    (prefix, subject), value = _named(path), error.instance
    hint = error.schema.get("description") if isinstance(error.schema, dict) else None
    v = error.validator
    if "propertyNames" in error.relative_schema_path:
        # a key of the mapping at `path` (jsonschema gives the key as the instance and no path to it)
        where = node.key_loc(value) if isinstance(node, LocMap) and value in node else loc
        if v == "enum":
            hint = f"allowed here: {', '.join(map(str, error.validator_value))}"
        hint = PATTERN_WORDS.get(error.validator_value, hint) if v == "pattern" else hint
        finding = SchemaError(f"{_prefix(path)}the key {show(value)} is not allowed here", where, hint)
        finding.key_of = (id(node), str(value))
        return [finding]
    if v == "additionalProperties" and isinstance(value, dict):
        allowed = set(error.schema.get("properties", {}))
        patterns = error.schema.get("patternProperties", {})
        out = []
        for key in value:
            if key not in allowed and not any(re.search(p, str(key)) for p in patterns):
                finding = SchemaError(f"{_prefix(path)}unknown key '{key}'",
                                      node.key_loc(key) if isinstance(node, LocMap) else loc,
                                      did_you_mean(str(key), allowed))
                finding.node_id = id(node)
                finding.suggests = (id(node), _suggested(str(key), allowed))
                finding.key_of = (id(node), str(key))
                out.append(finding)
        return out
    if v == "required" and isinstance(value, dict):
        out = []
        for key in error.validator_value:
            if key not in value:
                finding = SchemaError(f"{_prefix(path) if path else 'the file '}needs the key '{key}'",
                                      getattr(node, "loc", loc))
                finding.missing = (id(node), key)
                out.append(finding)
        return out
    if v == "type":
        return [_wrong_type(error, data, fallback)]
    if v == "enum":
        choices = ", ".join(show(c) if not isinstance(c, str) else c for c in error.validator_value)
        close = did_you_mean(str(value), [str(c) for c in error.validator_value]) if isinstance(value, str) else None
        return [SchemaError(f"{prefix}{subject} is {show(value)}; it must be one of: {choices}", loc, close)]
    if v == "const":
        return [SchemaError(f"{prefix}{subject} must be {show(error.validator_value)}, not {show(value)}", loc)]
    if v in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        words = {"minimum": "at least", "exclusiveMinimum": "more than", "maximum": "at most",
                 "exclusiveMaximum": "less than"}[v]
        return [SchemaError(f"{prefix}{subject} is {show(value)}, but must be {words} "
                            f"{show(error.validator_value)}", loc)]
    if v == "minLength":
        text = "is empty: write something" if error.validator_value == 1 else \
            f"must be at least {error.validator_value} characters long"
        return [SchemaError(f"{prefix}{subject} {text}", loc)]
    if v == "maxLength":
        return [SchemaError(f"{prefix}{subject} is longer than {error.validator_value} characters", loc)]
    if v == "minItems":
        n = error.validator_value
        return [SchemaError(f"{prefix}{subject} needs at least {n} item{'s' if n != 1 else ''}", loc)]
    if v == "maxItems":
        n = error.validator_value
        return [SchemaError(f"{prefix}{subject} may have at most {n} item{'s' if n != 1 else ''}", loc)]
    if v == "uniqueItems":
        return [SchemaError(f"{prefix}{subject} lists the same value twice", loc)]
    if v == "pattern":
        return [SchemaError(f"{prefix}{subject} cannot be {show(value)}", loc, hint)]
    if v == "not":
        return [SchemaError(f"{prefix}{subject} cannot be {show(value)} here", loc, hint)]
    if v in ("dependencies", "dependentRequired") and isinstance(value, dict):
        out = []
        for key, needs in error.validator_value.items():
            for other in needs if key in value and isinstance(needs, list) else []:
                if other not in value:
                    where = node.key_loc(key) if isinstance(node, LocMap) else loc
                    out.append(SchemaError(f"{_prefix(path)}'{key}' goes only with '{other}'", where))
        if out:
            return out
    if v == "oneOf":
        kinds = alternative_keys(error)
        present = [k for k in kinds if isinstance(value, dict) and k in value]
        if len(present) > 1:
            return [SchemaError(f"{_prefix(path)}has more than one of {', '.join(present)}; use exactly one",
                                getattr(node, "loc", loc))]
        return [SchemaError(f"{prefix}{subject} fits more than one of the forms allowed here; "
                            "give only the keys of one", loc, hint)]
    return [SchemaError(f"{prefix}{subject} is not allowed here", loc, hint)]


def _suggested(key: str, allowed) -> str | None:
    import difflib
    close = difflib.get_close_matches(key, list(allowed), n=1, cutoff=0.7)
    return close[0] if close else None


def tidy(found: list) -> list[SchemaError]:
    """The findings to report: hints attached, a missing key left out when an unknown key beside it is its
    misspelling, a value of the wrong type not also blamed for what it lacks, each once, in file order."""
    hints = {f.node_id: f.hint for f in found if isinstance(f, _Hint)}
    found = [f for f in found if not isinstance(f, _Hint)]
    suggested = {getattr(f, "suggests", None) for f in found} - {None}
    unknown_keys = {f.key_of for f in found if getattr(f, "suggests", None) is not None}
    mistyped = {f.at for f in found if getattr(f, "wrong_type", False)}
    out, seen = [], set()
    for finding in found:
        if getattr(finding, "missing", None) in suggested:
            continue
        if getattr(finding, "suggests", None) is None and getattr(finding, "key_of", None) in unknown_keys:
            continue   # a key both unknown and not allowed by name: said once, as unknown
        if getattr(finding, "at", None) in mistyped and not getattr(finding, "wrong_type", False):
            continue
        node_id = getattr(finding, "node_id", None)
        if node_id in hints and finding.hint is None:
            finding.hint = hints[node_id]
        text = str(finding)
        if text not in seen:
            seen.add(text)
            out.append(finding)
    out.sort(key=lambda e: (e.location.line, e.location.column) if e.location else (0, 0))
    return out
