"""A refused action is said in the viewer's language (issue 31, engines'
refusal reasons): engines raise ``RuleError`` with a message id and its
arguments, never an English sentence they built; the screen's message line
and the phones word it with the catalogue.

Every registered game is played by its bots (seeded, virtual time) while,
at each step, a copy of the engine is offered the moves a player or the host
must not make now; every refusal it gives must be a catalogue text.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator

import pygame
import pytest

from controller.apps.game_check import is_message_id, marked_texts
from controller.box.runtime import Box
from controller.box.simulate import Session
from controller.screen.loop import Presenter, react_box
from controller.screen.screen import Screen
from games import registry, scenes
from games.base import Action, GameEvent, RuleError
from games.i18n import reason_text, refusal_text, set_language

#: games whose engines still raise English sentences (none now; a game added unconverted goes here)
NOT_YET: dict[str, str] = {}
#: what a probe sends: a kind nobody knows, and bad arguments for the kinds the game knows
BAD_ARGS = ({}, {"card": "no-such-card", "mouse": "no-such-mouse", "player": 99, "drawer": -1, "number": 99,
                 "token": -1, "step": 7, "value": 9, "seat": 99, "move": 1, "accessory": "cape"})


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    set_language("en")


def refusals(game: str, steps: int = 60) -> list[RuleError]:
    """Refusals a game's engine gives to wrong moves along one bot game."""
    spec = registry.get(game)
    settings = spec.settings(4, 7, **spec.demo_options)
    session = Session(Box(spec, settings), spec.new_bots(settings), spec.new_host(settings), 7)
    found: list[RuleError] = []
    for _step in range(steps):
        engine = session.box.engine
        kinds = {k for p in [None, *range(settings.players)] for k in engine.legal_actions(p)} | {"no-such-move"}
        probe = copy.deepcopy(engine)
        for player in [None, *range(settings.players)]:
            for kind in sorted(kinds):
                for args in BAD_ARGS:
                    try:
                        probe.handle(Action(kind, session.now_us, player, args))
                    except RuleError as exc:
                        found.append(exc)  # refused: checked before anything changed, so the probe is still this step's
                    else:
                        probe = copy.deepcopy(engine)  # taken: the next probe starts from the step's state again
        nxt = session.next_time_us()
        if nxt is None or engine.finished:
            break
        session.step(max(nxt, session.now_us))
    return found


GAMES = [pytest.param(g, marks=pytest.mark.xfail(strict=True, reason=NOT_YET[g])) if g in NOT_YET else g
         for g in registry.available()]


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_of_every_engine_is_a_catalogue_text(game: str) -> None:
    found = refusals(game)
    assert len(found) >= 10, f"{game}: the probes found only {len(found)} refusals"
    marked = marked_texts(registry.package_of(game))  # a new game's own texts, in no catalogue before make i18n
    english = sorted({str(exc) for exc in found if not is_message_id(exc, marked)})
    assert not english, f"{game}: refusals built in English, not message ids: {english[:6]}"
    set_language("cs")
    for exc in found:  # and each one words itself in Czech (its placeholders all filled)
        text = reason_text(exc.reason, exc.arguments)
        assert "{" not in text.replace("{'", "").replace('{"', "") or "{" in str(exc), f"{game}: {text!r}"


def test_a_refusal_keeps_its_id_and_arguments_through_a_pipe_and_its_english_for_the_journal() -> None:
    exc = RuleError("player {n} already rang for this card", n=3)
    again = pickle.loads(pickle.dumps(exc))
    assert (again.reason, again.arguments, str(again)) == (exc.reason, {"n": 3}, "player 3 already rang for this card")
    assert exc.to_json() == {"why": "player 3 already rang for this card",
                             "why_id": "player {n} already rang for this card", "why_args": {"n": 3}}


def test_a_counted_refusal_takes_the_form_for_its_number() -> None:
    reason = ("discard {n} more card first (the penalty for a wrong ring)",
              "discard {n} more cards first (the penalty for a wrong ring)")
    assert str(RuleError(reason, n=1)).startswith("discard 1 more card first")
    set_language("cs")
    assert reason_text(reason, {"n": 1}) == "odhoďte nejdřív ještě 1 kartu (trest za špatné zazvonění)"
    assert reason_text(list(reason), {"n": 5}) == "odhoďte nejdřív ještě 5 karet (trest za špatné zazvonění)"


def test_an_old_journals_refusal_has_only_its_english_and_still_shows() -> None:
    set_language("cs")
    assert refusal_text({"kind": "ring", "why": "player 2 already rang"}) == "player 2 already rang"


def test_the_message_line_says_a_refusal_in_the_box_language_and_names_who() -> None:
    """Viva Topo!: blue presses while it is red's turn; a Czech screen says so in Czech, short."""
    pygame.display.init()
    set_language("cs")
    spec = registry.get("viva-topo")
    box = Box(spec, spec.settings(2, 1))
    presenter = Presenter(Screen.open(headless=True), scenes.scene_for("viva-topo"))
    events = box.apply_action(Action("roll", 1_000, 1, {}))
    rejected = [e for e in events if e.kind == "rejected"]
    assert rejected and rejected[0].data["why_id"] == "it is {colour}'s turn, not {other}'s"
    react_box(presenter, box, events, 1_000)
    assert presenter.scene.message == f"{box.station_names[1]}: teď ne"


@pytest.mark.parametrize("game", registry.available())
def test_a_refused_key_shows_the_room_a_short_line_and_logs_the_details(
        game: str, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 33: a host key at the wrong moment showed "not now: quiz: cannot
    wrong while armed; now: reset, next, undo, adjust" to the room. Every
    game's refusals (the probes' first steps), from the host and from a
    player, show one short line in the room's language; the log has the why."""
    pygame.display.init()
    found = refusals(game, steps=3)
    assert found
    spec = registry.get(game)
    box = Box(spec, spec.settings(4, 7, **spec.demo_options))
    presenter = Presenter(Screen.open(headless=True), scenes.scene_for(game))
    said = {"en": ("That key does nothing right now", "{name}: not now"),
            "pl": ("Ten klawisz teraz nic nie robi", "{name}: nie teraz")}
    for language, (host_line, player_line) in said.items():
        set_language(language)
        for exc in found[:40]:
            for player in (None, 2):
                caplog.clear()
                with caplog.at_level("INFO", logger="buzzerbox.display"):
                    react_box(presenter, box, [GameEvent("rejected", 5, player, {"kind": "x", **exc.to_json()})], 5)
                line = presenter.scene.message or ""
                assert line == (host_line if player is None else player_line.format(name=box.station_names[2]))
                assert str(exc) not in line and exc.text() not in line, line
                assert str(exc) in caplog.text


def test_the_message_line_for_a_paused_board_is_translated() -> None:
    pygame.display.init()
    set_language("pl")
    spec = registry.get("reaction")
    box = Box(spec, spec.settings(2, 1))
    presenter = Presenter(Screen.open(headless=True), scenes.scene_for("reaction"))
    react_box(presenter, box, [GameEvent("paused", 5)], 5)
    assert presenter.scene.message == "płytka wejść odłączona: gra wstrzymana"
