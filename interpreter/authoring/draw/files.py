"""Writing a board drawing to a file: .svg, .dot or .png (through Graphviz)."""
from __future__ import annotations

import os
import shutil
import subprocess

from ...errors import DavitError
from ...load.files import write_atomically
from .dot import to_dot
from .svg import to_svg


def _png(dot_text: str) -> bytes:
    program = shutil.which("dot")
    if program is None:
        raise DavitError("davit: PNG needs Graphviz's `dot` program; write .svg or .dot instead")
    try:
        done = subprocess.run([program, "-Tpng"], input=dot_text.encode("utf-8"), capture_output=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DavitError(f"davit: Graphviz could not draw the board: {exc}") from None
    if done.returncode != 0 or not done.stdout:
        why = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no output"])[0]
        raise DavitError(f"davit: Graphviz could not draw the board: {why}")
    return done.stdout


def write_drawing(ruleset, path: str) -> None:
    """Write the board drawing to ``path``: .svg, .dot (.gv) or .png (PNG needs Graphviz)."""
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".svg", ".dot", ".gv", ".png"):
        raise DavitError(f"davit: cannot draw to '{path}': the file name must end in .svg, .dot or .png")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise DavitError(f"davit: cannot write '{path}': folder '{folder}' does not exist")
    if ext == ".svg":
        data = to_svg(ruleset).encode("utf-8")
    elif ext == ".png":
        data = _png(to_dot(ruleset))
    else:
        data = to_dot(ruleset).encode("utf-8")
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise DavitError(f"davit: cannot write '{path}': {exc.strerror or exc}") from None


def draw_main(ruleset, output: str | None) -> str | None:
    """``davit draw``: the DOT text to print when there is no output file, else write the file."""
    if output is None or output == "-":
        return to_dot(ruleset)
    write_drawing(ruleset, output)
    return None
