"""The HTTP side of a web table (starlette): one page and a JSON endpoint per seat token.

Every seat route starts by turning the token in the URL into a seat; an unknown
token gets 403 and nothing else. There is no route that takes a seat number.
"""
from __future__ import annotations

import json
import secrets
import socket

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..errors import DavitError
from ..load.limits import MAX_REQUEST_BYTES
from .layout import board_layout
from .page import INDEX_HTML, seat_page
from .table import Refused, WebTable, told

NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
EXPECTED = "expected JSON {\"index\": N, \"step\": S}"


class BadBody(Exception):
    """A request body the table refuses before parsing it: ``status`` 413 (too big) or 400."""

    def __init__(self, status: int, text: str):
        super().__init__(text)
        self.status = status


async def small_body(request: Request, limit: int = MAX_REQUEST_BYTES) -> bytes:
    """The body, read only up to ``limit`` bytes (a longer one is refused, whatever its header says)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BadBody(413, f"a request body may have at most {limit:,} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadBody(413, f"a request body may have at most {limit:,} bytes")
    return bytes(body)


def flat_json(body: bytes):
    """``body`` as JSON, refused (400) if it holds a list or mapping inside another: the table needs none,
    so a body nested thousands deep is never handed to the parser."""
    depth, in_text, escaped = 0, False, False
    for byte in body:
        if in_text:
            if escaped:
                escaped = False
            elif byte == 0x5C:   # backslash
                escaped = True
            elif byte == 0x22:   # closing quote
                in_text = False
        elif byte == 0x22:
            in_text = True
        elif byte in (0x5B, 0x7B):   # [ {
            depth += 1
            if depth > 1:
                raise BadBody(400, EXPECTED + ", nothing nested")
        elif byte in (0x5D, 0x7D):
            depth -= 1
    try:
        return json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise BadBody(400, EXPECTED) from None


def _layout_route(ruleset_of):
    """``/layout.json``: where the board's spaces are drawn, the same for every seat (None: no board)."""
    kept = {}

    def layout(request: Request):
        rs = ruleset_of()
        if rs.fingerprint not in kept:
            try:
                kept[rs.fingerprint] = board_layout(rs)
            except (ValueError, KeyError, TypeError):   # a board that cannot be laid out still plays, as zones
                kept[rs.fingerprint] = None
        return JSONResponse(kept[rs.fingerprint], headers={"Cache-Control": "no-cache"})
    return Route("/layout.json", layout)


def _step_of(body) -> int:
    step = body.get("step") if isinstance(body, dict) else None
    if type(step) is not int:
        raise BadBody(400, "expected JSON {\"step\": S}")
    return step


def make_app(table: WebTable, board_svg: str | None = None) -> Starlette:
    """The web app for one table; ``board_svg`` is the drawing of the board (public)."""
    table.board_svg = board_svg

    def _seat(request: Request):
        seat = table.seat_of(request.path_params["token"])
        if seat is None:
            return None, JSONResponse({"error": "unknown seat link"}, status_code=403, headers=NO_STORE)
        return seat, None

    def index(request: Request):
        return HTMLResponse(INDEX_HTML, headers=NO_STORE)

    def page(request: Request):
        _, refused = _seat(request)
        if refused:
            return refused
        has_board = bool(table.game.ruleset.board is not None and len(table.game.ruleset.board.graph))
        return HTMLResponse(seat_page(table.game.ruleset.name, has_board), headers=NO_STORE)

    def state(request: Request):
        seat, refused = _seat(request)
        if refused:
            return refused
        try:
            since = int(request.query_params.get("since", "0"))
        except ValueError:
            since = 0
        try:
            return JSONResponse(table.seat_state(seat, since), headers=NO_STORE)
        except DavitError as exc:   # rules that stop while the position is drawn (a display value that fails)
            return JSONResponse({"error": f"the rules stopped: {told(table.game, exc)}"}, status_code=409,
                                headers=NO_STORE)

    async def act(request: Request):
        seat, refused = _seat(request)
        if refused:
            return refused
        try:
            body = flat_json(await small_body(request))
            index, step = body["index"], body["step"]
            if type(index) is not int or type(step) is not int:
                raise BadBody(400, EXPECTED)
        except (KeyError, TypeError):
            return JSONResponse({"error": EXPECTED}, status_code=400, headers=NO_STORE)
        except BadBody as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=NO_STORE)
        try:
            await run_in_threadpool(table.act, seat, index, step)
        except Refused as exc:
            return JSONResponse({"error": str(exc)}, status_code=409, headers=NO_STORE)
        return JSONResponse({"ok": True, "step": table.step}, headers=NO_STORE)

    def board(request: Request):
        if table.board_svg is None:
            return Response("no drawing of this board", status_code=404)
        return Response(table.board_svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})

    def by_step(what):
        """``undo``, ``agree``, ``decline`` and ``rematch``: posted with the step the page saw."""
        async def route(request: Request):
            seat, refused = _seat(request)
            if refused:
                return refused
            try:
                step = _step_of(flat_json(await small_body(request)))
                if step != table.step:
                    raise Refused("the table has moved on since this page was drawn; it reloads")
                await run_in_threadpool(getattr(table, what), seat, step)
            except BadBody as exc:
                return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=NO_STORE)
            except Refused as exc:
                return JSONResponse({"error": str(exc)}, status_code=409, headers=NO_STORE)
            return JSONResponse({"ok": True, "step": table.step}, headers=NO_STORE)
        return route

    return Starlette(routes=[
        Route("/", index),
        Route("/board.svg", board),
        _layout_route(lambda: table.game.ruleset),
        Route("/seat/{token}", page),
        Route("/seat/{token}/state", state),
        Route("/seat/{token}/act", act, methods=["POST"]),
        Route("/seat/{token}/undo", by_step("undo"), methods=["POST"]),
        Route("/seat/{token}/rematch", by_step("rematch"), methods=["POST"]),
        Route("/seat/{token}/agree", by_step("agree"), methods=["POST"]),
        Route("/seat/{token}/decline", by_step("decline"), methods=["POST"]),
    ])


def make_replay_app(replay, board_svg: str | None = None) -> Starlette:
    """The web app of a replay: one page with a step slider, its token checked on every request."""

    def _refused(request: Request):
        if secrets.compare_digest(request.path_params["token"].encode(), replay.token.encode()):
            return None
        return JSONResponse({"error": "unknown replay link"}, status_code=403, headers=NO_STORE)

    def page(request: Request):
        rs = replay.steps[0].ruleset
        has_board = bool(rs.board is not None and len(rs.board.graph))
        return _refused(request) or HTMLResponse(seat_page(replay.title, has_board, replay=True), headers=NO_STORE)

    def state(request: Request):
        try:
            step = int(request.query_params.get("step", "0"))
        except ValueError:
            step = 0
        return _refused(request) or JSONResponse(replay.state_at(step), headers=NO_STORE)

    def board(request: Request):
        if board_svg is None:
            return Response("no drawing of this board", status_code=404)
        return Response(board_svg, media_type="image/svg+xml")

    return Starlette(routes=[Route("/", lambda request: HTMLResponse(INDEX_HTML, headers=NO_STORE)),
                             Route("/board.svg", board), _layout_route(lambda: replay.steps[0].ruleset),
                             Route("/replay/{token}", page),
                             Route("/replay/{token}/state", state)])


def open_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening socket on ``host`` (port 0: any free port), ready before the server starts."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    return sock


def make_server(app, sock: socket.socket, on_ready=None):
    """A uvicorn server for ``app`` on an open socket; call ``serve(sock)`` or run it in a thread.

    ``on_ready()`` is called once the server has started: uvicorn has put its own Ctrl-C handler in
    place by then (a process started with SIGINT ignored, as a background job is, ignores Ctrl-C
    until that moment), so a line that says "Press Ctrl-C" is true from when it is printed."""
    import uvicorn
    # Ctrl-C waits a few seconds at most for open connections: uvicorn's default waits for every client
    # (a page's tab, a stray connection) however long it keeps one open, and the table never closes
    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False,
                            timeout_graceful_shutdown=3)
    if on_ready is None:
        return uvicorn.Server(config)

    class ReadyServer(uvicorn.Server):
        async def startup(self, sockets=None):
            await super().startup(sockets=sockets)
            if not self.should_exit:
                on_ready()

    return ReadyServer(config)


class BackgroundServer:
    """A table served from a thread on a free local port (tests, screenshots): ``with ... as url:``."""

    def __init__(self, table, board_svg: str | None = None, start_timeout: float = 10.0):
        self.app = make_app(table, board_svg) if isinstance(table, WebTable) else make_replay_app(table, board_svg)
        self.start_timeout = start_timeout

    def __enter__(self) -> str:
        import threading
        import time
        self.sock = open_socket()
        self.server = make_server(self.app, self.sock)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + self.start_timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                self.__exit__(None, None, None)
                raise RuntimeError("the web table did not start")
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=self.start_timeout)
        self.sock.close()
