"""Commands shown in docs/dsl.md, docs/scenarios.md and docs/flow.md print what the pages say."""
from __future__ import annotations

import re

import pytest
from cli_runner import REPO, davit

DOCS = REPO / "docs"


def _shown_validations():
    """(command arguments, expected output) for each `$ davit ...` (or `$ PYTHONPATH=. python3 -m interpreter ...`)
    block."""
    out = []
    for page in ("dsl.md", "scenarios.md", "flow.md"):
        text = (DOCS / page).read_text()
        shown = r"^\$ (?:davit|PYTHONPATH=\. python3 -m interpreter) ([^\n]+)\n(.*?)^```"
        for m in re.finditer(shown, text, re.M | re.S):
            out.append(pytest.param(m.group(1).split(), m.group(2), id=f"{page}: {m.group(1)}"))
    return out


def test_the_pages_show_commands_with_their_output():
    assert {param.id.split(":")[0] for param in _shown_validations()} >= {"dsl.md", "flow.md"}


@pytest.mark.slow
@pytest.mark.parametrize("argv, expected", _shown_validations())
def test_shown_output_is_what_davit_prints(argv, expected):
    proc = davit(*argv)
    assert proc.stdout == expected


def _test_commands():
    text = (DOCS / "scenarios.md").read_text()
    block = re.search(r"```sh\n(davit test rulesets -k.*?)```", text, re.S).group(1)
    return [line.split("#")[0].split()[1:] for line in block.splitlines() if line.strip()]


@pytest.mark.slow
@pytest.mark.parametrize("argv", _test_commands(), ids=" ".join)
def test_filtered_test_commands_run_some_scenarios_and_pass(argv):
    proc = davit(*argv, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"^[1-9]\d* passed, 0 failed$", proc.stdout, re.M)


def _shown_runs():
    """(command arguments, expected output) for each ```sh block of one `davit test FILE` in
    docs/scenarios.md that is followed by the output it prints."""
    text = (DOCS / "scenarios.md").read_text()
    found = re.findall(r"^```sh\ndavit (test [^\n#]+)\n```\n\n```\n(.*?)^```", text, re.M | re.S)
    return [pytest.param(argv.split(), out, id=argv) for argv, out in found]


def test_the_page_shows_a_run_with_its_output():
    assert _shown_runs()


@pytest.mark.slow
@pytest.mark.parametrize("argv, expected", _shown_runs())
def test_shown_runs_print_what_the_page_says(argv, expected):
    proc = davit(*argv, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == expected


def test_pages_show_the_davit_command_not_a_checkout_path():
    pages = sorted(DOCS.rglob("*.md")) + [REPO / "README.md"]
    assert len(pages) > 10
    for page in pages:
        text = page.read_text()
        for path in ("PYTHONPATH=", "/work/", "/root/", "/home/"):
            assert path not in text, f"{page.relative_to(REPO)} names {path}"
