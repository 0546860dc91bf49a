"""A refusal says where the game is in the reader's words, never the engine's
name for its phase: a Pictomania phone was told, in Polish, "…'rozegrany'
tylko podczas rysowania; gra jest w fazie revealed" (the phase's enum value,
and the action's id "drawn" read as a word of the catalogue). Every game's
refusals along a bot game (tests/i18n/test_refusals.py's probes), then the
refusals the tester met, in Czech and Polish."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from enum import Enum

import pytest

from games import registry
from games.base import Action, GameSettings, RuleError
from games.i18n import reason_text, set_language
from games.pictomania import engine as pictomania
from games.pictomania.words import load_words
from games.piepmatz import engine as piepmatz
from tests.i18n.test_refusals import refusals


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    set_language("en")


def phase_ids(game: str) -> set[str]:
    """The values of the game's ``Phase`` enum (its engine's, or the quiz core's)."""
    package = registry.package_of(game)
    ids: set[str] = set()
    for module in ("engine", "core"):
        try:
            found = importlib.import_module(f"{package}.{module}")
        except ModuleNotFoundError:
            continue
        phase = getattr(found, "Phase", None)
        if isinstance(phase, type) and issubclass(phase, Enum):
            ids |= {str(p.value) for p in phase}
    return ids


@pytest.mark.parametrize("game", registry.available())
def test_no_refusal_hands_a_phase_id_to_the_reader(game: str) -> None:
    ids = phase_ids(game)
    if not ids:  # a game without a Phase enum (a toy of tests/toy) has no phase id to hand over; ours all have one
        assert not registry.package_of(game).startswith("games."), f"{game}: no Phase enum found"
        return
    wrong = sorted({f"{exc.reason!s}: {key}={value!r}" for exc in refusals(game)
                    for key, value in exc.arguments.items() if key != "kind" and isinstance(value, str) and value in ids})
    assert not wrong, f"{game}: refusals name the engine's phase: {wrong[:6]}"


def words(text: str) -> set[str]:
    return set(re.findall(r"[\w']+", text))


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_a_pictomania_phone_refused_after_the_reveal_reads_its_own_words(language: str) -> None:
    engine = pictomania.PictomaniaEngine(GameSettings(players=3, seed=1, options={}), load_words("en"))
    engine.phase = pictomania.Phase.REVEALED  # the answers are up: a late "done drawing" from a phone
    set_language(language)
    for kind in (pictomania.DRAWN, pictomania.GUESS):
        with pytest.raises(RuleError) as refused:
            engine.handle(Action(kind, 1_000, 0, {"drawer": 1, "number": 3}))
        text = reason_text(refused.value.reason, refused.value.arguments)
        assert not words(text) & ({p.value for p in pictomania.Phase} | {kind, "drawn", "revealed"}), text
        assert "'" not in text, text
        assert reason_text(pictomania.PHASE_WORDS[pictomania.Phase.REVEALED]) in text, text


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_a_piepmatz_move_in_the_wrong_step_is_refused_in_words(language: str) -> None:
    engine = piepmatz.PiepmatzEngine(GameSettings(players=2, seed=1, options={}))
    turn = engine.to_act()[0]
    assert engine.phase is piepmatz.Phase.PLAY
    set_language(language)
    with pytest.raises(RuleError) as refused:
        engine.handle(Action("take", 1_000, turn, {"card": "x"}))
    text = reason_text(refused.value.reason, refused.value.arguments)
    assert not words(text) & set(piepmatz.PLAYER_ACTIONS), text
    assert reason_text(piepmatz.STEP_WORDS["play"]) in text, text
