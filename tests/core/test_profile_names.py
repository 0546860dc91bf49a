"""A profile's own station names keep the rule every other way of naming a
station keeps (the menu's names editor, the host page): a name the big
screen cannot draw (an emoji outside its typeface, Chinese) is refused in
one line when the profile is loaded, in the host's language. The profile
is loaded on the deciding side, which imports no pygame: the rule is the
typeface's own character map read in plain Python (``games.glyphs``), the
same one the screen's editors ask."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from games.glyphs import FONT_FILE, undrawable
from games.i18n import _, set_language
from tests.processes import HANG_S

WIRING = '[[stations]]\nname = "{name}"\ninputs = {{ bell = 17 }}\n[[stations]]\nname = "Bob"\ninputs = {{ bell = 27 }}\n'


def checked(language: str, profile: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", "--lang", language, "wiring", "check", str(profile)],
                          capture_output=True, text=True, timeout=HANG_S, check=False)


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize("name, refused", [("Eva🎉", "🎉"), ("Li 中", "中")])
def test_a_station_name_the_screen_cannot_draw_is_refused_in_one_line(
        language: str, name: str, refused: str, tmp_path: Path) -> None:
    profile = tmp_path / "emoji.toml"
    profile.write_text(WIRING.format(name=name), encoding="utf-8")
    done = checked(language, profile)
    set_language(language)
    line = _("{chars}: the big screen cannot draw these; letters, digits and punctuation only").format(chars=refused)
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert line in done.stderr, done.stderr
    profile.write_text(WIRING.format(name="Žofie Łucja 😀"), encoding="utf-8")  # Czech, Polish, a face it has: drawn
    assert checked(language, profile).returncode == 0


def test_the_rule_needs_no_pygame_and_is_what_the_screen_draws() -> None:
    """Loaded where the deciding process loads a profile, the check leaves
    pygame out; and what it lets through is what the font draws as itself,
    not as the empty box it draws for a character it lacks."""
    probe = ("import sys; from controller.box import profile; from games.glyphs import name_refusal; "
             "assert name_refusal('Eva🎉') and not name_refusal('Eva'); print('pygame' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=HANG_S, check=False)
    assert done.stdout.strip() == "False", done
    pygame.font.init()
    font = pygame.font.Font(str(FONT_FILE), 40)
    empty = pygame.image.tobytes(font.render("\U000F0000", True, (255, 255, 255)), "RGB")  # private use: the box
    for ch in "AžŁ€😀🐱❤☺中🎉अ":
        drawn = pygame.image.tobytes(font.render(ch, True, (255, 255, 255)), "RGB")
        assert (drawn == empty) == bool(undrawable(ch)), ch
