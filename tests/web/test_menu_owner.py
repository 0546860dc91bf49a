"""The menu's evening: its deciding process owns the packs folder and the
players' names (docs/processes.md). ``buzzerbox menu --web 0`` as the kiosk
runs it (keys on what its screen shows, tests/display/kiosk.py; its evening's
deciding process its own), the host page in headless Chromium, in the box's
language: between games the host uploads a broken pack (the checker's lines,
one per problem, and nothing saved), then a good one (saved, said so), and
renames a player (kept in the names file for the next start); then the menu's
C copies a USB stick's pack into the packs folder. The menu's
process may not write the packs folder or the names file meanwhile (each try
fails as on a read-only card): what lands there, the deciding process wrote.
Before, the menu's process wrote both itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import expect

from controller.box import session
from controller.cli import main
from controller.pack_store import STICK_FOLDER
from games.i18n import _, ngettext
from games.quiz.packs import check_pack
from tests.display.kiosk import Kiosk, Reached, Script
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import (
    PACK,
    first_question_won_by,
    played_to_the_end,
    until,
)
from tests.display.test_menu_refusal import row_is, said
from tests.processes import written_elsewhere
from tests.web.test_pack_upload import BROKEN, GOOD
from tests.web.test_split_language import host_logged_in
from tests.web.test_split_phones import port_in

#: a pack on a USB stick, copied into the packs folder with the menu's C
STICK = "# title: Stick quiz\nquestion,answer\nCapital of Czechia?,Prague\nCapital of Poland?,Warsaw\n"

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def saved_line(name: str) -> str:
    """What the host reads of a pack of two questions saved in the packs folder."""
    return ngettext("{name}: saved in the packs folder ({n} question)", "{name}: saved in the packs folder ({n} questions)",
                    2).format(name=name, n=2)


def evening(seen: dict[str, Any], host: Any, capsys: pytest.CaptureFixture[str], files: Path) -> Script:
    """A quiz played to its end (the menu's server starts with it), then the host page between games."""
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield from first_question_won_by(1, frame)
    frame = yield from played_to_the_end(frame)
    frame = yield [Reached("the first game played to its end")]
    [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
    host_logged_in(host, port_in(line), line)
    host.set_input_files("#pack-file", str(files / "broken.csv"))
    host.click("#pack-send")
    expect(host.locator("#pack-lines li")).to_have_text([str(p) for p in check_pack(files / "broken.csv")])
    expect(host.locator("#status")).to_have_text(_("The pack was not saved: fix each problem below and upload it again."))
    host.set_input_files("#pack-file", str(files / "night.csv"))
    host.click("#pack-send")
    expect(host.locator("#pack-lines li")).to_have_text([saved_line("night.csv")])
    expect(host.locator("#status")).to_have_text(_("Pack saved: choose it in the menu's pack row."))
    host.locator("#scores input.name[data-seat='1']").fill("Zuzana")
    host.locator("#scores button[data-rename='1']").click()
    expect(host.locator("#status")).to_have_text(_("Sent"))
    seen["between"] = True
    frame = yield [Reached("the host page's pack and name")]
    while not row_is(frame, "Question pack", "Stick quiz"):  # the stick's pack chosen
        frame = yield [pygame.K_UP if not row_is(frame, "Question pack") else pygame.K_RIGHT]
    frame = yield [pygame.K_c]  # copied into the packs folder
    yield from until(frame, lambda f: saved_line("stick.csv") in said(f))
    seen["stick"] = True
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_menus_deciding_process_saves_the_host_pages_packs_and_names(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        phone: Any) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    packs, files = tmp_path / "packs", tmp_path / "files"
    packs.mkdir()
    files.mkdir()
    (packs / "two.csv").write_text(PACK, encoding="utf-8")
    (files / "night.csv").write_text(GOOD, encoding="utf-8")
    (files / "broken.csv").write_text(BROKEN, encoding="utf-8")
    stick = tmp_path / "media" / "host" / "STICK" / STICK_FOLDER
    stick.mkdir(parents=True)
    (stick / "stick.csv").write_text(STICK, encoding="utf-8")
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, evening(seen, phone(), capsys, files))
    names = session.names_path()
    with written_elsewhere(packs, names, names.with_suffix(".tmp")) as tried:
        assert main(["--lang", language, "menu", "--players", "3", "--window", "--fresh", "--web", "0",
                     "--journal-dir", str(tmp_path / "journals"), "--packs-dir", str(packs),
                     "--media-root", str(tmp_path / "media")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen.get("between") and seen.get("stick"), seen
    assert tried == []  # the menu's process never tried to write them
    assert (packs / "night.csv").read_text(encoding="utf-8") == GOOD  # the deciding process saved it
    assert sorted(p.name for p in packs.iterdir()) == ["night.csv", "stick.csv", "two.csv"]  # the broken one is not
    assert (packs / "stick.csv").read_text(encoding="utf-8") == STICK
    assert session.saved_names(None)[1] == "Zuzana"  # kept for the next start
