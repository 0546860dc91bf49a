"""A quiz's pictures go with its journal (issue 34): kept beside it in
``media/`` by their content when the game starts, found there when the
journal is read on another box, unchanged when the pack's picture is edited
after the game; a picture that cannot be kept leaves the game as it was."""

from __future__ import annotations

import hashlib
import logging
import shutil
from pathlib import Path

import pytest

from controller.box import journal as journal_mod
from controller.box import session
from controller.box.media import MEDIA_FOLDER, NAME_DIGITS
from controller.box.runtime import Box, box_from_journal
from games.registry import get

PICTURE = b"\x89PNG\r\n\x1a\n" + b"a picture of Mars" * 10
PACK = "question,answer,image\nThe red planet?,Mars,mars.png\nNamed for a god of war?,Mars,mars.png\nNo picture?,Yes,\n"


def pack_with_a_picture(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "mars.png").write_bytes(PICTURE)
    pack = folder / "planets.csv"
    pack.write_text(PACK, encoding="utf-8")
    return pack


def started(pack: Path, journal: Path) -> Box:
    spec = get("quiz")
    box = session.new_box(spec, spec.settings(2, pack=str(pack)), None, journal)
    assert box.journal is not None
    box.journal.close()
    return box


def images(box: Box) -> list[object]:
    return [q.get("image") for q in box.settings.options["pack_questions"]]


def test_a_picture_is_kept_once_beside_the_journal_by_its_content_and_the_journal_names_the_copy(
        tmp_path: Path) -> None:
    pack = pack_with_a_picture(tmp_path / "pack")
    journal = tmp_path / "journals" / "quiz.jsonl"
    journal.parent.mkdir()
    box = started(pack, journal)
    kept = journal.parent / MEDIA_FOLDER / (hashlib.sha256(PICTURE).hexdigest()[:NAME_DIGITS] + ".png")
    assert sorted((journal.parent / MEDIA_FOLDER).iterdir()) == [kept]  # the same picture twice: one file
    assert kept.read_bytes() == PICTURE
    assert images(box) == [str(kept), str(kept), None]
    header = journal_mod.read(journal).session
    assert header is not None
    assert [q.get("image") for q in header.settings.options["pack_questions"]] == [str(kept), str(kept), None]


def test_a_journal_copied_to_another_box_with_its_media_shows_the_picture_the_room_saw(tmp_path: Path) -> None:
    pack = pack_with_a_picture(tmp_path / "pack")
    here = tmp_path / "here"
    here.mkdir()
    started(pack, here / "quiz.jsonl")
    (pack.parent / "mars.png").write_bytes(b"\x89PNG\r\n\x1a\n edited after the game")
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(here, elsewhere)
    shutil.rmtree(here)  # the first box's folder is not on this one
    replayed = box_from_journal(journal_mod.read(elsewhere / "quiz.jsonl"))
    shown = images(replayed)
    assert shown[0] == shown[1] and isinstance(shown[0], str) and shown[2] is None
    assert Path(shown[0]).parent == elsewhere / MEDIA_FOLDER
    assert Path(shown[0]).read_bytes() == PICTURE  # what the room saw, not the edited picture


def test_a_picture_that_cannot_be_kept_is_one_log_line_and_the_game_shows_it_from_the_pack(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    pack = pack_with_a_picture(tmp_path / "pack")
    folder = tmp_path / "journals"
    folder.mkdir()
    (folder / MEDIA_FOLDER).write_text("a file where the media folder goes")
    with caplog.at_level(logging.WARNING, logger="controller.box.media"):
        box = started(pack, folder / "quiz.jsonl")
    assert images(box) == [str(pack.parent / "mars.png")] * 2 + [None]
    said = [r.getMessage() for r in caplog.records if r.name == "controller.box.media"]
    assert len(said) == 1 and "mars.png was not kept with the journal" in said[0]
    assert journal_mod.read(folder / "quiz.jsonl").session is not None  # the game and its journal went on


def test_a_resumed_game_and_a_journal_named_from_its_own_folder_ask_for_the_kept_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play --journal quiz.jsonl`` (a path relative to where it runs) names the
    copy by its absolute path; the game resumed (as every split game starts) asks for it."""
    pack = pack_with_a_picture(tmp_path / "pack")
    night = tmp_path / "night"
    night.mkdir()
    monkeypatch.chdir(night)
    started(pack, Path("quiz.jsonl"))
    kept = night / MEDIA_FOLDER / (hashlib.sha256(PICTURE).hexdigest()[:NAME_DIGITS] + ".png")
    monkeypatch.chdir(tmp_path)
    box, journal = session.resumed_box(night / "quiz.jsonl")
    assert box.journal is not None
    box.journal.close()
    assert images(box) == [str(kept), str(kept), None]


def test_a_journal_written_on_windows_finds_its_pictures_beside_it(tmp_path: Path) -> None:
    from dataclasses import replace

    from controller.box.media import found_beside

    (tmp_path / MEDIA_FOLDER).mkdir()
    (tmp_path / MEDIA_FOLDER / "ab12.png").write_bytes(PICTURE)
    spec = get("quiz")
    base = spec.settings(2)
    settings = replace(base, options={**base.options, "pack_questions": [
        {"text": "Q?", "answer": "A", "image": "C:\\quiz\\journals\\media\\ab12.png"}]})
    found = found_beside(settings, tmp_path / "quiz.jsonl")
    assert found.options["pack_questions"][0]["image"] == str(tmp_path / MEDIA_FOLDER / "ab12.png")


def test_a_picture_past_the_size_limit_stays_with_the_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("controller.box.media.MAX_PICTURE_BYTES", len(PICTURE) - 1)
    pack = pack_with_a_picture(tmp_path / "pack")
    (tmp_path / "j").mkdir()
    box = started(pack, tmp_path / "j" / "quiz.jsonl")
    assert images(box) == [str(pack.parent / "mars.png")] * 2 + [None]
    assert not (tmp_path / "j" / MEDIA_FOLDER).exists()
