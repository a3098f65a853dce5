"""Finding and reading ruleset files: bundled ids, includes and variant overlays.

Merge rules (includes and variants alike):

* mappings merge key by key, recursively;
* lists whose items all have an ``id`` merge by id: an item with a known id
  is merged into the old one (``remove: true`` deletes it), a new id is
  appended;
* anything else is replaced by the overlay's value.

An included file may only add: if it sets a plain value the main file already
sets, that is an error (two files would disagree silently otherwise).
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from ..errors import LoadError, Location, RulesetError
from .yaml_reader import LocList, LocMap, load_yaml_file

RULESET_FILE = "ruleset.yaml"
MAX_INCLUDES = 64


PACKAGE_DIR = Path(__file__).resolve().parent.parent   # interpreter/


def source_root() -> Path:
    return PACKAGE_DIR.parent


def checkout_root(start: Path | None = None) -> Path | None:
    """The davit source checkout holding ``start`` (default: the working directory), if any."""
    start = (start or Path.cwd()).resolve()
    for folder in [start, *start.parents]:
        if (folder / "interpreter" / "dsl" / "grammar.lark").is_file() and (folder / "rulesets").is_dir() \
                and (folder / "schemas").is_dir():
            return folder
    return None


def _installed(kind: str, pattern: str) -> Path | None:
    folder = PACKAGE_DIR / "bundled" / kind
    return folder if folder.is_dir() and any(folder.glob(pattern)) else None


def _shipped(kind: str, pattern: str) -> Path:
    """``rulesets`` or ``schemas``: a checkout's own folder wins over the installed copy.

    Run inside a checkout, davit uses the working tree's files, so an edit to
    a bundled ruleset takes effect without reinstalling (``rulesets_note``
    says so); elsewhere, the copy installed with the package.
    """
    installed = _installed(kind, pattern)
    if installed is None:
        return source_root() / kind
    checkout = checkout_root()
    return checkout / kind if checkout is not None else installed


def bundled_rulesets_dir() -> Path:
    """The bundled rulesets: the source tree's ``rulesets/`` or the installed copy."""
    return _shipped("rulesets", "*/ruleset.yaml")


def schemas_dir() -> Path:
    return _shipped("schemas", "*.json")


def rulesets_note() -> str | None:
    """A line for the user when the checkout's rulesets are used instead of the installed ones."""
    installed = _installed("rulesets", "*/ruleset.yaml")
    if installed is None:
        return None
    checkout = checkout_root()
    if checkout is None:
        return None
    return (f"davit: using the rulesets of the checkout in {checkout} (edits take effect at once), "
            f"not the installed copy")


def bundled_ids() -> list[str]:
    root = bundled_rulesets_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / RULESET_FILE).is_file())


def display_path(path: Path) -> str:
    """A path as short as possible for messages (relative to the working directory)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def resolve_ruleset(ref: str) -> tuple[Path, str | None]:
    """Turn a bundled id or a path into (ruleset.yaml path, variant file or None)."""
    path = Path(ref)
    if path.is_dir() and os.path.lexists(path / RULESET_FILE):
        return path / RULESET_FILE, None   # reading it says so if it is not a regular file
    if os.path.lexists(path) and not path.is_dir():
        return path, None   # a file (reading it refuses a device, a FIFO or a dangling link)
    bundled = bundled_rulesets_dir() / ref / RULESET_FILE
    if bundled.is_file():
        return bundled, None
    known = ", ".join(bundled_ids()) or "none"
    raise LoadError(f"no ruleset '{ref}' (not a path; bundled rulesets: {known})")


def own_file(path: Path, folder: Path, what: str) -> Path:
    """``path``, found in (or named by) a ruleset's files, if it (links resolved) lies inside ``folder``.

    A link there that leads elsewhere is refused: a stranger's ruleset must not make davit read, and quote in
    its messages, any file on disk. (A path the user gives davit, on the command line or to the Python API,
    may lie anywhere: this applies only to files a ruleset names or holds.)
    """
    if not is_inside(path, folder):
        raise LoadError(f"{what} '{path.name}' is a link to a file outside the ruleset folder "
                        f"({display_path(folder)}); only files inside it are read", Location(display_path(path)))
    return path


def variants_of(ruleset_file: Path) -> dict[str, Path]:
    folder = ruleset_file.parent / "variants"
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def read_ruleset_tree(ruleset_file: Path, errors: list):
    """The main file with its includes merged in; errors are appended to ``errors``."""
    data = load_yaml_file(ruleset_file, display_path(ruleset_file))
    if not isinstance(data, LocMap):
        raise LoadError("a ruleset file must be a mapping", Location(display_path(ruleset_file)))
    files = [ruleset_file]
    includes = data.get("include") or []
    if isinstance(includes, str):
        includes = [includes]
    for i, name in enumerate(includes if isinstance(includes, list) else []):
        where = includes.loc_of(i) if isinstance(includes, LocList) else data.loc
        target = (ruleset_file.parent / str(name)).resolve()
        if target.parent != ruleset_file.parent.resolve():
            errors.append(LoadError(f"include '{name}' must be a file beside the ruleset", where))
            continue
        if not target.is_file():
            errors.append(LoadError(f"included file '{name}' does not exist", where))
            continue
        if len(files) > MAX_INCLUDES:
            errors.append(LoadError("too many included files", where))
            break
        try:
            part = load_yaml_file(target, display_path(target))
        except LoadError as exc:
            errors.append(exc)
            continue
        if not isinstance(part, LocMap):
            errors.append(LoadError("an included file must be a mapping", getattr(part, "loc", where)))
            continue
        files.append(target)
        merge_into(data, part, errors, strict=True)
    return data, files


def merge_into(base: LocMap, overlay: LocMap, errors: list, strict: bool = False, skip=()) -> None:
    """Merge ``overlay`` into ``base`` in place (see the module docstring)."""
    for key, value in overlay.items():
        if key in skip:
            continue
        loc = overlay.loc_of(key)
        if key not in base:
            base[key] = value
            base.value_locs[key] = loc
            base.key_locs[key] = overlay.key_loc(key)
            continue
        old = base[key]
        if isinstance(old, dict) and isinstance(value, dict):
            merge_into(old, value, errors, strict)  # type: ignore[arg-type]  # a mapping of the tree: a LocMap
        elif isinstance(old, list) and isinstance(value, list) and _all_have_ids(old) and _all_have_ids(value):
            _merge_by_id(old, value, errors, strict)  # type: ignore[arg-type]  # a list of the tree: a LocList
        elif isinstance(old, list) and isinstance(value, list) and strict:
            for i, item in enumerate(value):
                old.append(item)
                # a LocList
                old.locs.append(value.loc_of(i) if isinstance(value, LocList) else loc)  # type: ignore[attr-defined]
        elif strict:
            errors.append(RulesetError(f"'{key}' is already set in another file (line {base.loc_of(key).line} "
                                       f"of {base.loc_of(key).file})", loc))
        else:
            base[key] = value
            base.value_locs[key] = loc


def _all_have_ids(items) -> bool:
    return bool(items) and all(isinstance(i, dict) and "id" in i for i in items)


def _merge_by_id(base: LocList, overlay: list, errors: list, strict: bool) -> None:
    # ids compare as text: the builder reads `3` and "3" as the same space
    index = {str(item["id"]): i for i, item in enumerate(base)}
    removed = set()
    for j, item in enumerate(overlay):
        loc = overlay.loc_of(j) if isinstance(overlay, LocList) else base.loc
        key = str(item["id"])
        if key in index:
            if strict:
                errors.append(RulesetError(f"id '{item['id']}' is defined twice", loc, code="duplicate-id"))
                continue
            if item.get("remove"):
                removed.add(key)
                continue
            merge_into(base[index[key]], item, errors, strict=False)
        else:
            if item.get("remove"):
                errors.append(RulesetError(f"cannot remove '{item['id']}': the base has no such id", loc))
                continue
            base.append(item)
            base.locs.append(loc)
            index[key] = len(base) - 1
    if removed:
        keep = [(item, base.loc_of(i)) for i, item in enumerate(base) if str(item["id"]) not in removed]
        base[:] = [k for k, _ in keep]
        base.locs[:] = [loc for _, loc in keep]


VARIANT_KEYS = ("variant", "extends", "description", "source", "reconstructed")


def read_variant(variant_file: Path, errors: list, base: Path | None = None, base_id: str | None = None):
    """Read a variant file; returns (variant data, base ruleset.yaml path).

    ``base``: the ruleset the caller applies the variant to (``--variant FILE``
    beside a ruleset). A variant file may then lie anywhere and needs no
    ``extends``; one that names another ruleset is refused (``base_id``, the
    base's own id, is taken as naming it wherever the base lies).
    """
    data = load_yaml_file(variant_file, display_path(variant_file))
    if not isinstance(data, LocMap):
        raise LoadError("a variant file must be a mapping", Location(display_path(variant_file)))
    extends = data.get("extends")
    if extends is None:
        beside = variant_file.parent.parent / RULESET_FILE
        if base is not None:
            return data, base
        if not os.path.lexists(beside):
            raise RulesetError("a variant needs `extends: <ruleset id or path>`", data.loc)
        return data, beside
    if base is not None and base_id is not None and str(extends) == str(base_id):
        return data, base
    named = _extended(variant_file, data, extends)
    if base is not None and named.resolve() != base.resolve():
        raise RulesetError(f"this variant extends '{extends}' ({display_path(named)}), not the ruleset it is "
                           f"applied to ({display_path(base)})", data.loc_of("extends"))
    return data, named


def _extended(variant_file: Path, data: LocMap, extends) -> Path:
    """The ruleset.yaml a variant's ``extends:`` names."""
    candidate = (variant_file.parent / str(extends))
    # confined like include: a ruleset inside the variant's own ruleset folder, or a bundled id;
    # a stranger's variant must not read (and quote in its errors) any file on disk
    if is_inside(candidate, variant_home(variant_file)):
        if candidate.is_dir() and (candidate / RULESET_FILE).is_file():
            return candidate / RULESET_FILE
        if candidate.is_file():
            return candidate
    if str(extends) in bundled_ids():
        return bundled_rulesets_dir() / str(extends) / RULESET_FILE
    if candidate.exists() and not is_inside(candidate, variant_home(variant_file)):
        raise RulesetError(f"the base ruleset '{extends}' of this variant must be a bundled ruleset or lie "
                           f"inside the variant's ruleset folder", data.loc_of("extends"))
    raise RulesetError(f"the base ruleset '{extends}' of this variant does not exist", data.loc_of("extends"))


def variant_home(variant_file: Path) -> Path:
    """The folder a variant may read from: its ruleset's folder (or its own, for a file on its own)."""
    folder = variant_file.resolve().parent
    return folder.parent if folder.name == "variants" else folder


def is_inside(path: Path, folder: Path) -> bool:
    """True if ``path`` (links resolved) is ``folder`` or lies below it."""
    target, root = path.resolve(), folder.resolve()
    return target == root or root in target.parents


def write_atomically(path: str, data: bytes) -> None:
    """Write a file completely or not at all: an old file is never left half-written."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        # mkstemp makes the file private: keep the mode of the file replaced, or give a new file the usual one
        if os.path.exists(path):
            mode = stat.S_IMODE(os.stat(path).st_mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
