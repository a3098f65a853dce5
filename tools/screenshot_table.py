"""Take the screenshots of the web tables shown in docs/play.md: docs/tables/RULESET.png, 1280 px
wide, and docs/tables/RULESET-390.png, 390 px wide (a phone).

    python tools/screenshot_table.py [RULESET ...] [--players N] [--decisions N]

For each ruleset (default: every bundled one) serves one game on a free local
port (seat 0 a person, bots elsewhere), makes a few decisions so the log and
the table have something in them, and photographs seat 0's page at each width
with Debian's headless chromium through playwright (the web extra): the top of
the page, at most TALLEST px of it. The pictures are made small with pngquant
when it is installed (apt-get install pngquant).
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.authoring.draw import to_svg
from interpreter.load.files import bundled_ids
from interpreter.play.game import Game
from interpreter.rules.loading import load_ruleset
from interpreter.web.server import BackgroundServer
from interpreter.web.table import WebTable

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
OUT = Path(__file__).resolve().parent.parent / "docs" / "tables"
# (viewport width, viewport height, the most of the page's height a picture shows, file name suffix)
WIDTHS = [(1280, 900, 1400, ""), (390, 844, 1700, "-390")]


def shoot(browser, rid: str, players: int, decisions: int, out: Path) -> list:
    """Seat 0's page of a ``rid`` game after ``decisions`` of its decisions, at each width; the files written."""
    rs = load_ruleset(rid, None)
    players = min(max(players, rs.min_players), rs.max_players)
    table = WebTable(Game(rs, players, seed=4), "human,random", seed=4)
    for _ in range(decisions):
        if table.game.is_over:
            break
        table.act(0, 0, table.step)
    written = []
    with BackgroundServer(table, to_svg(rs)) as base:
        for width, height, tallest, suffix in WIDTHS:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"{base}/seat/{table.token_of(0)}")
            page.wait_for_function("!['loading', 'sending'].includes(document.body.dataset.state)")
            full = page.evaluate("document.documentElement.scrollHeight")
            path = out / f"{rid}{suffix}.png"
            page.screenshot(path=str(path), full_page=True,
                            clip={"x": 0, "y": 0, "width": width, "height": min(full, tallest)})
            page.close()
            if shutil.which("pngquant"):   # 256 colours are plenty for a page of text: a third of the size
                subprocess.run(["pngquant", "--force", "--skip-if-larger", "--output", str(path), "--", str(path)],
                               check=False)
            written.append(path)
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", help="bundled ruleset ids (default: all)")
    parser.add_argument("--players", type=int, default=3, help="players (within what each ruleset allows)")
    parser.add_argument("--decisions", type=int, default=6, help="decisions of seat 0 before the picture")
    parser.add_argument("--out", default=str(OUT), help="folder of the pictures")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no chromium: apt-get install chromium", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        for rid in args.rulesets or bundled_ids():
            for path in shoot(browser, rid, args.players, args.decisions, out):
                print(path)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
