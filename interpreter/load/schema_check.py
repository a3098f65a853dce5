"""JSON Schema checks with every error mapped back to its YAML line.

The schemas in ``schemas/`` (draft-07) are the single source for what a
ruleset, variant or scenario file may contain; editors use the same files
through the ``# yaml-language-server: $schema=...`` line. All errors are
reported, not only the first, each in davit's words at its line
(:mod:`interpreter.load.schema_messages`).

A tree found clean is remembered on disk (:mod:`interpreter.load.cache_folder`):
an empty file named by an HMAC, under this installation's key, of a hash of
the tree's content, its kind and the schemas (a name anyone could compute
would let a planted file spare an invalid tree its check).
Only "no error" is ever remembered, so a changed tree, schema or davit is
checked again, and errors are always found afresh with their locations. A
command that loads an unchanged ruleset then neither validates it nor
imports jsonschema (together about a fifth of a cold start).
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
from functools import cache

from ..errors import Location, SchemaError
from . import cache_folder
from .files import schemas_dir, write_atomically
from .schema_messages import findings, tidy
from .schema_refs import inline_refs

KINDS = ("ruleset", "variant", "scenario")


@cache
def load_schema(kind: str) -> dict:
    path = schemas_dir() / f"{kind}.schema.json"
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def _validator(kind: str):
    # imported here: a command whose trees are all remembered clean never needs them
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7
    # Schemas refer to each other by file name ("ruleset.schema.json#/definitions/..."),
    # exactly as editors resolve them beside the YAML files.
    resources = []
    for path in sorted(schemas_dir().glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((path.name, Resource.from_contents(contents, default_specification=DRAFT7)))
    registry = Registry().with_resources(resources)
    return jsonschema.Draft7Validator(inline_refs(load_schema(kind), f"{kind}.schema.json"), registry=registry)


def schema_errors(data, kind: str, fallback: Location) -> list[SchemaError]:
    """Every schema violation of ``data`` (a located YAML tree) as a located error."""
    marker = _clean_marker(data, kind)
    if marker is not None and _is_mark(marker):
        return []
    found = _violations(data, kind, fallback)
    if not found and marker is not None:
        try:
            write_atomically(str(marker), b"")
            _prune(marker.parent)
        except OSError:
            pass   # a marker that cannot be written only costs time
    return found


def _is_mark(path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


MAX_MARKS = 4096   # each edit of a file leaves one: past this many, the older half goes (a re-check each)


def _prune(folder) -> None:
    marks = list(os.scandir(folder))
    if len(marks) <= MAX_MARKS:
        return
    marks.sort(key=lambda entry: entry.stat().st_mtime_ns)
    for entry in marks[:len(marks) // 2]:
        try:
            os.unlink(entry.path)
        except OSError:
            pass


@cache
def _schemas_stamp() -> bytes:
    from .. import __version__
    digest = hashlib.sha256(__version__.encode())
    # this very checker, as it is on disk: a checkout whose checks are edited marks nothing as before
    here = os.stat(__file__)
    digest.update(f"{here.st_size}:{here.st_mtime_ns}\0".encode())
    for path in sorted(schemas_dir().glob("*.schema.json")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


def _clean_marker(data, kind: str):
    """Where the mark that this very tree is clean lives (None: no cache folder)."""
    folder = cache_folder.cache_dir("schema")
    key = cache_folder.secret() if folder is not None else None
    if folder is None or key is None:
        return None
    digest = hashlib.sha256(_schemas_stamp() + kind.encode() + b"\0")
    _feed(data, digest)
    return folder / cache_folder.tag(key, "schema", digest.digest()).hex()


def _feed(value, digest) -> None:
    """Feed ``digest`` an encoding of a YAML tree that tells apart whatever the schema tells apart: its
    structure and each scalar's type and value (the key 1 and the key "1" differ)."""
    parts: list = []
    _encode(value, parts)
    digest.update("".join(parts).encode("utf-8", "surrogatepass"))   # one update: the same bytes, faster


def _encode(value, parts: list) -> None:
    if isinstance(value, dict):
        parts.append("{")
        for key in sorted(value, key=_key_order):
            _encode(key, parts)
            _encode(value[key], parts)
        parts.append("}")
    elif isinstance(value, list):
        parts.append("[")
        for item in value:
            _encode(item, parts)
        parts.append("]")
    else:
        kind = "str" if isinstance(value, str) else type(value).__name__
        text = str.__str__(value) if isinstance(value, str) else repr(value)
        parts.append(f"{kind}:{len(text)}:{text}")


def _key_order(key) -> tuple:
    return (type(key).__name__, repr(key))


def _violations(data, kind: str, fallback: Location) -> list[SchemaError]:
    found = []
    for error in _validator(kind).iter_errors(data):
        found.extend(findings(error, data, fallback))
    return tidy(found)
