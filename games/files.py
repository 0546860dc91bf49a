"""Reading a file a person handed the box: only a regular file, only up to a size.

A named pipe given as a journal or a pack blocks its reader forever, a device
never ends and a runaway file fills memory; so every reader of a user's file
(journals, question packs, wiring profiles, scenarios, word lists, the
players' names) reads through :func:`read_limited`, which refuses anything but
a regular file in one line, without ever blocking on it. A JSON file the json
module cannot read is named by :func:`json_fault`: the json module's messages
are English, so the readers of a person's JSON (question packs, word lists,
scenarios) say the line, the column and the fix in a sentence of ours, in the
reader's language. Standard library only: the games' own readers use it too.
"""

from __future__ import annotations

import errno
import json
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


# -- a JSON file the json module cannot read, in our words ------------------------------

#: what the json module says (its English, the start of ``JSONDecodeError.msg``) -> ours: the problem and the fix
_FAULTS: tuple[tuple[str, Reason], ...] = (
    ("Expecting ',' delimiter", N_("a comma is missing at column {column}; put a comma between two items of a list "
                                   "or an object, or close the list or object if it ends there")),
    ("Expecting ':' delimiter", N_("a colon is missing at column {column}; write a key, a colon and its value, as in "
                                   "\"answer\": \"Paris\"")),
    ("Expecting property name", N_("a key is expected at column {column}; write every key in double quotes, as in "
                                   "\"answer\"")),
    ("Expecting value", N_("a value is expected at column {column}; write a text in double quotes (\"Paris\"), a "
                           "number, true, false, null, a list or an object there")),
    ("Unterminated string", N_("the double quote at column {column} opens a text that is never closed; end the text "
                               "with a double quote on the same line (a double quote inside it is written \\\")")),
    ("Invalid control character", N_("a text has a line break or a tab at column {column}; keep each text on one "
                                     "line (a line break inside it is written \\n)")),
    ("Invalid \\", N_("the backslash at column {column} starts no escape JSON knows; write a backslash itself as "
                       "\\\\ and a double quote as \\\"")),
)
#: more after the one top-level value (json: "Extra data"); a reader may name its own kind of file instead
EXTRA_DATA = N_("more text follows the end of the file at column {column}; the file is one JSON object: remove "
                "what follows it, or move it inside")
#: a comma after the last item (the json module says "Expecting value" or "Expecting property name"; 3.13: "Illegal
#: trailing comma")
_TRAILING_COMMA = N_("the comma at column {column} follows the last item of a list or an object; remove it")
#: anything else the json module may say
_OTHER = N_("this is not valid JSON at column {column}; check the quotes, commas and brackets there (a JSON "
            "checker shows what is wrong)")


def json_fault(error: json.JSONDecodeError, *, extra_data: Reason = EXTRA_DATA) -> tuple[int, int, Reason]:
    """(line, column, message id) of what ``json`` could not read, in our words
    (the message takes ``column``). A comma before a closing bracket is named
    where the comma stands. ``extra_data``: the sentence for text after the
    one top-level value, naming the reader's kind of file."""
    text, pos = error.doc, error.pos
    before = text[:pos].rstrip()
    if (text[pos:pos + 1] in ("]", "}") and before.endswith(",")) or error.msg.startswith("Illegal trailing comma"):
        comma = len(before) - 1 if before.endswith(",") else pos
        line = text.count("\n", 0, comma) + 1
        return line, comma - (text.rfind("\n", 0, comma) + 1) + 1, _TRAILING_COMMA
    if error.msg.startswith("Extra data"):
        return error.lineno, error.colno, extra_data
    reason = next((ours for theirs, ours in _FAULTS if error.msg.startswith(theirs)), _OTHER)
    return error.lineno, error.colno, reason
