"""davit's JSON schemas with their references written out, as the checker reads them.

Looking a ``$ref`` up through jsonschema's registry was a quarter of each schema check's time (a cold
``davit validate rulesets`` checks 160 trees); a schema whose references are replaced by what they name
checks the same trees with the same errors (:func:`inline_refs`).
"""
from __future__ import annotations

import json

from .files import schemas_dir


def inline_refs(schema: dict, own_file: str) -> dict:
    """``schema`` with each ``$ref`` into davit's schemas replaced by what it names, where that is not recursive.

    The same checks with the same errors: in draft-07 a ``$ref`` stands for the schema it names (keywords
    beside it are ignored), and jsonschema puts no ``$ref`` step in an error's schema path. Looking a
    reference up through the registry was a quarter of each check's time. A definition that refers back to
    itself (a flow holds flows) keeps its ``$ref`` inside itself, resolved by the registry as before."""
    files: dict = {}

    def target(ref: str, here: str):
        file, _, pointer = ref.partition("#")
        file = file or here
        if file not in files:
            path = schemas_dir() / file
            if "/" in file or not path.is_file():
                return None
            files[file] = json.loads(path.read_text(encoding="utf-8"))
        node = files[file]
        for part in [p for p in pointer.split("/") if p]:
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        return file, node

    def walk(node, file: str, open_refs: tuple):
        if isinstance(node, list):
            return [walk(item, file, open_refs) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            found = target(ref, file)
            key = (found[0], ref.partition("#")[2]) if found else None
            if found is None or key in open_refs:
                return node
            # a ref inside the target names its own file's definitions when it starts with "#"
            inner = walk(found[1], found[0], open_refs + (key,))
            if found[0] != own_file and _refers_locally(inner):
                return node   # a "#/..." reference left in it would be read against the wrong file
            return inner
        return {k: (v if k in ("enum", "const", "examples", "default") else walk(v, file, open_refs))
                for k, v in node.items()}

    return walk(schema, own_file, ())


def _refers_locally(node) -> bool:
    if isinstance(node, list):
        return any(_refers_locally(item) for item in node)
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            return True
        return any(_refers_locally(v) for v in node.values())
    return False
