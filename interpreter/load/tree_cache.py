"""Parsed and schema-checked ruleset trees, kept while their files do not change.

A ruleset with six variants used to be read, parsed and checked seven times.
Here the base's merged tree (main file and includes) is kept with the
schema errors found in it, keyed by each file's modification time and size,
and every caller gets its own copy to merge a variant into.
"""
from __future__ import annotations

from pathlib import Path

from .files import read_ruleset_tree
from .yaml_reader import LocList, LocMap

_TREES: dict = {}
MAX_TREES = 64


def _stamp(files) -> tuple:
    out: list[tuple[str, int | None, int | None]] = []
    for f in files:
        try:
            st = Path(f).stat()
            out.append((str(f), st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((str(f), None, None))
    return tuple(out)


def copy_tree(value):
    """A copy of a located tree deep enough to merge into (strings and numbers are shared)."""
    cls = value.__class__
    if cls is LocMap:
        out = LocMap(value.loc)
        for k, v in value.items():
            # a scalar is shared without a call: the tree is mostly scalars (a cold validate copies 130,000)
            out[k] = copy_tree(v) if v.__class__ in _CONTAINERS else v
        out.key_locs = dict(value.key_locs)
        out.value_locs = dict(value.value_locs)
        return out
    if cls is LocList:
        items = LocList(value.loc)
        items.extend([copy_tree(v) if v.__class__ in _CONTAINERS else v for v in value])
        items.locs = list(value.locs)
        return items
    return value


_CONTAINERS = frozenset({LocMap, LocList})   # nothing subclasses them


def base_tree(ruleset_file: Path, check):
    """(tree copy, files, load errors, schema errors) of a ruleset's main file with its includes.

    ``check(tree)`` returns the schema errors of the merged base; it runs once
    per version of the files.
    """
    # locations name files relative to the working directory: a tree read from elsewhere is not reused
    key = (str(Path(ruleset_file).resolve()), str(Path.cwd()))
    hit = _TREES.get(key)
    if hit is not None and _stamp(hit[1]) == hit[4]:
        tree, files, errors, schema, _ = hit
        return copy_tree(tree), list(files), list(errors), list(schema)
    errors = []
    tree, files = read_ruleset_tree(ruleset_file, errors)
    schema = check(tree)
    if len(_TREES) >= MAX_TREES:
        _TREES.clear()
    _TREES[key] = (tree, tuple(files), tuple(errors), tuple(schema), _stamp(files))
    return copy_tree(tree), list(files), list(errors), list(schema)
