"""Carcassonne engine for Python: exact rules, fast game states, observations, batch play and AI players.

The engine is the C++ extension ``carcassonne._core``; everything it defines is re-exported here, so
``import carcassonne`` gives the whole API (docs/python.md). Pure-Python modules beside it add research
conventions and cluster runs (``carcassonne.spiel``, ``carcassonne.pettingzoo``, ``carcassonne.distributed``),
imported on demand.
"""
from . import _core
from ._core import *  # noqa: F401,F403  (the engine's API)

__doc__ = (__doc__ or "") + "\n" + (_core.__doc__ or "")
__version__ = _core.__version__


from ._play import play_games, tournament  # noqa: E402  (Python players next to spec strings)


def _public_names():
    return [n for n in dir(_core) if not n.startswith("_")] + ["tournament"]


__all__ = _public_names()

# Objects made by the extension report the package as their module, so reprs, help() and pickles name
# `carcassonne.State` (the public path) rather than the private extension.
for _n in __all__:
    _obj = getattr(_core, _n, None)
    if isinstance(_obj, type):
        try:
            _obj.__module__ = __name__
        except (AttributeError, TypeError):
            pass
del _n, _obj
