"""A web table: ``davit serve`` plays one game in the browser, one private link per seat.

:mod:`.table` holds the game, the seats' tokens and the bots; :mod:`.server` is the
HTTP layer (starlette); :mod:`.page` is the one HTML page and :mod:`.script` its small
script, which draws the board (:mod:`.layout`) and the cards (:mod:`.tableview`).
Every answer about a seat is built from ``game.view(seat)`` only, for the seat
whose token the request carries.
"""
from .table import WebTable

__all__ = ["WebTable"]
