"""Reading a file a person handed the box: only a regular file, only up to a size.

A named pipe given as a journal or a pack blocks its reader forever, a device
never ends and a runaway file fills memory; so every reader of a user's file
(journals, question packs, wiring profiles, scenarios, word lists, the
players' names) reads through :func:`read_limited`, which refuses anything but
a regular file in one line, without ever blocking on it. Standard library only:
the games' own readers use it too.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

from games.base import BuzzerBoxError
from games.i18n import N_, Reason, reason_english, worded_text


class FileRefused(BuzzerBoxError, ValueError):
    """A path that is not a readable regular file of a sane size.

    ``str()`` is "PATH: problem: fix"; ``problem`` is the same without the path,
    for a reader that names the file itself; both in the current language (the
    reason is a message id with its ``arguments``, as ``RuleError``'s).
    """

    def __init__(self, path: Path, reason: Reason, **arguments: Any) -> None:
        super().__init__(f"{path}: {reason_english(reason, arguments)}")
        self.path = path
        self.reason = reason
        self.arguments: dict[str, Any] = arguments

    def __reduce__(self) -> tuple[Any, ...]:
        return (_refused, (self.path, self.reason, self.arguments))

    @property
    def problem(self) -> str:
        return worded_text(str(self.reason), self.arguments, WORDS)

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


#: the arguments of a refusal that are the box's words (marked ``N_``), said in the reader's language
WORDS = frozenset({"what", "kind", "fix"})


def _refused(path: Path, reason: Reason, arguments: dict[str, Any]) -> FileRefused:
    return FileRefused(path, reason, **arguments)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return N_("a folder")
    if stat.S_ISFIFO(mode):
        return N_("a named pipe")
    if stat.S_ISSOCK(mode):
        return N_("a socket")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return N_("a device")
    return N_("a special file")


def _too_large(path: Path, limit: int, what: str, fix: str) -> FileRefused:
    size = f"{limit // 1_000_000} MB" if limit >= 1_000_000 else f"{limit // 1000} kB"
    return FileRefused(path, N_("is larger than {size}, too large for a {what}; {fix}"), size=size, what=what, fix=fix)


def open_limited(path: str | Path, limit: int, what: str, *, head: bool = False,
                 too_large: str = N_("check that it is the right file")) -> tuple[int, int]:
    """An open descriptor of the regular file ``path`` and its size, or FileRefused
    (the checks of ``read_limited``; the caller closes it)."""
    p = Path(path)
    try:
        mode = os.stat(p).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused(p, N_("is {kind}, not a file; give the {what} file itself"), kind=_kind(mode), what=what)
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise FileRefused(p, N_("no such file; check the path of the {what}"), what=what) from None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise FileRefused(p, N_("the path is too long; check the path of the {what}"), what=what) from None
        raise FileRefused(p, N_("cannot be read ({error}); check the path and its permissions"),
                          error=exc.strerror or str(exc)) from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise FileRefused(p, N_("is {kind}, not a file; give the {what} file itself"), kind=_kind(opened.st_mode),
                              what=what)
        if opened.st_size > limit and not head:
            raise _too_large(p, limit, what, too_large)
    except BaseException:
        os.close(fd)
        raise
    return fd, opened.st_size


def read_limited(path: str | Path, limit: int, what: str, *, head: bool = False,
                 too_large: str = N_("check that it is the right file")) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``), or FileRefused.

    ``what`` names the file for the person (``N_("journal")``, marked, so it is
    said in the reader's language). The
    path is checked before it is opened and the open never blocks (O_NONBLOCK),
    so a pipe swapped in between is refused too, never waited on. ``head``:
    the first ``limit`` bytes of a longer file, for a quick look at its kind;
    ``too_large``: what to do with a file past the limit (marked ``N_`` too).
    """
    p = Path(path)
    fd, _size = open_limited(p, limit, what, head=head, too_large=too_large)
    try:
        chunks: list[bytes] = []
        total = 0
        want = limit if head else limit + 1  # one byte more tells a file that grew past the limit
        while total < want:
            chunk = os.read(fd, min(1 << 20, want - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise FileRefused(p, N_("cannot be read ({error}); check the disk and the file"),
                          error=exc.strerror or str(exc)) from None
    finally:
        os.close(fd)
    if total > limit:  # it grew while being read
        raise _too_large(p, limit, what, too_large)
    return b"".join(chunks)


def fsync_dir(path: Path) -> None:
    """Make a file's creation (its directory entry) survive a power cut."""
    fd = os.open(path.parent if str(path.parent) else Path("."), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
