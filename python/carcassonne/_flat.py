"""The flat action space of the research conventions (``carcassonne.spiel``, ``carcassonne.pettingzoo``).

The engine's own index (``State.legal_actions()``, docs/python.md "Action space") multiplies the
placement by a 441-entry fruit factor with the Fruit-Bearing Trees, so it reaches 199 million
entries. The flat space splits such a move into two decisions of the same player instead: first
the placement (tile choice, cell, rotation, follower option; or a crown-space placement, a
Plague take-back, a Choose), then, only when more than one fruit part is legal for that
placement, the fruit part (stack put on a tree tile, harvest or sale). Layout (``R`` = radius):

    [0, P)                      placement part p of a 'place' action (= the engine's a % P)
    [P, P + CP)                 crown placement q (the engine's crown index without the stack)
    [.., + W*W*14)              Plague take-back (the engine's 'plague' range, shifted)
    [.., + choose)              Choose (the engine's 'choose' range, shifted)
    [.., + 441)                 fruit part f (Fruit-Bearing Trees only): second decision

At most 951,890 actions (Wheel of Fortune + Fortune Teller + Fruit-Bearing Trees, R = 20), under
2**20 for every rule combination at the default radius.
"""
from __future__ import annotations

import numpy as np

from . import _core

STACKS = 1 + len(_core.FRUIT_TYPES)


class FlatSpace:
    """Sizes and conversions of the flat action space of one ``Game`` (see the module docstring)."""

    def __init__(self, game: "_core.Game"):
        r = game.action_ranges
        self.placements = int(game.num_placements)
        self.fruit_codes = int(game.num_fruit_codes)
        self.fruit = self.fruit_codes > 1
        stacks = STACKS if self.fruit else 1
        self.crown_base = int(r["crown"][0])
        self.crown_placements = (int(r["crown"][1]) - self.crown_base) // stacks
        self.plague_base = int(r["plague"][0])
        self.num_plague = int(r["plague"][1]) - self.plague_base
        self.choose_base = int(r["choose"][0])
        self.num_choose = int(r["choose"][1]) - self.choose_base
        # Offsets in the flat space.
        self.f_crown = self.placements
        self.f_plague = self.f_crown + self.crown_placements
        self.f_choose = self.f_plague + self.num_plague
        self.f_fruit = self.f_choose + self.num_choose
        self.size = self.f_fruit + (self.fruit_codes if self.fruit else 0)

    def split(self, engine_actions) -> tuple[np.ndarray, np.ndarray]:
        """(first decision, fruit part) of engine action indices; the fruit part is -1 for actions that
        have none (Plague, Choose) and 0.. otherwise (0 = no fruit part)."""
        a = np.asarray(engine_actions, dtype=np.int64)
        first = np.empty_like(a)
        fruit = np.full_like(a, -1)
        P = self.placements
        place = a < self.crown_base
        fruit[place], first[place] = np.divmod(a[place], P)
        crown = (a >= self.crown_base) & (a < self.plague_base)
        if crown.any():
            stack, q = np.divmod(a[crown] - self.crown_base, self.crown_placements)
            first[crown] = self.f_crown + q
            fruit[crown] = stack * _core.NUM_FRUIT_ACTIONS
        rest = a >= self.plague_base
        first[rest] = a[rest] - self.plague_base + self.f_plague
        return first, fruit

    def join(self, first: int, fruit: int) -> int:
        """The engine action of a first decision and a fruit part (0 = none)."""
        if first < self.f_crown:
            return fruit * self.placements + first
        if first < self.f_plague:
            return self.crown_base + (fruit // _core.NUM_FRUIT_ACTIONS) * self.crown_placements + first - self.f_crown
        return first - self.f_plague + self.plague_base

    def is_fruit_part(self, action: int) -> bool:
        """True for an action of the second (fruit part) decision."""
        return action >= self.f_fruit
