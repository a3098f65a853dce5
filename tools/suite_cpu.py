"""A pytest plugin for tools/bench_suite.py: the CPU time each test costs, written to a JSON file.

Loaded with ``-p suite_cpu`` (``tools/`` on ``PYTHONPATH``), so it works on any
checkout, including one older than this file. Per test it records the CPU
time (user + system) of the pytest process and of the child processes that
ended during the test (a CLI run, a worker, a browser), setup and teardown
included; fixtures shared by several tests are charged to the test that first
needs them. ``DAVIT_SUITE_CPU`` names the output file.
"""
from __future__ import annotations

import json
import os
import resource

import pytest

_times: dict[str, float] = {}


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    start = _cpu()
    yield
    _times[item.nodeid] = _times.get(item.nodeid, 0.0) + _cpu() - start


def pytest_sessionfinish(session, exitstatus):
    out = os.environ.get("DAVIT_SUITE_CPU")
    if out:
        with open(out, "w") as f:
            json.dump({"tests": _times, "session": _cpu()}, f)
