"""The host's packs folder and the packs a USB stick brings: where the menu
finds packs, and how a pack reaches the folder (uploaded from the host page,
or copied off a stick so it stays after the stick is pulled).

Every pack goes through the same checker as ``buzzerbox pack check``
(games.quiz.packs); a file is saved under a safe name of its own, never over
another pack, and never outside the folder."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from games.files import FileRefused, read_limited
from games.i18n import N_, _, ngettext
from games.quiz.packs import (
    MAX_FILE_BYTES,
    MAX_FOLDER_PACKS,
    PACK_SUFFIXES,
    FoundPack,
    check_pack,
    find_packs,
)

#: where desktop systems (udisks, usbmount) mount a stick: ``/media/USER/LABEL``,
#: ``/run/media/USER/LABEL``, or ``/media/LABEL``
MEDIA_ROOTS: tuple[str, ...] = ("/media", "/run/media")
#: a stick's folder of packs (else its top level's pack files are offered)
STICK_FOLDER = "buzzerbox-packs"
#: an uploaded pack's largest size: the checker's own limit
MAX_UPLOAD_BYTES = MAX_FILE_BYTES
#: a saved file name's longest stem (file systems allow 255 bytes; a title-like name is far shorter)
MAX_STEM_CHARS = 60
#: said when a pack is sent to a box that keeps no packs folder (``play --web``: packs are the menu's)
NO_PACKS_FOLDER = N_("no packs folder here: packs are added from the menu's host page")
#: sticks looked at (a hub full of drives must not stall the menu)
MAX_STICKS = 8


@dataclass(frozen=True)
class Saved:
    """What became of a pack sent to the folder: where it was saved (None:
    not saved) and one line per problem or remark, for the host to read."""

    path: Path | None
    lines: tuple[str, ...]


def safe_name(name: str) -> str | None:
    """A file name for the packs folder from the name the host's file had:
    its last path part only, letters, digits, ``-_.`` and spaces, a pack
    suffix; None when nothing usable is left (then the upload is refused)."""
    base = re.split(r"[\\/]", name)[-1]
    stem, dot, suffix = base.rpartition(".")
    if not dot or "." + suffix.lower() not in PACK_SUFFIXES:
        return None
    stem = unicodedata.normalize("NFC", stem)
    stem = "".join(c if c.isalnum() or c in "-_ " else "_" for c in stem).strip(" ._")[:MAX_STEM_CHARS].strip(" ._")
    if not stem:
        return None
    return stem + "." + suffix.lower()


def _free_path(folder: Path, name: str) -> Path:
    """``name`` in ``folder``, or ``stem-2``, ``stem-3``... when taken."""
    stem, suffix = os.path.splitext(name)
    path, k = folder / name, 1
    while path.exists():
        k += 1
        path = folder / f"{stem}-{k}{suffix}"
    return path


def _same_file(folder: Path, data: bytes, suffix: str) -> Path | None:
    """A pack already in the folder with exactly these bytes (an upload sent twice)."""
    with contextlib.suppress(OSError):
        for other in sorted(folder.iterdir())[:MAX_FOLDER_PACKS * 4]:
            if other.suffix.lower() == suffix and other.is_file() and other.stat().st_size == len(data):
                with contextlib.suppress(OSError):
                    if other.read_bytes() == data:
                        return other
    return None


def too_large(name: str) -> str:
    """The line for a pack past the upload limit (said before or after reading it)."""
    return _("{name}: too large (at most {n} bytes); split it into smaller packs").format(
        name=name[:80], n=MAX_UPLOAD_BYTES)


def save_pack(folder: Path, name: str, data: bytes) -> Saved:
    """Check ``data`` (a pack file called ``name``) with the packs checker and,
    when it can be played, save it in ``folder`` under a safe, free name; its
    lines then list the rows left out (a bad row beside good ones, as the
    quiz plays it). A pack that cannot be played is not saved: its lines say why."""
    safe = safe_name(name)
    if safe is None:
        return Saved(None, (_("{name}: not a pack file name; send a .csv, .json, .xlsx or .ods file").format(name=name[:80]),))
    if len(data) > MAX_UPLOAD_BYTES:
        return Saved(None, (too_large(safe),))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        same = _same_file(folder, data, Path(safe).suffix)
        if same is not None:
            return Saved(same, (_("{name}: already in the packs folder as {saved}").format(name=safe, saved=same.name),))
        with tempfile.TemporaryDirectory(prefix=".incoming-", dir=folder) as incoming:
            trial = Path(incoming) / safe  # the checker names the file in its lines: the host's own name
            trial.write_bytes(data)
            problems = check_pack(trial)
            found = find_packs(incoming)
            if not found or found[0].problems:
                return Saved(None, tuple(str(p) for p in problems) or (_("{name}: not a question pack").format(
                    name=safe),))
            while True:  # link, not rename: a pack of that name appearing meanwhile is never replaced
                target = _free_path(folder, safe)
                try:
                    os.link(trial, target)
                    break
                except FileExistsError:
                    continue
    except OSError as exc:
        return Saved(None, (_("{name}: the packs folder cannot be written ({error}); check its permissions").format(
            name=safe, error=exc.strerror or exc.__class__.__name__),))
    n = found[0].questions
    said = [ngettext("{name}: saved in the packs folder ({n} question)", "{name}: saved in the packs folder ({n} questions)",
                     n).format(name=target.name, n=n)]
    if target.name != safe:
        said.append(_("{name}: a pack of that name was already there; this one is {saved}").format(
            name=safe, saved=target.name))
    return Saved(target, (*said, *(str(p) for p in problems)))


def copy_pack(source: Path, save: Callable[[str, bytes], Saved]) -> Saved:
    """A stick's pack into the packs folder (checked again: the stick may have changed or gone), by
    ``save``: ``save_pack`` into the folder, or whoever owns it (the menu's deciding process)."""
    try:
        data = read_limited(source, MAX_UPLOAD_BYTES, N_("question pack"))
    except FileRefused as exc:
        return Saved(None, (str(exc),))
    return save(source.name, data)


def stick_folders(roots: Iterable[str | Path] = MEDIA_ROOTS) -> list[Path]:
    """Where the mounted sticks' packs are: each stick's ``buzzerbox-packs``
    folder, else its top level when pack files lie there. A stick is a folder
    one or two levels under a root (``/media/LABEL``, ``/media/USER/LABEL``);
    a root missing or a stick pulled meanwhile is simply not there."""
    found: list[Path] = []
    for root in roots:
        for stick in _candidates(Path(root)):
            own = stick / STICK_FOLDER
            with contextlib.suppress(OSError):
                if own.is_dir():
                    found.append(own)
                elif any(p.suffix.lower() in PACK_SUFFIXES and p.is_file() for p in stick.iterdir()):
                    found.append(stick)
            if len(found) >= MAX_STICKS:
                return found
    return found


def _candidates(root: Path) -> list[Path]:
    out: list[Path] = []
    with contextlib.suppress(OSError):
        for first in sorted(root.iterdir()):
            with contextlib.suppress(OSError):
                if not first.is_dir():
                    continue
                out.append(first)
                out += sorted(p for p in first.iterdir() if p.is_dir() and p.name != STICK_FOLDER)
    return out[:MAX_STICKS * 4]


def stick_packs(roots: Iterable[str | Path] = MEDIA_ROOTS) -> list[FoundPack]:
    """Every pack on the mounted sticks, checked as the packs folder's are."""
    return [pack for folder in stick_folders(roots) for pack in find_packs(folder)][:MAX_FOLDER_PACKS]


def signature(folders: Sequence[Path]) -> tuple[tuple[str, int, int], ...]:
    """The pack files' names, sizes and times in ``folders``: cheap to take
    every second or two, and it changes when a pack is added, edited or
    pulled out with its stick (then the menu reads the packs again)."""
    seen: list[tuple[str, int, int]] = []
    for folder in folders:
        with contextlib.suppress(OSError):
            for p in folder.iterdir():
                if p.suffix.lower() in PACK_SUFFIXES:
                    with contextlib.suppress(OSError):
                        st = p.stat()
                        seen.append((str(p), st.st_size, st.st_mtime_ns))
    return tuple(sorted(seen))
