"""Settings for the whole test session.

davit caches on disk (compiled rule code, validate's findings) under
``$DAVIT_CACHE_DIR``, else the user's cache folder. The suite must never
write there: every test, and every davit process a test starts (they inherit
the environment), uses one private folder made for this session and removed
after it. A test that needs a cache of its own sets ``DAVIT_CACHE_DIR``
itself.
"""
import os
import shutil
import tempfile

_SESSION_CACHE = tempfile.mkdtemp(prefix="davit-test-cache-")
os.environ["DAVIT_CACHE_DIR"] = _SESSION_CACHE
os.environ.pop("DAVIT_NO_CACHE", None)   # the suite runs with the caches on, as users do


def pytest_unconfigure(config):
    shutil.rmtree(_SESSION_CACHE, ignore_errors=True)
