"""Compiled rule code kept on disk (interpreter/machine/code_cache.py).

A second process, or this one with its memory caches cleared, runs the code
read from the cache and plays the same games; a damaged file, another stamp,
a folder that cannot be made are cache misses and never errors; an error in
code read from the cache still names its DSL ``file:line:col``; the folder
is its owner's alone.
"""
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.dsl import snippet_memo
from interpreter.errors import GameError
from interpreter.load import cache_folder, tree_cache
from interpreter.machine import code_cache, linetable
from interpreter.rules import loading

REPO = Path(__file__).resolve().parent.parent

# one process: load a ruleset, play seeded games, print each game's log and state hashes and what was compiled
PLAY = r"""
import hashlib, json, sys
from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.machine import code_cache, linetable
compiled = []
real = compile
def counting(*args, **kwargs):
    compiled.append(args[1])
    return real(*args, **kwargs)
code_cache.compile = counting
rs = load_ruleset(sys.argv[1])
games = []
for seed in (1, 2):
    game = Game(rs, 3, seed=seed)
    play_out(game, make_agents("random", 3, seed))
    state = json.dumps(game.state.to_json(), sort_keys=True, default=str)
    games.append([game.log_hash(), hashlib.sha256(state.encode()).hexdigest()])
print(json.dumps({"games": games, "compiled": len(compiled)}))
"""


def play_in_process(ruleset, cache: Path, **env) -> dict:
    done = subprocess.run([sys.executable, "-c", PLAY, ruleset], cwd=REPO, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO), "DAVIT_CACHE_DIR": str(cache), **env})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def files(cache: Path) -> list[Path]:
    folder = cache / "code"
    return sorted(folder.iterdir()) if folder.is_dir() else []


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["tutorial", "titanic"])
def test_a_second_process_runs_the_code_from_disk_and_plays_the_same_games(tmp_path, ruleset):
    without = play_in_process(ruleset, tmp_path / "off", DAVIT_NO_CACHE="1")
    assert without["compiled"] > 0 and files(tmp_path / "off") == []
    first = play_in_process(ruleset, tmp_path / "cache")
    assert first["compiled"] > 0 and len(files(tmp_path / "cache")) == 1
    second = play_in_process(ruleset, tmp_path / "cache")
    assert second["compiled"] == 0               # every function and runner came from the file
    assert second["games"] == first["games"] == without["games"]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache folder, fresh memory caches, and a count of what code_cache compiles."""
    monkeypatch.setenv("DAVIT_CACHE_DIR", str(tmp_path / "cache"))
    compiled = []

    def counting(source, name, mode):
        compiled.append(name)
        return compile(source, name, mode)
    monkeypatch.setattr(code_cache, "compile", counting, raising=False)
    BEFORE_THIS_TEST.clear()
    BEFORE_THIS_TEST.update(linetable.TABLES)
    forget()
    yield compiled
    forget()


def forget():
    """As a new process starts: no ruleset, tree or cache file kept in memory, no line table of this test's code."""
    loading._load.cache_clear()
    tree_cache._TREES.clear()
    code_cache.clear_memory()
    snippet_memo.forget()   # the compiled snippets variants reuse: a new process has none
    for name in set(linetable.TABLES) - BEFORE_THIS_TEST:
        del linetable.TABLES[name]


BEFORE_THIS_TEST: set = set()   # line tables of code other tests made, kept: they may still hold it


def play_two(ruleset_path) -> list:
    rs = load_ruleset(ruleset_path)
    out = []
    for seed in (3, 4):
        game = Game(rs, 2, seed=seed)
        play_out(game, make_agents("random", 2, seed))
        out.append(game.log_hash())
    return out


def flipped(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]


def test_a_damaged_file_is_ignored_and_written_again(tmp_path, cache):
    reference = play_two("tutorial")
    filled = sorted(cache)                        # the empty cache was filled: everything compiled
    assert filled
    (path,) = files(tmp_path / "cache")
    whole = path.read_bytes()
    middle = len(whole) // 2                      # inside one entry: the rest of the file would still read
    for damaged in (whole[:middle], flipped(whole, middle), flipped(whole, len(whole) - 1), b"", b"\x00" * 100):
        path.write_bytes(damaged)
        forget()
        cache.clear()
        assert play_two("tutorial") == reference
        assert len(cache) == len(filled)          # the whole file was refused, not only a damaged entry
        assert path.read_bytes() != damaged       # and the file was replaced by a good one
        forget()
        cache.clear()
        assert play_two("tutorial") == reference and cache == []


def test_another_stamp_is_a_miss(tmp_path, cache, monkeypatch):
    play_two("tutorial")
    forget()
    cache.clear()
    play_two("tutorial")
    assert cache == []                            # the same stamp: read from the file
    ours = code_cache.stamp()
    other = ours[:-2] + bytes([ours[-2] ^ 1]) + b"\n"   # as long as ours: only the comparison can tell them apart
    monkeypatch.setattr(code_cache, "stamp", lambda: other)
    forget()
    play_two("tutorial")
    assert cache                                  # another Python or davit: compiled afresh


def test_a_folder_that_cannot_be_made_or_the_switch_only_compiles(tmp_path, cache, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DAVIT_CACHE_DIR", str(blocker))
    reference = play_two("tutorial")
    assert cache and cache_folder.cache_dir("code") is None
    monkeypatch.setenv("DAVIT_CACHE_DIR", str(tmp_path / "switched-off"))
    monkeypatch.setenv("DAVIT_NO_CACHE", "1")
    forget()
    assert play_two("tutorial") == reference
    assert not (tmp_path / "switched-off").exists()
    assert cache_folder.cache_dir("findings") is None   # the switch turns validate's cache off too


def test_whatever_fails_inside_the_cache_the_code_is_compiled_as_before(tmp_path, cache, monkeypatch):
    reference = play_two("tutorial")
    forget()

    def broken(self):
        raise RuntimeError("a cache bug")
    monkeypatch.setattr(code_cache._File, "read", broken)
    cache.clear()
    assert play_two("tutorial") == reference      # no error reaches the game
    assert cache                                  # the file's code was there, but compiled afresh


def test_an_error_in_code_read_from_the_cache_names_the_rule(tmp_path, cache):
    folder = tmp_path / "rs"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "id: unit\nplayers: {min: 1, max: 2}\nflow:\n  - do: |\n"
        "      r = first([0, 1], x -> 3 / x > 9)\n", encoding="utf-8")
    found = []
    for _ in range(2):
        forget()
        cache.clear()
        with pytest.raises(GameError) as caught:
            Game(load_ruleset(folder), 1)
        found.append((caught.value.message, caught.value.location.line, caught.value.location.column, list(cache)))
    assert "division by zero (with /, // or %)" in found[0][0] and found[0][3]
    # the second time nothing was compiled, the code (the lambda nested in it too) came from the file
    assert found[1][3] == [] and found[1][:3] == found[0][:3] == (found[0][0], 5, 30)


def test_the_folder_is_its_owners_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("DAVIT_CACHE_DIR", str(tmp_path / "cache"))
    folder = cache_folder.cache_dir("code")
    assert folder == tmp_path / "cache" / "code"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    (folder / "planted.bin").write_bytes(b"")
    folder.chmod(0o777)                            # opened up: whatever lies in it may be another user's
    assert cache_folder.cache_dir("code") is None
    folder.chmod(0o750)                            # others may read, not write: still safe to use
    assert cache_folder.cache_dir("code") == folder
    folder.chmod(0o700)


@pytest.mark.slow
def test_lark_keeps_its_tables_in_davits_folder_never_in_the_shared_temporary_one(tmp_path):
    # lark's own cache is a pickle (in the temporary folder by default): davit keeps its tables itself, signed
    code = "from interpreter.dsl import parser\nparser._lark()\n"
    for switch in ({}, {"DAVIT_NO_CACHE": "1"}):
        temporary, cache = tmp_path / f"tmp{len(switch)}", tmp_path / f"cache{len(switch)}"
        temporary.mkdir()
        done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(temporary),
                                   "DAVIT_CACHE_DIR": str(cache), **switch})
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert list(temporary.iterdir()) == []
        kept = sorted(p.name for p in (cache / "lark").iterdir()) if (cache / "lark").is_dir() else []
        assert len(kept) == (0 if switch else 1) and all(name.startswith("tables-") for name in kept)
