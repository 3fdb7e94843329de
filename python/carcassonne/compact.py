"""A compact observation whose size grows with the tiles placed, not with the board window.

``compact_observation(state, player)`` returns ``(rows, vector)``: one row per board cell that has
a tile or where the tile to place fits (the cells where any plane of the dense observation is
non-zero), as ``[x, y, plane 0, plane 1, ...]`` (``2 + C`` float32 columns, C as in
``game.observation_shape['planes']``), and the dense observation's vector part (V,). A base game
2-player state has about ``2 * tiles placed`` rows of 39 floats instead of 37 x 41 x 41 = 62,197
plane entries.

Reuse buffers in loops: ``buf = CompactBuffers(game)`` once, then
``rows, vec = compact_observation(state, p, out=buf)``; ``rows`` is then a view of ``buf.rows``
(valid until the next call).
"""
from __future__ import annotations

import numpy as np

from . import _core


class CompactBuffers:
    """Preallocated arrays for compact_observation(out=...): the dense observation and the rows."""

    def __init__(self, game: "_core.Game"):
        shape = game.observation_shape
        self.planes = int(shape["planes"][0])
        self.width = int(shape["planes"][1])
        self.radius = game.radius
        self.dense = np.empty(int(shape["flat"][0]), dtype=np.float32)
        """The dense observation (filled by each call)."""
        self.rows = np.empty((self.width * self.width, 2 + self.planes), dtype=np.float32)
        """Room for a row per cell; each call uses the first K."""


def compact_observation(state: "_core.State", player: int | None = None, out: CompactBuffers | None = None):
    """(rows float32 (K, 2 + C), vector float32 (V,)) seen by `player` (default: the player to move);
    rows are the occupied or playable cells, sorted by (y, x), as [x, y, planes...]. `out`: a
    CompactBuffers for the state's game, reused instead of new arrays (rows is a view of out.rows)."""
    if out is None:
        shape = state.observation_shape
        C, W = int(shape["planes"][0]), int(shape["planes"][1])
        dense = state.observation(player)
        rows_buf = None
        R = state.radius
    else:
        C, W, R = out.planes, out.width, out.radius
        dense = state.observation(player, out=out.dense)
        rows_buf = out.rows
    planes = dense[:C * W * W].reshape(C, W * W)
    cells = np.flatnonzero(planes.any(axis=0))
    k = len(cells)
    rows = np.empty((k, 2 + C), dtype=np.float32) if rows_buf is None else rows_buf[:k]
    rows[:, 0] = cells % W - R
    rows[:, 1] = cells // W - R
    rows[:, 2:] = planes[:, cells].T
    return rows, dense[C * W * W:]
