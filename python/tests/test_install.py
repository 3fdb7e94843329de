"""The documented install command works offline: `pip install ./python` packs the built module
into a wheel (in-tree backend, no build requirements) and installs it into a venv."""
import os
import pathlib
import subprocess
import sys
import zipfile

import pytest

from helpers import carc

PYTHON_DIR = pathlib.Path(__file__).resolve().parents[1]
BUILD_DIR = pathlib.Path(carc.__file__).resolve().parents[2]  # <build>/python/carcassonne/__init__.py


def test_backend_builds_a_wheel(tmp_path, monkeypatch):
    monkeypatch.setenv("CARC_BUILD_DIR", str(BUILD_DIR))
    monkeypatch.syspath_prepend(str(PYTHON_DIR))
    import carc_build_backend as backend

    assert backend.get_requires_for_build_wheel() == []
    name = backend.build_wheel(str(tmp_path))
    with zipfile.ZipFile(tmp_path / name) as z:
        names = z.namelist()
    assert "carcassonne/__init__.py" in names
    assert "carcassonne/" + pathlib.Path(carc._core.__file__).name in names
    assert any(n.endswith(".dist-info/RECORD") for n in names)


@pytest.mark.skipif(os.environ.get("CARC_SKIP_VENV_TEST") == "1", reason="CARC_SKIP_VENV_TEST=1")
def test_pip_install_into_venv_offline(tmp_path):
    venv = tmp_path / "venv"
    r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], capture_output=True,
                       text=True)
    if r.returncode != 0:
        pytest.skip("cannot create a venv here: " + r.stderr[-300:])
    py = venv / "bin" / "python"
    env = dict(os.environ, CARC_BUILD_DIR=str(BUILD_DIR), PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", str(PYTHON_DIR)], capture_output=True, text=True,
                       env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([str(py), "-c", "import carcassonne as c; s = c.new_game(seed=1, auto_chance=True); "
                        "s.play_random(1); print(c.__file__, s.scores())"],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert str(venv) in r.stdout
