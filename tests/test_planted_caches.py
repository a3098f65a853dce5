"""No cache entry planted in davit's cache folder runs code or vouches for a ruleset (issue 30).

A cache folder may be shared or synced: whoever can write there may leave
files under the names davit looks up, and recompute any plain checksum.
Every entry that leads to running code or skipping a check (the parser's
tables, compiled rule code, schema marks, validate's findings) carries an
HMAC under a key this installation made for itself; a planted entry fails it,
is ignored and made again. Each test also plants the entry signed with the
real key, to show that the entry would have been used (the test can fail).
"""
import hashlib
import json
import marshal
import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.dsl import snippet_memo
from interpreter.errors import Location
from interpreter.load import cache_folder, schema_check, tree_cache
from interpreter.load.yaml_reader import parse_yaml
from interpreter.machine import code_cache
from interpreter.rules import loading

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DAVIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("DAVIT_NO_CACHE", raising=False)
    cache_folder.forget_secret()
    yield tmp_path / "cache"
    cache_folder.forget_secret()


def real_key(cache: Path) -> bytes:
    return (cache / "key" / "secret").read_bytes()


# -- the key ---------------------------------------------------------------------------------------------------

def test_the_key_is_made_once_private_and_whole(cache):
    key = cache_folder.secret()
    path = cache / "key" / "secret"
    assert key is not None and len(key) == 32 and path.read_bytes() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["secret"]   # no temporary file left behind
    cache_folder.forget_secret()
    assert cache_folder.secret() == key                           # read back, not made again


@pytest.mark.parametrize("damage", ["others-may-read", "short", "a-link", "a-folder"])
def test_a_key_that_cannot_be_read_safely_turns_every_cache_off(cache, tmp_path, damage):
    key = cache_folder.secret()
    path = cache / "key" / "secret"
    if damage == "others-may-read":
        path.chmod(0o644)
    elif damage == "short":
        path.write_bytes(key[:16])
    elif damage == "a-link":
        elsewhere = tmp_path / "planted-key"
        elsewhere.write_bytes(b"k" * 32)
        elsewhere.chmod(0o600)
        path.unlink()
        path.symlink_to(elsewhere)
    else:
        path.unlink()
        path.mkdir()
    cache_folder.forget_secret()
    assert cache_folder.secret() is None
    # and nothing is read from or kept in the caches: a clean tree is checked every time
    assert schema_check._clean_marker(parse_yaml("id: x\n", "x.yaml"), "ruleset") is None
    assert code_cache._File("anything").path() is None
    from interpreter.authoring import findings_cache
    assert findings_cache.cache_dir() is None


# -- the parser's tables ---------------------------------------------------------------------------------------

PARSE = ("from interpreter.dsl import parser\n"
         "print(parser.parse('x = 1 + two * 3') is not None)\n")


def parse_in_process(cache: Path, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PARSE], cwd=REPO, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO), "DAVIT_CACHE_DIR": str(cache), **env})


def test_no_module_unpickles_and_lark_is_never_given_its_pickle_cache():
    import ast
    paths = sorted((REPO / "interpreter").rglob("*.py"))
    assert len(paths) > 100, "the engine's modules were not found"
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any(n.split(".")[0] in ("pickle", "dill", "shelve") for n in names), path
            if isinstance(node, ast.Call):
                called = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if called in ("Lark", "open_from_package", "load"):   # lark's cache option, Lark.load: pickles
                    assert not any(k.arg == "cache" for k in node.keywords), path
                    assert called != "load" or getattr(node.func.value, "id", "") != "Lark", path


@pytest.mark.slow
def test_a_planted_lark_pickle_is_never_loaded(tmp_path):
    cache, temporary, marker = tmp_path / "cache", tmp_path / "tmp", tmp_path / "ran"

    class Planted:
        def __reduce__(self):
            return (open, (str(marker), "w"))
    for folder in (cache / "lark", temporary):   # davit's folder, and lark's default one
        folder.mkdir(parents=True)
        for name in ("grammar-planted.pickle", ".lark_cache_planted.tmp"):
            (folder / name).write_bytes(pickle.dumps(Planted()))
    done = parse_in_process(cache, TMPDIR=str(temporary))
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr
    assert not marker.exists()


def tables_file(cache: Path) -> Path:
    (path,) = (cache / "lark").glob("tables-*.bin")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("signer", ["another-key", "plain-sha256", "no-tag"])
def test_planted_parser_tables_are_ignored_and_made_again(tmp_path, signer):
    cache = tmp_path / "cache"
    assert parse_in_process(cache).returncode == 0
    path = tables_file(cache)
    good = path.read_bytes()
    # tables that parse nothing davit writes: had they been used, the parse below would fail
    from lark import Lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    other = Lark('start_block: "a"\nstart_expr: "b"\n', parser="lalr", start=["start_block", "start_expr"])
    data, memo = other.memo_serialize([TerminalDef, Rule])
    body = marshal.dumps({"data": data, "memo": memo})
    purpose = "lark " + path.name
    tag = {"another-key": cache_folder.tag(os.urandom(32), purpose, body),
           "plain-sha256": hashlib.sha256(body).digest(), "no-tag": b""}[signer]
    path.write_bytes(tag + body)
    done = parse_in_process(cache)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr
    assert path.read_bytes() == good or cache_folder.tag_matches(real_key(cache), purpose, path.read_bytes()[32:],
                                                                  path.read_bytes()[:32])
    # the control: the same tables signed with this installation's key are used (and then the parse fails)
    path.write_bytes(cache_folder.tag(real_key(cache), purpose, body) + body)
    assert parse_in_process(cache).stdout.strip() != "True"
    path.unlink()


# -- compiled rule code ----------------------------------------------------------------------------------------

def forget():
    loading._load.cache_clear()
    tree_cache._TREES.clear()
    code_cache.clear_memory()
    snippet_memo.forget()   # the compiled snippets variants reuse: a new process has none


def play_tutorial():
    from interpreter import Game
    from interpreter.agents import make_agents, play_out
    game = Game(load_ruleset("tutorial"), 2, seed=5)
    play_out(game, make_agents("random", 2, 5))
    return game.log_hash()


def planted_code_file(path: Path, marker: Path, how: str, key: bytes) -> None:
    """The code file with every entry replaced by code that writes ``marker``, signed as ``how`` says."""
    body = path.read_bytes()[32:]
    head = code_cache.stamp()
    entries = marshal.loads(body[len(head):])
    # generated code runs without builtins: planted code reaches them anyway, as an attacker's would
    escape = ("[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'catch_warnings'][0]()"
              "._module.__builtins__['open']")
    evil = marshal.dumps(compile(f"{escape}({str(marker)!r}, 'w').write('ran')", "<planted>", "exec"))
    payload = marshal.dumps({k: evil for k in entries})
    if how == "old-format":          # the format before keys: stamp, a blake2b checksum, the entries
        path.write_bytes(head + hashlib.blake2b(payload, digest_size=32).digest() + payload)
        return
    body = head + payload
    tag = {"another-key": cache_folder.tag(os.urandom(32), "code " + path.name, body),
           "plain-sha256": hashlib.sha256(body).digest(),
           "real-key": cache_folder.tag(key, "code " + path.name, body)}[how]
    path.write_bytes(tag + body)


@pytest.mark.parametrize("how", ["old-format", "another-key", "plain-sha256"])
def test_planted_compiled_code_never_runs(cache, tmp_path, how):
    forget()
    reference = play_tutorial()
    (path,) = (cache / "code").iterdir()
    marker = tmp_path / "planted-code-ran"
    planted_code_file(path, marker, how, real_key(cache))
    forget()
    assert play_tutorial() == reference
    assert not marker.exists()
    body = path.read_bytes()
    assert cache_folder.tag_matches(real_key(cache), "code " + path.name, body[32:], body[:32])   # made again
    # the control: signed with this installation's key, the planted code runs
    planted_code_file(path, marker, "real-key", real_key(cache))
    forget()
    try:
        play_tutorial()
    except Exception:  # noqa: BLE001 - the planted code defines none of the functions the game needs
        pass
    assert marker.exists()
    forget()


# -- schema marks ----------------------------------------------------------------------------------------------

GOOD = "id: unit\nplayers: {min: 1, max: 2}\nzones:\n  - id: pile\nflow:\n  - do: x = 1\n"
BAD = GOOD.replace("  - id: pile\n", "  - id: pile\n    colour: blue\n")


def check(text):
    return schema_check.schema_errors(parse_yaml(text, "unit.yaml"), "ruleset", Location("unit.yaml"))


def test_a_planted_schema_mark_does_not_spare_a_tree_its_check(cache):
    assert check(GOOD) == []                        # makes the folder, the key and one mark
    tree = parse_yaml(BAD, "unit.yaml")
    digest = hashlib.sha256(schema_check._schemas_stamp() + b"ruleset\0")
    schema_check._feed(tree, digest)
    folder = cache / "schema"
    (folder / digest.hexdigest()).write_bytes(b"")                                        # the old name
    (folder / cache_folder.tag(os.urandom(32), "schema", digest.digest()).hex()).write_bytes(b"")   # another key
    assert check(BAD), "the planted marks were trusted"
    # the control: a mark under the name this installation's key gives is trusted
    (folder / cache_folder.tag(real_key(cache), "schema", digest.digest()).hex()).write_bytes(b"")
    assert check(BAD) == []


def test_a_mark_that_is_not_a_regular_file_is_no_mark(cache):
    assert check(GOOD) == []
    (mark,) = (cache / "schema").iterdir()
    mark.unlink()
    mark.mkdir()
    calls = []
    real = schema_check._violations
    schema_check._violations = lambda *a: calls.append(a) or real(*a)
    try:
        assert check(GOOD) == [] and calls
    finally:
        schema_check._violations = real


@pytest.mark.slow
def test_a_planted_mark_makes_no_internal_error_in_validate(tmp_path):
    folder = tmp_path / "rs"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("id: unit\nplayers: {min: 1, max: 2}\nflow: 3\n", encoding="utf-8")
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(REPO), "DAVIT_CACHE_DIR": str(cache)}
    first = subprocess.run([sys.executable, "-m", "interpreter", "validate", "--no-cache", str(folder)], cwd=REPO,
                           env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 1 and "flow" in first.stdout
    # plant a mark for that very tree under every name anyone without the key could compute
    from interpreter.load.yaml_reader import load_yaml_file
    tree = load_yaml_file(folder / "ruleset.yaml", "rs/ruleset.yaml")
    digest = hashlib.sha256(schema_check._schemas_stamp() + b"ruleset\0")
    schema_check._feed(tree, digest)
    (cache / "schema").mkdir(parents=True, exist_ok=True, mode=0o700)
    (cache / "schema" / digest.hexdigest()).write_bytes(b"")
    again = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(folder)], cwd=REPO, env=env,
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 1 and "internal error" not in again.stderr and "flow" in again.stdout


# -- validate's findings ---------------------------------------------------------------------------------------

def validate(folder: Path, cache: Path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "DAVIT_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "interpreter", "validate", str(folder)], cwd=folder.parent, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["old-format", "another-key", "plain-sha256"])
def test_a_planted_findings_entry_does_not_make_an_invalid_ruleset_ok(tmp_path, how):
    folder, cache = tmp_path / "tutorial", tmp_path / "cache"
    shutil.copytree(REPO / "rulesets" / "tutorial", folder)
    text = (folder / "ruleset.yaml").read_text(encoding="utf-8")
    (folder / "ruleset.yaml").write_text(text.replace("flow:", "flow_typo:", 1), encoding="utf-8")
    first = validate(folder, cache)
    assert first.returncode == 1 and "flow_typo" in first.stdout
    (entry,) = (cache / "findings").glob("*.json")
    body = b"[]"
    planted = {"old-format": body,
               "another-key": cache_folder.tag(os.urandom(32), "findings " + entry.stem, body).hex().encode() + body,
               "plain-sha256": hashlib.sha256(body).hexdigest().encode() + body}[how]
    entry.write_bytes(planted)
    again = validate(folder, cache)
    assert again.returncode == 1 and "flow_typo" in again.stdout, "the planted 'no problems' was trusted"
    # the control: the same entry signed with this installation's key is trusted
    entry.write_bytes(cache_folder.tag(real_key(cache), "findings " + entry.stem, body).hex().encode() + body)
    trusted = validate(folder, cache)
    assert trusted.returncode == 0 and trusted.stdout.strip() == "ok: no problems found"


def test_a_findings_entry_is_json_with_its_tag():
    # what a findings entry holds can only ever be findings (never a pickle): its reader parses JSON
    source = (REPO / "interpreter" / "authoring" / "findings_cache.py").read_text(encoding="utf-8")
    assert "json.loads" in source and "tag_matches" in source and json.loads("[]") == []


def test_without_hard_links_the_key_is_still_made_whole(cache, monkeypatch):
    def no_links(*args):
        raise PermissionError("no hard links on this file system")
    monkeypatch.setattr(os, "link", no_links)
    key = cache_folder.secret()
    assert key is not None and (cache / "key" / "secret").read_bytes() == key
    assert [p.name for p in (cache / "key").iterdir()] == ["secret"]
