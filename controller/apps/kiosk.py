"""``buzzerbox kiosk install / status / uninstall``: a Raspberry Pi that starts
into the box's menu, set up by one command for someone who does not know Linux.

Everything the kiosk needs and nothing else: the user and its groups, the
systemd unit (wiring/kiosk/buzzerbox.service: the one source, with the reasons
for its settings in its comments) or the desktop's autostart, the data folder,
the screen kept on, a cap on the system log. Each step looks first and changes
only what is not already so, so a second run changes nothing and says so; what
the install created is written down (``var/lib/buzzerbox/kiosk.json``) so that
``uninstall`` takes away exactly that. ``--root DIR`` works on another file
system tree (an image being built, a test's folder) instead of ``/``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from controller.system.resources import shipped
from games.base import BuzzerBoxError
from games.i18n import _, ngettext

#: the groups the box's user is in: video (/dev/dri, the screen through KMS/DRM), render (the GPU),
#: input (the keyboard through evdev), gpio (the header's pins), audio (ALSA, the HDMI sound)
GROUPS = ("video", "render", "input", "gpio", "audio")
DEFAULT_USER = "buzzerbox"
UNIT = "etc/systemd/system/buzzerbox.service"
WANTS = "etc/systemd/system/multi-user.target.wants/buzzerbox.service"
#: a mask on the console's login prompt: the box owns tty1 (the unit also Conflicts= with it)
GETTY_MASK = "etc/systemd/system/getty@tty1.service"
JOURNALD = "etc/systemd/journald.conf.d/buzzerbox.conf"
X_BLANKING = "etc/X11/xorg.conf.d/10-buzzerbox-blanking.conf"
MANIFEST = "var/lib/buzzerbox/kiosk.json"
#: the desktop's login manager (Raspberry Pi OS with desktop): its [Seat:*] autologin-user
LIGHTDM = "etc/lightdm/lightdm.conf"
SEAT = "[Seat:*]"
#: Lite mounts no USB stick by itself: this rule does, for the menu's "Copy results to USB stick"
USB_RULE = "etc/udev/rules.d/99-buzzerbox-usb-sticks.rules"
#: the kernel's command line: bookworm's place first, then the older one
CMDLINES = ("boot/firmware/cmdline.txt", "boot/cmdline.txt")
CONSOLEBLANK = "consoleblank=0"
MODEL_FILES = ("proc/device-tree/model", "sys/firmware/devicetree/base/model")
SYSTEMD_BINARIES = ("usr/lib/systemd/systemd", "lib/systemd/systemd")
#: what tells Raspberry Pi OS with desktop from Lite
DESKTOP_MARKS = ("usr/sbin/lightdm", "usr/bin/lxsession", "usr/bin/wayfire", "usr/bin/labwc")

JOURNALD_TEXT = """\
# Written by `buzzerbox kiosk install` (`buzzerbox kiosk uninstall` removes it).
# The system log on an SD card: capped so that a box left on for months never
# fills the card or wears it with log writes. The games' own journals are
# files in the box user's data folder, not here: this cap never touches them.
[Journal]
SystemMaxUse=100M
RuntimeMaxUse=50M
MaxRetentionSec=1month
"""

X_BLANKING_TEXT = """\
# Written by `buzzerbox kiosk install` (`buzzerbox kiosk uninstall` removes it).
# The desktop's screen saver and power saving would blank the TV between
# rounds: the box's screen stays on.
Section "ServerFlags"
    Option "BlankTime" "0"
    Option "StandbyTime" "0"
    Option "SuspendTime" "0"
    Option "OffTime" "0"
EndSection
"""

USB_RULE_TEXT = """\
# Written by `buzzerbox kiosk install` (`buzzerbox kiosk uninstall` removes it).
# Raspberry Pi OS Lite mounts no USB stick by itself (the desktop's file
# manager does it there): a stick's file system is mounted at /media/usb-NAME
# as soon as it is plugged in, owned by the box's user, so the menu's "Copy
# results to USB stick" finds it and may write to it. systemd-mount asks
# systemd to mount (udev's own sandbox cannot); the mount goes with the stick.
# FAT, exFAT and NTFS have no owners of their own: --owner gives them the box's user;
# vfat's flush writes the copy out at once, so the stick can be pulled soon after.
ACTION=="add", SUBSYSTEM=="block", ENV{{ID_BUS}}=="usb", ENV{{ID_FS_USAGE}}=="filesystem", ENV{{ID_FS_TYPE}}=="vfat", RUN{{program}}+="/usr/bin/systemd-mount --no-block --collect --owner={user} --options=flush $devnode /media/usb-%k"
ACTION=="add", SUBSYSTEM=="block", ENV{{ID_BUS}}=="usb", ENV{{ID_FS_USAGE}}=="filesystem", ENV{{ID_FS_TYPE}}=="exfat|ntfs|ntfs3", RUN{{program}}+="/usr/bin/systemd-mount --no-block --collect --owner={user} $devnode /media/usb-%k"
ACTION=="add", SUBSYSTEM=="block", ENV{{ID_BUS}}=="usb", ENV{{ID_FS_USAGE}}=="filesystem", ENV{{ID_FS_TYPE}}!="vfat|exfat|ntfs|ntfs3", RUN{{program}}+="/usr/bin/systemd-mount --no-block --collect $devnode /media/usb-%k"
ACTION=="remove", SUBSYSTEM=="block", ENV{{ID_BUS}}=="usb", ENV{{ID_FS_USAGE}}=="filesystem", RUN{{program}}+="/usr/bin/systemd-mount --umount /media/usb-%k"
"""

Run = Callable[[Sequence[str]], None]


class KioskError(BuzzerBoxError):
    """The kiosk cannot be set up (or checked) here; the message says why and what to do."""


def run_command(argv: Sequence[str]) -> None:
    """Runs a system tool (useradd, usermod...), its failure said in one line."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, check=False)
    except OSError as exc:
        raise KioskError(_("{command} cannot run ({problem}): is this Raspberry Pi OS?").format(
            command=argv[0], problem=exc.strerror or exc)) from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise KioskError(_("{command} failed: {reason}").format(
            command=" ".join(argv), reason=said[-1] if said else done.returncode))


#: how the system tools are run (a test puts a stand-in here that edits its folder's files)
RUN: list[Run] = [run_command]


@dataclass
class Target:
    """The machine being set up: its file system root and the choices made for it."""

    root: Path
    user: str
    mode: str  # "lite" (the menu on the console through KMS/DRM) or "desktop" (autostart in the session)
    exe: str  # the buzzerbox command as the target sees it
    profile: str | None
    run: Run = run_command

    def path(self, rel: str) -> Path:
        return self.root / rel

    def tool(self, *argv: str) -> None:
        """useradd, groupadd, usermod, gpasswd, userdel: with ``--root`` when not on ``/``."""
        extra = [] if self.root == Path("/") else ["--root", str(self.root)]
        self.run([argv[0], *extra, *argv[1:]])

    # the accounts, read from the target's own files

    def passwd(self) -> dict[str, list[str]]:
        return _table(self.path("etc/passwd"))

    def groups(self) -> dict[str, list[str]]:
        return _table(self.path("etc/group"))

    def home(self) -> str:
        entry = self.passwd().get(self.user)
        return entry[3] if entry and len(entry) > 3 and entry[3] else f"/home/{self.user}"

    def data_dir(self) -> Path:
        """The data folder the box uses for this user (controller.live.data_dir's default)."""
        return self.path(self.home().lstrip("/")) / ".local" / "share" / "buzzerbox"

    def autostart(self) -> Path:
        return self.path(self.home().lstrip("/")) / ".config" / "autostart" / "buzzerbox.desktop"

    def menu_command(self) -> str:
        """What the kiosk starts, in the unit and in the desktop's autostart alike: the menu, full screen."""
        profile = f" --profile {self.profile}" if self.profile else ""
        return f"{self.exe} menu --fullscreen{profile}"

    def cmdline(self) -> Path | None:
        found = [self.path(rel) for rel in CMDLINES if self.path(rel).is_file()]
        return found[0] if found else None

    def ids(self) -> tuple[int, int] | None:
        entry = self.passwd().get(self.user)
        try:
            return (int(entry[0]), int(entry[1])) if entry else None
        except (IndexError, ValueError):
            return None


def _table(path: Path) -> dict[str, list[str]]:
    """/etc/passwd or /etc/group as name -> the fields after the password
    (passwd: uid, gid, comment, home, shell; group: gid, members)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    return {line.split(":")[0]: line.split(":")[1:][1:] for line in lines if line and not line.startswith("#")}


def members(target: Target, group: str) -> list[str]:
    entry = target.groups().get(group)
    return [m for m in entry[1].split(",") if m] if entry and len(entry) > 1 else []


def in_group(target: Target, group: str) -> bool:
    entry = target.groups().get(group)
    primary = target.passwd().get(target.user)
    return bool(entry) and (target.user in members(target, group) or (
        primary is not None and len(primary) > 1 and entry is not None and primary[1] == entry[0]))


# the files' wanted contents

def render_unit(target: Target) -> str:
    """wiring/kiosk/buzzerbox.service with this box's user, home, command and profile."""
    text = (shipped("wiring") / "kiosk" / "buzzerbox.service").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^User=.*$", f"User={target.user}", text)
    text = re.sub(r"(?m)^WorkingDirectory=.*$", f"WorkingDirectory={target.home()}", text)
    text = re.sub(r"(?m)^ExecStart=.*$", f"ExecStart={target.menu_command()}", text)
    return "# Written by `buzzerbox kiosk install` (`buzzerbox kiosk uninstall` removes it).\n" + text


def render_autostart(target: Target) -> str:
    """wiring/kiosk/buzzerbox-desktop.desktop with this box's command and profile."""
    text = (shipped("wiring") / "kiosk" / "buzzerbox-desktop.desktop").read_text(encoding="utf-8")
    return re.sub(r"(?m)^Exec=.*$", f"Exec={target.menu_command()}", text)


@dataclass
class Manifest:
    """What the install created, so that uninstall removes that and nothing else."""

    created_user: bool = False
    created_groups: list[str] = field(default_factory=list)
    added_to_groups: list[str] = field(default_factory=list)
    made_folders: list[str] = field(default_factory=list)  # system folders the install made (a conf.d)
    #: the automatic login the install set: {"line": lightdm.conf's line it replaced (None: there was
    #: none), "section": whether it added the [Seat:*] section}; None: lightdm.conf was not touched
    autologin: dict[str, object] | None = None

    @classmethod
    def load(cls, target: Target) -> Manifest:
        try:
            data = json.loads(target.path(MANIFEST).read_text(encoding="utf-8"))
            autologin = data.get("autologin")
            return cls(bool(data.get("created_user")), list(data.get("created_groups", [])),
                       list(data.get("added_to_groups", [])), list(data.get("made_folders", [])),
                       dict(autologin) if isinstance(autologin, dict) else None)
        except (OSError, ValueError, AttributeError, TypeError):
            return cls()

    def text(self) -> str:
        return json.dumps({"created_user": self.created_user, "created_groups": sorted(self.created_groups),
                           "added_to_groups": sorted(self.added_to_groups),
                           "made_folders": sorted(set(self.made_folders)), "autologin": self.autologin},
                          indent=1) + "\n"

    def note_folders(self, target: Target, path: Path) -> None:
        """Remembers the folders above ``path`` that are not there yet (uninstall takes them away)."""
        at = path.parent
        while not at.exists():
            self.made_folders.append(str(at.relative_to(target.root)))
            at = at.parent


@dataclass
class Check:
    """One thing the kiosk needs: is it so, and what the fix is in words."""

    ok: bool
    what: str  # for a person: "the box starts when the Pi is switched on"
    fix: str | None = None  # its own fix, when `kiosk install` is not it


# writing files: each says whether it changed anything

def write_file(path: Path, text: str, owner: tuple[int, int] | None = None) -> bool:
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if owner and os.geteuid() == 0:
        os.chown(path, *owner)
    return True


def link(path: Path, to: str) -> bool:
    if path.is_symlink() and os.readlink(path) == to:
        return False
    if path.is_symlink() or path.exists():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(to)
    return True


def remove(path: Path) -> bool:
    if path.is_symlink() or path.exists():
        path.unlink()
        return True
    return False




# can the TV be drawn on: which video drivers this pygame's SDL was built with

#: run in a child process (a broken SDL cannot take ``status`` down with it, and the
#: kiosk's side loads no pygame): ``doctor``'s reading of the SDL library pygame loaded
DRIVERS_SCRIPT = """\
import os
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
from controller.screen.doctor import VIDEO_DRIVERS, compiled_drivers, sdl_library
found = compiled_drivers(sdl_library(), "video", VIDEO_DRIVERS)
if found is None:
    raise SystemExit("the SDL library pygame loaded cannot be read")
print(" ".join(found))
"""

#: the driver each mode draws through: Lite has no desktop, so KMS/DRM straight to the HDMI output
NEEDED_DRIVER = {"lite": "kmsdrm", "desktop": "x11"}


def video_drivers() -> list[str]:
    """The video drivers compiled into the SDL this Python's pygame uses;
    KioskError with the reason when it cannot be told."""
    import sys

    try:
        done = subprocess.run([sys.executable, "-c", DRIVERS_SCRIPT], capture_output=True, text=True, timeout=60,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise KioskError(str(exc)) from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise KioskError(said[-1] if said else str(done.returncode))
    return done.stdout.split()


#: how the drivers are found (a test puts a stand-in here)
PROBE: list[Callable[[], list[str]]] = [video_drivers]


def screen_check(target: Target) -> Check:
    """Whether pygame can draw on the TV in this mode, the fix when not (pip's pygame wheel carries an
    SDL without kmsdrm; Debian's pygame, which install.sh gives the box, is built on Debian's SDL with it)."""
    needed = NEEDED_DRIVER[target.mode]
    fix = _("run the box's install command again (sudo sh install.sh): it gives the box Debian's pygame, "
            "whose SDL has the {driver} driver (docs/install.md, \"The TV stays black\")").format(driver=needed)
    try:
        drivers = PROBE[0]()
    except KioskError as exc:
        return Check(False, _("the TV can be drawn on: cannot tell, pygame's SDL did not answer ({problem})").format(
            problem=exc), fix)
    if needed in drivers:
        return Check(True, _("the TV can be drawn on (pygame's SDL has the {driver} driver)").format(driver=needed))
    return Check(False, _("the TV cannot be drawn on: pygame's SDL has no {driver} driver (it has: {drivers})").format(
        driver=needed, drivers=", ".join(drivers) or "-"), fix)


# the desktop's automatic login (lightdm.conf's [Seat:*] autologin-user=)

def _seat(lines: list[str]) -> tuple[int, int] | None:
    """The [Seat:*] section's lines: (its header's index, the index after its last line)."""
    start = next((i for i, line in enumerate(lines) if line.strip() == SEAT), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    return start, end


def _autologin_line(lines: list[str]) -> int | None:
    """The index of the active ``autologin-user=`` line in [Seat:*] (None: none)."""
    seat = _seat(lines)
    if seat is None:
        return None
    return next((i for i in range(seat[0] + 1, seat[1])
                 if lines[i].strip().replace(" ", "").startswith("autologin-user=")), None)


def autologin_user(target: Target) -> str | None:
    """Who lightdm logs in by itself (None: nobody, or no lightdm)."""
    try:
        lines = target.path(LIGHTDM).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    at = _autologin_line(lines)
    return lines[at].split("=", 1)[1].strip() or None if at is not None else None


def set_autologin(target: Target, manifest: Manifest) -> bool:
    """Makes lightdm log the box's user in by itself; the line it replaces is
    written down, so that uninstall puts it back exactly."""
    path = target.path(LIGHTDM)
    if not path.is_file() or autologin_user(target) == target.user:
        return False
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    wanted = f"autologin-user={target.user}"
    at = _autologin_line(lines)
    seat = _seat(lines)
    record: dict[str, object] = {"line": None, "section": False}
    if at is not None:
        record["line"] = lines[at]
        lines[at] = wanted
    elif seat is not None:
        lines.insert(seat[0] + 1, wanted)
    else:
        lines += [SEAT, wanted]
        record["section"] = True
    if manifest.autologin is None:  # a second install keeps the first one's record: the owner's own line
        manifest.autologin = record
    path.write_text("\n".join(lines) + ("\n" if text.endswith("\n") or not text else ""), encoding="utf-8")
    return True


def restore_autologin(target: Target, manifest: Manifest) -> bool:
    """Puts lightdm.conf's automatic login back as it was before the install
    (left alone when someone has changed it since)."""
    path = target.path(LIGHTDM)
    if manifest.autologin is None or not path.is_file() or autologin_user(target) != target.user:
        return False
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    at = _autologin_line(lines)
    assert at is not None  # autologin_user found it
    old = manifest.autologin.get("line")
    if isinstance(old, str):
        lines[at] = old
    else:
        del lines[at]
        seat = _seat(lines)
        if manifest.autologin.get("section") and seat is not None and seat[1] == seat[0] + 1:
            del lines[seat[0]]
    path.write_text("\n".join(lines) + ("\n" if text.endswith("\n") and lines else ""), encoding="utf-8")
    return True


# the three commands' work

def refusal(target: Target, force: bool) -> str | None:
    """Why the kiosk cannot be set up here (one line with the way out), or None."""
    if target.root == Path("/") and os.geteuid() != 0:
        return _("it changes the system, so it must run as root: sudo buzzerbox kiosk install")
    if not any(target.path(rel).exists() for rel in SYSTEMD_BINARIES):
        return _("this system has no systemd, which starts the box on boot: use Raspberry Pi OS "
                 "(Lite or with desktop)")
    if force:
        return None
    if target.root == Path("/") and not Path("/run/systemd/system").is_dir():
        return _("systemd is not running here (a container or a chroot?): run it on the Pi itself, "
                 "or add --force on a test machine")
    model = ""
    for rel in MODEL_FILES:
        try:
            model = target.path(rel).read_text(encoding="utf-8", errors="replace")
            break
        except OSError:
            continue
    if "Raspberry Pi" not in model:
        return _("this is not a Raspberry Pi (the box is made for one): add --force to set it up on a "
                 "test machine anyway")
    return None


def install(target: Target) -> list[str]:
    """Sets up what is missing; returns what it changed, in words (empty: nothing)."""
    changed: list[str] = []
    manifest = Manifest.load(target)
    changed += _accounts(target, manifest)
    owner = target.ids()
    changed += _data_folders(target, owner)
    for rel in (UNIT, WANTS, GETTY_MASK, X_BLANKING, JOURNALD, MANIFEST, USB_RULE):
        manifest.note_folders(target, target.path(rel))
    changed += _lite_start(target) if target.mode == "lite" else _desktop_start(target, manifest, owner)
    if write_file(target.path(JOURNALD), JOURNALD_TEXT):
        changed.append(_("capped the system log at 100 MB: /{path}").format(path=JOURNALD))
    if changed:
        write_file(target.path(MANIFEST), manifest.text())
    return changed


def _accounts(target: Target, manifest: Manifest) -> list[str]:
    """The groups that reach the screen, the buttons and the sound, and the user the box runs as, in them
    (each one made noted in ``manifest``: the uninstall takes back only what the install made)."""
    changed: list[str] = []
    for group in GROUPS:
        if group not in target.groups():
            target.tool("groupadd", "--system", group)
            manifest.created_groups.append(group)
            changed.append(_("created the group {group}").format(group=group))
    if target.user not in target.passwd():
        target.tool("useradd", "--create-home", "--user-group", "--comment", "Buzzer box", target.user)
        manifest.created_user = True
        changed.append(_("created the user {user} (the box runs as this user)").format(user=target.user))
    for group in GROUPS:
        if not in_group(target, group):
            target.tool("usermod", "--append", "--groups", group, target.user)
            manifest.added_to_groups.append(group)
            changed.append(_("added {user} to the group {group}").format(user=target.user, group=group))
    return changed


def _data_folders(target: Target, owner: tuple[int, int] | None) -> list[str]:
    """The data folder's journals and packs, the box's user owning the folders from its home down."""
    changed: list[str] = []
    for sub in ("journals", "packs"):
        folder = target.data_dir() / sub
        if not folder.is_dir():
            folder.mkdir(parents=True)
            changed.append(_("made the data folder {path} (journals, packs, players' names)").format(
                path="/" + str(folder.relative_to(target.root))))
        if owner and os.geteuid() == 0:  # the folders from the home down to it: the box writes there
            at = folder
            while at != target.path(target.home().lstrip("/")):
                os.chown(at, *owner)
                at = at.parent
    return changed


def _lite_start(target: Target) -> list[str]:
    """Raspberry Pi OS Lite: a service starts the menu on the console's screen, which never goes blank."""
    changed: list[str] = []
    if write_file(target.path(UNIT), render_unit(target)):
        changed.append(_("wrote the service that starts the menu on the screen: /{path}").format(path=UNIT))
    if link(target.path(WANTS), "/" + UNIT):
        changed.append(_("the box now starts when the Pi is switched on"))
    if link(target.path(GETTY_MASK), "/dev/null"):
        changed.append(_("the console's login prompt no longer takes the screen"))
    cmdline = target.cmdline()
    if cmdline:
        words = cmdline.read_text(encoding="utf-8").split()
        if CONSOLEBLANK not in words:
            cmdline.write_text(" ".join([*words, CONSOLEBLANK]) + "\n", encoding="utf-8")
            changed.append(_("the screen no longer goes blank ({word} in /{path})").format(
                word=CONSOLEBLANK, path=cmdline.relative_to(target.root)))
    if write_file(target.path(USB_RULE), USB_RULE_TEXT.format(user=target.user)):
        changed.append(_("USB sticks are now mounted when plugged in, for the menu's copy of the results: "
                         "/{path}").format(path=USB_RULE))
    return changed


def _desktop_start(target: Target, manifest: Manifest, owner: tuple[int, int] | None) -> list[str]:
    """Raspberry Pi OS with desktop: the box starts with the desktop, logged in by itself, never blank."""
    changed: list[str] = []
    if write_file(target.autostart(), render_autostart(target), owner):
        changed.append(_("the box now starts with the desktop: {path}").format(
            path="/" + str(target.autostart().relative_to(target.root))))
    if write_file(target.path(X_BLANKING), X_BLANKING_TEXT):
        changed.append(_("the screen no longer goes blank: /{path}").format(path=X_BLANKING))
    if set_autologin(target, manifest):
        changed.append(_("the desktop starts without a login, as {user} (autologin-user in /{path})").format(
            user=target.user, path=LIGHTDM))
    return changed


def uninstall(target: Target, purge: bool) -> tuple[list[str], list[str]]:
    """Removes what the install made; returns (what it removed, what it kept on purpose)."""
    removed: list[str] = []
    kept: list[str] = []
    manifest = Manifest.load(target)
    for rel in (WANTS, UNIT, GETTY_MASK, JOURNALD, X_BLANKING, USB_RULE):
        if remove(target.path(rel)):
            removed.append("/" + rel)
    if restore_autologin(target, manifest):
        removed.append(_("the automatic login of {user} (/{path} as it was)").format(user=target.user, path=LIGHTDM))
    if remove(target.autostart()):
        removed.append("/" + str(target.autostart().relative_to(target.root)))
    cmdline = target.cmdline()
    if cmdline and CONSOLEBLANK in cmdline.read_text(encoding="utf-8").split():
        words = [w for w in cmdline.read_text(encoding="utf-8").split() if w != CONSOLEBLANK]
        cmdline.write_text(" ".join(words) + "\n", encoding="utf-8")
        removed.append(f"{CONSOLEBLANK} (/{cmdline.relative_to(target.root)})")
    _unaccount(target, manifest, purge, removed, kept)
    remove(target.path(MANIFEST))
    for rel in sorted(manifest.made_folders, key=len, reverse=True):  # the deepest first
        folder = target.path(rel)
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    return removed, kept


def _unaccount(target: Target, manifest: Manifest, purge: bool, removed: list[str], kept: list[str]) -> None:
    """The user, its groups and its data folder, as far as the install made them: deleted with ``purge``,
    else the user and its data kept (and said so)."""
    user_there = target.user in target.passwd()
    if manifest.created_user and user_there and purge:
        target.tool("userdel", "--remove", target.user)
        removed.append(_("the user {user}, with its data folder").format(user=target.user))
    elif user_there:
        for group in manifest.added_to_groups:
            if in_group(target, group) and group not in manifest.created_groups:
                target.tool("gpasswd", "--delete", target.user, group)
                removed.append(_("{user} from the group {group}").format(user=target.user, group=group))
        data = "/" + str(target.data_dir().relative_to(target.root))
        if target.data_dir().is_dir() and purge:
            shutil.rmtree(target.data_dir())
            removed.append(data)
        elif target.data_dir().is_dir():
            kept.append(_("the data folder {path} (journals, packs, players' names): --purge deletes it").format(
                path=data))
        if manifest.created_user:
            kept.append(_("the user {user}: --purge deletes it").format(user=target.user))
    for group in manifest.created_groups:
        if group in target.groups():
            target.tool("groupdel", group)
            removed.append(_("the group {group}").format(group=group))


def status(target: Target) -> list[Check]:
    """What a kiosk needs, each either so or not, in words a non-engineer reads."""
    user = target.user
    checks = [
        Check(user in target.passwd(), _("the user {user} the box runs as").format(user=user)),
        Check(all(in_group(target, g) for g in GROUPS),
              _("{user} may use the screen, the buttons, the keyboard and the sound").format(user=user)),
        Check((target.data_dir() / "journals").is_dir(), _("the data folder for journals and packs")),
    ]
    if target.mode == "lite":
        checks += [
            Check(target.path(UNIT).is_file(), _("the service that runs the menu on the screen")),
            Check(target.path(WANTS).is_symlink(), _("the box starts when the Pi is switched on")),
            Check(target.path(GETTY_MASK).is_symlink(), _("the login prompt keeps off the screen")),
        ]
        cmdline = target.cmdline()
        if cmdline:
            checks.append(Check(CONSOLEBLANK in cmdline.read_text(encoding="utf-8").split(),
                                _("the screen stays on")))
        checks.append(Check(target.path(USB_RULE).is_file(),
                            _("a USB stick is mounted when plugged in (the menu copies the results to it)")))
    else:
        checks += [
            Check(target.autostart().is_file(), _("the box starts with the desktop")),
            Check(target.path(X_BLANKING).is_file(), _("the screen stays on")),
        ]
        if target.path(LIGHTDM).is_file():
            checks.append(Check(autologin_user(target) == target.user,
                                _("the desktop starts without a login, as {user}").format(user=user)))
    checks.append(Check(target.path(JOURNALD).is_file(), _("the system log cannot fill the card")))
    checks.append(screen_check(target))
    return checks


# the command line

def target_from(args: argparse.Namespace, run: Run | None = None) -> Target:
    root = Path(args.root).resolve()
    if not root.is_dir():
        raise KioskError(_("--root {root}: no such folder; give the root of the system to set up").format(
            root=args.root))
    mode = args.mode or ("desktop" if any((root / m).exists() for m in DESKTOP_MARKS) else "lite")
    user = args.user or os.environ.get("SUDO_USER") or DEFAULT_USER
    if user == "root" or not re.fullmatch(r"[a-z_][a-z0-9_-]{0,31}", user):
        raise KioskError(_("--user {user}: give the name of an ordinary user (lower-case letters, digits, - "
                           "and _), not root").format(user=user))
    exe = args.exe or shutil.which("buzzerbox") or "/usr/local/bin/buzzerbox"
    return Target(root, user, mode, exe, args.profile, run or RUN[0])


def _mode_words(target: Target) -> str:
    return (_("Raspberry Pi OS Lite: the menu on the HDMI screen") if target.mode == "lite"
            else _("Raspberry Pi OS with desktop: the menu when the desktop starts"))


def reload(target: Target) -> None:
    """systemd and udev read the changed unit and rule (on a running system only)."""
    if target.root == Path("/") and Path("/run/systemd/system").is_dir():
        run_command(["systemctl", "daemon-reload"])
        if shutil.which("udevadm"):
            run_command(["udevadm", "control", "--reload"])


def cmd_kiosk_install(args: argparse.Namespace) -> int:
    target = target_from(args)
    why = refusal(target, args.force)
    if why:
        raise KioskError(why)
    changed = install(target)
    print(_("Kiosk for the user {user} ({mode}).").format(user=target.user, mode=_mode_words(target)))
    if not changed:
        print(_("Nothing to change: everything was already set up."))
        return 0
    print(ngettext("Changed {n} thing:", "Changed {n} things:", len(changed)).format(n=len(changed)))
    for line in changed:
        print(f"  - {line}")
    reload(target)
    print(_("To undo all of it: sudo buzzerbox kiosk uninstall"))
    print(_("Next: restart the Pi (sudo reboot); it starts into the box's menu."))
    return 0


def cmd_kiosk_uninstall(args: argparse.Namespace) -> int:
    target = target_from(args)
    if target.root == Path("/") and os.geteuid() != 0:
        raise KioskError(_("it changes the system, so it must run as root: sudo buzzerbox kiosk uninstall"))
    removed, kept = uninstall(target, args.purge)
    if not removed:
        print(_("Nothing to remove: the kiosk is not set up here."))
    else:
        print(ngettext("Removed {n} thing:", "Removed {n} things:", len(removed)).format(n=len(removed)))
        for line in removed:
            print(f"  - {line}")
    for line in kept:
        print(_("Kept: {what}").format(what=line))
    if removed:
        reload(target)
    return 0


def cmd_kiosk_status(args: argparse.Namespace) -> int:
    target = target_from(args)
    checks = status(target)
    missing = [c for c in checks if not c.ok]
    for check in checks:
        print(("  " + _("ok") if check.ok else "  " + _("MISSING")) + f"  {check.what}")
    if not missing:
        print(_("Ready: the box starts into its menu when the Pi is switched on ({mode}).").format(
            mode=_mode_words(target)))
        return 0
    if any(c.fix is None for c in missing):
        print(ngettext("Not ready: {n} thing is missing. The fix: sudo buzzerbox kiosk install",
                       "Not ready: {n} things are missing. The fix: sudo buzzerbox kiosk install",
                       len(missing)).format(n=len(missing)))
    else:
        print(ngettext("Not ready: {n} thing is missing.", "Not ready: {n} things are missing.",
                       len(missing)).format(n=len(missing)))
    for check in missing:
        if check.fix:
            print(_("The fix for the screen: {fix}").format(fix=check.fix))
    return 1


def add_kiosk_commands(sub: argparse._SubParsersAction) -> None:
    kiosk = sub.add_parser("kiosk", help=_("start on boot into the menu: install, status, uninstall"))
    actions = kiosk.add_subparsers(dest="kiosk_command", required=True, metavar="ACTION")
    for name, func, text in (
        ("install", cmd_kiosk_install, _("set this Raspberry Pi up to start into the box's menu (run as root)")),
        ("status", cmd_kiosk_status, _("is the kiosk set up? ready, or what is missing and the fix")),
        ("uninstall", cmd_kiosk_uninstall, _("take away what kiosk install set up (journals are kept)")),
    ):
        p = actions.add_parser(name, help=text)
        p.add_argument("--user", default=None,
                       help=_("the user the box runs as (default: who ran sudo, else {user})").format(
                           user=DEFAULT_USER))
        p.add_argument("--root", default="/", metavar="DIR",
                       help=_("the root of the system to set up (default /; a card image or a test's folder)"))
        p.add_argument("--mode", choices=("lite", "desktop"), default=None,
                       help=_("lite: the menu on the console; desktop: when the desktop starts (default: "
                              "found out)"))
        if name == "install":
            p.add_argument("--profile", default=None,
                           help=_("the wiring profile the menu starts with (default: none; the box asks)"))
            p.add_argument("--exe", default=None, metavar="PATH", help=_("the buzzerbox command to start "
                                                                         "(default: the one on PATH)"))
            p.add_argument("--force", action="store_true",
                           help=_("set up a machine that is not a Raspberry Pi (a test machine)"))
        else:
            p.set_defaults(profile=None, exe=None, force=False)
        if name == "uninstall":
            p.add_argument("--purge", action="store_true",
                           help=_("also delete the data folder (journals!) and the user the install created"))
        p.set_defaults(func=func)
