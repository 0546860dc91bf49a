"""The live loop: t_show is the flip time, keys reach stations and the host,
the headless demo leaves a 1920x1080 screenshot."""

from __future__ import annotations

import pygame
import pytest

from benchmarks.one_process import run_live
from controller.box.runtime import Box
from controller.cli import main
from controller.screen.keyboard import KeyboardSource
from controller.screen.loop import Presenter, draw_box, react_box, run_virtual
from controller.screen.screen import Screen
from games.registry import get
from games.scenes import scene_for
from games.toolkit.scene import Scene
from tests.display.conftest import session

FLIP_LAG_US = 12_345


class FakeClock:
    """Moves 20 ms each time it is read."""

    def __init__(self) -> None:
        self.t = 0

    def __call__(self) -> int:
        self.t += 20_000
        return self.t


class LateScreen(Screen):
    """A screen whose frames reach the glass FLIP_LAG_US after they are asked for."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__(pygame.Surface((640, 360)), True, "dummy")
        self.clock = clock
        self.flips: list[int] = []

    def flip(self) -> int:
        t = self.clock.t + FLIP_LAG_US
        self.flips.append(t)
        return t


def test_reaction_times_count_from_the_flip_that_showed_go() -> None:
    spec = get("reaction")
    box = Box(spec, spec.settings(2, 5, rounds=1, min_delay_us=100_000, max_delay_us=200_000))
    clock = FakeClock()
    screen = LateScreen(clock)
    box.host("start", 0)
    result = run_live(box, Presenter(screen, scene_for("reaction")), clock=clock, until_us=600_000)
    assert result.shows, "GO was never shown"
    due, flipped = result.shows[-1]
    assert flipped in screen.flips and flipped > due
    assert box.engine.public_view()["t_show_us"] == flipped


def test_session_gets_flip_time_through_on_show() -> None:
    s = session("reaction")
    presenter = Presenter(Screen.open(headless=True), scene_for("reaction"))
    result = run_virtual(s, presenter, until_us=20_000_000)
    assert s.shows and [t for t, _ in s.shows] == [f for _, f in result.shows]


def test_keyboard_keys_are_station_presses_and_host_actions() -> None:
    s = session("quiz")
    box = s.box
    kb = KeyboardSource(4)
    kb.start(box)
    assert kb.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE), 1_000) == "arm"
    box.host_button("arm", 1_000)
    assert box.engine.public_view()["phase"] == "armed"
    assert kb.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_3), 500_000) is None
    box.step(520_000)
    assert box.press_log[-1].station == 2 and box.press_log[-1].precision_us == 25_000
    assert box.step(600_000) or box.engine.public_view()["answering"] == 2


def test_a_key_tapped_down_and_up_in_one_pass_buzzes_in() -> None:
    """Keyboard-emulating USB buzzers tap shorter than a loop pass: the key's down
    and up carry one stamp, and the press still counts (not dropped as a glitch)."""
    box = session("quiz").box
    kb = KeyboardSource(4)
    kb.start(box)
    box.host_button("arm", 1_000)
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        kb.handle(pygame.event.Event(kind, key=pygame.K_2), 500_000)
    box.step(600_000)
    assert [p.station for p in box.press_log] == [1]
    assert box.engine.public_view()["answering"] == 1


def test_host_keys_use_each_games_own_action_name() -> None:
    spec = get("reaction")
    box = Box(spec, spec.settings(2, 1))
    box.host_button("arm", 0)  # space: "start" in the reaction duel
    assert box.engine.public_view()["phase"] == "wait"
    box.host_button("reset", 10)  # r: "stop"
    assert box.engine.finished


def test_headless_demo_saves_a_full_hd_screenshot(tmp_path, capsys) -> None:
    out = tmp_path / "shot.png"
    assert main(["demo", "reaction", "--headless", "--seconds", "12", "--players", "3", "--screenshot", str(out)]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (1920, 1080)
    text = capsys.readouterr().out
    assert "Reaction duel: 3 players" in text and "screenshot:" in text


def test_demo_refuses_a_bad_player_count(capsys) -> None:
    import pytest

    with pytest.raises(SystemExit) as stop:
        main(["demo", "quiz", "--headless", "--players", "40"])
    assert stop.value.code == 2  # a usage error: one line, exit 2
    assert "players" in capsys.readouterr().err


def test_a_message_line_shows_rejected_host_actions_in_room_words(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 33: "wrong" while the buzzers are armed showed "not now: quiz:
    cannot wrong while armed; now: reset, next, undo, adjust" to the room."""
    s = session("quiz")
    presenter = Presenter(Screen.open(headless=True), Scene("x"))
    react_box(presenter, s.box, s.box.host_button("arm", 0), 0)
    with caplog.at_level("INFO", logger="buzzerbox.display"):
        events = s.box.host_button("wrong", 10)  # nobody is answering
        react_box(presenter, s.box, events, 10)
    assert any(e.kind == "rejected" for e in events)
    assert presenter.scene.message == "That key does nothing right now"
    assert "cannot wrong while the buzzers are armed; now: reset, next" in caplog.text  # the details: the log


def test_a_paused_box_says_so_on_screen() -> None:
    from controller.box.press import InputNotice
    from controller.screen.loop import Presenter
    from controller.screen.screen import Screen
    from games.scenes import scene_for
    from tests.display.conftest import session

    s = session("quiz")
    presenter = Presenter(Screen.open(headless=True), scene_for("quiz", None))
    s.box.notice(InputNotice(-1, "board", "disconnected", 1_000))
    s.box.step(1_000)
    draw_box(presenter, s.box, 1_000)
    assert presenter.scene.message is not None and "disconnected" in presenter.scene.message
    s.box.notice(InputNotice(-1, "board", "connected", 2_000))
    s.box.step(2_000)
    draw_box(presenter, s.box, 2_000)
    assert presenter.scene.message is None or "disconnected" not in presenter.scene.message


def test_the_host_key_turns_a_card_when_the_host_paces_schicki_micki() -> None:
    from controller.box.runtime import Box
    from games.registry import get

    spec = get("schicki-micki")
    box = Box(spec, spec.settings(3, seed=1, turn_interval_us=None))
    events = box.host_button("arm", 1_000_000)  # space
    assert any(e.kind == "show" for e in events)
    assert box.engine.public_view()["cards_turned"] == 1
    box.host_button("next", 2_000_000)  # n turns too
    assert box.engine.public_view()["cards_turned"] == 2


def test_lights_follow_every_games_statuses() -> None:
    from controller.box.lights import LightDirector, RecordingLights

    lights = RecordingLights([(0, "bell"), (1, "bell"), (2, "bell")])
    LightDirector(lights).update(["reacted", "first", "queued"])
    assert lights.modes == {(0, "bell"): "off", (1, "bell"): "on", (2, "bell"): "blink"}  # a game's own word: dark
    LightDirector(lights).update(["reacted", "winner", "returned"],
                                 get("schicki-micki").status_light)
    assert lights.modes == {(0, "bell"): "blink", (1, "bell"): "on", (2, "bell"): "off"}


def test_a_key_on_a_resumed_timeline_is_stamped_on_it() -> None:
    import pygame

    from benchmarks.one_process import run_live
    from controller.box.runtime import Box
    from controller.box.timeline import box_now_us
    from controller.screen.keyboard import KeyboardSource
    from controller.screen.loop import Presenter
    from controller.screen.screen import Screen
    from games.registry import get
    from games.scenes import scene_for

    spec = get("quiz")
    box = Box(spec, spec.settings(2))
    start = box_now_us()
    reads = [0]

    def clock() -> int:  # a clock the test moves: 1 ms per reading, whatever the machine's load
        reads[0] += 1
        return start + reads[0] * 1_000

    box.time_offset_us = 5_000_000_000 - start  # as if resumed from a journal ending near 5000 s
    presenter = Presenter(Screen.open(headless=True), scene_for("quiz", None))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, mod=0, unicode="1", scancode=0))
    run_live(box, presenter, keyboard=KeyboardSource(2), clock=clock, until_us=5_000_300_000)
    assert box.press_log, "the key was never read"
    # stamped on the resumed timeline (near 5000 s), not the box clock since boot (no offset)
    assert 5_000_000_000 <= box.press_log[0].t_us <= 5_000_000_000 + reads[0] * 1_000


def test_two_games_started_in_the_same_second_get_their_own_journals(tmp_path) -> None:
    from controller.box.session import new_journal_path

    first = new_journal_path(tmp_path, "quiz")
    first.write_text("x")
    second = new_journal_path(tmp_path, "quiz")
    assert second != first and not second.exists()


def test_the_menu_says_a_standing_trouble_on_every_frame_while_it_lasts(monkeypatch) -> None:
    """A tournament's box that cannot reach the broker: the menu's screen says
    why under the rows on every frame the trouble lasts, and no more after."""
    from controller.screen import loop
    from controller.screen.menu import Menu, MenuScene

    said: list[str | None] = []
    draw = MenuScene.draw

    def drawn(self, surface, view, strip, now_us) -> None:
        draw(self, surface, view, strip, now_us)
        said.append(self.message)
        if len(said) == 3:  # the host leaves the menu after three frames
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))

    monkeypatch.setattr(MenuScene, "draw", drawn)
    lines = iter(["Tournament offline: nothing answers", "Tournament offline: nothing answers", None])

    menu = Menu([("reaction", "Reaction", 2, 8)], 2)
    menu.asides.append(lambda: next(lines, None))  # the trouble lasts two frames
    assert loop.run_menu(Screen.open(headless=True), menu, fps=1000) is None
    assert said == ["Tournament offline: nothing answers", "Tournament offline: nothing answers", None]
