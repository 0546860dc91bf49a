"""A registered game's scene, by name: the registry's spec and the toolkit's
scene class put together. Apart from ``games.registry`` because a scene draws
with pygame and the deciding process, which looks games up, never imports it.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import UnknownGameError
from games.registry import get
from games.toolkit.scene import Scene, scene_class
from games.toolkit.theme import Color


def scene_for(game: str, colors: Sequence[Color] | None = None) -> Scene:
    """The scene of a registered game, by name (``quiz``, ``reaction`` ...)."""
    spec = get(game)
    if not spec.scene:
        raise UnknownGameError(f"{spec.title} has no scene yet")
    scene = scene_class(spec.scene)(spec.title, colors)
    scene.status_labels = dict(spec.status_labels)
    scene.host_keys = dict(spec.host_keys)
    return scene
