"""Settings for the whole test session.

davit caches on disk (compiled rule code, validate's findings) under
``$DAVIT_CACHE_DIR``, else the user's cache folder. The suite must never
write there: every test, and every davit process a test starts (they inherit
the environment), uses one private folder made for this session and removed
after it. A test that needs a cache of its own sets ``DAVIT_CACHE_DIR``
itself.

Two tiers (pyproject.toml registers the marks): ``pytest`` runs everything, as
CI does; ``pytest -m "not slow"`` leaves out the tests marked ``slow`` (the
docs' commands, benchmarks, statistical checks and every test that starts a
process) and still covers the engine's logic. A test outside ``slow`` that
starts a process (``subprocess``, a fork for workers) fails, saying so, so the
fast tier stays free of them.
"""
import gc
import os
import shutil
import subprocess
import tempfile

import pytest

_SESSION_CACHE = tempfile.mkdtemp(prefix="davit-test-cache-")
os.environ["DAVIT_CACHE_DIR"] = _SESSION_CACHE
os.environ.pop("DAVIT_NO_CACHE", None)   # the suite runs with the caches on, as users do


def pytest_unconfigure(config):
    shutil.rmtree(_SESSION_CACHE, ignore_errors=True)
    # as `davit` does at exit (cli/main.py's run): Python's shutdown would otherwise walk every object
    # still alive (every ruleset the session built, with its code) again and again, for seconds of CPU
    gc.freeze()


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("calibration"):   # a statistical check over hundreds of games
            item.add_marker(pytest.mark.slow)


def _refuse_a_process(*args, **kwargs):
    raise AssertionError("this test starts a process: mark it @pytest.mark.slow (see tests/conftest.py)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Outside 'slow', no process may start: in the test, its fixtures (module-wide ones too) or their teardown."""
    if item.get_closest_marker("slow") is not None:
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subprocess.Popen, "__init__", _refuse_a_process)
        patch.setattr(os, "fork", _refuse_a_process, raising=False)   # not on every platform
        patch.setattr(os, "posix_spawn", _refuse_a_process, raising=False)
        yield
