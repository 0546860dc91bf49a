"""What the deciding process owns besides the game: the names file and the
packs folder (controller/box/owner.py). Each request is checked and written
there and answered with the lines the host reads, in the box's language;
a menu asking an evening's process that died meanwhile is answered in one line."""

from __future__ import annotations

import base64
import contextlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller import protocol as p
from controller.box import owner, session
from controller.pack_store import NO_PACKS_FOLDER
from controller.screen.evening import NOT_ASKED, EveningLink
from games.i18n import _, ngettext, set_language
from tests.web.test_pack_upload import BROKEN, GOOD


@pytest.fixture()
def language() -> Iterator[None]:
    set_language("cs")
    yield
    set_language("en")


def packed(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.usefixtures("language")
def test_a_pack_is_saved_in_the_packs_folder_and_a_refusal_is_one_line_in_the_boxs_language(tmp_path: Path) -> None:
    folder = tmp_path / "packs"
    saved = owner.answer(p.UploadPack("night.csv", packed(GOOD)), None, folder)
    assert saved.accepted and saved.saved == "night.csv" and (folder / "night.csv").read_text() == GOOD
    assert saved.lines == (ngettext("{name}: saved in the packs folder ({n} question)",
                                    "{name}: saved in the packs folder ({n} questions)", 2).format(name="night.csv", n=2),)
    assert "uložen" in saved.lines[0]  # in Czech
    broken = owner.answer(p.UploadPack("broken.csv", packed(BROKEN)), None, folder)
    assert not broken.accepted and broken.saved is None and len(broken.lines) == 2
    assert all("broken.csv řádek" in line for line in broken.lines)  # the checker's lines, in Czech
    assert owner.answer(p.UploadPack("a.csv", packed(GOOD)), None, None) == p.Answered(False, (
        _(NO_PACKS_FOLDER),))  # a deciding process given no packs folder
    damaged = owner.answer(p.UploadPack("a.csv", "not base64!"), None, folder)
    assert not damaged.accepted and damaged.lines == (_("{name}: the file came damaged; upload it again").format(
        name="a.csv"),)
    assert sorted(x.name for x in folder.iterdir()) == ["night.csv"]


@pytest.mark.usefixtures("language")
def test_names_are_kept_or_the_line_says_why_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert owner.answer(p.SaveNames(("Ana", "", "Žofie")), None, None) == p.Answered(True)
    assert session.saved_names(None) == ["Ana", "", "Žofie"]
    too_many = owner.answer(p.SaveNames(("x",) * (owner.MAX_NAMES + 1)), None, None)
    assert not too_many.accepted and too_many.lines == (f"posláno {owner.MAX_NAMES + 1} jmen; krabička má nejvýš "
                                                        f"{owner.MAX_NAMES} hráčů",)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "a file"))
    (tmp_path / "a file").write_text("")  # a read-only card, as far as the names are concerned
    [line] = owner.answer(p.SaveNames(("Bo",)), None, None).lines
    assert line.startswith("jména hráčů nešlo uložit do ") and "\n" not in line


@pytest.mark.usefixtures("language")
def test_the_first_starts_choices_are_kept_or_the_line_says_why_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk-through's language and wiring: written in the marker the menu starts with, a language the
    box does not speak refused in the line ``--lang`` says, a read-only card in one line (in Czech)."""
    import json

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert owner.answer(p.SaveSetup("pl", "header-4"), None, None) == p.Answered(True)
    assert json.loads(session.setup_path().read_text(encoding="utf-8")) == {
        "done": True, "language": "pl", "profile": "header-4"}
    [line] = owner.answer(p.SaveSetup("de", None), None, None).lines
    assert line.startswith("'de' není jazyk, kterým krabička mluví") and "pl (Polski)" in line
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "a file"))
    (tmp_path / "a file").write_text("")  # a read-only card, as far as the marker is concerned
    [line] = owner.answer(p.SaveSetup(None, None), None, None).lines
    assert line.startswith("volby prvního spuštění nešlo uložit do ") and "\n" not in line


def test_the_menu_asks_its_evening_process_and_one_that_died_is_said_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The menu's end (``EveningLink.ask``) against a real evening process on keyboard stations."""
    set_language("en")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    link = EveningLink(None, packs=tmp_path / "packs")
    link.start()
    try:
        assert link.ask(p.SaveNames(("Ana", "Bo"))) == p.Answered(True)
        assert session.saved_names(None) == ["Ana", "Bo"]  # written by that process
        assert link.ask(p.UploadPack("night.csv", packed(GOOD))).saved == "night.csv"
        assert (tmp_path / "packs" / "night.csv").read_text() == GOOD
        assert link.process is not None
        os.kill(link.process.pid, signal.SIGKILL)
        link.process.wait()
        assert link.ask(p.SaveNames(("Cyril",))) == p.Answered(False, (_(NOT_ASKED),))
        assert session.saved_names(None) == ["Ana", "Bo"]
    finally:
        with contextlib.suppress(OSError):
            link.stop()
