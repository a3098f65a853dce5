"""tools/bench.py, the command docs/performance.md shows, runs and prints its table (timings are not checked)."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow   # see tests/conftest.py: the fast tier leaves it out

ROOT = Path(__file__).resolve().parent.parent


def test_bench_runs_old_and_new_side_by_side():
    # the checkout itself serves as the baseline: the point is that both workers run and the table is whole
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench.py"), "--rulesets", "tutorial", "--rounds", "1",
                           "--seconds", "0.05", "--baseline", str(ROOT)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "old games/s" in lines[0] and "new/old" in lines[0] and "deepcopy" in lines[0]
    rows = [line.split() for line in lines[1:]]
    assert [row[:2] for row in rows] == [["tutorial", "2"], ["tutorial", "4"]]
    assert all(float(row[2]) > 0 and float(row[4]) > 0 for row in rows)


def test_bench_measures_a_search_bots_iterations_old_and_new():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench.py"), "--search", "ismcts:5", "--rulesets",
                           "tutorial", "--rounds", "1", "--seconds", "0.05", "--baseline", str(ROOT)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["ruleset", "p", "old", "iter/s", "new", "iter/s", "new/old"]
    row = lines[1].split()
    assert row[:2] == ["tutorial", "4"] and float(row[2]) > 0 and float(row[3]) > 0 and row[4].endswith("×")


def test_bench_measures_views_without_and_with_the_log():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench.py"), "--views", "--rulesets", "tutorial",
                           "--rounds", "1", "--seconds", "0.05"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["ruleset", "p", "no", "log", "new", "views/s", "log", "new", "views/s"]
    row = lines[1].split()
    assert row[:2] == ["tutorial", "4"] and float(row[2]) > 0 and float(row[3]) > 0


def test_bench_plays_with_the_log_on_when_asked():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench.py"), "--log", "--rulesets", "tutorial",
                           "--rounds", "1", "--seconds", "0.05", "--no-reference"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[-1] == "events/s"
    rows = [line.split() for line in lines[1:]]
    assert [row[:2] for row in rows] == [["tutorial", "2"], ["tutorial", "4"]]
    assert all(float(row[2]) > 0 and float(row[-1]) > 0 for row in rows)   # games played, events logged


def test_bench_measures_the_hand_written_yardstick():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench.py"), "--rulesets", "der-mythos",
                           "--rounds", "1", "--seconds", "0.05"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[-4:] == ["ref/new", "fast/new", "ref/ceil", "ref/fast"]
    rows = [line.split() for line in lines[1:]]
    assert len(rows) == 2
    assert all(float(cell.rstrip("×")) > 0 and cell.endswith("×") for row in rows for cell in row[-4:])


def test_bench_cli_runs_old_and_new_side_by_side():
    # tools/bench_cli.py, shown in docs/performance.md: the checkout serves as its own baseline
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_cli.py"), "--runs", "1", "--only", "davit list",
                           "--baseline", str(ROOT)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["command", "old", "min", "old", "median", "new", "min", "new", "median", "new/old"]
    assert len(lines) == 2 and lines[1].startswith("davit list ") and lines[1].endswith("×")
    assert all(float(cell.rstrip("s")) > 0 for cell in lines[1].split()[2:6])


def test_bench_suite_prints_the_suites_cpu_time_per_file_and_per_test():
    # tools/bench_suite.py, shown in docs/performance.md, on one small file (a pytest of its own: no baseline,
    # since each checkout's run is a whole pytest start)
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_suite.py"), "--top", "2",
                           "tests/test_prims_dice.py"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "== selection"
    cpu = lines[1].split()
    assert cpu[0] == "new:" and float(cpu[1]) > 0 and cpu[2:4] == ["s", "CPU"] and "passed" in lines[1]
    files = lines[lines.index(next(x for x in lines if x.startswith("CPU s per test file"))) + 1]
    assert files.split()[0] == "tests/test_prims_dice.py" and float(files.split()[1]) >= 0
    slowest = lines[lines.index(next(x for x in lines if x.startswith("slowest tests"))) + 1:]
    assert len(slowest) == 2 and all(row.startswith("tests/test_prims_dice.py::") for row in slowest)


def test_bench_start_measures_a_cold_start_with_the_code_cache_off_empty_and_warm():
    # tools/bench_start.py, shown in docs/performance.md, one round of its smallest command
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_start.py"), "--rounds", "1", "--only",
                           "der-mythos"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["command", "off", "empty", "warm", "warm/off"]
    assert len(lines) == 2 and lines[1].startswith("davit simulate der-mythos ") and lines[1].endswith("×")
    assert all(float(cell.rstrip("s")) > 0 for cell in lines[1].split()[-4:-1])


def test_bench_moves_times_a_bots_move_old_and_new():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_moves.py"), "--rulesets", "tutorial", "--rounds",
                           "1", "--agent", "ismcts:5", "--baseline", str(ROOT)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[-1] == "new/old"
    rows = [line.split() for line in lines[1:]]
    assert [row[:2] for row in rows] == [["tutorial", "2"], ["tutorial", "4"]]
    assert all(row[3] == "5" and row[6] == "5" and row[-1].endswith("×") for row in rows)   # 5 iterations a move


def test_bench_validate_times_a_cold_validate_old_and_new():
    # tools/bench_validate.py, shown in docs/performance.md, on one small ruleset: the checkout is its own baseline
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_validate.py"), "--rounds", "1", "--path",
                           "rulesets/pig", "--baseline", str(ROOT)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and lines[0].startswith("round  1:")
    assert [cell for cell in lines[0].split() if cell in ("old", "new")] == ["old", "new"]
    assert lines[1].startswith("cold davit validate rulesets/pig, CPU seconds (median of 1): old ")
    assert lines[2].startswith("old/new: ") and float(lines[2].split()[1].rstrip("×")) > 0


def test_bench_instructions_refuses_a_baseline_that_is_no_checkout(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_instructions.py"), "--baseline",
                           str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert "valgrind is not installed" in done.stderr or "is not a davit checkout" in done.stderr


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind counts the instructions")
def test_bench_instructions_counts_old_and_new_games():
    # tools/bench_instructions.py, shown in docs/performance.md: the checkout is its own baseline, so the two
    # counts of the same games are equal up to the process's own noise
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_instructions.py"), "--baseline", str(ROOT),
                           "--only", "tutorial:2:20"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    assert line.split()[:4] == ["tutorial", "2", "20", "games"]
    assert abs(float(line.split()[-1].rstrip("×")) - 1.0) < 0.05
