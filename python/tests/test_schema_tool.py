"""schema/gen.py's validator and generator (docs/schema.md): a fixture that breaks the schema in any of the
ways the subset covers is refused with its path, and the generated files are what the schema gives."""
import copy
import importlib.util
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("schema_gen", ROOT / "schema" / "gen.py")
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
SCHEMA = gen.load()
DEFS = SCHEMA["$defs"]


def fixture(name):
    return json.loads((ROOT / "tests" / "fixtures" / "api" / name).read_text())["value"]


def check(value, name):
    gen.validate(value, DEFS[name], DEFS, name)


def test_real_fixtures_fit():
    check(fixture("legal-wheel-plague.json"), "Legal")
    check(fixture("legal-wheel2-take-back-crown.json"), "Legal")
    check(fixture("record-fruit.json"), "GameRecord")
    check(fixture("public-view-wheel.json"), "PublicView")


@pytest.mark.parametrize("mutate,message", [
    (lambda v: v["plague"][0].update(x="1"), "Legal.plague[0].x: str \"1\" where the schema wants integer"),
    (lambda v: v["plague"][0].update(x=True), "Legal.plague[0].x: bool"),
    (lambda v: v["plague"][0].pop("at"), "Legal.plague[0]: required field 'at' is missing"),
    (lambda v: v.update(extra=1), "Legal: field 'extra' is not in the schema"),
    (lambda v: v.update(phase="moving"), "Legal.phase: \"moving\" is not one of"),
    (lambda v: v.update(tile=3), "Legal.tile: fits none of the alternatives"),
])
def test_broken_legal_moves_are_refused_with_their_path(mutate, message):
    v = copy.deepcopy(fixture("legal-wheel-plague.json"))
    mutate(v)
    with pytest.raises(gen.Invalid, match=None) as e:
        check(v, "Legal")
    assert message in str(e.value)


def test_records_limits_and_constants():
    r = copy.deepcopy(fixture("record-base.json"))
    r["format"] = "carcassonne-record/1"
    with pytest.raises(gen.Invalid, match="GameRecord.format"):
        check(r, "GameRecord")
    r = copy.deepcopy(fixture("record-base.json"))
    r["setup"]["players"] = 7  # beyond the 2..6 players
    with pytest.raises(gen.Invalid, match="fits none"):
        check(r, "GameRecord")
    r["setup"]["players"] = 6  # at the edge
    check(r, "GameRecord")
    r = copy.deepcopy(fixture("record-base.json"))
    r["turns"][0]["meeple"] = "N"  # format 1's name
    with pytest.raises(gen.Invalid, match="field 'meeple' is not in the schema"):
        check(r, "GameRecord")


def test_a_crown_take_back_has_no_land_fields():
    check({"at": "crown:taxes:0", "crown": True}, "TakeBackOption")
    with pytest.raises(gen.Invalid):
        check({"at": "crown:taxes:0", "crown": True, "x": 0}, "TakeBackOption")
    with pytest.raises(gen.Invalid):
        check({"at": "N", "x": 0, "y": 0}, "TakeBackOption")  # a land one needs seg and kind


def test_generated_files_are_current():
    for path, text in gen.outputs(SCHEMA).items():
        assert path.read_text() == text, f"{path}: run python3 schema/gen.py"


def test_unknown_keyword_is_refused(tmp_path, monkeypatch):
    bad = {"$defs": {"X": {"type": "object", "patternProperties": {}}}}
    monkeypatch.setattr(gen, "SCHEMA", tmp_path / "wire.schema.json")
    gen.SCHEMA.write_text(json.dumps(bad))
    monkeypatch.setattr(gen, "ROOT", tmp_path)
    with pytest.raises(SystemExit, match="keyword 'patternProperties' is outside the subset"):
        gen.load()
