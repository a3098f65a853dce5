"""How a variant changes a ruleset, section by section, and what it may not do.

The rules (``docs/variants.md`` says the same for designers):

* ``constants`` — by name; a new value **replaces** the old one whole, in any
  of the three forms (a plain value, ``{value: …}``, ``{by_players: …}``). It
  must have the base's type (a number stays a number, a table keeps at least
  the base's keys): a table is never merged entry by entry, so a variant
  cannot leave half of the old table behind by accident.
* ``variables``, ``functions``, ``props`` — by name; the fields given replace
  the old ones (``functions: {f: {value: …}}`` keeps ``f``'s ``params``).
* ``zones``, ``things``, ``actions``, ``triggers``, ``board.spaces`` — by id;
  fields given replace the old ones, ``{id: x, remove: true}`` deletes.
* ``players``, ``player``, ``limits``, ``end``, ``scoring``, ``heuristics``,
  ``display``, ``board`` — merged key by key.
* ``name``, ``setup``, ``flow`` and every list without ids — replaced whole.

A name or id the base lacks is an addition. An addition nothing reads (a
misspelt constant or function, an action no phase offers) names nothing and
is an error (:func:`unread_additions`, after the ruleset is built); so is an
addition whose id is one letter from an existing one. A change that leaves
its part as the base has it changes nothing and is an error, and so is a
variant that changes nothing at all. A value of another shape than the
base's (a list where the base has a mapping) is an error. Descriptions,
sources and ``reconstructed`` marks are prose: they change no rule.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Location, RulesetError, did_you_mean
from .files import VARIANT_KEYS, merge_into
from .yaml_reader import LocList, LocMap, plain

BY_NAME = ("constants", "variables", "functions", "props", "metrics")
BY_ID = ("zones", "things", "actions", "triggers")
PROSE = frozenset({"description", "source", "reconstructed"})


@dataclass
class OverlayReport:
    """What one variant did to the tree: its additions (for :func:`unread_additions`)."""
    variant: str
    additions: dict = field(default_factory=dict)   # (file, line, column) -> (kind, name, known names)
    # a constant given a value of another type: the type check says it better where a rule uses the
    # constant (it names the use), so these are reported only where it found nothing (:func:`pending`)
    retyped: list = field(default_factory=list)


def apply_variant(data: LocMap, overlay: LocMap, variant: str, errors: list) -> OverlayReport:
    """Merge ``overlay`` (a variant file's tree) into ``data`` in place by the rules above."""
    report = OverlayReport(variant)
    changed_any = False
    for section, value in overlay.items():
        if section in VARIANT_KEYS:
            continue
        loc = overlay.loc_of(section)
        if section not in data and (section in BY_NAME and isinstance(value, dict)
                                    or section in BY_ID and isinstance(value, list)):
            # a section the base lacks starts empty and takes the variant's entries one by one, as additions:
            # merged whole, a constant or variable nothing read was not found (only a warning, exit 0)
            data[section] = LocMap(loc) if isinstance(value, dict) else LocList(loc)
            data.value_locs[section] = loc
            data.key_locs[section] = overlay.key_loc(section)
        if section in data and not _same_shape(data[section], value):
            errors.append(_shape_error(section, data[section], value, loc))
            continue
        if section in BY_NAME and isinstance(value, dict) and isinstance(data.get(section), dict):
            # a mapping of the tree: a LocMap
            changed_any |= _by_name(section, data[section], value, report, errors)  # type: ignore[arg-type]
        elif section in BY_ID and isinstance(value, list) and isinstance(data.get(section), list):
            changed_any |= _by_id(section, data[section], value, report, errors)
        elif section == "board" and isinstance(value, dict) and isinstance(data.get(section), dict):
            # a mapping of the tree: a LocMap
            changed_any |= _board(data[section], value, report, errors)  # type: ignore[arg-type]
        else:
            changed_any |= _keyed(section, data, overlay, errors)
    if not changed_any and not any(e.location and e.location.file == overlay.loc.file for e in errors):
        errors.append(RulesetError(
            f"variant '{variant}' changes nothing: every value it sets is the base ruleset's own", overlay.loc,
            "a variant must change a rule; give the values it should change", code="variant-changes-nothing"))
    return report


def pending(reports: list, found: list) -> list:
    """The constants given another type, where the built ruleset's own ``found`` errors say nothing."""
    said = {_key(e.location) for e in found if getattr(e, "location", None)}
    return [e for r in reports for e in r.retyped if _key(e.location) not in said]


def unread_additions(report: OverlayReport, warnings: list) -> list:
    """Errors for additions the built ruleset never reads (found among its ``unused`` warnings)."""
    out = []
    for w in warnings:
        if getattr(w, "code", None) != "unused" or w.location is None:
            continue
        added = report.additions.get(_key(w.location))
        if added is None:
            continue
        kind, name, known = added
        out.append(RulesetError(
            f"{kind} '{name}' is not in the base ruleset, and nothing reads it: this variant's change "
            f"names nothing", w.location, did_you_mean(name, known) or "a variant may add a name only "
            "together with the rules that use it", code="names-nothing"))
    return out


# -- the sections -----------------------------------------------------------------------------------------------

def _by_name(section: str, base: LocMap, overlay: LocMap, report: OverlayReport, errors: list) -> bool:
    changed = False
    kind = section[:-1] if section != "props" else "property"
    for name, value in overlay.items():
        loc, key_loc = overlay.loc_of(name), overlay.key_loc(name)
        if name not in base:
            report.additions[_key(key_loc)] = (kind, str(name), [str(n) for n in base])
            changed = True
            merge_into(base, _only(overlay, name), errors)
            continue
        if section == "constants":
            problem, retyped = _constant_shape(name, base[name], value)
            if problem:
                error = RulesetError(problem, loc, "a variant replaces a constant whole: give its new value in "
                                     "the shape the base has", code="variant-shape")
                (report.retyped if retyped else errors).append(error)
                if not retyped:
                    continue
            if _constant_rule(base[name]) == _constant_rule(value):
                errors.append(_unchanged(f"constant '{name}'", loc))
                continue
            base[name] = value                 # replaced whole, never merged entry by entry
            base.value_locs[name] = loc
            base.key_locs[name] = key_loc      # the value now read is the variant's
            changed = True
            continue
        if section == "functions" and not _same_shape(base[name], value):
            # (a variable or property may be written as its start value or as a mapping: either replaces)
            errors.append(_shape_error(f"{section}.{name}", base[name], value, loc))
            continue
        before = _rule(base[name])
        merge_into(base, _only(overlay, name), errors)
        if _rule(base[name]) == before:
            errors.append(_unchanged(f"{kind} '{name}'", loc))
        else:
            changed = True
    return changed


def _by_id(section: str, base: list, overlay: list, report: OverlayReport, errors: list) -> bool:
    changed = False
    kind = section[:-1]
    known = [str(item.get("id")) for item in base if isinstance(item, dict)]
    given: dict = {}   # id -> where this variant gave it (not as a removal)
    for j, item in enumerate(overlay):
        loc = overlay.loc_of(j) if isinstance(overlay, LocList) else None
        if not isinstance(item, dict) or "id" not in item:
            continue
        key = str(item["id"])
        if key in given:
            # the second entry's fields replaced the first's without a word (a removal and then a new entry
            # of the same id, a replacement whole, is still allowed)
            first = f" (first at line {given[key].line})" if given[key] else ""
            errors.append(RulesetError(
                f"{kind} '{key}' is given twice in this variant{first}: the second entry would replace the "
                "first's fields", loc, "write the changes of one id in one entry", code="duplicate-id"))
            continue
        if not item.get("remove"):
            given[key] = loc
        if key not in known and not item.get("remove"):
            near = did_you_mean(key, known)
            if near:
                errors.append(RulesetError(
                    f"{kind} '{key}' is not in the base ruleset; this adds a new {kind} instead of changing one",
                    loc, f"{near} A new {kind} needs an id that is not one letter from an existing one",
                    code="names-nothing"))
                continue
            report.additions[_key(loc)] = (kind, key, known)
        before = [_rule(b) for b in base if isinstance(b, dict) and str(b.get("id")) == key]
        one = LocList(loc)  # type: ignore[arg-type]  # None where the overlay is not a read list
        one.append(item)
        one.locs.append(loc)  # type: ignore[arg-type]
        merge_into(_wrap(section, base), _wrap(section, one), errors)
        after = [_rule(b) for b in base if isinstance(b, dict) and str(b.get("id")) == key]
        if after == before and before:
            errors.append(_unchanged(f"{kind} '{key}'", loc))
        else:
            changed = True
    return changed


def _board(base: LocMap, overlay: LocMap, report: OverlayReport, errors: list) -> bool:
    changed = False
    for key, value in overlay.items():
        if key == "spaces" and isinstance(value, list) and isinstance(base.get(key), list):
            changed |= _by_id("spaces", base[key], value, report, errors)
        else:
            changed |= _keyed(key, base, _only(overlay, key), errors, prefix="board.")
    return changed


def _keyed(section: str, data: LocMap, overlay: LocMap, errors: list, prefix: str = "") -> bool:
    """A section merged key by key (or replaced): an error if it comes out as it was."""
    before = _rule(data.get(section)) if section in data else _MISSING
    merge_into(data, _only(overlay, section), errors)
    if _rule(data[section]) == before:
        errors.append(_unchanged(f"'{prefix}{section}'", overlay.loc_of(section)))
        return False
    return True


# -- helpers ----------------------------------------------------------------------------------------------------

_MISSING = object()


def _key(loc: Location | None) -> tuple:
    return (loc.file, loc.line, loc.column) if loc else ("", 0, 0)


def _only(tree: LocMap, key) -> LocMap:
    """``tree`` with only ``key``, locations kept: one entry merged at a time."""
    out = LocMap(tree.loc)
    out[key] = tree[key]
    out.value_locs[key] = tree.loc_of(key)
    out.key_locs[key] = tree.key_loc(key)
    return out


def _wrap(key: str, items: list) -> LocMap:
    out = LocMap(getattr(items, "loc", None))  # type: ignore[arg-type]  # None where items were not read
    out[key] = items
    return out


def rules_of(tree) -> dict:
    """A merged ruleset tree without its prose: two trees with the same rules give equal answers."""
    return _rule(tree)


def _rule(value):
    """A value as the rules see it: plain data without its prose (descriptions, sources, marks)."""
    if isinstance(value, dict):
        return {k: _rule(v) for k, v in value.items() if k not in PROSE}
    if isinstance(value, list):
        return [_rule(v) for v in value]
    return plain(value)


def _constant_rule(value):
    """A constant as the rules read it, whichever of its three forms it is written in."""
    if isinstance(value, dict) and "value" in value and "by_players" not in value:
        return _rule(value["value"])
    return _rule(value)


def _category(value) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "a single value"


def _same_shape(old, new) -> bool:
    return _category(old) == _category(new)


def _shape_error(where: str, old, new, loc) -> RulesetError:
    return RulesetError(f"{where} is {_category(old)} in the base ruleset, but this variant gives {_category(new)}",
                        loc, "a variant changes a part in the shape the base has", code="variant-shape")


def _unchanged(what: str, loc) -> RulesetError:
    return RulesetError(f"{what} is set to what the base ruleset already has: this changes nothing", loc,
                        "leave it out, or give the value it should change to", code="variant-changes-nothing")


def _constant_value(value):
    """A constant's value(s) as the rules read them: one value, or each by-players row."""
    if isinstance(value, dict) and "by_players" in value:
        rows = value.get("by_players") or {}
        return list(rows.values()) + ([value["otherwise"]] if "otherwise" in value else [])
    if isinstance(value, dict) and "value" in value:
        return [value["value"]]
    return [value]


def _type_name(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return "nothing"


def _constant_shape(name, old, new) -> tuple[str | None, bool]:
    """Why ``new`` cannot replace constant ``old`` (a table missing keys; another type: then True), or None."""
    olds, news = _constant_value(old), _constant_value(new)
    old_types = {_type_name(v) for v in olds if v is not None}
    for value in news:
        kind = _type_name(value)
        if value is not None and old_types and kind not in old_types:
            return (f"constant '{name}' is {' or '.join(sorted(old_types))} in the base ruleset, but this variant "
                    f"gives {kind} ({plain(value)!r})"), True
    old_tables = [v for v in olds if isinstance(v, dict)]
    for value in news:
        if isinstance(value, dict) and old_tables:
            missing = [k for k in old_tables[0] if k not in value and str(k) not in {str(x) for x in value}]
            if missing:
                shown = ", ".join(str(k) for k in missing)
                return (f"constant '{name}' is a table with entries {', '.join(str(k) for k in old_tables[0])} in "
                        f"the base ruleset; this variant's table has no entry {shown}"), False
    return None, False
