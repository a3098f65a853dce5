"""Only regular files are read, never past the size cap, and files a ruleset names stay in its folder (issue 30).

A link to ``/dev/zero`` has size 0 and never ends; a FIFO blocks whoever
opens it; a link in ``variants/`` or ``scenarios/``, or a scenario's
``ruleset:``, could make davit read (and quote) any file on disk. Every
refusal is one located line and a non-zero exit, in bounded time. A path
the user gives (the command line, the Python API) may still lie anywhere.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.errors import DavitError, LoadError
from interpreter.load.limits import MAX_FILE_BYTES
from interpreter.load.metadata import ruleset_summary
from interpreter.load.regular import NotRegular, TooLarge, read_capped
from interpreter.load.yaml_reader import load_yaml_file

REPO = Path(__file__).resolve().parent.parent
SECRET = "secret_token_outside: 1\nplayers: {min: 9, max: 9}\n"


def davit(*args, cwd=REPO, timeout=60):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("DAVIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture
def ruleset(tmp_path):
    folder = tmp_path / "rs"
    shutil.copytree(REPO / "rulesets" / "tutorial", folder)
    return folder


@pytest.fixture
def outside(tmp_path):
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "private.yaml").write_text(SECRET, encoding="utf-8")
    return folder / "private.yaml"


def one_refusal(done, *words):
    """One located line (or one davit: line) on the output, a non-zero exit, no traceback."""
    text = done.stdout + done.stderr
    assert done.returncode != 0, text
    assert "Traceback" not in text and "internal error" not in text, text
    assert all(word in text for word in words), text
    return text


# -- reading ---------------------------------------------------------------------------------------------------

def test_a_device_a_fifo_and_a_folder_are_refused_by_the_read(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    for path, kind in ((zero, "a device"), (fifo, "a FIFO"), (tmp_path, "a folder")):
        with pytest.raises(NotRegular, match=kind):
            read_capped(path, 100)
        with pytest.raises(LoadError, match="not a regular file") as caught:
            load_yaml_file(path, "shown.yaml")
        assert str(caught.value).startswith("shown.yaml:1:1: ")


def test_the_cap_holds_whatever_stat_says(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(LoadError, match="larger than"):
        load_yaml_file(big)
    exact = tmp_path / "exact"
    exact.write_bytes(b"x" * 10)
    assert read_capped(exact, 10) == b"x" * 10
    with pytest.raises(TooLarge):
        read_capped(exact, 9)
    status = Path("/proc/self/status")   # a regular file whose stat size is 0, yet it has content
    if status.exists() and status.stat().st_size == 0:
        with pytest.raises(TooLarge):
            read_capped(status, 10)


@pytest.mark.slow
@pytest.mark.parametrize("where", ["variant", "scenario", "ruleset"])
@pytest.mark.parametrize("what", ["dev-zero", "fifo"])
def test_validate_refuses_a_file_that_is_not_a_file_at_once(ruleset, where, what):
    target = {"variant": ruleset / "variants" / "bad.yaml", "scenario": ruleset / "scenarios" / "bad.yaml",
              "ruleset": ruleset / "ruleset.yaml"}[where]
    if target.exists():
        target.unlink()
    if what == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    done = davit("validate", str(ruleset), timeout=60)   # before: a hang, or a MemoryError after a minute
    text = one_refusal(done)
    assert "not a regular file" in text or "outside the ruleset folder" in text


@pytest.mark.slow
def test_play_and_test_refuse_a_fifo_named_by_the_user(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    one_refusal(davit("play", "tutorial", "--variant", str(fifo), timeout=60), "FIFO")
    one_refusal(davit("test", str(fifo), timeout=60), "FIFO")
    one_refusal(davit("validate", str(fifo), timeout=60), "FIFO")


# -- confinement -----------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_variant_linked_out_of_the_ruleset_is_refused(ruleset, outside):
    (ruleset / "variants" / "out.yaml").symlink_to(outside)
    done = davit("validate", str(ruleset))
    text = one_refusal(done, "out.yaml", "outside the ruleset folder")
    assert "secret_token_outside" not in text and "elsewhere" not in text
    with pytest.raises(DavitError, match="outside the ruleset folder"):
        load_ruleset(ruleset, "out")
    # davit list reads its players from the files: not from that one
    summary = ruleset_summary(ruleset / "ruleset.yaml")
    (out,) = [v for v in summary["variants"] if v["id"] == "out"]
    assert out["players"] != [9, 9]


def test_a_variant_linked_inside_the_ruleset_is_read(ruleset):
    (ruleset / "spare.yaml").write_text((ruleset / "variants" / "bigger-boat.yaml").read_text().replace(
        "variant: bigger-boat", "variant: same"), encoding="utf-8")
    (ruleset / "variants" / "same.yaml").symlink_to(ruleset / "spare.yaml")
    assert load_ruleset(ruleset, "same").variant == "same"


@pytest.mark.slow
def test_a_scenario_linked_out_of_the_ruleset_is_refused(ruleset, outside):
    (ruleset / "scenarios" / "out.yaml").symlink_to(outside)
    for command in ("validate", "test"):
        text = one_refusal(davit(command, str(ruleset)), "out.yaml", "outside the ruleset folder")
        assert "secret_token_outside" not in text


@pytest.mark.slow
def test_a_scenarios_ruleset_must_be_bundled_or_inside(ruleset, outside, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(REPO / "rulesets" / "tutorial", other)
    for ref in (str(other), str(outside), "../../elsewhere/private.yaml", "/etc"):
        scenario = ruleset / "scenarios" / "elsewhere.yaml"
        scenario.write_text(f"scenario: s\nruleset: {ref}\nplayers: 2\nexpect: 'true'\n", encoding="utf-8")
        text = one_refusal(davit("test", str(scenario)), "elsewhere.yaml:2:10:",
                           "must be a bundled ruleset id or lie inside")
        assert "secret_token_outside" not in text
    for ref in ("tutorial", "..", str(REPO / "rulesets" / "tutorial")):   # a bundled id, its own ruleset
        scenario = ruleset / "scenarios" / "fine.yaml"
        scenario.write_text(f"scenario: s\nruleset: {ref}\nplayers: 2\nexpect: 'true'\n", encoding="utf-8")
        done = davit("test", str(scenario))
        assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_a_scenarios_variant_path_must_lie_inside(ruleset, outside):
    scenario = ruleset / "scenarios" / "v.yaml"
    scenario.write_text(f"scenario: s\nplayers: 2\nvariant: {outside}\nexpect: 'true'\n", encoding="utf-8")
    text = one_refusal(davit("test", str(scenario)), "v.yaml:3:", "must be a variant of its ruleset")
    assert "secret_token_outside" not in text


@pytest.mark.slow
def test_an_include_out_of_the_folder_is_refused_by_list_too(ruleset, outside):
    text = (ruleset / "ruleset.yaml").read_text(encoding="utf-8")
    assert "include: [board.yaml]" in text
    (ruleset / "ruleset.yaml").write_text(text.replace("include: [board.yaml]",
                                                       "include: [../elsewhere/private.yaml, board.yaml]"),
                                          encoding="utf-8")
    assert ruleset_summary(ruleset / "ruleset.yaml")["players"] != [9, 9]
    one_refusal(davit("validate", str(ruleset)), "must be a file beside the ruleset")


@pytest.mark.slow
def test_a_path_the_user_gives_may_lie_anywhere(ruleset, tmp_path):
    mine = tmp_path / "my" / "variants-of-mine"
    mine.mkdir(parents=True)
    (mine / "bigger.yaml").write_text((ruleset / "variants" / "bigger-boat.yaml").read_text(), encoding="utf-8")
    link = tmp_path / "linked.yaml"
    link.symlink_to(mine / "bigger.yaml")                      # a link the user made, to a file elsewhere
    for given in (mine / "bigger.yaml", link):
        assert load_ruleset("tutorial", variant=given).variant == "bigger-boat"
        done = davit("play", "tutorial", "--variant", str(given), "--players", "2", "--quiet")
        assert done.returncode == 0, done.stderr
    scenario = tmp_path / "anywhere.yaml"                      # a scenario file the user names, outside any ruleset
    scenario.write_text("scenario: s\nruleset: tutorial\nplayers: 2\nexpect: 'true'\n", encoding="utf-8")
    assert davit("test", str(scenario)).returncode == 0


@pytest.mark.slow
def test_resume_and_copy_refuse_what_is_not_a_file(ruleset, tmp_path, outside):
    fifo = tmp_path / "saved.json"
    os.mkfifo(fifo)
    one_refusal(davit("play", "tutorial", "--resume", str(fifo)), "FIFO")
    os.mkfifo(ruleset / "variants" / "pipe.yaml")
    one_refusal(davit("copy", str(ruleset), str(tmp_path / "copy1")), "pipe.yaml", "not a regular file")
    (ruleset / "variants" / "pipe.yaml").unlink()
    (ruleset / "variants" / "out.yaml").symlink_to(outside)
    one_refusal(davit("copy", str(ruleset), str(tmp_path / "copy2")), "out.yaml", "link out of the ruleset folder")
    assert not (tmp_path / "copy1").exists() and not (tmp_path / "copy2").exists()
    (ruleset / "variants" / "out.yaml").unlink()
    assert davit("copy", str(ruleset), str(tmp_path / "copy3")).returncode == 0
