"""Quiz question packs: our CSV and JSON formats, spreadsheets (.xlsx, .ods)
with the CSV's columns, and saved Open Trivia DB files.

Pure: the only I/O is reading the one file named (and checking that the images
it names exist beside it); pack_files.py decodes its text or reads its sheet. ``load_pack`` gives a typed ``Pack`` or raises one
``PackError`` line; ``check_pack`` lists every problem, one line each, naming
the line and the fix, so a host can repair a whole file in one pass. The
formats are described in ``docs/question-packs.md``.
"""

from __future__ import annotations

import csv
import difflib
import html
import io
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from games.base import BuzzerBoxError
from games.files import WORDS, FileRefused, json_fault, read_limited
from games.i18n import N_, Reason, _, ngettext, reason_english, worded_text
from games.quiz.pack_files import (
    SHEET_SUFFIXES,
    Decoded,
    SheetRefused,
    decode,
    sheet_rows,
    split_sheet,
)

#: Column names of the CSV header (and keys of a JSON question), in order.
COLUMNS: tuple[str, ...] = (
    "question", "answer", "alternatives", "category", "points", "image", "choices", "audio", "audio_play", "video",
)
#: when an audio question's clip starts (the ``audio_play`` column): when the buzzers are armed (the
#: default: the room hears it as it may buzz), or as soon as the question is shown (an intro to listen to)
AUDIO_PLAY: tuple[str, ...] = ("armed", "shown")
REQUIRED_COLUMNS: tuple[str, ...] = ("question", "answer")
#: Separator of several alternatives or choices inside one CSV cell.
LIST_SEPARATOR = "|"
#: Open Trivia DB difficulty -> points (documented in docs/question-packs.md).
OPENTDB_POINTS: Mapping[str, int] = {"easy": 1, "medium": 2, "hard": 3}
IMAGE_SUFFIXES: tuple[str, ...] = (".png", ".jpg", ".jpeg", ".gif", ".bmp")
#: the clips an audio question may play (pygame's mixer streams them)
AUDIO_SUFFIXES: tuple[str, ...] = (".ogg", ".mp3", ".wav")
#: a clip's file at most this big (a whole album is a mistake), and at most this long to play
MAX_CLIP_BYTES = 30_000_000
MAX_CLIP_SECONDS = 600
#: the clips a video question may play (PyAV decodes them: controller/screen/video.py)
VIDEO_SUFFIXES: tuple[str, ...] = (".mp4", ".webm")
#: a video's file at most this big (a question's scene, not a film)
MAX_VIDEO_BYTES = 200_000_000
#: ``song.ogg@12.5+20``: the clip, from 12.5 s, for 20 s (both optional)
_CLIP_RE = re.compile(r"(?P<file>.+?)(?:@(?P<start>\d{1,5}(?:[.,]\d{1,3})?)(?:\+(?P<length>\d{1,5}(?:[.,]\d{1,3})?))?)?\Z")

# Limits that keep a question readable on the screen at the minimum text size
# and keep a mistaken (huge) file from stalling the box.
MAX_FILE_BYTES = 2_000_000
MAX_QUESTIONS = 5_000
MAX_QUESTION_CHARS = 300
MAX_ANSWER_CHARS = 100
MAX_CATEGORY_CHARS = 40
MAX_TITLE_CHARS = 80  # the fix for a longer title says 80
MIN_CHOICES, MAX_CHOICES = 2, 6
MIN_POINTS, MAX_POINTS = 1, 100
_LANGUAGE_RE = re.compile(r"[a-z]{2,3}(-[A-Za-z]{2,4})?\Z")
_OPENTDB_CODES: Mapping[int, str] = {
    1: N_("the server had no questions for that request; ask for fewer questions or another category"),
    2: N_("the request had an invalid parameter; download the file again from the API helper page"),
    3: N_("the session token was not found; download again without a token"),
    4: N_("the session token had no new questions left; reset the token and download again"),
    5: N_("the server was rate-limited; wait five seconds and download again"),
}


class PackError(BuzzerBoxError, ValueError):
    """A question pack the box cannot use; the message names the file, line and fix."""


@dataclass(frozen=True)
class Question:
    """One question as the quiz asks it.

    ``alternatives`` are other answers the host accepts (shown on the host
    page). ``choices`` is empty for an open question; otherwise the answer is
    one of them. ``image`` is resolved against the pack's folder. ``line`` is
    where the question starts in its file, so later messages can point there.
    """

    text: str
    answer: str
    alternatives: tuple[str, ...] = ()
    category: str = ""
    points: int = 1
    image: Path | None = None
    choices: tuple[str, ...] = ()
    line: int = 0
    #: an audio question: its clip (resolved as ``image``), where it starts and how long it plays (None: to its end)
    audio: Path | None = None
    audio_start_s: float = 0.0
    audio_length_s: float | None = None
    #: the clip starts when the question is shown, not when it is armed (``audio_play`` "shown")
    audio_on_show: bool = False
    #: a video question: its clip, start and length as ``audio``'s (the ``audio_play`` cell says when both start)
    video: Path | None = None
    video_start_s: float = 0.0
    video_length_s: float | None = None


@dataclass(frozen=True)
class Pack:
    """A checked question pack: every question passed the validator."""

    title: str
    language: str
    questions: tuple[Question, ...]
    source: Path
    #: the problems of the rows left out (one line each, as ``check_pack``
    #: says them): one bad row leaves the rest playable, and the host is told
    left_out: tuple[PackProblem, ...] = ()
    #: what the text was read as ("UTF-8", "UTF-16", "cp1250", "cp1252"); "" for a spreadsheet
    encoding: str = ""
    #: the spreadsheet's sheet the questions were read from; "" for a text file
    sheet: str = ""

    def __len__(self) -> int:
        return len(self.questions)

    def categories(self) -> list[str]:
        """The categories in the order they first appear (empty ones left out)."""
        return list(dict.fromkeys(q.category for q in self.questions if q.category))


@dataclass(frozen=True)
class Where:
    """Where in the file a problem is: a line, a question or result of a JSON
    list, or both; ``str()`` in the current language ("line 4 (question 2)")."""

    line: int = 0
    kind: str = ""  # "question" or "result": the element of a JSON list
    index: int = 0
    #: a spreadsheet's rows are numbered as its program shows them: "row 4", not "line 4"
    row: bool = False

    def __str__(self) -> str:
        return self.said(_)

    def said(self, word: Callable[[str], str]) -> str:
        """Worded by ``word``: ``_`` for the reader, ``str`` for English."""
        if self.kind:
            item = word(N_("question {n}") if self.kind == "question" else N_("result {n}")).format(n=self.index)
            return word(N_("line {line} ({item})")).format(line=self.line, item=item) if self.line else item
        return word(N_("row {line}") if self.row else N_("line {line}")).format(line=self.line)


#: the arguments of a problem that are the box's words (marked ``N_``), not the file's
_WORDS = WORDS | {"mark", "reason"}


@dataclass(frozen=True)
class PackProblem:
    """One problem of a pack, as the checker found it: the file, where in it,
    and a message id (naming the problem and the fix) with its arguments.
    ``str()`` is the line in the current language, so each viewer (``pack
    check``, the menu's pack row) says it in its reader's; ``english()`` is
    for logs."""

    file: str
    where: Where | None
    reason: Reason
    arguments: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        prefix = f"{self.file} {self.where}" if self.where else self.file
        # the file's own names (a column, a key, a value) stay as written; the box's words are translated
        return f"{prefix}: {_one_line(worded_text(str(self.reason), dict(self.arguments), _WORDS))}"

    def english(self) -> str:
        prefix = f"{self.file} {self.where.said(str)}" if self.where else self.file
        return f"{prefix}: {_one_line(reason_english(self.reason, dict(self.arguments)))}"


# ---------------------------------------------------------------------------
# Public entry points


def load_pack(path: str | Path) -> Pack:
    """Read and check a pack (CSV, JSON or a saved Open Trivia DB file).

    Rows with a problem are left out (``Pack.left_out`` says why, one line
    each) and the rest is played. Raises ``PackError`` with one line when the
    file itself is unusable or no row is good: the first problem, and how
    many more there are (``check_pack`` lists them all).
    """
    pack, errors = _read(Path(path))
    if pack is None:
        first = str(errors[0] if errors else _not_a_pack(Path(path)))
        more = len(errors) - 1
        if more > 0:
            first += " " + ngettext("(and {n} more problem; check the pack to list them)",
                                    "(and {n} more problems; check the pack to list them)", more).format(n=more)
        raise PackError(first)
    return pack


def _not_a_pack(path: Path) -> PackProblem:
    return PackProblem(path.name, None, N_("not a question pack; see docs/question-packs.md"))


def check_pack(path: str | Path) -> list[PackProblem]:
    """Every problem in the pack, one line each; an empty list means it is good.

    This is what ``buzzerbox pack check FILE`` prints.
    """
    return _read(Path(path))[1]


# ---------------------------------------------------------------------------
# Reading


class _Problems:
    """Collects one-line problems, each prefixed with the file's name."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[PackProblem] = []
        #: while True, a problem leaves out only the row being read (the pack is still played)
        self.in_row = False
        self.file_problems = 0
        self._order: list[tuple[bool, int]] = []

    def add(self, where: Where | None, message: Reason, **arguments: Any) -> None:
        """A problem: ``message`` is a message id naming it and the fix (marked ``N_``)."""
        self.lines.append(PackProblem(self.name, where, message, tuple(arguments.items())))
        self._order.append((self.in_row, where.line if where else 0))
        self.file_problems += not self.in_row

    def add_row(self, where: Where | None, message: Reason, **arguments: Any) -> None:
        """A problem of one row: that row is left out, the others are played."""
        was, self.in_row = self.in_row, True
        self.add(where, message, **arguments)
        self.in_row = was

    def in_file_order(self) -> list[PackProblem]:
        """Whole-file problems first (what makes the file unusable: a quote left
        open, a bad header, a bad ``# title:``), then the rows' by line: the order
        a person fixes them, and the first is the one ``load_pack`` refuses with."""
        ranked = sorted(range(len(self.lines)), key=lambda i: self._order[i])
        return [self.lines[i] for i in ranked]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _read(given: Path) -> tuple[Pack | None, list[PackProblem]]:
    path, sheet = split_sheet(given)  # pack.xlsx#Round 2: that sheet of the file
    problems = _Problems(given.name)
    try:
        data = read_limited(path, MAX_FILE_BYTES, N_("question pack"), too_large=N_("split it into smaller packs"))
    except FileRefused as e:
        problems.add(None, e.reason, **e.arguments)
        return None, problems.in_file_order()
    suffix = path.suffix.lower()
    decoded: Decoded | None = None
    if suffix in SHEET_SUFFIXES:
        try:
            sheet, rows = sheet_rows(suffix, data, sheet)
        except SheetRefused as e:
            problems.add(None, e.reason, **e.arguments)
            return None, problems.in_file_order()
        parsed = _parse_rows(iter(rows), problems, None)
    elif suffix in (".csv", ".json"):
        decoded = _decoded(data, problems, suffix)
        if decoded is None:
            return None, problems.in_file_order()
        parsed = _parse_csv(decoded.text, problems) if suffix == ".csv" else _parse_json(decoded.text, path, problems)
    else:
        problems.add(None, N_("unknown pack format {suffix!r}; save it as .csv, .json, .xlsx or .ods (see "
                              "docs/question-packs.md)"), suffix=path.suffix or "-")
        return None, problems.in_file_order()
    if parsed is None:
        return None, problems.in_file_order()
    meta, records = parsed
    pack = _build_pack(path, meta, records, problems)
    if pack is None or problems.file_problems or not pack.questions:
        return None, problems.in_file_order()
    lines = problems.in_file_order()
    return Pack(pack.title, pack.language, pack.questions, pack.source, tuple(lines),
                encoding=decoded.encoding if decoded else "", sheet=sheet or ""), lines


#: how to save a pack that is not text again, by its kind (the hint matches the file: a .json file is no spreadsheet's)
_SAVE_AS_TEXT = {
    ".csv": N_("byte 0x{byte:02x} is not text in UTF-8, UTF-16, cp1250 or cp1252 that the box can tell apart; save the "
               "file as UTF-8 (in a spreadsheet: 'CSV UTF-8')"),
    ".json": N_("byte 0x{byte:02x} is not text in UTF-8, UTF-16, cp1250 or cp1252 that the box can tell apart; a .json "
                "pack is text: save it as UTF-8 in a text editor, or download it again"),
}


def _decoded(data: bytes, problems: _Problems, suffix: str) -> Decoded | None:
    """The file's text (pack_files.decode), or one problem naming the first byte that is not UTF-8
    and how to save a file of this kind (``suffix``: .csv or .json) as text."""
    decoded = decode(data)
    if decoded is None:
        start = 0
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            start = e.start
        line = data[:start].count(b"\n") + 1
        problems.add(Where(line), _SAVE_AS_TEXT[suffix], byte=data[start] if data else 0)
    return decoded


@dataclass
class _Record:
    """One question before checking: raw values as the file gave them."""

    where: Where
    line: int
    values: dict[str, Any]


_Meta = dict[str, tuple[Where | None, Any]]  # key -> (where, raw value)


def csv_delimiter(text: str) -> str:
    """The cell separator of a CSV pack, read from its header line: "," as
    written by hand and by English spreadsheets, ";" as Czech and Polish
    Excel writes it (their decimal mark is the comma), a tab as Excel's
    "Unicode text" (UTF-16) does."""
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            counts = {",": line.count(","), ";": line.count(";"), "\t": line.count("\t")}
            return max(counts, key=lambda mark: counts[mark])  # a tie: the comma (the first)
    return ","


class _Unreadable(Exception):
    """The rest of a CSV cannot be read (a quote left open): its problem is already said."""


def _csv_rows(text: str, delimiter: str, problems: _Problems) -> Iterator[tuple[int, list[str]]]:
    """Each CSV row with the line it starts on; a row that cannot be read is a
    problem and ends the rows (``_Unreadable``)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    line = 1
    while True:
        start = line
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error:
            # the csv module's own words are English: say in ours what it stumbled on, and where it began
            where, reason, arguments = _unreadable(text, start, delimiter)
            problems.add(Where(where), reason, **arguments)
            raise _Unreadable from None
        line = reader.line_num + 1
        yield start, row


#: a line's end as the csv reader's lines end (``io.StringIO(newline="")``)
_LINE_END = re.compile(r"\r\n|\r|\n")
#: the fix every quote problem ends with
_QUOTES_FIX = N_("a quote inside a cell is written twice: \"\"")


def _unreadable(text: str, start: int, delimiter: str) -> tuple[int, Reason, dict[str, Any]]:
    """Why the csv reader could not read the row that starts on line
    ``start``: the line where the quote (or the cell) at fault begins, a
    message id naming the problem and the fix, and its arguments. The rows are
    walked again as the reader walks them (a quote opens a cell only as its
    first character; ``""`` inside is one quote), so the fault is found where it
    starts, not where the reader gave up: a quote left open is read on to the end of the file."""
    stream = io.StringIO(text, newline="")
    for _skipped in range(start - 1):
        stream.readline()
    rest = stream.read()

    def line_at(index: int) -> int:
        return start + len(_LINE_END.findall(rest, 0, index))

    limit = csv.field_size_limit()
    cell_end = re.compile(f"[{re.escape(delimiter)}\r\n]")
    i = 0
    while i < len(rest):
        if rest[i] == '"':
            end = i + 1
            while (end := rest.find('"', end)) >= 0 and rest.startswith('""', end):
                end += 2
            if end < 0:
                return line_at(i), N_("a quote opened here is never closed, so it swallows the rest of the file; "
                                      "close the quote where the cell ends ({fix})"), {"fix": _QUOTES_FIX}
            after = rest[end + 1:end + 2]
            if after not in ("", delimiter, "\r", "\n"):
                closed = line_at(end)
                if closed > line_at(i):
                    return line_at(i), N_("a quote opened here runs on to line {end}, where a quote ends it before "
                                          "other text; close the quote where the cell ends ({fix})"), {
                        "end": closed, "fix": _QUOTES_FIX}
                return line_at(i), N_("text follows a cell's closing quote; put the whole cell in quotes, or "
                                      "none of it ({fix})"), {"fix": _QUOTES_FIX}
            if end - i > limit:
                return line_at(i), N_("a quote opened here runs on to line {end}, past {limit} characters; close "
                                      "the quote where the cell ends ({fix})"), {
                    "end": line_at(end), "limit": limit, "fix": _QUOTES_FIX}
            i = end + 1
        else:
            ends = cell_end.search(rest, i)
            end = ends.start() if ends else len(rest)
            if end - i > limit:
                return line_at(i), N_("a cell longer than {limit} characters; a question's cells are short: "
                                      "check for a missing {mark} or line break"), {
                    "limit": limit, "mark": _mark(delimiter)}
            i = end
        if i >= len(rest) or rest[i] != delimiter:
            break  # the row ends here, read: the reader stumbled on something this walk does not know
        i += 1
    return start, N_("this line cannot be read as CSV; check its quotes ({fix})"), {"fix": _QUOTES_FIX}


def _parse_csv(text: str, problems: _Problems) -> tuple[_Meta, list[_Record]] | None:
    delimiter = csv_delimiter(text)
    return _parse_rows(_csv_rows(text, delimiter, problems), problems, delimiter)


def _parse_rows(rows: Iterator[tuple[int, list[str]]], problems: _Problems,
                delimiter: str | None) -> tuple[_Meta, list[_Record]] | None:
    """The rows of a CSV (``delimiter`` its cell separator) or of a sheet (None):
    comment lines, the header naming the columns, one question a row."""
    meta: _Meta = {}
    records: list[_Record] = []
    header: list[str] | None = None
    header_width = 0
    sheet = delimiter is None
    while True:
        try:
            start, row = next(rows)
        except StopIteration:
            break
        except _Unreadable:
            if header is None:
                return None
            break  # the rest is unreadable, but the rows before it are checked too: every problem in one pass
        where = Where(start, row=sheet)
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if cells[0].startswith("#"):
            body = " ".join(c for c in cells if c) if sheet else (delimiter or ",").join(row).strip()
            _csv_comment(body[1:], where, meta, problems)
            continue
        if header is None:
            header = _csv_header(cells, where, problems, delimiter)
            header_width = len(cells)
            if header is None:
                return None
            continue
        if sheet and any(cells[len(header):]):
            problems.add_row(where, N_("{cells} cells but the header names {columns} columns; name the column in the "
                                       "first row or clear the cells past the last one"), cells=len(cells),
                             columns=len(header))
            continue
        if len(cells) > header_width or any(cells[len(header):]):
            problems.add_row(where, N_("{cells} cells but the header names {columns} columns; put quotes around a "
                                       "cell that contains a {mark}"), cells=len(cells), columns=len(header),
                             mark=_mark(delimiter or ","))
            continue
        values: dict[str, Any] = {
            name: cells[i] for i, name in enumerate(header) if i < len(cells) and cells[i]
        }
        for key in ("alternatives", "choices"):
            if key in values:
                values[key] = values[key].split(LIST_SEPARATOR)
        records.append(_Record(where, start, values))
    if header is None:
        problems.add(None, N_("has no header line; start it with: {columns}"), columns=",".join(COLUMNS))
        return None
    return meta, records


def _mark(delimiter: str) -> str:
    """The cell separator's name, as a problem says it."""
    return {";": N_("semicolon"), "\t": N_("tab")}.get(delimiter, N_("comma"))


def _csv_comment(body: str, where: Where, meta: _Meta, problems: _Problems) -> None:
    """``# title: ...`` and ``# language: cs`` set the pack's metadata; other comments are notes."""
    key, sep, value = body.partition(":")
    key = key.strip().lower()
    if sep and key in ("title", "language"):
        if key in meta:
            problems.add(where, N_("a second '# {key}:' line; keep only one"), key=key)
        meta[key] = (where, value.strip())


def _did_you_mean(name: str) -> str:
    close = difflib.get_close_matches(name, COLUMNS, n=1)
    return " " + _("(did you mean {name!r}?)").format(name=close[0]) if close else ""


def _csv_header(cells: list[str], where: Where, problems: _Problems, delimiter: str | None) -> list[str] | None:
    """The columns the header row names (``delimiter`` None: a sheet's first row)."""
    names = [c.lower() for c in cells]
    while names and not names[-1]:
        names.pop()
    before = len(problems.lines)
    seen: set[str] = set()
    for name in names:
        if not name and delimiter is None:
            problems.add(where, N_("an empty column name in the header; name every column or delete the empty one"))
        elif not name:
            problems.add(where, N_("an empty column name in the header; name every column or delete the extra {mark}"),
                         mark=_mark(delimiter or ","))
        elif name not in COLUMNS:
            problems.add(where, N_("unknown column {name!r}{hint}; the first line names the columns, from: {columns}"),
                         name=name, hint=_did_you_mean(name), columns=(delimiter or ", ").join(COLUMNS))
        elif name in seen:
            problems.add(where, N_("column {name!r} appears twice in the header; keep one"), name=name)
        seen.add(name)
    for name in REQUIRED_COLUMNS:
        if name not in seen and len(problems.lines) == before:
            problems.add(where, N_("the header has no {name!r} column; the first line must name at least "
                                   "question,answer"), name=name)
    return None if len(problems.lines) > before else names


def _parse_json(text: str, path: Path, problems: _Problems) -> tuple[_Meta, list[_Record]] | None:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as e:
        # the json module's own words are English: say in ours what it stumbled on, where, and the fix
        line, column, reason = json_fault(e, extra_data=_JSON_EXTRA_DATA)
        problems.add(Where(line), reason, column=column)
        return None
    except (ValueError, RecursionError):
        problems.add(None, N_("holds a number or nesting too large to read; keep to the pack format"))
        return None
    if not isinstance(document, dict):
        problems.add(Where(1), N_("the file must be one JSON object with a \"questions\" list; see "
                                  "docs/question-packs.md"))
        return None
    element_lines = _question_lines(text)
    if "results" in document and "response_code" in document:
        return _parse_opentdb(document, element_lines, path, problems)
    return _parse_own_json(document, element_lines, problems)


#: text after the pack's one object: said as a pack (the shared sentence says "the file")
_JSON_EXTRA_DATA = N_("more text follows the end of the pack at column {column}; a pack is one JSON object: remove "
                      "what follows it, or move it inside")


def _question_lines(text: str) -> list[int]:
    """The line where each element of the top-level ``questions``/``results``
    list starts: ``json`` gives values, not positions, so walk the top level."""
    decoder = json.JSONDecoder()
    ws = re.compile(r"\s*")

    def skip(i: int) -> int:
        m = ws.match(text, i)
        return m.end() if m else i

    lines: list[int] = []
    counted_to, line_no = 0, 1

    def line_at(index: int) -> int:
        nonlocal counted_to, line_no  # count newlines once, front to back
        line_no += text.count("\n", counted_to, index)
        counted_to = index
        return line_no

    try:
        i = skip(0)
        if text[i] != "{":
            return lines
        i = skip(i + 1)
        while i < len(text) and text[i] != "}":
            key, i = decoder.raw_decode(text, i)
            i = skip(i)
            i = skip(i + 1)  # the ':'
            if key in ("questions", "results") and text[i] == "[":
                lines = []
                i = skip(i + 1)
                while text[i] != "]":
                    lines.append(line_at(i))
                    _, i = decoder.raw_decode(text, i)
                    i = skip(i)
                    if text[i] == ",":
                        i = skip(i + 1)
                i += 1
            else:
                _, i = decoder.raw_decode(text, i)
            i = skip(i)
            if i < len(text) and text[i] == ",":
                i = skip(i + 1)
    except (ValueError, IndexError, RecursionError):
        pass  # json.loads already accepted the text; positions are a courtesy
    return lines


def _where(kind: str, index: int, lines: list[int]) -> tuple[Where, int]:
    line = lines[index] if index < len(lines) else 0
    return Where(line, kind, index + 1), line


def _parse_own_json(document: dict[str, Any], lines: list[int],
                    problems: _Problems) -> tuple[_Meta, list[_Record]] | None:
    meta: _Meta = {}
    for key, value in document.items():
        if key in ("title", "language"):
            meta[key] = (None, value)
        elif key != "questions":
            problems.add(None, N_("unknown top-level key {key!r}; use title, language and questions"), key=key)
    questions = document.get("questions")
    if not isinstance(questions, list):
        problems.add(None, N_("has no \"questions\" list; put the questions in \"questions\": [ ... ]"))
        return None
    records: list[_Record] = []
    for index, item in enumerate(questions):
        where, line = _where("question", index, lines)
        if not isinstance(item, dict):
            problems.add_row(where, N_("a question is not an object; write it as {\"question\": ..., \"answer\": "
                                       "...}"))
            continue
        unknown = [k for k in item if k not in COLUMNS]
        for key in unknown:
            problems.add_row(where, N_("unknown key {key!r}{hint}; use only: {columns}"), key=key,
                             hint=_did_you_mean(key), columns=", ".join(COLUMNS))
        if unknown:
            continue
        records.append(_Record(where, line, {k: v for k, v in item.items() if k in COLUMNS}))
    return meta, records


def _parse_opentdb(document: dict[str, Any], lines: list[int], path: Path,
                   problems: _Problems) -> tuple[_Meta, list[_Record]] | None:
    code = document.get("response_code")
    if code != 0 or isinstance(code, bool):
        unknown = N_("the server reported an error; download the file again")
        reason = (_OPENTDB_CODES.get(code, unknown) if isinstance(code, int)
                  else N_("it is not a number; download the file again"))
        problems.add(None, N_("Open Trivia DB response_code is {code!r}: {reason}"), code=code, reason=reason)
        return None
    results = document.get("results")
    if not isinstance(results, list):
        problems.add(None, N_("Open Trivia DB \"results\" is not a list; download the file again"))
        return None
    records: list[_Record] = []
    problems.in_row = True  # one damaged result leaves out only itself
    for index, item in enumerate(results):
        where, line = _where("result", index, lines)
        values = _opentdb_values(item, where, problems)
        if values is not None:
            records.append(_Record(where, line, values))
    problems.in_row = False
    title = path.stem.replace("_", " ").replace("-", " ").strip() or "Open Trivia DB"
    return {"title": (None, title), "language": (None, "en")}, records


def _opentdb_values(item: Any, where: Where, problems: _Problems) -> dict[str, Any] | None:
    """One Open Trivia DB result as our question fields, HTML entities decoded."""
    if not isinstance(item, dict):
        problems.add(where, N_("an Open Trivia DB result must be an object; download the file again"))
        return None
    missing = [k for k in ("question", "correct_answer") if not isinstance(item.get(k), str)]
    if missing:
        problems.add(where, N_("no text {key!r}; download the file again (default encoding)"), key=missing[0])
        return None
    values: dict[str, Any] = {
        "question": html.unescape(item["question"]),
        "answer": html.unescape(item["correct_answer"]),
    }
    if isinstance(item.get("category"), str):
        values["category"] = html.unescape(item["category"])
    difficulty = item.get("difficulty")
    if difficulty is None:  # missing or null: "difficulty is None" read as Python, not as the file
        problems.add(where, N_("no difficulty; it must be easy, medium or hard"))
        return None
    if not isinstance(difficulty, str) or difficulty not in OPENTDB_POINTS:
        problems.add(where, N_("difficulty is {value!r}; it must be easy, medium or hard"), value=difficulty)
        return None
    values["points"] = OPENTDB_POINTS[difficulty]
    kind = item.get("type")
    wrong = item.get("incorrect_answers")
    if kind is None:
        problems.add(where, N_("no type; it must be multiple or boolean"))
        return None
    if kind not in ("multiple", "boolean"):
        problems.add(where, N_("type is {value!r}; it must be multiple or boolean"), value=kind)
        return None
    if not isinstance(wrong, list) or not all(isinstance(w, str) for w in wrong):
        problems.add(where, N_("incorrect_answers must be a list of texts; download the file again"))
        return None
    answers = [values["answer"], *(html.unescape(w) for w in wrong)]
    if kind == "boolean":
        # True before False, as players expect; the answer keeps its case.
        values["choices"] = sorted(answers, key=lambda a: a.strip().lower() != "true")
    else:
        # Alphabetical: deterministic and gives no hint where the answer is.
        values["choices"] = sorted(answers, key=str.casefold)
    return values


# ---------------------------------------------------------------------------
# Checking


def _text(value: Any, field: str, where: Where, problems: _Problems, *, limit: int,
          required: bool) -> str | None:
    """A clean one-line text, or None (after naming the problem). ``field``
    is the column (or key) as the file names it, so a problem names it so too."""
    if value is None or value == "":
        if required:
            problems.add(where, N_("{field!r} is empty; fill it in or delete this question"), field=field)
        return None
    if not isinstance(value, str):
        problems.add(where, N_("{field!r} must be text, not {kind}; put it in quotes"), field=field,
                     kind=type(value).__name__)
        return None
    for ch in value:
        if (ord(ch) < 32 and ch not in "\t\n\r") or 0x7F <= ord(ch) < 0xA0 or 0xD800 <= ord(ch) < 0xE000:
            problems.add(where, N_("{field!r} contains a control character U+{code:04X}; delete it"), field=field,
                         code=ord(ch))
            return None
    clean = _one_line(value)
    if not clean:
        if required:
            problems.add(where, N_("{field!r} is empty; fill it in or delete this question"), field=field)
        return None
    if len(clean) > limit:
        problems.add(where, N_("{field!r} is {n} characters long; shorten it to at most {limit} so it fits the "
                               "screen"), field=field, n=len(clean), limit=limit)
        return None
    return clean


def _texts(value: Any, field: str, where: Where, problems: _Problems) -> tuple[str, ...] | None:
    if value is None:
        return ()
    if not isinstance(value, list):
        problems.add(where, N_("{field!r} is not a list; write it as [\"a\", \"b\"]"), field=field)
        return None
    out: list[str] = []
    for item in value:
        if isinstance(item, str) and not item.strip():
            problems.add(where, N_("an empty entry in {field!r}; remove the extra '{separator}' (or empty text)"),
                         field=field, separator=LIST_SEPARATOR)
            return None
        clean = _text(item, field, where, problems, limit=MAX_ANSWER_CHARS, required=True)
        if clean is None:
            return None
        if clean.casefold() in (o.casefold() for o in out):
            problems.add(where, N_("{text!r} appears twice in {field!r}; keep it once"), text=clean, field=field)
            return None
        out.append(clean)
    return tuple(out)


def _points(value: Any, where: Where, problems: _Problems) -> int | None:
    if value is None or value == "":
        return 1
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and (whole := re.fullmatch(r"([+-]?\d{1,6})(?:[.,]0{1,6})?", value.strip())):
        number = int(whole.group(1))  # "2,0" as a Czech or Polish spreadsheet writes 2, or "2.0"
    if number is None or not MIN_POINTS <= number <= MAX_POINTS:
        problems.add(where, N_("points is {value!r}; write a whole number from {low} to {high} (or leave it empty "
                               "for 1)"), value=str(value)[:20], low=MIN_POINTS, high=MAX_POINTS)
        return None
    return number


def _image(value: Any, base: Path, where: Where, problems: _Problems) -> Path | None | bool:
    """The image resolved against the pack folder; False after a problem."""
    if value is None or value == "":
        return None
    text = _text(value, "image", where, problems, limit=200, required=False)
    if text is None:
        return False
    rel = PurePosixPath(text.replace("\\", "/"))
    if rel.is_absolute() or ".." in rel.parts or re.match(r"[A-Za-z]:", text):
        problems.add(where, N_("image {path!r} must be a path inside the pack's folder; copy the picture next to "
                               "the pack and give its name"), path=text)
        return False
    if rel.suffix.lower() not in IMAGE_SUFFIXES:
        problems.add(where, N_("image {path!r} is not a picture the box shows; use {suffixes}"), path=text,
                     suffixes=", ".join(IMAGE_SUFFIXES))
        return False
    full = base.joinpath(*rel.parts)
    try:
        found = full.is_file()
    except OSError:
        found = False
    if not found:
        problems.add(where, N_("image {path!r} is not in {folder}; put the picture there or clear the image cell"),
                     path=text, folder=str(base))
        return False
    return full


def _clip(value: Any, base: Path, where: Where, problems: _Problems,
          column: str = "audio") -> tuple[Path, float, float | None] | None | bool:
    """An audio or video cell, ``file[@start[+length]]`` in seconds: the clip
    resolved against the pack folder, its start and length; None for none, False after a problem."""
    if value is None or value == "":
        return None
    text = _text(value, column, where, problems, limit=200, required=False)
    if text is None:
        return False
    m = _CLIP_RE.match(text)
    assert m is not None  # the file part matches anything
    name = m.group("file").strip()
    start = float(m.group("start").replace(",", ".")) if m.group("start") else 0.0
    length = float(m.group("length").replace(",", ".")) if m.group("length") else None
    rel = PurePosixPath(name.replace("\\", "/"))
    video = column == "video"
    if rel.is_absolute() or ".." in rel.parts or re.match(r"[A-Za-z]:", name):
        problems.add(where, N_("video {path!r} must be a path inside the pack's folder; copy the clip next to the "
                               "pack and give its name") if video else
                     N_("audio {path!r} must be a path inside the pack's folder; copy the clip next to the "
                        "pack and give its name"), path=name)
        return False
    if rel.suffix.lower() not in (VIDEO_SUFFIXES if video else AUDIO_SUFFIXES):
        problems.add(where, N_("video {path!r} is not a clip the box plays; use {suffixes} (a start and length: "
                               "film.mp4@12.5+20)") if video else
                     N_("audio {path!r} is not a clip the box plays; use {suffixes} (a start and length: "
                        "song.ogg@12.5+20)"), path=text,
                     suffixes=", ".join(VIDEO_SUFFIXES if video else AUDIO_SUFFIXES))
        return False
    if length is not None and not 1 <= length <= MAX_CLIP_SECONDS:
        problems.add(where, N_("video {path!r} plays {length} s; give a length from 1 to {most} s (film.mp4@12.5+20)")
                     if video else
                     N_("audio {path!r} plays {length} s; give a length from 1 to {most} s (song.ogg@12.5+20)"),
                     path=text, length=length, most=MAX_CLIP_SECONDS)
        return False
    full = base.joinpath(*rel.parts)
    try:
        size = full.stat().st_size if full.is_file() else None
    except OSError:
        size = None
    if size is None:
        problems.add(where, N_("video {path!r} is not in {folder}; put the clip there or clear the video cell")
                     if video else
                     N_("audio {path!r} is not in {folder}; put the clip there or clear the audio cell"),
                     path=name, folder=str(base))
        return False
    most = MAX_VIDEO_BYTES if video else MAX_CLIP_BYTES
    if size > most:
        problems.add(where, N_("video {path!r} is {n} bytes, too long for a question; cut the part to play (at most "
                               "{most} bytes)") if video else
                     N_("audio {path!r} is {n} bytes, too long for a question; cut the part to play (at most "
                        "{most} bytes)"), path=name, n=size, most=most)
        return False
    return full, start, length


def _audio_play(value: Any, where: Where, problems: _Problems) -> bool | None:
    """The ``audio_play`` cell: True for "shown", False for "armed" or empty, None after a problem."""
    if value is None or value == "":
        return False
    text = _text(value, "audio_play", where, problems, limit=20, required=False)
    word = (text or "armed").strip().casefold()
    if text is not None and word in AUDIO_PLAY:
        return word == "shown"
    if text is not None:
        problems.add(where, N_("audio_play {value!r} says when the clip starts: write {words} (empty: armed)"),
                     value=text, words=" or ".join(AUDIO_PLAY))
    return None


def _build_question(record: _Record, base: Path, problems: _Problems) -> Question | None:
    before = len(problems.lines)
    v, where = record.values, record.where
    text = _text(v.get("question"), "question", where, problems,
                 limit=MAX_QUESTION_CHARS, required=True)
    answer = _text(v.get("answer"), "answer", where, problems, limit=MAX_ANSWER_CHARS, required=True)
    alternatives = _texts(v.get("alternatives"), "alternatives", where, problems)
    category = _text(v.get("category"), "category", where, problems,
                     limit=MAX_CATEGORY_CHARS, required=False)
    points = _points(v.get("points"), where, problems)
    image = _image(v.get("image"), base, where, problems)
    clip = _clip(v.get("audio"), base, where, problems)
    film = _clip(v.get("video"), base, where, problems, "video")
    on_show = _audio_play(v.get("audio_play"), where, problems)
    choices = _texts(v.get("choices"), "choices", where, problems)
    if choices is not None and answer is not None and choices:
        if not MIN_CHOICES <= len(choices) <= MAX_CHOICES:
            problems.add(where, N_("{n} choices; give {low} to {high} (or none for an open question)"),
                         n=len(choices), low=MIN_CHOICES, high=MAX_CHOICES)
        elif answer.casefold() not in (c.casefold() for c in choices):
            problems.add(where, N_("the answer {answer!r} is not one of the choices; add it to the choices or "
                                   "correct the answer"), answer=answer)
    if len(problems.lines) > before:
        return None
    assert text is not None and answer is not None and alternatives is not None
    assert points is not None and choices is not None and image is not False and clip is not False
    assert film is not False
    audio = clip if isinstance(clip, tuple) else None
    video = film if isinstance(film, tuple) else None
    return Question(text=text, answer=answer, alternatives=alternatives, category=category or "",
                    points=points, image=image if isinstance(image, Path) else None,
                    choices=choices, line=record.line, audio=None if audio is None else audio[0],
                    audio_start_s=0.0 if audio is None else audio[1], audio_length_s=None if audio is None else audio[2],
                    audio_on_show=bool(on_show) and (audio is not None or video is not None),
                    video=None if video is None else video[0], video_start_s=0.0 if video is None else video[1],
                    video_length_s=None if video is None else video[2])


def _meta_text(meta: _Meta, key: str, default: str, problems: _Problems,
               check: Callable[[str], bool], fix: str) -> str:
    if key not in meta:
        return default
    where, value = meta[key]
    if not isinstance(value, str) or not check(value):
        problems.add(where, N_("the pack {key} {value!r} is not usable; {fix}"), key=key, value=str(value)[:40], fix=fix)
        return default
    return value


def _build_pack(path: Path, meta: _Meta, records: list[_Record], problems: _Problems) -> Pack | None:
    title = _meta_text(meta, "title", path.stem, problems,
                       lambda t: bool(t.strip()) and len(t) <= MAX_TITLE_CHARS and t.isprintable(),
                       N_("give a printable title of at most 80 characters"))
    language = _meta_text(meta, "language", "", problems,
                          lambda t: bool(_LANGUAGE_RE.match(t)),
                          N_("give a language code such as en or cs"))
    if not records:
        if not problems.lines:
            problems.add(None, N_("has no questions; add at least one question"))
        return None
    if len(records) > MAX_QUESTIONS:
        problems.add(None, N_("has {n} questions; split it into packs of at most {most}"), n=len(records),
                     most=MAX_QUESTIONS)
        return None
    questions: list[Question] = []
    seen: dict[str, Where] = {}
    base = path.parent
    problems.in_row = True  # a problem in a question leaves out that question only
    for record in records:
        question = _build_question(record, base, problems)
        if question is None:
            continue
        key = question.text.casefold()
        if key in seen:
            problems.add(record.where, N_("the same question as {other}; delete one of them"), other=seen[key])
            continue
        seen[key] = record.where
        questions.append(question)
    problems.in_row = False
    return Pack(title=_one_line(title), language=language, questions=tuple(questions), source=path)



# ---------------------------------------------------------------------------
# A folder of packs (the box's packs folder, a USB stick's)

#: the files a packs folder offers, and how many (a stick full of files must not stall the menu)
PACK_SUFFIXES: tuple[str, ...] = (".csv", ".json", *SHEET_SUFFIXES)
MAX_FOLDER_PACKS = 50


@dataclass(frozen=True)
class FoundPack:
    """A pack file in a folder as the menu lists it: a good pack's title and
    question count, or the checker's problems (then it cannot be started)."""

    path: Path
    title: str
    questions: int
    problems: tuple[PackProblem, ...]
    #: rows of a playable pack left out for their problems (``pack check`` lists them)
    left_out: int = 0


def find_packs(folder: str | Path) -> list[FoundPack]:
    """Every pack file directly in ``folder``, by name, each read through the
    same checker as ``pack check``; a missing or unreadable folder has none."""
    try:
        files = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in PACK_SUFFIXES and p.is_file())
    except OSError:
        return []
    found = []
    for path in files[:MAX_FOLDER_PACKS]:
        pack, problems = _read(path)
        if pack is None:
            found.append(FoundPack(path, path.stem, 0, tuple(problems) or (_not_a_pack(path),)))
        else:
            found.append(FoundPack(path, pack.title, len(pack.questions), (), len(pack.left_out)))
    return found
