"""load → validate → compile: from a ruleset id or path to a :class:`Ruleset`.

Variants combine: ``variant`` may be one id, ``"a+b"`` or a list, applied in
order. Two variants that set the same value differently are an error, and so
is a combination the ruleset does not declare under ``combinable``.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..errors import DavitError, LoadError, Location, RulesetError, did_you_mean, raise_all
from ..load.files import (
    RULESET_FILE,
    VARIANT_KEYS,
    display_path,
    own_file,
    read_variant,
    resolve_ruleset,
    variants_of,
)
from ..load.limits import MAX_DEFINITIONS, MAX_RULESET_BYTES, MAX_VALUES, MAX_ZONES
from ..load.overlay import apply_variant, pending, unread_additions
from ..load.schema_check import schema_errors
from ..load.tree_cache import base_tree
from ..load.yaml_reader import LocMap, load_yaml_file, plain
from ..machine import code_cache
from ..machine.execute import runners_at_fill
from .build import build_ruleset


def variant_names(variant) -> tuple[str, ...]:
    """``None``, ``"a"``, ``"a+b"`` or ``["a", "b"]`` as a tuple of variant ids or paths."""
    if variant is None:
        return ()
    items = [variant] if isinstance(variant, (str, Path)) else list(variant)
    out: list[str] = []
    for item in items:
        text = str(item)
        parts = text.split("+") if "+" in text and not Path(text).is_file() else [text]
        if len(parts) > 1 and not all(part.strip() for part in parts):
            # dropped, 'a+' played only a and '+' the plain ruleset, as if fewer variants had been asked for
            raise LoadError(f"expected variant ids joined by '+', got an empty id in {text!r}")
        out.extend(parts)
    return tuple(v for v in out if v)


def load_ruleset(ref: str | Path, variant=None):
    """Load, check and compile a ruleset (a bundled id, a folder or a file).

    ``variant`` is the id of a file in the ruleset's ``variants/`` folder or a
    path to a variant file; several (a list, or ids joined by ``+``) apply in
    order. A path to a variant file as ``ref`` works too. Raises
    :class:`DavitError` (often :class:`Findings`) with every problem.
    """
    path, _ = resolve_ruleset(str(ref))
    return _load(str(path.resolve()), variant_names(variant))


def _check_base(tree):
    too_many = _totals(tree)   # before the schema check, whose time grows with the tree
    return too_many or schema_errors(tree, "ruleset", Location(display_path(Path(tree.loc.file))))


def _totals(tree) -> list:
    """Errors for a merged base past the caps on totals over the main file and all its includes (each
    file alone is capped where it is read): zones and board spaces, thing definitions, YAML values."""
    out = []
    board = tree.get("board")
    counted = [("zones", tree.get("zones"), tree), ("things", tree.get("things"), tree)]
    if isinstance(board, dict):
        counted.append(("spaces", board.get("spaces"), board))
    zones = sum(len(items) for key, items, _ in counted if key != "things" and isinstance(items, list))
    if zones > MAX_ZONES:
        out.append(LoadError(f"the ruleset's files declare {zones:,} zones and board spaces together "
                             f"(at most {MAX_ZONES:,})", tree.loc_of("zones") if "zones" in tree else tree.loc))
    things = tree.get("things")
    if isinstance(things, list) and len(things) > MAX_DEFINITIONS:
        out.append(LoadError(f"the ruleset's files declare {len(things):,} things together "
                             f"(at most {MAX_DEFINITIONS:,})", tree.loc_of("things")))
    todo, seen = [tree], 0
    while todo and seen <= MAX_VALUES:
        value = todo.pop()
        seen += 1
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
    if seen > MAX_VALUES:
        out.append(LoadError(f"the ruleset's files hold more than {MAX_VALUES:,} values together", tree.loc,
                             hint="each file is read on its own; their total is capped too"))
    return out


def _check_bytes(path: Path) -> None:
    """Refuse a ruleset whose main file and includes hold more than ``MAX_RULESET_BYTES`` together, before
    any include is read (the folder is measured first: only a big one has its main file read twice)."""
    try:
        beside = sum(f.stat().st_size for f in path.parent.iterdir() if f.suffix in (".yaml", ".yml"))
    except OSError:
        return
    if beside <= MAX_RULESET_BYTES:
        return
    main = load_yaml_file(path, display_path(path))
    includes = main.get("include") if isinstance(main, LocMap) else None
    names = [includes] if isinstance(includes, str) else includes if isinstance(includes, list) else []
    total = path.stat().st_size
    for name in names:
        target = (path.parent / str(name)).resolve()
        if target.parent == path.parent.resolve() and target.is_file():
            total += target.stat().st_size
    if total > MAX_RULESET_BYTES:
        raise LoadError(f"the ruleset's main file and its includes hold {total:,} bytes together "
                        f"(at most {MAX_RULESET_BYTES:,})", main.loc_of("include"))


# room for every bundled ruleset and variant (33 today) and a designer's own: a pass over all of them
# (the seeded-game table, the privacy checks) must not evict the first before it is asked again
@lru_cache(maxsize=128)
def _load(path_text: str, wanted: tuple):
    path = Path(path_text)
    errors: list = []
    # a ruleset.yaml is never a variant: do not parse the biggest file once more just to ask
    head = load_yaml_file(path, display_path(path)) if path.name != RULESET_FILE else None
    variant_files: list[Path] = []
    if isinstance(head, LocMap) and "variant" in head:
        variant_files.append(path)
        _, path = read_variant(path, errors)
    _check_bytes(path)
    data, files, load_errors, base_schema = base_tree(path, _check_base)
    errors.extend(load_errors)
    errors.extend(base_schema)
    found = variants_of(path)
    for name in wanted:
        if name in found:
            variant_files.append(own_file(found[name], path.parent, "variant"))
        elif Path(name).exists() and not Path(name).is_dir():
            # a variant file may lie anywhere (a designer's own folder beside a bundled game): it only
            # overlays the tree, and what it may read (its `extends:`) stays confined by read_variant
            variant_files.append(Path(name))
        else:
            known = ", ".join(found) or "none"
            raise LoadError(f"ruleset '{data.get('id', path.parent.name)}' has no variant '{name}' "
                            f"(variants: {known})")
    own_files = {p.resolve() for p in found.values()}
    declared_ids: list[str] = []
    overlays = []
    for variant_file in variant_files:
        vdata, _ = read_variant(variant_file, errors, base=path, base_id=data.get("id"))
        errors.extend(schema_errors(vdata, "variant", vdata.loc))
        declared = str(vdata.get("variant", variant_file.stem))
        if variant_file.resolve().parent == (path.parent / "variants").resolve() and declared != variant_file.stem:
            errors.append(RulesetError(f"variant '{declared}' must live in a file named {declared}.yaml "
                                       f"(this one is {variant_file.name})", vdata.loc_of("variant"),
                                       code="variant-name"))
        if declared in declared_ids:
            raise LoadError(f"variant '{declared}' is given twice")
        declared_ids.append(declared)
        overlays.append(vdata)
    if len(overlays) > 1:
        # the ruleset declares which of its own variants go together; a designer's file from elsewhere
        # is theirs to combine, but two variants that set one value differently are refused all the same
        own = [vid for vid, vfile in zip(declared_ids, variant_files) if vfile.resolve() in own_files]
        errors.extend(_combination_errors(data, declared_ids, overlays, declared=own))
    reports = []
    for vdata, variant_file, vid in zip(overlays, variant_files, declared_ids):
        reports.append(apply_variant(data, vdata, vid, errors))
        files.append(variant_file)
    if errors:
        raise_all(_unique(errors) + pending(reports, errors))
    variant = "+".join(declared_ids) if declared_ids else None
    # the compiled code of its functions is kept on disk, one file per ruleset (its variants share it)
    with code_cache.collecting(path_text) as bundle:
        try:
            rs = build_ruleset(data, variant)
        except DavitError as exc:
            refused = list(getattr(exc, "errors", [exc]))
            raise_all(refused + pending(reports, refused))
            raise
    raise_all(pending(reports, []) + [e for report in reports for e in unread_additions(report, rs.warnings)])
    rs.code_bundle = bundle
    bundle.at_fill.append(runners_at_fill(rs.codes))
    for vdata, vid in zip(overlays, declared_ids):
        if "reconstructed" in vdata:
            rs.provenance.append((vdata.loc_of("reconstructed"), " ".join(str(vdata["reconstructed"]).split()), vid))
    rs.variants = found
    rs.root = path.parent
    rs.files = files
    rs.variant_files = variant_files
    return rs.freeze()


def combination_problems(ruleset_file: Path) -> list:
    """For ``davit validate``: every declared group names real variants, and no two of a group
    set one value differently (checked on the files, without building every combination)."""
    data, _, _, _ = base_tree(ruleset_file, _check_base)
    found = variants_of(ruleset_file)
    out = []
    groups = data.get("combinable") or []
    for group in groups if isinstance(groups, list) else []:
        if not isinstance(group, list):
            continue
        overlays = {}
        for i, vid in enumerate(group):
            if str(vid) not in found:
                where = group.loc_of(i)  # type: ignore[attr-defined]  # a list of the tree: a LocList
                out.append(RulesetError(f"combinable names no variant '{vid}'", where,
                                        did_you_mean(str(vid), found) if found else None, code="unknown-reference"))
                continue
            try:
                vfile = own_file(found[str(vid)], ruleset_file.parent, "variant")
                overlays[str(vid)] = load_yaml_file(vfile, display_path(vfile))
            except DavitError:
                continue  # the variant's own check reports it
        ids = list(overlays)
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                out.extend(e for e in _combination_errors(data, [a, b], [overlays[a], overlays[b]])
                           if e.code == "variant-conflict")
    return out


def combinable_groups(data) -> list[set]:
    """The ruleset's ``combinable`` groups: any variants of one group may be played together."""
    groups = data.get("combinable") or [] if isinstance(data, dict) else []
    return [set(map(str, g)) for g in groups if isinstance(g, list)]


def _combination_errors(data, ids, overlays, declared=None) -> list:
    """Conflicts between ``overlays``, and a combination of the ruleset's own variants (``declared``,
    default all of ``ids``) that no ``combinable`` group allows."""
    out = []
    groups = combinable_groups(data)
    declared = ids if declared is None else declared
    if len(declared) > 1 and not any(set(declared) <= g for g in groups):
        where = data.loc_of("combinable") if "combinable" in data else data.loc
        out.append(RulesetError(
            f"the variants {' + '.join(declared)} are not declared combinable in this ruleset", where,
            "list them together in the ruleset's `combinable:` field once they are known to work together",
            code="variant-combination"))
    seen: dict = {}
    for vid, vdata in zip(ids, overlays):
        for key_path, value, loc in _settings(vdata, ()):
            if key_path in seen and seen[key_path][1] != value:
                other, _, other_loc = seen[key_path]
                shown = ".".join(key_path)
                out.append(RulesetError(
                    f"variants '{other}' and '{vid}' set {shown} differently ({other_loc.file} line "
                    f"{other_loc.line} gives {seen[key_path][1]!r}, this gives {value!r})", loc,
                    "leave one of them out, or make one variant that sets both", code="variant-conflict"))
            else:
                seen.setdefault(key_path, (vid, value, loc))
    return out


def _settings(node, prefix, skip=()):
    """(key path, plain value, location) for every value a variant overlay sets."""
    for key, value in node.items():
        if key in skip or (not prefix and key in VARIANT_KEYS):
            continue
        here = prefix + (str(key),)
        if isinstance(value, dict):
            yield from _settings(value, here)
        elif isinstance(value, list) and value and all(isinstance(i, dict) and "id" in i for i in value):
            for i, item in enumerate(value):
                item_path = here + (f"[{item['id']}]",)
                if item.get("remove"):
                    yield item_path, "removed", value.loc_of(i)  # type: ignore[attr-defined]  # a LocList
                else:
                    yield from _settings(item, item_path, skip=("id",))
        else:
            yield here, plain(value), node.loc_of(key)


def _unique(errors):
    seen, out = set(), []
    for e in errors:
        key = (str(e.location), e.message)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out
