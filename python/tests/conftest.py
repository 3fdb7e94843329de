"""Finds the built `carcassonne` module: an importable one (PYTHONPATH) first, otherwise
$CARC_BUILD_DIR/python when CARC_BUILD_DIR is set (and only there), else the build directories of
this checkout (build/, build*/). Tests import it plainly: a missing build fails the suite (it never
skips, and never falls back to another checkout's build)."""
import importlib.util
import os
import pathlib
import sys

_ROOT = pathlib.Path(__file__).resolve().parents[2]


def _candidates():
    env = os.environ.get("CARC_BUILD_DIR")
    if env:
        yield pathlib.Path(env) / "python"
        return
    yield _ROOT / "build" / "python"
    yield from sorted(_ROOT.glob("build*/python"))


if importlib.util.find_spec("carcassonne") is None:
    for d in _candidates():
        if any(d.glob("carcassonne/_core*.so")):
            sys.path.insert(0, str(d))
            break
