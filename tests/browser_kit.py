"""What the browser tests share: Debian's chromium, how it is started, and the table's JSON over HTTP.

Imported only after the test module has skipped itself when playwright or the
web extra is missing (``pytest.importorskip``), so this module may need them.
"""
import json
import shutil
import urllib.request

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 20_000


def launched(sync_api):
    """A headless chromium for a module's tests (a generator for a pytest fixture)."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, timeout=TIMEOUT_MS)
        try:
            yield b
        finally:
            b.close()


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def post_json(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())
