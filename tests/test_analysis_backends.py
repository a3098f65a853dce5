"""The places games run and the page they end in: Ray gives the same numbers, the report renders.

The Ray test starts a local Ray (one CPU, no dashboard) through davit itself;
it skips where Ray is not installed (pip install '.[ray]'). The report test
opens the page in headless Chromium and skips where there is none
(apt-get install chromium); .ci/run installs both.
"""
import json
import re
import shutil
import subprocess

import pytest
from cli_runner import REPO
from cli_runner import run as _run

TIMING = {"seconds", "games_per_second"}


@pytest.fixture(autouse=True)
def at_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def _json(capsys, argv):
    rc = _run(argv + ["--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return {k: v for k, v in json.loads(out.splitlines()[-1]).items() if k not in TIMING}


@pytest.mark.slow
def test_ray_gives_the_same_numbers_as_one_process(capsys, tmp_path, monkeypatch):
    pytest.importorskip("ray", reason="Ray is not installed (pip install '.[ray]')")
    # away from the source tree, so that the workers can only use the engine and ruleset davit ships them
    monkeypatch.chdir(tmp_path)
    argv = ["compare", "tutorial", "--variant", "bigger-boat", "--games", "120", "--players", "2", "--seed", "3",
            "--coverage", "--workers", "1"]
    here = _json(capsys, argv)
    on_ray = _json(capsys, argv + ["--backend", "ray"])
    assert here["games"] == 120
    assert on_ray == here


@pytest.mark.slow
def test_ray_plays_combined_and_outside_variants_as_one_process(capsys, tmp_path, monkeypatch):
    """A combination of the ruleset's variants and a variant file from a folder of the designer's own."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install '.[ray]')")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ideas").mkdir()
    (tmp_path / "ideas" / "slower.yaml").write_text("variant: slower\nextends: collapsible-d\n"
                                                    "constants:\n  unaware_steps_per_turn: 2\n")
    argv = ["compare", "collapsible-d", "--variant", "composure+hang-on", "--variant", "ideas/slower.yaml",
            "--games", "40", "--players", "4", "--seed", "5", "--workers", "1"]
    here = _json(capsys, argv)
    on_ray = _json(capsys, argv + ["--workers", "2", "--backend", "ray"])
    assert [v["variant"] for v in here["variants"]] == [None, "composure+hang-on", "ideas/slower.yaml"]
    assert on_ray == here


@pytest.mark.slow
def test_ray_sweeps_as_one_process(capsys, tmp_path, monkeypatch):
    """Each point of a sweep is a variant file from a temporary folder: it travels like a designer's own."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install '.[ray]')")
    monkeypatch.chdir(tmp_path)
    argv = ["sweep", "der-mythos", "--set", "constants.overload_limits.4=16,24", "--games", "60", "--workers", "1"]
    here = _json(capsys, argv)
    on_ray = _json(capsys, argv + ["--workers", "2", "--backend", "ray"])
    assert len(here["points"]) == 2 and on_ray == here


def test_a_worker_leaves_no_folder_behind(tmp_path, monkeypatch):
    """The shipped files are written, built once and removed at once; the built ruleset serves later chunks."""
    import tempfile

    from interpreter.analysis import ray_backend
    from interpreter.analysis.runner import RunSpec, play_chunk
    outside = tmp_path / "ideas" / "slower.yaml"
    outside.parent.mkdir()
    outside.write_text("variant: slower\nextends: collapsible-d\nconstants:\n  unaware_steps_per_turn: 2\n")
    workers_tmp = tmp_path / "worker"
    workers_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(workers_tmp))
    monkeypatch.setattr(ray_backend, "_built", {})
    combined = f"composure+{outside}"
    files, variant = ray_backend.ruleset_files("collapsible-d", combined)
    assert variant == "composure+outside/slower.yaml"
    assert files["outside/slower.yaml"].splitlines()[1] == "extends: collapsible-d  # shipped; was: collapsible-d"
    # on a worker the variant sits beside its base: its extends: would point nowhere there (same line numbers)
    assert "extends" not in files["variants/composure.yaml"]
    spec = RunSpec("ruleset.yaml", variant, 4)
    first = ray_backend._ray_chunk(files, spec, [(0, 11)])
    again = ray_backend._ray_chunk(files, spec, [(0, 11)])
    assert first == again == play_chunk(RunSpec("collapsible-d", combined, 4), [(0, 11)])
    assert len(ray_backend._built) == 1
    assert list(workers_tmp.iterdir()) == []


def test_ray_ships_the_ruleset_files(tmp_path):
    """A ruleset that lives only on the driver's disk: its main file, includes and variant travel with the job."""
    from interpreter.analysis.ray_backend import _folder_for, ruleset_files
    from interpreter.rules.loading import load_ruleset
    files, variant = ruleset_files("der-mythos", "simplified-scoring")
    assert variant == "simplified-scoring"
    assert "ruleset.yaml" in files and "variants/simplified-scoring.yaml" in files
    assert any(name.endswith(".yaml") and "/" not in name and name != "ruleset.yaml" for name in files)  # cards.yaml
    folder = _folder_for(files)
    assert load_ruleset(folder, variant).fingerprint == load_ruleset("der-mythos", "simplified-scoring").fingerprint


def test_ray_backend_without_ray_is_one_line(capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "ray", None)
    rc = _run(["simulate", "tutorial", "--games", "2", "--backend", "ray"])
    assert rc == 1
    assert capsys.readouterr().err.strip() == "davit: --backend ray needs Ray: pip install 'davit[ray]'"


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _chromium(tmp_path, *args):
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                           "--disable-component-update", "--disable-sync", "--no-first-run",
                           f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=15000", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium to open the report (apt-get install chromium)")
def test_report_opens_offline_with_its_charts(tmp_path, capsys):
    page = tmp_path / "report.html"
    rc = _run(["compare", "der-mythos", "--variant", "simplified-scoring", "--games", "20", "--players", "3",
               "--coverage", "--report", str(page)])
    assert rc == 0, capsys.readouterr().err
    html = page.read_text()
    assert not re.search(r"<script[^>]*\ssrc=", html) and "http" not in html.replace("http://www.w3.org", "")
    dom = _chromium(tmp_path, "--window-size=1280,2400", "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    rendered = dom.stdout
    # what changed comes first: the verdict, the two charts of differences; then win rates, scores, lengths,
    # the metrics, capsized boats round by round and the rule coverage; the table last
    charts = re.findall(r'<section id="chart\d+"', rendered)
    assert len(charts) == 8 and rendered.count("<svg") >= 8
    assert rendered.count('class="mark"') >= 2 * 3          # win-rate bars: seats × variants, each with its title
    assert "simplified-scoring" in rendered and "base" in rendered
    assert rendered.index('class="verdict"') < rendered.index('id="chart0"') < rendered.index("<pre>")
    # at 1280 px nothing is clipped: no block is wider than its box, and the page needs no sideways scrolling
    assert 'data-clipped="0"' in rendered
    assert int(re.search(r'data-page-width="(\d+)"', rendered).group(1)) <= 1280
    shot = tmp_path / "report.png"
    done = _chromium(tmp_path, "--window-size=1280,2400", f"--screenshot={shot}", page.as_uri())
    assert done.returncode == 0 and shot.stat().st_size > 20_000   # a blank page is a few kB


@pytest.mark.slow
def test_a_report_of_2000_games_stays_small(tmp_path, capsys):
    page = tmp_path / "report.html"
    rc = _run(["compare", "tutorial", "--variant", "bigger-boat", "--players", "2", "--games", "2000",
               "--coverage", "--report", str(page)])
    assert rc == 0, capsys.readouterr().err
    assert page.stat().st_size < 1_000_000     # summaries, not games: well under, in fact
