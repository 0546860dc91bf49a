"""A quiz's pictures kept beside its journal, named by their content.

A pack names its pictures by path. A journal copied to another box (a
dispute, a replay at the league desk) would lose them, and a picture edited
after the game would show something else than the room saw. So when a
journaled game starts, each picture is copied once into ``media/`` in the
journal's folder as ``<sha-256>.<suffix>`` and the game asks for that copy;
reading a journal elsewhere finds a picture in ``media/`` beside the journal
when the path it names is not there. The journal itself is never changed.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path, PureWindowsPath

from games.base import GameSettings
from games.files import fsync_dir, read_limited
from games.i18n import N_

log = logging.getLogger(__name__)

#: the folder beside the journals that holds the pictures, by content
MEDIA_FOLDER = "media"
#: a picture larger than this is left where the pack has it (a pack's pictures are photos, not films)
MAX_PICTURE_BYTES = 32_000_000
#: a copy being written (one left by a process killed mid-copy is never asked for: its name is no hash)
PART_PREFIX = ".part-"
#: hex digits of the SHA-256 in a kept picture's name (128 bits: no two pictures share one)
NAME_DIGITS = 32


def content_name(data: bytes, suffix: str) -> str:
    """A picture's name in ``media/``: its content's hash and its kind (``.png``, ``.jpg``)."""
    return hashlib.sha256(data).hexdigest()[:NAME_DIGITS] + suffix.lower()


def keep_picture(picture: Path, folder: Path) -> Path | None:
    """``picture`` copied into ``folder/media`` by content (once: the same
    picture from two packs is one file); None, with one log line, when it
    cannot be (gone, not a file, too large, a full disk): the game shows it from the pack."""
    try:
        data = read_limited(picture, MAX_PICTURE_BYTES, N_("picture"))  # never waits on a pipe swapped in
        media = folder / MEDIA_FOLDER
        kept = media / content_name(data, picture.suffix)
        if not (kept.is_file() and kept.stat().st_size == len(data)):  # a cut copy is written again
            media.mkdir(parents=True, exist_ok=True)
            fd, part = tempfile.mkstemp(dir=media, prefix=PART_PREFIX)
            try:
                with os.fdopen(fd, "wb") as out:
                    os.fchmod(out.fileno(), 0o644)  # readable by the screen, the desk, another user, as the journal is
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(part, kept)  # whole or not at all: a power cut leaves no half picture under its hash
                fsync_dir(kept)  # the copy outlasts a power cut as the journal's header that names it does
            except BaseException:
                Path(part).unlink(missing_ok=True)
                raise
        return kept
    except (OSError, ValueError) as exc:  # FileRefused is a ValueError, and so is a path with a NUL in it
        log.warning("media: %s was not kept with the journal (%s); it is shown from the pack", picture,
                    getattr(exc, "strerror", None) or exc)
        return None


def _with_images(settings: GameSettings, image_for: Callable[[str], str]) -> GameSettings:
    """``settings`` with each question's picture named ``image_for(its name)``
    (asked once a picture: two questions with one picture share its answer)."""
    questions = settings.options.get("pack_questions")
    if not isinstance(questions, list) or not any(isinstance(q, dict) and q.get("image") for q in questions):
        return settings
    renamed: dict[str, str] = {}
    out = []
    for q in questions:
        image = q.get("image") if isinstance(q, dict) else None
        if isinstance(image, str) and image:
            if image not in renamed:
                renamed[image] = image_for(image)
            q = {**q, "image": renamed[image]}
        out.append(q)
    return replace(settings, options={**settings.options, "pack_questions": out})


def kept_with_journal(settings: GameSettings, folder: Path) -> GameSettings:
    """``settings`` asking for each picture's copy in ``folder/media`` (kept
    there now): what the journal's header records, so a replay finds them."""

    def copy(image: str) -> str:
        kept = keep_picture(Path(image), folder)
        return image if kept is None else str(kept)

    return _with_images(settings, copy)


def found_beside(settings: GameSettings, journal: Path) -> GameSettings:
    """``settings`` read from ``journal``, each picture whose path is not on
    this machine found in ``media/`` beside the journal when it is there."""
    media = journal.parent / MEDIA_FOLDER

    def found(image: str) -> str:
        name = PureWindowsPath(image).name  # a header written on Windows names it with \
        return str(media / name) if name and not Path(image).is_file() and (media / name).is_file() else image

    return _with_images(settings, found)
