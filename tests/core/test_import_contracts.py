"""The import contracts (pyproject.toml, ``lint-imports``) cover a game the
moment its package exists under games/, without naming it: a copy of the tree
with one more game that imports pygame and another game's engine breaks them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).with_name("lint-imports")


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT), "--no-cache"], cwd=tree, capture_output=True, text=True, timeout=300)


def copy_of_the_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    for name in ("controller", "games"):
        shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__", "locale", "fonts", "*.json"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_a_new_game_breaking_the_layers_is_caught_without_being_named(tmp_path: Path) -> None:
    tree = copy_of_the_tree(tmp_path)
    assert "hot_potato" not in (tree / "pyproject.toml").read_text()
    game = tree / "games" / "hot_potato"
    game.mkdir()
    (game / "__init__.py").write_text('"""A new game."""\n')
    (game / "engine.py").write_text('"""Rules that reach too far."""\n\nimport pygame  # noqa: F401\n\n'
                                    'from games.quiz.engine import QuizEngine  # noqa: F401\n')
    result = lint(tree)
    assert result.returncode != 0, result.stdout
    assert "games.hot_potato is not allowed to import pygame" in result.stdout
    assert "games.hot_potato is not allowed to import games.quiz" in result.stdout


def test_the_same_game_keeping_to_the_contract_passes(tmp_path: Path) -> None:
    tree = copy_of_the_tree(tmp_path)
    game = tree / "games" / "hot_potato"
    game.mkdir()
    (game / "__init__.py").write_text('"""A new game."""\n')
    (game / "engine.py").write_text('"""Rules that know only the contract."""\n\nfrom games.base import Action  # noqa: F401\n')
    (game / "scene.py").write_text('"""Its scene draws."""\n\nimport pygame  # noqa: F401\n\n'
                                   'from games.toolkit.scene import Scene  # noqa: F401\n')
    result = lint(tree)
    assert result.returncode == 0, result.stdout
