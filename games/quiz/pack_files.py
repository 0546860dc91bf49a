"""A pack file as people save it: the text of a CSV (or JSON) in whatever
encoding their program wrote, and the rows of a spreadsheet (.xlsx, .ods).

``packs.py`` checks what these give exactly as it checks a CSV's rows: the
same columns, the same problems. The encoding is decided here, said in ``pack
check``'s summary, or the file is refused in one line (docs/question-packs.md).
"""

from __future__ import annotations

import datetime
import io
import re
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.i18n import N_, Reason, current_language

#: the spreadsheets read, by suffix (a CSV or JSON is text)
SHEET_SUFFIXES: tuple[str, ...] = (".xlsx", ".ods")
#: a spreadsheet is a zip: what it may unpack to (a small file that unpacks to gigabytes is refused)
MAX_UNPACKED_BYTES = 40_000_000
#: rows and columns of a sheet read: a pack holds at most ``MAX_QUESTIONS`` (packs.py) rows, and its
#: columns are few; a sheet whose used area runs to the format's edge is read no further
MAX_SHEET_ROWS = 5_200
MAX_SHEET_COLUMNS = 32
#: the legacy encodings the box's languages' spreadsheets write (Excel's "CSV" on Czech and Polish
#: Windows: cp1250; on English and Western European: cp1252); the library chooses between them
LEGACY_ENCODINGS: tuple[str, ...] = ("cp1250", "cp1252")
#: the accented letters each legacy encoding is written for in the box's languages: Czech and
#: Polish (cp1250); English with its French, German and Spanish borrowings (cp1252). A tie between
#: two readings goes to the one whose letters are its own: Czech "Dvořák" read as cp1252 is "Dvoøák"
HOME_LETTERS: dict[str, str] = {
    "cp1250": "áčďéěíňóřšťúůýžąćęłńóśźżÁČĎÉĚÍŇÓŘŠŤÚŮÝŽĄĆĘŁŃÓŚŹŻ",
    "cp1252": "àâäæçèéêëíîïñóôöùúûüÿßœÀÂÄÆÇÉÊËÍÎÏÑÓÔÖÙÚÛÜŒ",
}


#: the languages whose Windows writes cp1250 (Central Europe); every other language's writes cp1252
CENTRAL_EUROPEAN: frozenset[str] = frozenset({"cs", "pl", "sk", "hu", "sl", "hr", "ro", "bs", "sq"})
#: the language a pack declares (a CSV's ``# language:`` line, a JSON pack's ``"language"``), read from its bytes
_DECLARED = re.compile(rb'(?:#\s*language\s*:\s*|"language"\s*:\s*")([A-Za-z]{2,3})\b')
#: a share of NUL bytes past which a file without a BOM is UTF-16 (which this box reads only with its BOM)
_UTF16_NULS = 0.2


class SheetRefused(ValueError):
    """A spreadsheet that cannot be read: ``reason`` names the problem and the
    fix (a message id), with its ``arguments``."""

    def __init__(self, reason: Reason, **arguments: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.arguments = arguments


@dataclass(frozen=True)
class Decoded:
    """A pack file's text and the encoding it was read as (``pack check`` says it)."""

    text: str
    encoding: str


def decode(data: bytes) -> Decoded | None:
    """The text of a pack file: UTF-8 (with or without the BOM spreadsheets
    write), UTF-16 with its BOM (Excel's "Unicode text"), else cp1250 or cp1252
    as charset-normalizer reads it. None when it cannot be decided: neither
    legacy encoding reads the bytes as text, or it looks like UTF-16 without
    its BOM.

    Short texts often read equally well both ways (Czech "Sněžka" is
    "Snìžka" in cp1252, French "Molière" is "Moličre" in cp1250): the library
    may score both alike. The pack's declared language decides first (a
    reading the library finds garbled never wins), then the library's language
    coherence, then the reading whose accented letters are its own languages',
    then what the box's language's Windows writes (a Czech host's Excel: cp1250)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return _strict(data[3:], "utf-8", "UTF-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _strict(data, "utf-16", "UTF-16")
    if data and data.count(0) / len(data) > _UTF16_NULS:
        return None
    utf8 = _strict(data, "utf-8", "UTF-8")
    if utf8 is not None:
        return utf8
    # only for a file that is not UTF-8: the box starts without it
    from charset_normalizer import from_bytes

    readings = [(m.encoding, round(float(m.chaos), 3), round(float(m.coherence), 3), str(m))
                for m in from_bytes(data, cp_isolation=list(LEGACY_ENCODINGS))]
    readings = [r for r in readings if r[0] in LEGACY_ENCODINGS]
    if not readings:
        return None
    declared = _DECLARED.search(data)
    language = declared.group(1).decode().lower() if declared else current_language()
    native = "cp1250" if language in CENTRAL_EUROPEAN else "cp1252"

    def rank(reading: tuple[str, float, float, str]) -> tuple[float, ...]:
        encoding, chaos, coherence, text = reading
        by_declared = 0 if declared is None or encoding == native else 1
        return chaos, by_declared, -coherence, -_home_share(encoding, text), encoding != native

    best = min(readings, key=rank)
    return Decoded(best[3], best[0])


def _strict(data: bytes, codec: str, label: str) -> Decoded | None:
    try:
        return Decoded(data.decode(codec), label)
    except UnicodeDecodeError:
        return None


def _home_share(encoding: str, text: str) -> float:
    """How many of a reading's accented letters belong to the languages its encoding is for."""
    accented = [c for c in text if ord(c) > 127 and c.isalpha()]
    if not accented:
        return 1.0
    home = HOME_LETTERS.get(encoding, "")
    return sum(c in home for c in accented) / len(accented)


def split_sheet(path: Path) -> tuple[Path, str | None]:
    """``pack.xlsx#Round 2``: the file and the sheet it names (None: the first sheet).
    A file whose own name has a ``#`` is that file."""
    text = str(path)
    base, hash_, sheet = text.rpartition("#")
    if not hash_ or not sheet or path.exists() or Path(base).suffix.lower() not in SHEET_SUFFIXES:
        return path, None
    return Path(base), sheet


def sheet_rows(suffix: str, data: bytes, sheet: str | None) -> tuple[str, list[tuple[int, list[str]]]]:
    """The named sheet's (else the first sheet's) name and its rows, each as
    (row number, its cells as text), empty rows left out. Raises ``SheetRefused``."""
    _check_zip(data, suffix)
    try:
        with warnings.catch_warnings():  # openpyxl warns of styles it does not read: nothing for the host
            warnings.simplefilter("ignore")
            return _xlsx_rows(data, sheet) if suffix == ".xlsx" else _ods_rows(data, sheet)
    except SheetRefused:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged file surfaces as any error of the readers; one line
        raise SheetRefused(N_("not a readable {suffix} spreadsheet ({error}); open it in the spreadsheet "
                              "program and save it again"), suffix=suffix, error=_short(exc)) from None


def _short(exc: Exception) -> str:
    said = " ".join(str(exc).split()) or type(exc).__name__
    return said[:80]


def _check_zip(data: bytes, suffix: str) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise SheetRefused(N_("not a {suffix} spreadsheet (it is not the zip file one is); save it again from the "
                              "spreadsheet program as {suffix}"), suffix=suffix) from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise SheetRefused(N_("unpacks to {n} bytes, more than {most}; split it into smaller packs"),
                           n=unpacked, most=MAX_UNPACKED_BYTES)


def _chosen(names: list[str], sheet: str | None) -> int:
    if not names:
        raise SheetRefused(N_("has no sheet; put the questions on its first sheet"))
    if sheet is None:
        return 0
    for k, name in enumerate(names):
        if name == sheet:
            return k
    folded = [k for k, name in enumerate(names) if name.casefold() == sheet.casefold()]
    if folded:
        return folded[0]
    raise SheetRefused(N_("has no sheet {sheet!r}; its sheets: {sheets}"), sheet=sheet, sheets=", ".join(names)[:200])


def cell_text(value: Any) -> str:
    """A cell as a CSV would hold it: whole numbers without ".0", dates as ISO dates."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


def _kept(rows: Iterator[tuple[int, list[str]]]) -> list[tuple[int, list[str]]]:
    """Rows with something in them, up to ``MAX_SHEET_ROWS``, trailing empty cells dropped."""
    out: list[tuple[int, list[str]]] = []
    for number, cells in rows:
        if number > MAX_SHEET_ROWS:
            break
        while cells and not cells[-1].strip():
            cells.pop()
        if cells:
            out.append((number, cells))
    return out


def _xlsx_rows(data: bytes, sheet: str | None) -> tuple[str, list[tuple[int, list[str]]]]:
    from openpyxl import load_workbook  # only when a spreadsheet is read: the box starts without it

    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        names = list(book.sheetnames)
        ws = book[names[_chosen(names, sheet)]]
        rows = ((k, [cell_text(v) for v in row[:MAX_SHEET_COLUMNS]])
                for k, row in enumerate(ws.iter_rows(max_row=MAX_SHEET_ROWS, max_col=MAX_SHEET_COLUMNS,
                                                     values_only=True), 1))
        return ws.title, _kept(rows)
    finally:
        book.close()


#: the OpenDocument value types whose cell holds a number in ``office:value`` (the text is as displayed)
_ODS_NUMBERS = ("float", "percentage", "currency")


def _ods_rows(data: bytes, sheet: str | None) -> tuple[str, list[tuple[int, list[str]]]]:
    from odf import table, teletype
    from odf.opendocument import load

    doc = load(io.BytesIO(data))
    tables = doc.spreadsheet.getElementsByType(table.Table)
    names = [str(t.getAttribute("name") or "") for t in tables]
    chosen = tables[_chosen(names, sheet)]

    def cells_of(row: Any) -> list[str]:
        cells: list[str] = []
        for cell in row.childNodes:
            if cell.qname[1] not in ("table-cell", "covered-table-cell"):
                continue
            kind = cell.getAttribute("valuetype")
            text = str(cell.getAttribute("value")) if kind in _ODS_NUMBERS else teletype.extractText(cell)
            repeat = min(int(cell.getAttribute("numbercolumnsrepeated") or 1), MAX_SHEET_COLUMNS - len(cells))
            cells.extend([cell_text(_number(text) if kind in _ODS_NUMBERS else text)] * repeat)
            if len(cells) >= MAX_SHEET_COLUMNS:
                break
        return cells

    def rows() -> Iterator[tuple[int, list[str]]]:
        number = 0
        for row in chosen.getElementsByType(table.TableRow):
            repeat = int(row.getAttribute("numberrowsrepeated") or 1)
            cells = cells_of(row)
            for _ in range(min(repeat, MAX_SHEET_ROWS + 1 - number) if any(c.strip() for c in cells) else 0):
                number += 1
                yield number, list(cells)
            if not any(c.strip() for c in cells):
                number += repeat
            if number > MAX_SHEET_ROWS:
                return

    return names[names.index(str(chosen.getAttribute("name") or ""))], _kept(rows())


def _number(text: str) -> float | str:
    try:
        return float(text)
    except ValueError:
        return text
