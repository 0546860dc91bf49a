"""The names editor's length limit, said: a name is at most 16 characters (a
strip cell's), and the editor cut a longer one silently. The name being typed
shows how much of it is used ("7/16"), and typing past it is refused with a
line under the names, in the host's language, until the next key.

Through the whole ``buzzerbox menu`` loop (tests/display/kiosk.py): the host
opens Player names, types a name of 18 characters, reads the count and the
line, moves on and finishes. The longest name stands whole beside its count
at 720p and 1080p in every language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box.session import NAME_LENGTH
from controller.screen.menu import NameEditor, NamesScene
from games.i18n import _, ngettext, set_language
from games.toolkit.scene import freeze
from tests.display.kiosk import Script, in_the_menu
from tests.display.test_menu_refusal import said
from tests.display.test_names_emoji import done_and_quit, to_the_names_editor
from tests.fits import measured, unfit_texts

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

TYPED = "Maximilián Novotný"  # 18 characters: "Maximilián Novot" is kept


def host(seen: dict[str, Any]) -> Script:
    seen["opened"] = said((yield from to_the_names_editor()))
    frame = yield [pygame.event.Event(pygame.TEXTINPUT, text=TYPED[:7])]
    frame = yield []
    seen["seven"] = said(frame)
    frame = yield [pygame.event.Event(pygame.TEXTINPUT, text=TYPED[7:])]
    frame = yield []
    seen["past"] = said(frame)
    frame = yield [pygame.K_DOWN]
    frame = yield []
    seen["next"] = said(frame)
    yield from done_and_quit(seen)


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_name_length_is_shown_and_typing_past_it_is_refused_and_said(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    in_the_menu(tmp_path, monkeypatch, host(seen), language=language, players=4, seen=seen)

    def count(used: int) -> str:
        return _("{used}/{most}").format(used=used, most=NAME_LENGTH)

    line = ngettext("A name takes at most {n} character: the rest was not added",
                    "A name takes at most {n} characters: the rest was not added", NAME_LENGTH).format(n=NAME_LENGTH)
    assert count(0) in seen["opened"] and line not in seen["opened"], seen["opened"]
    assert count(7) in seen["seven"] and line not in seen["seven"], seen["seven"]
    assert count(NAME_LENGTH) in seen["past"] and line in seen["past"], seen["past"]
    assert TYPED[:NAME_LENGTH] in seen["past"]
    assert line not in seen["next"], seen["next"]  # said until the next key
    assert TYPED[:NAME_LENGTH] in seen["panel"] and TYPED not in seen["panel"], seen["panel"]


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[1]}p")
@pytest.mark.parametrize("letter", ["W", "Ř", "Ś"])
def test_the_longest_name_stands_whole_beside_its_count(language: str, size: tuple[int, int], letter: str) -> None:
    """The count took its room from the name's field: sixteen "W"s, the longest
    name the editor takes, were cut to "WWWWWWWWWWWW…" at 720p. Every one of
    sixteen players' rows has room for it, the cursor after it and "16/16"
    beside it: every text whole, at least the smallest type, clear of the others."""
    set_language(language)
    longest = letter * NAME_LENGTH
    editor = NameEditor(["Anna", "", longest, *["Maximilián Novot"] * 13], 16, NAME_LENGTH)
    editor.key("down")
    editor.key("down")  # the longest name is being typed: the count beside it, the cursor after it
    assert editor.view()["names"][editor.selected] == longest
    records, smallest = measured(lambda surface: NamesScene().draw(surface, freeze(editor.view()), [], 0), size)
    assert not unfit_texts(records, smallest, size), f"{language} {size}: {unfit_texts(records, smallest, size)}"
    shown = [text for _asked, text, *_r in records]
    assert f"{longest}_" in shown and _("{used}/{most}").format(used=NAME_LENGTH, most=NAME_LENGTH) in shown, shown
