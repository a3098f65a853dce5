"""load → validate → compile: from a ruleset id or path to a :class:`Ruleset`."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..errors import LoadError, Location, RulesetError, raise_all
from ..load.files import (
    VARIANT_KEYS,
    display_path,
    is_inside,
    merge_into,
    read_ruleset_tree,
    read_variant,
    resolve_ruleset,
    variants_of,
)
from ..load.schema_check import schema_errors
from ..load.yaml_reader import LocMap, load_yaml_file
from .build import build_ruleset


def load_ruleset(ref: str | Path, variant: str | None = None):
    """Load, check and compile a ruleset (a bundled id, a folder or a file).

    ``variant`` is the id of a file in the ruleset's ``variants/`` folder, or
    a path to a variant file. A path to a variant file as ``ref`` works too.
    Raises :class:`DavitError` (often :class:`Findings`) with every problem.
    """
    path, _ = resolve_ruleset(str(ref))
    return _load(str(path.resolve()), variant)


@lru_cache(maxsize=32)
def _load(path_text: str, variant: str | None):
    path = Path(path_text)
    errors: list = []
    head = load_yaml_file(path, display_path(path))
    variant_file = None
    if isinstance(head, LocMap) and "variant" in head:
        variant_file, variant = path, str(head["variant"])
        _, path = read_variant(path, errors)
    data, files = read_ruleset_tree(path, errors)
    found = variants_of(path)
    if variant is not None and variant_file is None:
        if variant in found:
            variant_file = found[variant]
        elif Path(variant).is_file():
            if not is_inside(Path(variant), path.parent):   # confined like include
                raise LoadError(f"variant file '{variant}' must lie inside the ruleset's folder "
                                f"({display_path(path.parent)})")
            variant_file = Path(variant)
        else:
            known = ", ".join(found) or "none"
            raise LoadError(f"ruleset '{data.get('id', path.parent.name)}' has no variant '{variant}' "
                            f"(variants: {known})")
    if variant_file is not None:
        vdata, _ = read_variant(variant_file, errors)
        errors.extend(schema_errors(vdata, "variant", vdata.loc))
        declared = str(vdata.get("variant", variant))
        if variant_file.parent.name == "variants" and declared != variant_file.stem:
            errors.append(RulesetError(f"variant '{declared}' must live in a file named {declared}.yaml "
                                       f"(this one is {variant_file.name})", vdata.loc_of("variant"),
                                       code="variant-name"))
        variant = declared
        merge_into(data, vdata, errors, skip=VARIANT_KEYS)
        files.append(variant_file)
    errors.extend(schema_errors(data, "ruleset", Location(display_path(path))))
    raise_all(_unique(errors))
    rs = build_ruleset(data, variant)
    if variant_file is not None and "reconstructed" in vdata:
        rs.provenance.append((vdata.loc_of("reconstructed"), " ".join(str(vdata["reconstructed"]).split()), variant))
    rs.variants = found
    rs.root = path.parent
    rs.files = files
    return rs


def _unique(errors):
    seen, out = set(), []
    for e in errors:
        key = (str(e.location), e.message)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out
