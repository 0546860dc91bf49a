"""A game written in English only lands (issue 47, "contributor-proof"):
Hot Potato and Tally, toy games under tests/ with no Czech or Polish word,
plugged in by the registry's seam, pass the game-facing suite the shipped
games pass (the requirements check, the contract tests that iterate the
registry, simulate, every phase drawn on the screen in every language), and
their untranslated texts fall back to English. A requirement a game misses
is one line naming it (CONTRIBUTING.md, "What a game must give")."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from controller.apps.game_check import REQUIREMENTS, UNKNOWN_MOVE, problems
from controller.cli import main
from games import registry
from games.base import Action, GameEvent, RuleError, Strip, View
from games.i18n import LANGUAGES, _, set_language
from games.toolkit import theme
from tests.core import test_game_options, test_outcome, test_vocabulary
from tests.display import test_private
from tests.phases import phase_frames
from tests.toy import GAMES
from tests.toy.hot_potato.scene import HotPotatoScene

TOYS = GAMES
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=sorted(TOYS))
def toy(request: pytest.FixtureRequest) -> Iterator[str]:
    with registry.register(request.param, TOYS[request.param]):
        yield request.param


def test_it_meets_every_requirement(toy: str) -> None:
    assert registry.get(toy).translated == ("en",)  # English only
    assert problems(toy) == []


def test_it_passes_the_contract_tests_that_iterate_the_registry(toy: str) -> None:
    assert toy in registry.available()
    test_outcome.test_every_game_ends_with_a_typed_outcome(toy)
    test_vocabulary.test_every_status_a_game_shows_is_declared(toy)
    test_game_options.test_every_engine_refuses_an_unknown_option_with_the_contracts_option_error(toy)
    test_private.test_every_game_scene_gets_only_the_public_view_frozen(toy)


def test_simulate_plays_it_to_the_end(toy: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", toy, "--players", "3", "--seed", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"]


@pytest.mark.usefixtures("drawing_in_a_language")
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phase_is_drawn_on_the_screen_in_every_language(toy: str, language: str) -> None:
    """The screen smoke test: each phase of a bot game drawn at both sizes,
    every text on the screen; in Czech and Polish its own texts in English."""
    frames = phase_frames(toy, 3, (), language)
    assert len(frames) >= 2 and frames[-1].finished
    set_language(language)
    for frame in frames:
        for size in ((1920, 1080), (1280, 720)):
            theme.DRAWN = []
            frame.draw(pygame.Surface(size))
            drawn = [d for d in theme.DRAWN if d[2].width > 0]
            assert drawn, f"{frame.name}: nothing drawn"
            for asked, _shown, ink, _box, screen in drawn:
                assert screen.contains(ink), f"{frame.name} {size}: {asked!r} off the screen"
    if toy == "hot-potato":
        assert _("HOT") == "HOT"  # untranslated: the English text, never an empty one


def test_a_missing_requirement_is_one_line_that_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hot Potato without words for its "passing" phase (the requirement a
    contributor could only learn from a test in tests/web) is told what to add."""
    with registry.register("hot-potato", TOYS["hot-potato"]):
        spec = registry.get("hot-potato")
        bare = dataclasses.replace(spec, phase_labels={}, status_labels={}, status_lights={})
        real_get = registry.get
        monkeypatch.setattr(registry, "get", lambda name: bare if name == "hot-potato" else real_get(name))
        said = problems("hot-potato")
    assert len(said) == 2, said
    assert said[0].startswith("hot-potato: phase_labels: ") and "'passing'" in said[0] and "\n" not in said[0]
    assert said[1].startswith("hot-potato: status_labels: ") and "'holding'" in said[1]


def test_a_refusal_built_in_english_and_a_missing_summary_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two requirements a copied toy game once learnt from tests far from
    its code (tests/i18n/test_refusals.py, tests/display/test_menu_panel.py)."""
    from tests.toy.hot_potato.engine import HotPotatoEngine

    class Worded(HotPotatoEngine):
        def handle(self, action: Action) -> list[GameEvent]:
            if action.kind == UNKNOWN_MOVE:
                raise RuleError(f"hot potato has no {action.kind}")  # a sentence, not a message id
            return super().handle(action)

    with registry.register("hot-potato", TOYS["hot-potato"]):
        bare = dataclasses.replace(registry.get("hot-potato"), summary="", new_engine=Worded)
        real_get = registry.get
        monkeypatch.setattr(registry, "get", lambda name: bare if name == "hot-potato" else real_get(name))
        said = problems("hot-potato")
    assert [line.split(": ")[1] for line in said] == ["summary", "refusals"], said
    assert "GameSpec.summary" in said[0] and "'hot potato has no no-such-move'" in said[1]
    assert all("\n" not in line for line in said)


class SelfWordedScene(HotPotatoScene):
    """Hot Potato's scene wording the holder's cell itself, its spec knowing nothing of it."""

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        return [{**cell, "label": "HOT!" if i == view.get("holder") else None} for i, cell in enumerate(strip)]


def test_a_scene_that_words_the_strip_alone_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The phones' server words the pages with the spec, never the scene (it loads no pygame): a
    scene that words a cell the spec does not would leave the phones saying something else."""
    from tests.toy.hot_potato import scene

    monkeypatch.setattr(scene, "HotPotatoScene", SelfWordedScene)  # what its GameSpec.scene names
    with registry.register("hot-potato", TOYS["hot-potato"]):
        said = problems("hot-potato")
    assert [line.split(": ")[1] for line in said] == ["strip_wording"], said
    assert "GameSpec.strip_wording" in said[0] and "\n" not in said[0]


class OwnEndScene(HotPotatoScene):
    """Hot Potato's scene drawing an end screen of its own, its spec knowing nothing of it."""

    own_results = True


def test_a_scene_with_its_own_end_screen_the_spec_does_not_declare_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a game's end the screen draws the results screen unless the scene draws its own; the
    phones' server, with no scene, follows the spec's ``own_results``: a scene that draws its own
    while the spec says not would leave the pages saying "WON" where the screen says the game's words."""
    from tests.toy.hot_potato import scene

    monkeypatch.setattr(scene, "HotPotatoScene", OwnEndScene)
    with registry.register("hot-potato", TOYS["hot-potato"]):
        said = problems("hot-potato")
    assert [line.split(": ")[1] for line in said] == ["own_results"], said
    assert "GameSpec.own_results=True" in said[0] and "\n" not in said[0]


def test_every_requirement_is_written_in_contributing() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("### What a game must give", 1)[1].split("\n## ", 1)[0]
    for requirement in REQUIREMENTS:
        assert f"`{requirement}`" in section, f"CONTRIBUTING.md does not list the requirement {requirement}"


def test_every_shipped_game_meets_every_requirement() -> None:
    for name in registry.available():
        assert problems(name) == [], name

