"""Typing and help: the stubs name the extension's public API, the package is marked typed, and the
research modules document every public class, function and property."""
import ast
import inspect
import pathlib

import pytest

from helpers import carc

PKG = pathlib.Path(carc.__file__).resolve().parent


def test_stubs_and_py_typed_ship_with_the_package():
    assert (PKG / "py.typed").exists()
    for stub in ("__init__.pyi", "_core.pyi"):
        ast.parse((PKG / stub).read_text())
    names = {n for n in dir(carc._core) if not n.startswith("_")}
    tree = ast.parse((PKG / "_core.pyi").read_text())
    declared = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    declared |= {t.target.id for t in tree.body if isinstance(t, ast.AnnAssign)}
    missing = names - declared
    assert not missing, f"_core.pyi lacks {sorted(missing)}: run python/gen_stubs.py"


def public_members(mod):
    for name, obj in vars(mod).items():
        if name.startswith("_") or getattr(obj, "__module__", mod.__name__) != mod.__name__:
            continue
        if inspect.isclass(obj) or inspect.isfunction(obj):
            yield name, obj
            if inspect.isclass(obj):
                for an, av in vars(obj).items():
                    if an.startswith("_"):
                        continue
                    if inspect.isfunction(av) or isinstance(av, property):
                        yield f"{name}.{an}", av


@pytest.mark.parametrize("modname", ["carcassonne.spiel", "carcassonne.pettingzoo", "carcassonne.compact",
                                     "carcassonne._play", "carcassonne._flat"])
def test_research_modules_are_documented(modname):
    import importlib

    mod = importlib.import_module(modname)
    assert mod.__doc__
    undocumented = [n for n, o in public_members(mod) if not (o.__doc__ or "").strip()]
    assert not undocumented, f"{modname}: no docstring on {undocumented}"


def described(doc, name):
    """True when a pybind11 docstring says more than the signature lines."""
    lines = [ln.strip() for ln in (doc or "").strip().splitlines() if ln.strip()]
    return any(not ln.startswith(name + "(") and not ln[0].isdigit() and ln != "Overloaded function." for ln in lines)


def test_extension_is_documented():
    core = carc._core
    missing = []
    for n in dir(core):
        if n.startswith("_"):
            continue
        o = getattr(core, n)
        if isinstance(o, type):
            if issubclass(o, Exception):
                continue
            if not (o.__doc__ or "").strip():
                missing.append(n)
            for a, v in vars(o).items():
                if a.startswith("_"):
                    continue
                if isinstance(v, property):
                    if not (v.__doc__ or "").strip():
                        missing.append(f"{n}.{a}")
                elif callable(v) and not described(v.__doc__, a):
                    missing.append(f"{n}.{a}()")
        elif callable(o) and not described(o.__doc__, n):
            missing.append(f"{n}()")
    assert not missing, f"no docstring on {missing}"
