"""The TypedDicts of carcassonne.wire (generated from schema/wire.schema.json by schema/gen.py) name the
keys of the JSON that Python returns: the public view and records, for each expansion's game."""
import json
import typing

import pytest

from helpers import carc

import carcassonne.wire as wire  # noqa: E402  (generated; a missing module fails the test)


def fits(value, td, where):
    keys = set(typing.get_type_hints(td))
    assert set(value) <= keys, f"{where}: keys the schema does not name: {sorted(set(value) - keys)}"
    need = wire.REQUIRED[td.__name__]
    assert need <= set(value), f"{where}: missing {sorted(need - set(value))}"


@pytest.mark.parametrize("tileset,expansions", [("base", []), ("base", ["festival", "fruit-trees"]),
                                                 ("wheel-of-fortune", ["festival", "fortune-teller"])])
def test_public_view_and_record_fit_the_schema(tileset, expansions):
    s = carc.new_game(players=3, tileset=tileset, expansions=expansions, seed=11, auto_chance=True)
    s.play_random(4)
    view = json.loads(s.public_view(0))
    fits(view, wire.PublicView, "public_view")
    assert view["format"] == "carcassonne-observation/2"
    assert view["phase"] in typing.get_args(wire.Phase)
    for t in view["history"]:
        fits(t, wire.RecordTurn, "public_view.history[]")
    record = json.loads(carc.record_to_json(carc.record_of(s)))
    fits(record, wire.GameRecord, "record")
    fits(record["setup"], wire.RecordSetup, "record.setup")
    assert record["turns"], "the game played some turns"
    for t in record["turns"]:
        fits(t, wire.RecordTurn, "record.turns[]")
