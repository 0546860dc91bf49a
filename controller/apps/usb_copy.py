"""The menu's "Copy results to USB stick": the evening's journals and what
was made of them (results, standings, a quiz bowl match's QBJ file) onto a
stick plugged into the box, so they leave the box without a terminal.

The box's own files are only read: a copy that fails (no stick, a
read-only or full one, a stick pulled mid-copy) leaves them as they were,
and on the stick no half-written file is left under a real name (each is
written under a temporary name, then renamed). What happened is said in a
few lines the menu shows beside its rows."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from controller.pack_store import MEDIA_ROOTS, STICK_FOLDER
from games.i18n import _, current_language, ngettext

log = logging.getLogger("buzzerbox")

#: the folder on the stick the results go to (beside a stick's packs folder, if any)
RESULTS_FOLDER = "buzzerbox-results"
#: sticks looked at (as the packs' look: a hub full of drives must not stall the menu)
MAX_STICKS = 8


@dataclass(frozen=True)
class Copied:
    """What one copy did: the folder on the stick (None: no stick), the files
    written, the files already there, and the lines the host reads."""

    folder: Path | None
    written: tuple[str, ...]
    kept: tuple[str, ...]
    lines: tuple[str, ...]
    ok: bool


def sticks(roots: Iterable[str | Path] = MEDIA_ROOTS, mounted: Callable[[str], bool] = os.path.ismount) -> list[Path]:
    """The mounted removable drives: a folder mounted right under a root
    (``/media/usb0``, as usbmount does), else each folder one level deeper
    (``/media/USER/LABEL``, ``/run/media/USER/LABEL``: udisks, the desktop's
    automounter). A root that is missing is simply not there."""
    found: list[Path] = []
    for root in roots:
        with contextlib.suppress(OSError):
            for first in sorted(Path(root).iterdir()):
                with contextlib.suppress(OSError):
                    if not first.is_dir():
                        continue
                    if mounted(str(first)):
                        found.append(first)
                        continue
                    found += sorted(p for p in first.iterdir() if p.is_dir() and p.name != STICK_FOLDER)
    return found[:MAX_STICKS]


def results_files(journals: Path) -> list[Path]:
    """Every file the box keeps of its games: journals and the results,
    standings and QBJ files written beside them (not half-written ``.tmp`` ones,
    nor the room a journal keeps on the disk for its close, ``.reserve``)."""
    with contextlib.suppress(OSError):
        return sorted(p for p in journals.iterdir()
                      if p.is_file() and not p.name.startswith(".") and not p.name.endswith((".tmp", ".reserve")))
    return []


def is_bowl(journal: Path) -> bool:
    """A quiz bowl journal, told by its session header: the quiz its settings
    start plays a bowl round (the journal is not replayed for that)."""
    from controller.apps import qbj
    from controller.box import journal as journal_mod
    from controller.box.runtime import header_game

    head = journal_mod.load(journal, head=True)
    if head.session is None or head.session.game != "quiz":  # another game's journal: nothing more is read
        return False
    spec, settings = header_game(head)
    return qbj.is_bowl(spec.new_engine(settings))


def bowl_match(journal: Path) -> str | None:
    """A quiz bowl journal's QBJ match file, else None: written by ``results
    --qbj -`` in a process of its own (the match is every tossup: the whole
    journal is replayed there, never in the menu's process)."""
    from games.base import BuzzerBoxError

    try:
        if not is_bowl(journal):
            return None
        done = subprocess.run([sys.executable, "-m", "controller.cli", "--lang", current_language(), "results",
                               str(journal), "--qbj", "-"], capture_output=True, start_new_session=True, check=False,
                              env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    except (OSError, ValueError, LookupError, BuzzerBoxError, RecursionError) as exc:
        log.warning("no QBJ file for %s: %s", journal, exc)
        return None
    if done.returncode != 0:
        log.warning("no QBJ file for %s: %s", journal, done.stderr.decode("utf-8", "replace").strip())
        return None
    return done.stdout.decode("utf-8")


def _write(folder: Path, name: str, data: bytes) -> None:
    """``data`` as ``folder/name``, whole or not at all (a temporary file renamed)."""
    fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, folder / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _same(target: Path, data: bytes) -> bool:
    with contextlib.suppress(OSError):
        return target.stat().st_size == len(data) and target.read_bytes() == data
    return False


def copy_results(journals: Path, roots: Sequence[str | Path] = MEDIA_ROOTS,
                 mounted: Callable[[str], bool] = os.path.ismount) -> Copied:
    """Copy every results file of ``journals`` to the first stick under
    ``roots`` (its ``buzzerbox-results`` folder), each bowl journal's QBJ
    file too; files already there unchanged are not written again."""
    found = sticks(roots, mounted)
    if not found:
        return Copied(None, (), (), (_("No USB stick found: plug one into the box and choose this row again."),), False)
    stick = found[0]
    folder = stick / RESULTS_FOLDER
    files = results_files(journals)
    if not files:
        return Copied(folder, (), (), (_("Nothing to copy yet: no game has been played with people on this box."),), False)
    written: list[str] = []
    kept: list[str] = []
    try:
        folder.mkdir(exist_ok=True)
        for path in files:
            data = path.read_bytes()
            items = [(path.name, data)]
            qbj_name = path.stem + ".qbj"
            if path.suffix == ".jsonl" and not (journals / qbj_name).exists():
                if _same(folder / path.name, data) and (folder / qbj_name).exists():
                    kept.append(qbj_name)  # made from this very journal last time
                elif (match := bowl_match(path)) is not None:
                    items.append((qbj_name, match.encode("utf-8")))
            for name, data in items:
                if _same(folder / name, data):
                    kept.append(name)
                else:
                    _write(folder, name, data)
                    written.append(name)
    except OSError as exc:
        return Copied(folder, tuple(written), tuple(kept), (_failed(stick, exc, len(written)),), False)
    n = len(written) + len(kept)
    lines = [ngettext("Copied {n} file to the USB stick {stick}, folder {folder}.",
                      "Copied {n} files to the USB stick {stick}, folder {folder}.", n).format(
        n=n, stick=stick.name, folder=RESULTS_FOLDER)]
    if kept:
        lines.append(ngettext("{n} of them was there already and is unchanged.",
                              "{n} of them were there already and are unchanged.", len(kept)).format(n=len(kept)))
    lines.append(_("You can pull the stick out now."))
    log.info("results copied to %s: %d written, %d already there", folder, len(written), len(kept))
    return Copied(folder, tuple(written), tuple(kept), tuple(lines), True)


def _failed(stick: Path, exc: OSError, written: int) -> str:
    """One line for a copy that stopped: why, and that the box still has everything."""
    if exc.errno == errno.EROFS or exc.errno in (errno.EACCES, errno.EPERM):
        why = _("The USB stick {stick} is read-only: nothing was copied to it. Use another stick, or unlock it.")
    elif exc.errno in (errno.ENOSPC, errno.EDQUOT):
        why = _("The USB stick {stick} is full: make room on it and copy again.")
    else:
        why = _("Copying to the USB stick {stick} stopped ({problem}): plug it in again and copy again.")
    line = why.format(stick=stick.name or str(stick), problem=exc.strerror or exc)
    if written:
        line += " " + ngettext("{n} file was copied whole before that.", "{n} files were copied whole before that.",
                               written).format(n=written)
    log.warning("copy to %s failed: %s", stick, exc)
    return line + " " + _("The box keeps all its results.")
