"""A USB stick's packs in the kiosk menu: found when plugged in (a tmp
folder stands for /media), listed like the packs folder's, gone without a
crash when pulled, and copied into the packs folder so they stay; and the
packs folder's own saving rules (safe names, never over another pack)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from controller.apps.menu import PackScan
from controller.pack_store import MAX_UPLOAD_BYTES, safe_name, save_pack, stick_folders
from controller.screen.menu import RESCAN_US, Menu
from games.i18n import set_language
from games.quiz.packs import check_pack

GAMES = [("quiz", "Quiz buzzer", 2, 16), ("reaction", "Reaction duel", 2, 16)]
GOOD = "# title: Stick quiz\nquestion,answer\nRed planet?,Mars\nLargest ocean?,Pacific\n"
HOME = "# title: Home quiz\nquestion,answer\nNearest star?,The Sun\n"
BROKEN = "question,answer\nWhat?,\n"


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


@pytest.fixture()
def box(tmp_path: Path) -> tuple[Path, Path]:
    """The packs folder (one pack) and an empty media root."""
    packs, media = tmp_path / "packs", tmp_path / "media"
    packs.mkdir()
    media.mkdir()
    (packs / "home.csv").write_text(HOME, encoding="utf-8")
    return packs, media


def plug(media: Path, label: str = "STICK", own_folder: bool = True) -> Path:
    """A stick mounted as udisks mounts it: /media/USER/LABEL."""
    stick = media / "host" / label
    where = stick / "buzzerbox-packs" if own_folder else stick
    where.mkdir(parents=True)
    (where / "night.csv").write_text(GOOD, encoding="utf-8")
    (where / "bad.csv").write_text(BROKEN, encoding="utf-8")
    return stick


def menu_on_stick_pack(packs: Path, media: Path, title: str) -> tuple[Menu, Path]:
    """A stick plugged in before the menu came up, its pack titled ``title`` chosen on the pack row."""
    stick = plug(media)
    scan = PackScan(packs, [media])
    menu = Menu(GAMES, 3, found=scan.choices(), rescan=scan, copy_found=scan.copy)
    menu.selected = [it.key for it in menu.items].index("pack")
    item = menu.item("pack")
    item.index = next(k for k, f in item.found.items() if f.title == title)
    return menu, stick


def pack_row(menu: Menu) -> list[str]:
    item = menu.item("pack")
    return [item.shown(k) for k in item.found]


def test_a_stick_plugged_in_while_the_menu_is_up_appears_at_the_next_look_and_goes_when_pulled(
        box: tuple[Path, Path]) -> None:
    packs, media = box
    scan = PackScan(packs, [media])
    menu = Menu(GAMES, 3, found=scan.choices(), rescan=scan, copy_found=scan.copy)
    assert pack_row(menu) == ["Home quiz (1 question)"]
    assert menu.poll(0) is False  # nothing changed: the packs are not read again
    stick = plug(media)
    assert menu.poll(RESCAN_US - 1) is False  # not looked yet (a cheap poll, every RESCAN_US)
    assert menu.poll(RESCAN_US) is True
    assert pack_row(menu) == ["Home quiz (1 question)", "bad (1 problem, USB stick)",
                              "Stick quiz (2 questions, USB stick)"]
    menu.selected = [it.key for it in menu.items].index("pack")
    menu.key("right")  # the stick's broken pack: its problems on the screen, one line each
    assert menu.view()["problems"] == [str(p) for p in check_pack(stick / "buzzerbox-packs" / "bad.csv")]
    shutil.rmtree(stick)  # pulled out while chosen
    assert menu.poll(2 * RESCAN_US) is True
    assert pack_row(menu) == ["Home quiz (1 question)"]
    assert menu.view()["problems"] == []  # the row holds a pack that is there


def test_pack_files_at_the_stick_s_top_level_count_and_a_missing_root_has_none(tmp_path: Path) -> None:
    media = tmp_path / "media"
    plug(media, "A", own_folder=False)
    (media / "host" / "B").mkdir()  # a stick without packs
    assert stick_folders([media, tmp_path / "no-such-root"]) == [media / "host" / "A"]


def test_copying_a_stick_s_pack_keeps_it_after_the_stick_is_pulled(box: tuple[Path, Path]) -> None:
    packs, media = box
    menu, stick = menu_on_stick_pack(packs, media, "Stick quiz")
    assert any("press C to copy" in line for line in menu.view()["detail"])
    menu.key("copy")
    assert menu.view()["detail"][0] == "night.csv: saved in the packs folder (2 questions)"
    assert (packs / "night.csv").read_text(encoding="utf-8") == GOOD
    assert menu.item("pack").value == str(packs / "night.csv")  # the copy is chosen, not the stick's
    shutil.rmtree(stick)
    menu.poll(10 * RESCAN_US)
    assert pack_row(menu) == ["Home quiz (1 question)", "Stick quiz (2 questions)"]
    assert menu.item("pack").value == str(packs / "night.csv")
    menu.key("copy")  # a folder pack: nothing to copy, nothing said
    assert sorted(p.name for p in packs.iterdir()) == ["home.csv", "night.csv"]


def test_a_broken_stick_pack_is_not_copied_and_its_problems_are_said(box: tuple[Path, Path]) -> None:
    packs, media = box
    menu, stick = menu_on_stick_pack(packs, media, "bad")
    menu.key("copy")
    assert menu.notice == [str(p) for p in check_pack(stick / "buzzerbox-packs" / "bad.csv")]
    assert not (packs / "bad.csv").exists()


@pytest.mark.parametrize(("name", "safe"), [
    ("night.csv", "night.csv"), ("../../etc/passwd.csv", "passwd.csv"), ("C:\\x\\Quiz 1.JSON", "Quiz 1.json"),
    ("..csv", None), ("pack.txt", None), ("noext", None), ("a/b/", None), ("<script>.csv", "script.csv"),
    (".hidden.csv", "hidden.csv"), ("Kvíz č. 2.csv", "Kvíz č_ 2.csv"),
])
def test_a_saved_pack_gets_a_safe_name_inside_the_folder(name: str, safe: str | None) -> None:
    assert safe_name(name) == safe


def test_saving_never_overwrites_and_an_upload_sent_twice_is_kept_once(tmp_path: Path) -> None:
    folder = tmp_path / "packs"
    first = save_pack(folder, "night.csv", GOOD.encode())
    assert first.path == folder / "night.csv"
    again = save_pack(folder, "night.csv", GOOD.encode())
    assert again.path == folder / "night.csv" and "already in the packs folder" in again.lines[0]
    other = save_pack(folder, "night.csv", HOME.encode())
    assert other.path == folder / "night-2.csv"
    assert "night-2.csv" in other.lines[1]
    assert (folder / "night.csv").read_text(encoding="utf-8") == GOOD
    refused = save_pack(folder, "bad.csv", BROKEN.encode())
    assert refused.path is None and list(refused.lines) == [str(p) for p in check_pack_bytes(tmp_path, BROKEN)]
    big = save_pack(folder, "big.csv", b"x" * (MAX_UPLOAD_BYTES + 1))
    assert big.path is None and "too large" in big.lines[0]
    assert sorted(p.name for p in folder.iterdir()) == ["night-2.csv", "night.csv"]  # no trial file left behind


def check_pack_bytes(tmp_path: Path, text: str) -> list[object]:
    """What `pack check` says of ``text`` saved as bad.csv."""
    probe = tmp_path / "probe"
    probe.mkdir(exist_ok=True)
    (probe / "bad.csv").write_text(text, encoding="utf-8")
    return list(check_pack(probe / "bad.csv"))
