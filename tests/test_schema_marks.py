"""A tree found free of schema errors is marked on disk and not checked again (load/schema_check.py).

Only "clean" is remembered: a tree with errors is checked every time, and a
changed tree (even a key's type), another schema or no cache folder means a
fresh check.
"""
import os

import pytest

from interpreter.errors import Location
from interpreter.load import cache_folder, schema_check
from interpreter.load.yaml_reader import parse_yaml

GOOD = "id: unit\nplayers: {min: 1, max: 2}\nzones:\n  - id: pile\nflow:\n  - do: x = 1\n"
BAD = GOOD.replace("  - id: pile\n", "  - id: pile\n    colour: blue\n")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DAVIT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("DAVIT_NO_CACHE", raising=False)
    return tmp_path / "schema"


def check(text):
    return schema_check.schema_errors(parse_yaml(text, "unit.yaml"), "ruleset", Location("unit.yaml"))


def no_validator(monkeypatch):
    def refuse(kind):
        raise AssertionError("a tree marked clean was checked again")
    monkeypatch.setattr(schema_check, "_validator", refuse)


def test_a_clean_tree_is_marked_and_then_not_checked_again(cache, monkeypatch):
    assert check(GOOD) == []
    assert len(list(cache.iterdir())) == 1
    no_validator(monkeypatch)
    assert check(GOOD) == []


def test_a_tree_with_errors_is_never_marked_and_its_errors_keep_their_place(cache):
    first = check(BAD)
    assert first and not list(cache.iterdir())
    again = check(BAD)
    assert [str(e) for e in again] == [str(e) for e in first]
    assert again[0].location.line == 5


def test_a_change_of_a_value_or_of_its_type_is_checked_afresh(cache, monkeypatch):
    assert check(GOOD) == []
    no_validator(monkeypatch)
    with pytest.raises(AssertionError, match="checked again"):
        check(GOOD.replace("max: 2", "max: 3"))
    with pytest.raises(AssertionError, match="checked again"):
        check(GOOD.replace("max: 2", "max: '2'"))


def test_other_schemas_mean_a_fresh_check(cache, monkeypatch):
    assert check(GOOD) == []
    monkeypatch.setattr(schema_check, "_schemas_stamp", lambda: b"other schemas")
    no_validator(monkeypatch)
    with pytest.raises(AssertionError, match="checked again"):
        check(GOOD)


@pytest.mark.parametrize("off", ["environment", "block"])
def test_without_a_cache_every_tree_is_checked(cache, monkeypatch, off):
    assert check(GOOD) == []
    if off == "environment":
        monkeypatch.setenv("DAVIT_NO_CACHE", "1")
        checked = check
    else:
        def checked(text):
            with cache_folder.turned_off():
                return check(text)
    no_validator(monkeypatch)
    with pytest.raises(AssertionError, match="checked again"):
        checked(GOOD)
    monkeypatch.undo()


def test_past_the_bound_the_older_half_of_the_marks_goes(cache, monkeypatch):
    monkeypatch.setattr(schema_check, "MAX_MARKS", 4)
    for n in range(4):
        before = set(cache.iterdir()) if cache.exists() else set()
        assert check(GOOD.replace("max: 2", f"max: {n + 2}")) == []
        (made,) = set(cache.iterdir()) - before
        os.utime(made, ns=(n * 10**9, n * 10**9))   # one second apart: the file system's clock may be coarse
    assert check(GOOD.replace("max: 2", "max: 6")) == []
    assert len(list(cache.iterdir())) == 3   # five made; at the fifth, the two oldest went
    no_validator(monkeypatch)
    assert check(GOOD.replace("max: 2", "max: 6")) == []   # the newest is kept


def test_turned_off_leaves_on_only_what_depends_on_davit_alone(cache, monkeypatch):
    with cache_folder.turned_off():
        assert cache_folder.cache_dir("schema") is None
        assert cache_folder.cache_dir("code") is None
        assert cache_folder.cache_dir("lark", of_rulesets=False) is not None   # the grammar's tables
    assert cache_folder.cache_dir("schema") is not None
    monkeypatch.setenv("DAVIT_NO_CACHE", "1")
    assert cache_folder.cache_dir("lark", of_rulesets=False) is None
