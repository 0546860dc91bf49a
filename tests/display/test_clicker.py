"""A presenter clicker (the USB remote most quiz hosts own) runs a quiz: its
keys are keyboard keys (Page Down / Right: the next step, Page Up / Left:
undo, B or .: the pause card), remappable in the wiring profile's ``[keys]``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from controller.box import profile as profile_mod
from controller.box.press import Press
from controller.box.runtime import Box
from controller.screen.keyboard import KeyboardSource
from controller.screen.pause_card import draw_pause_card
from games.i18n import set_language
from games.quiz import PACKS_DIR
from games.registry import get
from tests.fits import measured, unfit_texts
from tests.processes import HANG_S

SPEC = get("quiz")
PACK = str(PACKS_DIR / "en-general.csv")


def key(source: KeyboardSource, code: int) -> str | None:
    return source.handle(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0), 0)


def test_a_clicker_s_keys_are_the_host_s_next_step_undo_and_the_pause_card() -> None:
    source = KeyboardSource(4)
    assert [key(source, k) for k in (pygame.K_PAGEDOWN, pygame.K_RIGHT)] == ["step", "step"]
    assert [key(source, k) for k in (pygame.K_PAGEUP, pygame.K_LEFT)] == ["undo", "undo"]
    assert [key(source, k) for k in (pygame.K_b, pygame.K_PERIOD)] == ["blank", "blank"]
    assert key(source, pygame.K_ESCAPE) == "menu"  # as today


def test_the_wiring_profile_remaps_a_clicker_that_types_other_keys(tmp_path: Path) -> None:
    path = tmp_path / "clicker.toml"
    path.write_text('name = "clicker"\n[keys]\n"f5" = "step"\n"Return" = "next"\n"b" = "correct"\n'
                    '[[stations]]\ninputs = { bell = 17 }\n', encoding="utf-8")
    prof = profile_mod.load(str(path))
    assert prof.keys == {"f5": "step", "return": "next", "b": "correct"}
    source = KeyboardSource(1, keys=prof.keys)
    assert [key(source, k) for k in (pygame.K_F5, pygame.K_RETURN, pygame.K_b)] == ["step", "next", "correct"]
    assert key(source, pygame.K_PAGEDOWN) == "step"  # the rest as the keyboard has them


def test_a_profile_s_keys_are_mapped_without_a_pygame_warning_on_stderr() -> None:
    """``play`` maps the profile's ``[keys]`` before its window opens (pygame
    not initialised yet): the host sees no pygame warning and source line."""
    code = ("import pygame; from controller.screen.keyboard import KeyboardSource; "
            "k = KeyboardSource(2, keys={'f5': 'next', 'page down': 'step'}); "
            "print(k.host_keys[pygame.K_F5], k.host_keys[pygame.K_PAGEDOWN])")
    done = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=HANG_S)
    assert done.returncode == 0 and done.stdout.split() == ["next", "step"], done.stderr
    assert "Warning" not in done.stderr and "pygame.init" not in done.stderr, done.stderr


@pytest.mark.parametrize(("table", "said"), [('"pagedown" = "step"', "'pagedown' is not a key name"),
                                             ('"b" = "blnak"', "key 'b': 'blnak' is not a host action (did you mean")])
def test_a_bad_key_in_the_profile_is_one_line(tmp_path: Path, table: str, said: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f'name = "bad"\n[keys]\n{table}\n[[stations]]\ninputs = {{ bell = 17 }}\n', encoding="utf-8")
    with pytest.raises(profile_mod.ProfileError) as refused:
        profile_mod.load(str(path))
    assert said in str(refused.value) and "\n" not in str(refused.value) and "[keys]" in str(refused.value)


def quiz_box() -> Box:
    return Box(SPEC, SPEC.settings(3, 1, pack=PACK, answer_time_us=10_000_000))


def phase(box: Box) -> str:
    return str(box.engine.public_view()["phase"])


def test_the_next_step_arms_then_after_the_judgement_reveals_then_moves_on_and_back_undoes() -> None:
    box = quiz_box()
    box.host_button("step", 1_000_000)
    assert phase(box) == "armed"
    refused = box.host_button("step", 1_500_000)  # armed: a step must not skip the question
    assert phase(box) == "armed" and [e.kind for e in refused] == ["rejected"]
    box.apply_press(Press(1, "bell", 2_000_000))
    box.step(2_100_000)
    assert phase(box) == "answering"
    assert [e.kind for e in box.host_button("step", 2_200_000)] == ["rejected"]  # the clicker never judges
    box.host("correct", 3_000_000)
    assert box.engine.public_view()["scores"][1] == 1
    box.host_button("undo", 3_500_000)  # Page Up: the judgement taken back
    assert box.engine.public_view()["scores"][1] == 0 and phase(box) == "answering"
    box.host("correct", 4_000_000)
    box.host_button("step", 5_000_000)
    view = box.engine.public_view()
    assert view["revealed"] and view["answer"] and view["question"] == 1
    box.host_button("step", 6_000_000)
    assert box.engine.public_view()["question"] == 2 and phase(box) == "idle"
    box.host_button("step", 7_000_000)
    assert phase(box) == "armed"


def test_the_pause_card_stops_the_clocks_and_the_presses_until_it_is_taken_down() -> None:
    box = quiz_box()
    box.host_button("step", 0)
    box.apply_press(Press(0, "bell", 1_000_000))
    box.step(1_100_000)
    left = box.engine.public_view()["answer_left_us"]
    box.host_button("blank", 2_000_000)
    assert box.host_paused
    box.step(30_000_000)  # a long break: the answer timer would have run out
    box.host_button("blank", 32_000_000)
    assert not box.host_paused
    box.step(32_000_000)
    assert phase(box) == "answering" and box.engine.public_view()["answer_left_us"] == left - 900_000


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_pause_card_is_drawn_whole(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    set_language(lang)
    try:
        drawn, smallest = measured(draw_pause_card, size)
        assert len(drawn) == 2 and not unfit_texts(drawn, smallest, size)
        surface = pygame.Surface(size)
        draw_pause_card(surface)
        pygame.image.save(surface, str(tmp_path / f"pause-{lang}-{size[0]}.png"))
    finally:
        set_language("en")
