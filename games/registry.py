"""Every game the box can run, by name. Each game package exports ``SPEC``.

The registry is the only place that knows the list; the CLI, the demo, the
scenario runner and the menu all look games up here. Adding a game is one
line in ``_PACKAGES`` (tests add a toy game with ``register``). A game's scene
is found by ``games.scenes``: the registry imports no drawing, so the deciding
process can look games up without pygame.

A process started by another is told the games registered beside ``games/``
on its command line (``register_args``); a message on the channel may only
name a game the reading process knows already (``known``): a peer never
makes it import a package.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from games.base import GameSpec, UnknownGameError
from games.i18n import _

_PACKAGES = {
    "quiz": "games.quiz",
    "reaction": "games.reaction",
    "schicki-micki": "games.schicki_micki",
    "viva-topo": "games.viva_topo",
    "piepmatz": "games.piepmatz",
    "fiki-miki": "games.fiki_miki",
    "pictomania": "games.pictomania",
}
#: the games of ``games/`` as shipped (``added``: the others registered since)
_SHIPPED = dict(_PACKAGES)


def available() -> list[str]:
    """Names of the games that are installed and importable."""
    names = []
    for name in _PACKAGES:
        try:
            get(name)
        except LookupError:
            continue
        names.append(name)
    return names


def packages() -> dict[str, str]:
    """Every registered game's name -> its package (``games.quiz``)."""
    return dict(_PACKAGES)


def get(name: str) -> GameSpec:
    package = _PACKAGES.get(name)
    if package is None:
        raise UnknownGameError(_("unknown game {name!r}: choose one of {games}").format(name=name, games=", ".join(_PACKAGES)))
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as exc:
        if exc.name and package.startswith(exc.name):
            raise UnknownGameError(f"game {name!r} is not built yet") from exc
        raise
    spec: GameSpec = module.SPEC
    return spec


def package_of(name: str) -> str:
    """The package a game is imported from (another process is told it: the
    deciding process of a game registered with ``register``)."""
    package = _PACKAGES.get(name)
    if package is None:
        raise UnknownGameError(_("unknown game {name!r}: choose one of {games}").format(name=name, games=", ".join(_PACKAGES)))
    return package


@contextmanager
def register(name: str, package: str) -> Iterator[None]:
    """Make a game from outside ``games/`` known for a while (tests: the toy
    game proves a game plugs in without a line of ``controller/`` knowing it);
    a game known already is known as before afterwards (an evening's deciding
    process is told where each game comes from, its own games too)."""
    before = _PACKAGES.get(name)
    _PACKAGES[name] = package
    try:
        yield
    finally:
        if before is None:
            del _PACKAGES[name]
        else:
            _PACKAGES[name] = before


def added() -> dict[str, str]:
    """The games registered beside the shipped ones (a test's toy games): name -> package."""
    return {name: package for name, package in _PACKAGES.items() if _SHIPPED.get(name) != package}


def register_args(*names: str) -> list[str]:
    """A started process's ``--register GAME=PACKAGE`` arguments: ``names``' games and every game
    registered beside the shipped ones (``added``), so that it knows each game a message may name."""
    pairs = dict.fromkeys([f"{name}={package_of(name)}" for name in names]
                          + [f"{name}={package}" for name, package in added().items()])
    return [arg for pair in pairs for arg in ("--register", pair)]


def known(pair: str) -> str:
    """The game a message names as GAME=PACKAGE (an evening's ``Play``, the phones' server's
    ``Serving``), if this process knows it from that package already (``games/``, or registered as it
    started); else an ``UnknownGameError`` (one line): a message never makes a process import a package."""
    name, sep, package = pair.partition("=")
    if not sep or _PACKAGES.get(name) != package:
        raise UnknownGameError(_("the game {name!r} from {package!r} is not one this process knows: it plays only "
                                 "the games it was started with; start every process of the box from the same "
                                 "install").format(name=name[:64], package=package[:64]))
    return name
