"""``buzzerbox kiosk install / status / uninstall`` on a folder standing in for
a Raspberry Pi's file system (``--root``), without root: the system's account
tools are replaced by a stand-in that edits the folder's /etc/passwd and
/etc/group as they do. tests/install/test_debian_root.py runs the real tools
on a real Debian root."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from controller.apps import kiosk
from controller.cli import main

MODEL = "Raspberry Pi 4 Model B Rev 1.5\0"
#: Raspberry Pi OS bookworm's, shortened: the automatic login commented out in [Seat:*]
LIGHTDM = """[LightDM]
#start-default-seat=true
[Seat:*]
#type=local
greeter-session=pi-greeter-wayfire
#autologin-guest=false
#autologin-user=
#autologin-user-timeout=0
user-session=LXDE-pi-wayfire
autologin-session=LXDE-pi-wayfire
[XDMCPServer]
#enabled=false
"""
CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=abc-02 rootfstype=ext4 fsck.repair=yes rootwait\n"


class Accounts:
    """useradd, usermod, groupadd, gpasswd, userdel, groupdel on a folder's /etc files."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, argv: Sequence[str]) -> None:
        argv = list(argv)
        self.calls.append(argv)
        assert argv[1] == "--root", argv
        root, tool, rest = Path(argv[2]), argv[0], argv[3:]
        passwd, group = root / "etc/passwd", root / "etc/group"
        users = [line.split(":") for line in passwd.read_text().splitlines()]
        groups = [line.split(":") for line in group.read_text().splitlines()]
        if tool == "groupadd":
            groups.append([rest[-1], "x", str(900 + len(groups)), ""])
        elif tool == "useradd":
            name = rest[-1]
            gid = str(1000 + len(groups))
            groups.append([name, "x", gid, ""])
            users.append([name, "x", str(1000 + len(users)), gid, "Buzzer box", f"/home/{name}", "/bin/sh"])
            (root / "home" / name).mkdir(parents=True)
        elif tool == "usermod":
            for g in groups:
                if g[0] == rest[-2]:
                    g[3] = ",".join(filter(None, [*g[3].split(","), rest[-1]]))
        elif tool == "gpasswd":
            for g in groups:
                if g[0] == rest[-1]:
                    g[3] = ",".join(m for m in g[3].split(",") if m and m != rest[-2])
        elif tool == "userdel":
            users = [u for u in users if u[0] != rest[-1]]
            groups = [g[:3] + [",".join(m for m in g[3].split(",") if m and m != rest[-1])]
                      for g in groups if g[0] != rest[-1]]
            shutil.rmtree(root / "home" / rest[-1])
        elif tool == "groupdel":
            groups = [g for g in groups if g[0] != rest[-1]]
        else:
            raise AssertionError(argv)
        passwd.write_text("".join(":".join(u) + "\n" for u in users))
        group.write_text("".join(":".join(g) + "\n" for g in groups))


@pytest.fixture
def accounts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Accounts]:
    fake = Accounts()
    monkeypatch.setattr(kiosk, "RUN", [fake])
    monkeypatch.delenv("SUDO_USER", raising=False)
    yield fake


@pytest.fixture(autouse=True)
def screen(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A stand-in for the probe of pygame's SDL: a Raspberry Pi OS pygame with every driver."""
    drivers = ["kmsdrm", "x11", "wayland", "offscreen", "dummy"]
    monkeypatch.setattr(kiosk, "PROBE", [lambda: drivers])
    return drivers


def pi_root(tmp_path: Path, *, desktop: bool = False, pi: bool = True, user: str | None = None,
            lightdm: str | None = None) -> Path:
    """A Raspberry Pi OS's files, as much of them as the kiosk looks at."""
    root = tmp_path / "root"
    (root / "etc/systemd/system/multi-user.target.wants").mkdir(parents=True)
    (root / "usr/lib/systemd").mkdir(parents=True)
    (root / "usr/lib/systemd/systemd").write_text("")
    (root / "boot/firmware").mkdir(parents=True)
    (root / "home").mkdir()
    (root / "var/lib").mkdir(parents=True)
    (root / "boot/firmware/cmdline.txt").write_text(CMDLINE)
    users = "root:x:0:0:root:/root:/bin/bash\n"
    groups = "root:x:0:\nvideo:x:44:\naudio:x:29:\n"
    if user:
        users += f"{user}:x:1000:1000:,,,:/home/{user}:/bin/bash\n"
        groups += f"{user}:x:1000:\n"
        groups = groups.replace("video:x:44:", f"video:x:44:{user}")
        (root / "home" / user).mkdir()
    (root / "etc/passwd").write_text(users)
    (root / "etc/group").write_text(groups)
    if pi:
        (root / "proc/device-tree").mkdir(parents=True)
        (root / "proc/device-tree/model").write_text(MODEL)
    if desktop:
        (root / "usr/sbin").mkdir(parents=True)
        (root / "usr/sbin/lightdm").write_text("")
    if lightdm is not None:
        (root / "etc/lightdm").mkdir(parents=True)
        (root / kiosk.LIGHTDM).write_text(lightdm)
    return root


def snapshot(root: Path) -> dict[str, str]:
    """Every file, link and folder under root with its content (or target)."""
    seen: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            seen[rel] = "-> " + os.readlink(path)
        elif path.is_dir():
            seen[rel] = "dir"
        else:
            seen[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return seen


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_install_sets_up_a_lite_pi_says_what_it_did_then_changes_nothing(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str]) -> None:
    root = pi_root(tmp_path)
    before = snapshot(root)
    code, out, err = run(capsys, "kiosk", "install", "--root", str(root), "--exe", "/usr/local/bin/buzzerbox")
    assert code == 0, err
    assert "created the user buzzerbox" in out and "added buzzerbox to the group gpio" in out
    assert "sudo buzzerbox kiosk uninstall" in out and "sudo reboot" in out
    unit = (root / kiosk.UNIT).read_text()
    template = (Path(__file__).resolve().parents[2] / "wiring/kiosk/buzzerbox.service").read_text()
    assert "User=buzzerbox\n" in unit and "WorkingDirectory=/home/buzzerbox\n" in unit
    assert "ExecStart=/usr/local/bin/buzzerbox menu --fullscreen\n" in unit
    for setting in ("LimitRTPRIO=20", "LimitNOFILE=8192", "Restart=on-failure", "KillMode=mixed",
                    "# real-time scheduling (SCHED_FIFO 20)"):  # the settings with their reasons: the one source
        assert setting in unit and setting in template
    assert os.readlink(root / kiosk.WANTS) == "/" + kiosk.UNIT
    assert os.readlink(root / kiosk.GETTY_MASK) == "/dev/null"
    assert (root / "boot/firmware/cmdline.txt").read_text() == CMDLINE.strip() + " consoleblank=0\n"
    assert "SystemMaxUse=" in (root / kiosk.JOURNALD).read_text()
    assert (root / "home/buzzerbox/.local/share/buzzerbox/journals").is_dir()
    group = (root / "etc/group").read_text()
    for name in kiosk.GROUPS:
        assert any(line.startswith(f"{name}:") and "buzzerbox" in line.split(":")[3] for line in group.splitlines())

    code, out, _ = run(capsys, "kiosk", "status", "--root", str(root))
    assert code == 0 and out.splitlines()[-1].startswith("Ready: the box starts into its menu"), out

    after = snapshot(root)
    calls = len(accounts.calls)
    code, out, _ = run(capsys, "kiosk", "install", "--root", str(root), "--exe", "/usr/local/bin/buzzerbox")
    assert code == 0 and "Nothing to change: everything was already set up." in out
    assert snapshot(root) == after and len(accounts.calls) == calls

    code, out, _ = run(capsys, "kiosk", "uninstall", "--root", str(root), "--purge")
    assert code == 0 and "the user buzzerbox, with its data folder" in out
    assert snapshot(root) == before  # nothing left, the kernel's command line as it was
    code, out, _ = run(capsys, "kiosk", "uninstall", "--root", str(root))
    assert code == 0 and "Nothing to remove" in out


def test_an_existing_user_keeps_its_journals_when_the_kiosk_is_taken_away(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = pi_root(tmp_path, user="pi")
    before = (root / "etc/group").read_text()
    monkeypatch.setenv("SUDO_USER", "pi")  # the person who typed sudo: the box runs as them
    code, out, _ = run(capsys, "kiosk", "install", "--root", str(root))
    assert code == 0 and "created the user" not in out and "added pi to the group video" not in out
    assert "added pi to the group gpio" in out and "User=pi\n" in (root / kiosk.UNIT).read_text()
    journal = root / "home/pi/.local/share/buzzerbox/journals/quiz.jsonl"
    journal.write_text("{}\n")
    code, out, _ = run(capsys, "kiosk", "uninstall", "--root", str(root))
    assert code == 0 and "Kept: the data folder /home/pi/.local/share/buzzerbox" in out
    assert journal.read_text() == "{}\n" and (root / "etc/group").read_text() == before
    assert not (root / kiosk.UNIT).exists() and not (root / kiosk.MANIFEST).exists()


def test_on_the_desktop_the_box_starts_with_the_session(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str]) -> None:
    root = pi_root(tmp_path, desktop=True, user="anna")
    code, out, _ = run(capsys, "kiosk", "install", "--root", str(root), "--user", "anna", "--profile", "header-4",
                       "--exe", "/usr/local/bin/buzzerbox")
    assert code == 0 and "Raspberry Pi OS with desktop" in out
    autostart = (root / "home/anna/.config/autostart/buzzerbox.desktop").read_text()
    assert "Exec=/usr/local/bin/buzzerbox menu --fullscreen --profile header-4\n" in autostart
    assert not (root / kiosk.UNIT).exists() and (root / kiosk.X_BLANKING).is_file()
    code, out, _ = run(capsys, "kiosk", "status", "--root", str(root), "--user", "anna")
    assert code == 0 and "Ready" in out


def test_status_says_what_is_missing_and_the_fix_in_czech(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str]) -> None:
    root = pi_root(tmp_path, user="pi")
    code, out, _ = run(capsys, "kiosk", "status", "--root", str(root), "--user", "pi")
    assert code == 1
    assert "MISSING  the box starts when the Pi is switched on" in out
    assert out.splitlines()[-1] == "Not ready: 8 things are missing. The fix: sudo buzzerbox kiosk install"
    code, out, _ = run(capsys, "--lang", "cs", "kiosk", "status", "--root", str(root), "--user", "pi")
    assert code == 1 and "sudo buzzerbox kiosk install" in out.splitlines()[-1]
    assert out.splitlines()[-1].startswith("Není připraveno"), out


@pytest.mark.parametrize(("case", "said"), [
    ("not a pi", "buzzerbox kiosk install: this is not a Raspberry Pi (the box is made for one): add --force to "
                 "set it up on a test machine anyway"),
    ("no systemd", "buzzerbox kiosk install: this system has no systemd, which starts the box on boot: use "
                   "Raspberry Pi OS (Lite or with desktop)"),
    ("not root", "buzzerbox kiosk install: it changes the system, so it must run as root: "
                 "sudo buzzerbox kiosk install"),
    ("bad user", "buzzerbox kiosk install: --user root: give the name of an ordinary user (lower-case letters, "
                 "digits, - and _), not root"),
])
def test_it_refuses_in_one_line_and_touches_nothing(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        case: str, said: str) -> None:
    root = pi_root(tmp_path, pi=case != "not a pi")
    args = ["kiosk", "install", "--root", str(root)]
    if case == "no systemd":
        (root / "usr/lib/systemd/systemd").unlink()
    if case == "not root":
        monkeypatch.setattr(os, "geteuid", lambda: 1000)
        args[-1] = "/"
    if case == "bad user":
        args += ["--user", "root"]
    before = snapshot(root)
    code, out, err = run(capsys, *args)
    assert (code, out, err) == (1, "", said + "\n")
    assert snapshot(root) == before and accounts.calls == []


def test_force_sets_up_a_test_machine_that_is_no_pi(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str]) -> None:
    root = pi_root(tmp_path, pi=False)
    code, out, _ = run(capsys, "kiosk", "install", "--root", str(root), "--force")
    assert code == 0 and (root / kiosk.UNIT).is_file()


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_status_says_in_one_line_whether_the_tv_can_be_drawn_on_and_the_fix(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str], screen: list[str],
        language: str) -> None:
    """pip's pygame wheel carries an SDL without kmsdrm (measured: x11, wayland, offscreen, dummy:
    no kmsdrm): on Lite the TV stays black. ``status`` says so, and the fix: install.sh again, which
    gives the box Debian's pygame (tests/install/test_debian_root.py shows it has kmsdrm)."""
    root = pi_root(tmp_path)
    assert run(capsys, "kiosk", "install", "--root", str(root))[0] == 0
    code, out, _ = run(capsys, "--lang", language, "kiosk", "status", "--root", str(root))
    assert code == 0 and "kmsdrm" in out, out
    screen.remove("kmsdrm")
    code, out, _ = run(capsys, "--lang", language, "kiosk", "status", "--root", str(root))
    lines = out.splitlines()
    assert code == 1
    said = [line for line in lines if "kmsdrm" in line and "x11, wayland" in line]
    assert len(said) == 1 and "kiosk install" not in lines[-2], out  # install is not this fix
    assert "sudo sh install.sh" in lines[-1] and "kmsdrm" in lines[-1], out  # Debian's pygame, which has it
    if language == "en":
        assert said[0].strip() == ("MISSING  the TV cannot be drawn on: pygame's SDL has no kmsdrm driver "
                                   "(it has: x11, wayland, offscreen, dummy)")


def test_status_on_the_desktop_needs_x11_and_says_when_sdl_does_not_answer(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = pi_root(tmp_path, desktop=True, user="anna")
    assert run(capsys, "kiosk", "install", "--root", str(root), "--user", "anna")[0] == 0
    monkeypatch.setattr(kiosk, "PROBE", [lambda: ["kmsdrm", "dummy"]])
    code, out, _ = run(capsys, "kiosk", "status", "--root", str(root), "--user", "anna")
    assert code == 1 and "no x11 driver" in out
    def broken() -> list[str]:
        raise kiosk.KioskError("No module named 'pygame'")
    monkeypatch.setattr(kiosk, "PROBE", [broken])
    code, out, _ = run(capsys, "kiosk", "status", "--root", str(root), "--user", "anna")
    assert code == 1 and "cannot tell" in out and "No module named 'pygame'" in out


def test_the_real_probe_reads_the_drivers_of_this_pygame() -> None:
    drivers = kiosk.video_drivers()
    assert "dummy" in drivers and "offscreen" in drivers  # every SDL build has these two


@pytest.mark.parametrize(("before", "kiosk_user"), [
    (LIGHTDM, "anna"),  # Imager's desktop without automatic login
    (LIGHTDM.replace("#autologin-user=\n", "autologin-user=pi\n"), "anna"),  # someone else logged in by itself
    ("[LightDM]\n", "anna"),  # no [Seat:*] section at all
])
def test_the_desktop_logs_the_box_user_in_by_itself_and_uninstall_puts_lightdm_back(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str], before: str, kiosk_user: str) -> None:
    """Switched on, the box must reach its menu with nobody at a login screen."""
    root = pi_root(tmp_path, desktop=True, user=kiosk_user, lightdm=before)
    code, out, _ = run(capsys, "kiosk", "status", "--root", str(root), "--user", kiosk_user)
    assert code == 1 and f"MISSING  the desktop starts without a login, as {kiosk_user}" in out
    code, out, _ = run(capsys, "kiosk", "install", "--root", str(root), "--user", kiosk_user)
    assert code == 0 and f"the desktop starts without a login, as {kiosk_user}" in out
    conf = (root / kiosk.LIGHTDM).read_text().splitlines()
    seat = conf.index("[Seat:*]")
    following = conf[seat + 1:]
    section = following[:next((i for i, line in enumerate(following) if line.startswith("[")), len(following))]
    assert f"autologin-user={kiosk_user}" in section and not any(
        line.startswith("autologin-user=") and line != f"autologin-user={kiosk_user}" for line in conf)
    code, out, _ = run(capsys, "kiosk", "status", "--root", str(root), "--user", kiosk_user)
    assert code == 0 and "Ready" in out
    after = snapshot(root)
    code, out, _ = run(capsys, "kiosk", "install", "--root", str(root), "--user", kiosk_user)
    assert code == 0 and "Nothing to change" in out and snapshot(root) == after
    code, out, _ = run(capsys, "kiosk", "uninstall", "--root", str(root), "--user", kiosk_user)
    assert code == 0 and f"the automatic login of {kiosk_user}" in out
    assert (root / kiosk.LIGHTDM).read_text() == before  # exactly as it was


def test_a_desktop_that_already_logs_the_user_in_is_left_as_it_is(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str]) -> None:
    before = LIGHTDM.replace("#autologin-user=\n", "autologin-user=pi\n")
    root = pi_root(tmp_path, desktop=True, user="pi", lightdm=before)
    code, out, _ = run(capsys, "kiosk", "install", "--root", str(root), "--user", "pi")
    assert code == 0 and "without a login" not in out and (root / kiosk.LIGHTDM).read_text() == before
    code, out, _ = run(capsys, "kiosk", "uninstall", "--root", str(root), "--user", "pi")
    assert code == 0 and (root / kiosk.LIGHTDM).read_text() == before  # Imager's own setting stays


def test_lite_mounts_usb_sticks_for_the_menu_s_copy_and_uninstall_takes_the_rule_away(
        tmp_path: Path, accounts: Accounts, capsys: pytest.CaptureFixture[str]) -> None:
    """Lite mounts no stick by itself: without the rule the menu's "Copy results to USB stick" finds none."""
    root = pi_root(tmp_path, user="pi")
    before = snapshot(root)
    code, out, _ = run(capsys, "kiosk", "status", "--root", str(root), "--user", "pi")
    assert "MISSING  a USB stick is mounted when plugged in" in out
    code, out, _ = run(capsys, "kiosk", "install", "--root", str(root), "--user", "pi")
    assert code == 0 and "USB sticks are now mounted when plugged in" in out
    rule = (root / kiosk.USB_RULE).read_text()
    adds = [line for line in rule.splitlines() if "systemd-mount --no-block" in line]
    assert len(adds) == 3 and all("$devnode /media/usb-%k" in line for line in adds)
    assert sum("--owner=pi" in line for line in adds) == 2  # FAT/exFAT/NTFS: the box's user may write
    assert 'ENV{ID_BUS}=="usb"' in rule and "systemd-mount --umount /media/usb-%k" in rule
    code, out, _ = run(capsys, "kiosk", "status", "--root", str(root), "--user", "pi")
    assert "ok  a USB stick is mounted when plugged in" in out
    code, out, _ = run(capsys, "kiosk", "uninstall", "--root", str(root), "--user", "pi")
    assert code == 0 and "/" + kiosk.USB_RULE in out
    assert not (root / kiosk.USB_RULE).exists() and not (root / "etc/udev").exists()
    assert snapshot(root).keys() - before.keys() <= {"home/pi/.local", "home/pi/.local/share",
                                                      "home/pi/.local/share/buzzerbox",
                                                      "home/pi/.local/share/buzzerbox/journals",
                                                      "home/pi/.local/share/buzzerbox/packs"}
