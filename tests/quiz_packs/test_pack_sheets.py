"""Packs as people save them: Excel's .xlsx and LibreOffice's .ods with the
CSV's columns (the first sheet, or one named ``FILE#SHEET``), and CSV text in
UTF-8 (with or without a BOM), UTF-16, cp1250 and cp1252, the encoding read
by charset-normalizer and said in ``pack check``'s summary."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from games.i18n import set_language
from games.quiz.pack_files import MAX_UNPACKED_BYTES, Decoded, decode
from games.quiz.packs import PackError, check_pack, find_packs, load_pack
from tests.quiz_packs.sheets import save

ROWS: list[list[Any]] = [
    ["# title: Hospodský kvíz"],
    ["# language: cs"],
    ["question", "answer", "category", "points", "choices"],
    ["Kolik nohou má pavouk?", 8, "Příroda", 2, None],
    ["Hlavní město Slovenska?", "Bratislava", "Zeměpis", 1, "Bratislava|Košice|Nitra"],
    ["Řeka, která teče Prahou?", "Vltava", "Zeměpis", None, None],
]
SUFFIXES = [".xlsx", ".ods"]


def pack_check(capsys: pytest.CaptureFixture[str], path: Path | str) -> tuple[int, str, str]:
    code = main(["pack", "check", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_spreadsheet_s_first_sheet_is_read_as_its_csv_would_be(
        tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = save(tmp_path / f"kviz{suffix}", {"Otázky": ROWS, "Poznámky": [["nothing to see"]]})
    pack = load_pack(path)
    assert (pack.title, pack.language, pack.sheet) == ("Hospodský kvíz", "cs", "Otázky")
    assert [(q.text, q.answer, q.points, q.choices) for q in pack.questions] == [
        ("Kolik nohou má pavouk?", "8", 2, ()),  # a number cell is the text a CSV would hold
        ("Hlavní město Slovenska?", "Bratislava", 1, ("Bratislava", "Košice", "Nitra")),
        ("Řeka, která teče Prahou?", "Vltava", 1, ())]
    assert pack.questions[0].line == 4  # the spreadsheet's own row number
    code, out, _err = pack_check(capsys, path)
    assert code == 0 and out.startswith(f"OK kviz{suffix}: “Hospodský kvíz” [cs]: 3 questions")
    assert "read from the sheet 'Otázky'" in out


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_named_sheet_is_read_and_a_missing_one_is_one_line_naming_the_sheets(
        tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = save(tmp_path / f"night{suffix}", {"Round 1": ROWS, "Round 2": [["question", "answer"], ["Q?", "A"]]})
    pack = load_pack(f"{path}#Round 2")
    assert [q.text for q in pack.questions] == ["Q?"] and pack.sheet == "Round 2"
    assert load_pack(f"{path}#round 2").sheet == "Round 2"  # as a person types it
    with pytest.raises(PackError) as refused:
        load_pack(f"{path}#Round 3")
    said = str(refused.value)
    assert said == f"night{suffix}#Round 3: has no sheet 'Round 3'; its sheets: Round 1, Round 2"
    code, out, err = pack_check(capsys, f"{path}#Round 3")
    assert code == 1 and out.strip() == said and "Traceback" not in err


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_bad_row_of_a_sheet_is_named_by_its_row_and_the_rest_is_played(tmp_path: Path, suffix: str) -> None:
    rows = [*ROWS, ["Kolik je 6 × 7?", 42, "Matika", 500, None], ["Extra?", "A", "", "", "", "stray"]]
    path = save(tmp_path / f"pack{suffix}", {"List1": rows})
    problems = [str(p) for p in check_pack(path)]
    assert problems == [
        f"pack{suffix} row 7: points is '500'; write a whole number from 1 to 100 (or leave it empty for 1)",
        f"pack{suffix} row 8: 6 cells but the header names 5 columns; name the column in the first row or "
        "clear the cells past the last one"]
    assert len(load_pack(path)) == 3


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_spreadsheet_that_is_not_one_is_one_line(tmp_path: Path, suffix: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"broken{suffix}"
    path.write_bytes(b"question,answer\nQ?,A\n")  # a CSV renamed
    code, out, err = pack_check(capsys, path)
    assert code == 1 and len(out.splitlines()) == 1 and "Traceback" not in err
    assert out.startswith(f"broken{suffix}: not a {suffix} spreadsheet") and "save it again" in out
    good = save(tmp_path / f"good{suffix}", {"Sheet": ROWS})
    with zipfile.ZipFile(good) as archive:  # a zip whose parts are not a spreadsheet's
        names = archive.namelist()
    damaged = tmp_path / f"damaged{suffix}"
    with zipfile.ZipFile(damaged, "w") as archive:
        for name in names:
            archive.writestr(name, "<not xml")
    code, out, err = pack_check(capsys, damaged)
    assert code == 1 and len(out.splitlines()) == 1 and "Traceback" not in err
    assert out.startswith(f"damaged{suffix}: not a readable {suffix} spreadsheet (") and "save it again" in out


def test_a_spreadsheet_that_unpacks_to_too_much_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b" " * (MAX_UNPACKED_BYTES + 1))
    assert path.stat().st_size < 100_000
    [problem] = check_pack(path)
    assert str(problem).startswith("bomb.xlsx: unpacks to") and "split it into smaller packs" in str(problem)


def test_the_packs_folder_offers_spreadsheets(tmp_path: Path) -> None:
    save(tmp_path / "a.xlsx", {"S": ROWS})
    save(tmp_path / "b.ods", {"S": ROWS})
    (tmp_path / "c.xls").write_bytes(b"\xd0\xcf\x11\xe0")  # the old binary Excel: not offered
    assert [(p.path.name, p.title, p.questions) for p in find_packs(tmp_path)] == [
        ("a.xlsx", "Hospodský kvíz", 3), ("b.ods", "Hospodský kvíz", 3)]


CZECH = "question;answer;category\nJak se jmenuje nejvyšší hora Česka?;Sněžka;Zeměpis\nKdo napsal Babičku?;Božena Němcová;Literatura\n"
POLISH = "question;answer\nNajdłuższa rzeka w Polsce?;Wisła\nKto napisał „Pana Tadeusza”?;Adam Mickiewicz\n"
ENGLISH = "question,answer\nWhich café in Vienna gave a cake its name?,Sacher\nWho wrote “Le Misanthrope”?,Molière\n"
FRENCH = "question,answer\nWhich dessert is burnt cream?,Crème brûlée\n"
COMPOSER = "question,answer\nWho wrote the New World Symphony?,Antonín Dvořák\n"


@pytest.mark.parametrize(("text", "codec", "said"), [
    (CZECH, "cp1250", "cp1250"), (POLISH, "cp1250", "cp1250"), (ENGLISH, "cp1252", "cp1252"),
    (FRENCH, "cp1252", "cp1252"), (COMPOSER, "cp1250", "cp1250"), (CZECH, "utf-8", "UTF-8"), (CZECH, "utf-8-sig", "UTF-8"),
    (CZECH.replace(";", "\t"), "utf-16", "UTF-16"), (POLISH, "utf-16", "UTF-16")],
    ids=["cs-cp1250", "pl-cp1250", "en-cp1252", "fr-cp1252", "cs-name-cp1250", "utf8", "utf8-bom", "utf16-tabs", "utf16"])
def test_a_csv_is_read_in_the_encoding_it_was_saved_in_and_the_summary_says_which(
        tmp_path: Path, text: str, codec: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pack.csv"
    path.write_bytes(text.encode(codec))
    pack = load_pack(path)
    rows = [line.replace("\t", ";").replace(",", ";").split(";") for line in text.splitlines()[1:]]
    assert [[q.text, q.answer] for q in pack.questions] == [row[:2] for row in rows]
    assert pack.encoding == said
    code, out, _err = pack_check(capsys, path)
    assert code == 0 and f"text in {pack.encoding}" in out


def test_a_tie_between_the_legacy_readings_goes_to_the_declared_language_then_the_box_s() -> None:
    """"Mè" (cp1252) and "Mč" (cp1250) are the same bytes, and the library scores them alike."""
    data = "question,answer\nCo je to?,Mè\n".encode("cp1252")
    assert decode(data) == Decoded("question,answer\nCo je to?,Mè\n", "cp1252")  # an English box
    assert decode(b"# language: cs\n" + data).encoding == "cp1250"  # the pack says it is Czech
    set_language("cs")
    try:
        assert decode(data).encoding == "cp1250"  # a Czech host's Excel writes cp1250
        assert decode(b"# language: en\n" + data).encoding == "cp1252"
    finally:
        set_language("en")


def test_text_whose_encoding_cannot_be_decided_is_none() -> None:
    assert decode(b"question,answer\nQ\x81?,\x90\n") is None  # bytes neither legacy encoding has
    assert decode("question,answer\nQ?,A\n".encode("utf-16-le")) is None  # UTF-16 without its BOM
    assert decode(b"\xff\xfeq\x00\x00\xd8") is None  # a BOM, then half a character
