"""A journal that cannot be written is seen (virtual time, a disk that fills):
the deciding process's published view carries one translated line, the
HDMI screen draws it, the host page's view has it, the log says what
happened; when space returns the records are written and the notice clears."""

from __future__ import annotations

import dataclasses
import errno
import json
import logging
from pathlib import Path

import pygame
import pytest

from controller.box import journal as journal_mod
from controller.box.journal_format import PressRecord, parse_bytes
from controller.box.press import Press
from controller.box.process import DecidingGame
from controller.box.runtime import Box
from controller.box.views import Publisher
from controller.protocol import View
from controller.screen.loop import Presenter
from controller.screen.screen import Screen
from games import i18n
from games.base import EventKind, GameSpec
from games.registry import get
from games.scenes import scene_for

SIZE = (1280, 720)


class Card:
    """The journal's disk: it fills up (ENOSPC) or turns read-only (EROFS) on demand."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.refuse: int | None = None

    def write(self, data: bytes) -> int:
        if self.refuse is not None:
            raise OSError(self.refuse, {errno.ENOSPC: "No space left on device"}.get(self.refuse, "Read-only file system"))
        self.data += data
        return len(data)

    def sync(self) -> None:
        pass

    def close(self) -> None:
        pass


def journaled_box(tmp_path: Path, card: Card) -> Box:
    spec = get("reaction")
    box = Box(spec, spec.settings(2, 5))
    box.journal = journal_mod.JournalWriter.create(tmp_path / "j.jsonl", box.header(mode="play"), threaded=False,
                                                   sink=card)
    return box


def screenshot(presenter: Presenter, spec: GameSpec, view: View, path: Path) -> bytes:
    surface = pygame.Surface(SIZE)
    presenter.draw_view(view, spec, 1_000_000, surface)
    pygame.image.save(surface, str(path))
    return pygame.image.tobytes(surface, "RGB")


@pytest.mark.parametrize(("refused", "words"), [(errno.ENOSPC, "card is full"), (errno.EROFS, "read-only")])
def test_a_full_or_read_only_card_is_said_on_the_view_the_screen_and_the_host_page(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, refused: int, words: str) -> None:
    card = Card()
    box = journaled_box(tmp_path, card)
    game = DecidingGame(box, None, None, until_us=None, results_s=1.0, screen_args=[])
    assert game.view(0).journal is None
    box.apply_press(Press(0, "bell", 10_000))
    box.step(20_000)
    card.refuse = refused  # the card fills up (or turns read-only) mid-game
    box.apply_press(Press(1, "bell", 30_000))
    with caplog.at_level(logging.ERROR, logger="buzzerbox"):
        events = box.step(40_000)
    notice = [e for e in events if e.kind is EventKind.JOURNAL]
    assert len(notice) == 1 and words in notice[0].data["notice"]  # an event: the viewers hear it at once
    view = game.view(40_000)
    assert view.journal == notice[0].data["notice"]
    assert "\n" not in view.journal
    assert any("journal cannot write" in r.getMessage() for r in caplog.records)  # the log says what happened
    host = json.loads(Publisher(box).build().host)
    assert host["journal"] == view.journal
    # the screen (a viewer drawing the published view) says it; a healthy journal's screen does not
    screen = Screen.open(headless=True, size=SIZE)
    try:
        presenter = Presenter(screen, scene_for("reaction"))
        failing = screenshot(presenter, box.spec, view, tmp_path / "journal-full.png")
        assert presenter.scene.message == view.journal
        presenter.scene.message = None
        healthy = screenshot(presenter, box.spec, dataclasses.replace(view, journal=None), tmp_path / "journal-healthy.png")
        assert failing != healthy
    finally:
        screen.close()
    # space again: every waiting record is written and the notice clears
    card.refuse = None
    box.apply_press(Press(0, "bell", 60_000))
    cleared = [e for e in box.step(70_000) if e.kind is EventKind.JOURNAL]
    assert [e.data["notice"] for e in cleared] == [None] and game.view(70_000).journal is None
    box.journal.close()
    written = parse_bytes(bytes(card.data))
    assert [r.press.t_us for r in written.records if isinstance(r, PressRecord)] == [10_000, 30_000, 60_000]


def test_the_notice_is_in_every_language(tmp_path: Path) -> None:
    card = Card()
    box = journaled_box(tmp_path, card)
    card.refuse = errno.ENOSPC
    box.apply_press(Press(0, "bell", 10_000))
    box.step(20_000)
    said = {}
    before = i18n.current_language()
    try:
        for language in ("en", "cs", "pl"):
            i18n.set_language(language)
            said[language] = box.journal_notice()
    finally:
        i18n.set_language(before)
    assert len(set(said.values())) == 3, said
    card.refuse = None
    assert box.journal is not None
    box.journal.close()
