"""A quiz's pictures and clips (audio, video) kept beside its journal, named by their content.

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
from games.i18n import N_, _

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


def keep_picture(picture: Path, folder: Path, most: int = MAX_PICTURE_BYTES) -> Path | None:
    """``picture`` copied into ``folder/media`` by content (once: the same
    picture from two packs is one file); None, with one log line, when it
    cannot be (gone, not a file, too large, a full disk): the game shows it from the pack."""
    try:
        data = read_limited(picture, most, N_("picture"))  # never waits on a pipe swapped in
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


#: what each kind of a question's media may weigh to be kept (a pack's own limits: games/quiz/packs.py)
MAX_CLIP_BYTES: dict[str, int] = {"audio": 30_000_000, "video": 200_000_000}
#: the fields of a question that name a file
KINDS = ("image", "audio", "video")


def _with_images(settings: GameSettings, image_for: Callable[[str, str], str]) -> GameSettings:
    """``settings`` with each question's picture, audio clip and video clip
    named ``image_for(its name, its kind)`` (asked once a file: two questions
    with one picture share its answer)."""
    questions = settings.options.get("pack_questions")
    if not isinstance(questions, list) or not any(isinstance(q, dict) and any(q.get(k) for k in KINDS)
                                                  for q in questions):
        return settings
    renamed: dict[str, str] = {}

    def named(file: str, kind: str) -> str:
        if file not in renamed:
            renamed[file] = image_for(file, kind)
        return renamed[file]

    out = []
    for q in questions:
        if isinstance(q, dict):
            image = q.get("image")
            if isinstance(image, str) and image:
                q = {**q, "image": named(image, "image")}
            for kind in ("audio", "video"):
                clip = q.get(kind)
                if isinstance(clip, dict) and isinstance(clip.get("file"), str) and clip["file"]:
                    q = {**q, kind: {**clip, "file": named(clip["file"], kind)}}
        out.append(q)
    return replace(settings, options={**settings.options, "pack_questions": out})


def media_files(settings: GameSettings) -> list[str]:
    """Every picture and clip a game's questions name, once each, in order."""
    named: list[str] = []

    def note(file: str, kind: str) -> str:
        named.append(file)
        return file

    _with_images(settings, note)
    return named


def check_kept(settings: GameSettings, journal: Path) -> tuple[int, list[str]]:
    """The copies in ``media/`` beside ``journal`` that its header names:
    how many are whole, and one line for each that is gone or changed
    (its content no longer what its name says: a replay would show something else)."""
    media, whole, problems = journal.parent / MEDIA_FOLDER, 0, []
    for file in media_files(settings):
        name = PureWindowsPath(file).name
        if PureWindowsPath(file).parent.name != MEDIA_FOLDER or "." not in name or len(name.split(".")[0]) != NAME_DIGITS:
            continue  # shown from the pack (not kept): nothing to check here
        kept = media / name
        try:
            data = read_limited(kept, max(MAX_PICTURE_BYTES, *MAX_CLIP_BYTES.values()), N_("media"))
        except (OSError, ValueError):
            problems.append(_("{folder}/{name}: missing; a replay shows its question without it")
                            .format(folder=MEDIA_FOLDER, name=name))
            continue
        if content_name(data, kept.suffix) != name:
            problems.append(_("{folder}/{name}: changed since the game (its content is not what its name says); "
                              "a replay would show something else").format(folder=MEDIA_FOLDER, name=name))
        else:
            whole += 1
    return whole, problems


def kept_with_journal(settings: GameSettings, folder: Path) -> GameSettings:
    """``settings`` asking for each picture's copy in ``folder/media`` (kept
    there now): what the journal's header records, so a replay finds them."""

    def copy(image: str, kind: str) -> str:
        kept = keep_picture(Path(image), folder, MAX_CLIP_BYTES.get(kind, MAX_PICTURE_BYTES))
        return image if kept is None else str(kept)

    return _with_images(settings, copy)


def found_beside(settings: GameSettings, journal: Path) -> GameSettings:
    """``settings`` read from ``journal``, each picture whose path is not on
    this machine found in ``media/`` beside the journal when it is there."""
    media = journal.parent / MEDIA_FOLDER

    def found(image: str, kind: str) -> str:
        name = PureWindowsPath(image).name  # a header written on Windows names it with \
        return str(media / name) if name and not Path(image).is_file() and (media / name).is_file() else image

    return _with_images(settings, found)
