"""Take the screenshot of a web table shown in docs/play.md (docs/web-table.png).

    python tools/screenshot_table.py [RULESET] [--out docs/web-table.png]

Serves one game on a free local port (seat 0 a person, bots elsewhere), makes a
few decisions so the log and the table have something in them, and photographs
seat 0's page with Debian's headless chromium through playwright (the web extra).
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.authoring.draw import to_svg
from interpreter.play.game import Game
from interpreter.rules.loading import load_ruleset
from interpreter.web.server import BackgroundServer
from interpreter.web.table import WebTable

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="titanic-board-game")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=6, help="decisions of seat 0 before the picture")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "docs" / "web-table.png"))
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no chromium: apt-get install chromium", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright
    rs = load_ruleset(args.ruleset, None)
    table = WebTable(Game(rs, args.players, seed=4), "human,random", seed=4)
    for _ in range(args.decisions):
        if table.game.is_over:
            break
        table.act(0, 0, table.step)
    with BackgroundServer(table, to_svg(rs)) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/seat/{table.token_of(0)}")
        page.wait_for_function("document.body.dataset.state !== 'loading'")
        page.screenshot(path=args.out, full_page=False)
        browser.close()
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
