"""The menu's "Copy results to USB stick": the journals and what was made of
them (results, standings, a quiz bowl match's QBJ file) land whole on a
stick (a folder under a temporary media root, as udisks mounts one); no
stick, a read-only one or a full one is said in one line, and the box
keeps every file, none half-written on the stick under its real name."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from controller.apps import usb_copy
from games.i18n import _
from tests.display.test_menu_usb_copy import box_files, evening, stick


def test_the_results_land_whole_on_the_stick_and_again_unchanged(tmp_path: Path) -> None:
    journals = evening(tmp_path)
    before = box_files(journals)
    at = stick(tmp_path)
    copied = usb_copy.copy_results(journals, [tmp_path / "media"])
    assert copied.ok, copied.lines
    folder = at / usb_copy.RESULTS_FOLDER
    assert copied.folder == folder
    on_stick = {p.name: p.read_bytes() for p in folder.iterdir()}
    for name, data in before.items():  # journal, results CSV and JSON, standings: byte for byte
        assert on_stick[name] == data, name
    match = json.loads(on_stick["quiz-20261205-201500.qbj"])  # the bowl match as `results --qbj` writes it
    assert match["match_teams"], match
    assert copied.lines[0] == f"Copied {len(on_stick)} files to the USB stick STICK, folder buzzerbox-results.", copied
    assert box_files(journals) == before  # only read

    again = usb_copy.copy_results(journals, [tmp_path / "media"])
    assert again.ok and not again.written and len(again.kept) == len(on_stick), again


def test_no_stick_is_one_line(tmp_path: Path) -> None:
    journals = evening(tmp_path)
    (tmp_path / "media" / "pi").mkdir(parents=True)  # the user's folder, no stick in it
    copied = usb_copy.copy_results(journals, [tmp_path / "media"])
    assert not copied.ok and copied.lines == (_("No USB stick found: plug one into the box and choose this row "
                                                "again."),)


def test_a_full_stick_keeps_what_was_whole_and_leaves_no_half_file(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    journals = evening(tmp_path)
    before = box_files(journals)
    at = stick(tmp_path)
    synced = []

    def fsync(fd: int) -> None:  # the second file does not fit
        synced.append(fd)
        if len(synced) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(usb_copy.os, "fsync", fsync)
    copied = usb_copy.copy_results(journals, [tmp_path / "media"])
    assert not copied.ok and len(copied.lines) == 1, copied
    line = copied.lines[0]
    assert "STICK" in line and "full" in line and "1 file was copied whole" in line and "keeps all" in line, line
    left = sorted(p.name for p in (at / usb_copy.RESULTS_FOLDER).iterdir())
    assert left == list(copied.written) and len(left) == 1, left  # no temporary file, no half one
    assert (at / usb_copy.RESULTS_FOLDER / left[0]).read_bytes() == before[left[0]]
    assert box_files(journals) == before


def test_a_read_only_stick_is_one_line_and_nothing_moves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journals = evening(tmp_path)
    before = box_files(journals)
    at = stick(tmp_path)
    real_mkdir = Path.mkdir

    def mkdir(self: Path, *args: Any, **kwargs: Any) -> None:  # as a stick mounted read-only answers
        if self.is_relative_to(at):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))
        real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    copied = usb_copy.copy_results(journals, [tmp_path / "media"])
    assert not copied.ok and len(copied.lines) == 1 and "read-only" in copied.lines[0], copied
    assert list(at.iterdir()) == [] and box_files(journals) == before
