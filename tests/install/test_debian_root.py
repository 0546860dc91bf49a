"""install.sh for real: a clean Debian bookworm (the release Raspberry Pi OS
is built on), made with debootstrap from Debian's archive, gets the box
through install.sh run inside it (chroot), as a new owner would paste it.
Then: the unit passes ``systemd-analyze verify``; the commands run as the
kiosk's user; the box's Python takes Debian's pygame, whose SDL has kmsdrm
(the TV on Lite), and ``kiosk status`` says Ready; udev reads the USB stick
rule and would mount each kind of stick for the box's user; a second run
changes nothing on the system and gives a box that had pip's pygame Debian's;
``kiosk uninstall --purge`` leaves nothing of the box (the system is as it
was before ``kiosk install``). Not checked here: lightdm's autologin (lightdm
pulls in GTK, ~65 packages: checked once by hand with ``lightdm
--show-config``), a real mount, and drawing through kmsdrm (no GPU here).

Slow (a few minutes the first time): the base root is cached as a tarball in
~/.cache/buzzerbox-ci (debootstrap runs only when it is missing), and the
downloaded .debs and wheels in caches beside it, so a rerun skips the
downloads. Needs root and debootstrap (the ``debootstrap`` runtime: skipped
loudly on a developer's machine, a failure in CI)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.install.wheel import REPO, build_wheel

SUITE, MIRROR = "bookworm", "http://deb.debian.org/debian"
#: what Raspberry Pi OS Lite has that a minimal Debian lacks and the box's set-up relies on: systemd
INCLUDE = "systemd,systemd-sysv,ca-certificates"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "buzzerbox-ci"
BASE = CACHE / f"{SUITE}-minbase-{hashlib.sha256(INCLUDE.encode()).hexdigest()[:8]}.tar.gz"
#: kept between runs: the chroot's downloaded .debs and pip's wheels (downloads, never the system's state)
APT_CACHE, PIP_CACHE = CACHE / "apt-archives", CACHE / "pip"
#: what the system's state is, for "changed nothing" and "left nothing": not the box's own environment
WATCHED = ("etc", "home", "var/lib/buzzerbox", "boot")


def base_tarball() -> Path:
    """The cached debootstrapped root, made once (~2 min)."""
    if BASE.exists():
        return BASE
    CACHE.mkdir(parents=True, exist_ok=True)
    work = Path(f"{BASE}.root")
    shutil.rmtree(work, ignore_errors=True)
    subprocess.run(["debootstrap", "--variant=minbase", f"--include={INCLUDE}", SUITE, str(work), MIRROR],
                   check=True, capture_output=True, timeout=1800)
    part = Path(f"{BASE}.part")
    subprocess.run(["tar", "-C", str(work), "-czf", str(part), "."], check=True)
    part.rename(BASE)
    shutil.rmtree(work)
    return BASE


@contextlib.contextmanager
def debian_root(where: Path) -> Iterator[Path]:
    """A fresh root from the cached base with /proc, /dev and the download caches mounted; unmounted after.
    One at a time on a machine: apt in a root locks the shared download cache, and a second run's apt
    failed on that lock (two checkouts' tests at once); the second waits for the first instead."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with _debian_root(where) as root:
            yield root


@contextlib.contextmanager
def _debian_root(where: Path) -> Iterator[Path]:
    root = where / "root"
    root.mkdir()
    subprocess.run(["tar", "-C", str(root), "-xzf", str(base_tarball())], check=True)
    shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")  # the network as the host has it
    # the certificate authorities the host trusts (a TLS-inspecting proxy's too), for pip inside
    shutil.copy("/etc/ssl/certs/ca-certificates.crt", root / "tmp/host-ca.crt")
    (root / "usr/sbin/policy-rc.d").write_text("#!/bin/sh\nexit 101\n")  # apt starts no service in a chroot
    (root / "usr/sbin/policy-rc.d").chmod(0o755)
    mounts: list[Path] = []
    try:
        for source, target, args in (("proc", "proc", ["-t", "proc"]), ("/dev", "dev", ["--bind"]),
                                     (str(APT_CACHE), "var/cache/apt/archives", ["--bind"]),
                                     (str(PIP_CACHE), "root/.cache/pip", ["--bind"])):
            if source.startswith("/"):
                Path(source).mkdir(parents=True, exist_ok=True)
            (root / target).mkdir(parents=True, exist_ok=True)
            subprocess.run(["mount", *args, source, str(root / target)], check=True)
            mounts.append(root / target)
        yield root
    finally:
        for mounted in reversed(mounts):
            subprocess.run(["umount", "--lazy", str(mounted)], check=False)


def inside(root: Path, *argv: str, user: str | None = None) -> subprocess.CompletedProcess[str]:
    """A command in the chroot, with a clean environment (as a person's shell would have)."""
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
           "LANG": "C.UTF-8", "PIP_CERT": "/tmp/host-ca.crt"}
    if user:
        argv = ("runuser", "-u", user, "--", "env", f"HOME=/home/{user}", "SDL_VIDEODRIVER=dummy",
                "SDL_AUDIODRIVER=dummy", *argv)
    return subprocess.run(["chroot", str(root), *argv], capture_output=True, text=True, env=env, timeout=1800)


VENV = "/opt/buzzerbox/pipx/venvs/buzzerbox"
#: what the box's Python imports as pygame, its version, and whether SDL's own list of the video
#: drivers it was built with has kmsdrm (asked of the library itself: opening kmsdrm needs a GPU, and
#: without one SDL says "kmsdrm not available" whether the driver is built in or not)
SDL_SAYS = """\
import ctypes, os, pygame
sdl = ctypes.CDLL(next(line.split()[-1] for line in open("/proc/self/maps") if "libSDL2-2" in line))
sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
print(os.path.dirname(pygame.__file__), pygame.version.ver,
      any(sdl.SDL_GetVideoDriver(i).lower() == b"kmsdrm" for i in range(sdl.SDL_GetNumVideoDrivers())))
"""


def drivers(root: Path) -> tuple[str, str, bool]:
    """Where the box's pygame comes from, its version, whether its SDL can draw on Lite (kmsdrm)."""
    done = inside(root, f"{VENV}/bin/python", "-c", SDL_SAYS, user="buzzerbox")
    assert done.returncode == 0, done.stdout + done.stderr
    where, version, kmsdrm = done.stdout.split()[-3:]
    return where, version, kmsdrm == "True"


def ready(root: Path) -> None:
    """``kiosk status`` says the box is ready for Lite, the TV included."""
    done = inside(root, "buzzerbox", "kiosk", "status")
    checks = [line.strip() for line in done.stdout.splitlines() if line.startswith("  ")]
    assert done.returncode == 0 and all(line.startswith("ok") for line in checks), done.stdout
    assert "ok  the TV can be drawn on (pygame's SDL has the kmsdrm driver)" in checks, done.stdout
    assert done.stdout.splitlines()[-1].startswith("Ready:") and "Lite" in done.stdout, done.stdout


#: what udev's own rules would find on a USB stick (ID_BUS from usb_id, ID_FS_* from blkid), set by a
#: rule ahead of the box's on a block device of this machine: udev then treats it as that stick
STICK_RULE = "etc/udev/rules.d/98-test-stick.rules"


def block_device() -> str:
    """A block device of this machine to stand for the stick (a loop device where there is one)."""
    names = sorted(path.name for path in Path("/sys/class/block").iterdir())
    return next((name for name in names if name.startswith("loop")), names[0])


@contextlib.contextmanager
def udev_sandbox(root: Path, device: str) -> Iterator[None]:
    """/sys read-only, and over the host's /dev a tmpfs with only the device's node and /dev/null:
    ``udevadm test`` sets the node's owner and makes links, which must never reach the host's."""
    mounts: list[Path] = []
    try:
        subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(root / "dev")], check=True)
        mounts.append(root / "dev")
        major, minor = Path(f"/sys/class/block/{device}/dev").read_text().split(":")
        os.mknod(root / "dev" / device, 0o600 | stat.S_IFBLK, os.makedev(int(major), int(minor)))
        os.mknod(root / "dev/null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        subprocess.run(["mount", "--bind", "-o", "ro", "/sys", str(root / "sys")], check=True)
        mounts.append(root / "sys")
        yield
    finally:
        (root / STICK_RULE).unlink(missing_ok=True)
        shutil.rmtree(root / "run/udev", ignore_errors=True)
        for mounted in reversed(mounts):
            subprocess.run(["umount", "--lazy", str(mounted)], check=False)


def usb_rule_runs(root: Path, device: str, action: str, fs: str | None) -> list[str]:
    """The mounts udev would run for ``device`` as a USB stick with the file system ``fs`` (None: not
    a stick), by ``udevadm test`` (bookworm's udev 252 has no ``udevadm verify``): it reads every rule
    file, saying what it cannot parse, and lists the RUN programs without running them."""
    stick = f', ENV{{ID_BUS}}="usb", ENV{{ID_FS_USAGE}}="filesystem", ENV{{ID_FS_TYPE}}="{fs}"' if fs else ""
    (root / STICK_RULE).write_text(f'SUBSYSTEM=="block", KERNEL=="{device}"{stick}\n')
    done = inside(root, "udevadm", "test", f"--action={action}", f"/sys/class/block/{device}")
    said = (done.stdout + done.stderr).splitlines()
    assert done.returncode == 0, "\n".join(said[-20:])
    assert any(line.endswith("99-buzzerbox-usb-sticks.rules") for line in said), "\n".join(said)  # read
    complaints = [line for line in said if "99-buzzerbox-usb-sticks.rules:" in line and " RUN " not in line]
    assert complaints == [], complaints
    return [line[len("run: '"):-1] for line in said if line.startswith("run: '") and "systemd-mount" in line]


def state(root: Path) -> dict[str, str]:
    """The system's files the set-up may touch, with their contents (shadow's backups left out)."""
    seen: dict[str, str] = {}
    for top in WATCHED:
        for path in sorted((root / top).rglob("*")) if (root / top).exists() else []:
            rel = str(path.relative_to(root))
            if rel.endswith("-") or rel.startswith("etc/ld.so.cache"):
                continue
            if path.is_symlink():
                seen[rel] = "-> " + os.readlink(path)
            elif path.is_dir():
                seen[rel] = f"dir {path.stat().st_uid}"
            else:
                seen[rel] = hashlib.sha256(path.read_bytes()).hexdigest() + f" {path.stat().st_uid}"
    return seen


@pytest.mark.runtime("debootstrap")
@pytest.mark.timeout(2400)  # a fresh machine builds the Debian root first (about 10 min when busy)
def test_install_sh_on_a_clean_debian_then_again_then_uninstall(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path / "wheel")
    with debian_root(tmp_path) as root:
        shutil.copy(wheel, root / "tmp" / wheel.name)
        shutil.copy(REPO / "install.sh", root / "tmp/install.sh")
        first = inside(root, "sh", "/tmp/install.sh", "--wheel", f"/tmp/{wheel.name}", "--force")
        assert first.returncode == 0, first.stdout + first.stderr
        assert "created the user buzzerbox" in first.stdout and "sudo reboot" in first.stdout, first.stdout

        verify = inside(root, "systemd-analyze", "verify", "/etc/systemd/system/buzzerbox.service")
        assert verify.returncode == 0 and verify.stdout + verify.stderr == "", verify.stdout + verify.stderr

        demo = inside(root, "buzzerbox", "demo", "quiz", "--headless", "--seconds", "10", "--seed", "2",
                      user="buzzerbox")
        assert demo.returncode == 0 and "scores:" in demo.stdout, demo.stdout + demo.stderr
        assert "playing silently" not in demo.stderr  # the mixer's libraries are there (SDL's dummy sound)
        for argv in (["wiring", "check", "header-4"], ["doctor", "--quick"]):
            done = inside(root, "buzzerbox", *argv, user="buzzerbox")
            assert done.returncode == 0, f"{argv}: {done.stdout}{done.stderr}"
        # the box draws on Lite: its Python takes Debian's pygame (none of its own), whose SDL has kmsdrm
        assert drivers(root) == ("/usr/lib/python3/dist-packages/pygame", "2.1.2", True)
        ready(root)

        # the USB stick rule, as udev reads it: a stick of each kind is mounted for the box's user, and
        # bookworm's systemd-mount takes each command line (it stops only at the missing running systemd)
        assert inside(root, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q",
                      "--no-install-recommends", "udev").returncode == 0  # Raspberry Pi OS has it
        device = block_device()
        mount = "/usr/bin/systemd-mount --no-block --collect"
        with udev_sandbox(root, device):
            for action, fs, wanted in (
                    ("add", "vfat", f"{mount} --owner=buzzerbox --options=flush /dev/{device} /media/usb-{device}"),
                    ("add", "exfat", f"{mount} --owner=buzzerbox /dev/{device} /media/usb-{device}"),
                    ("add", "ext4", f"{mount} /dev/{device} /media/usb-{device}"),
                    ("remove", "vfat", f"/usr/bin/systemd-mount --umount /media/usb-{device}"),
                    ("add", None, None)):
                runs = usb_rule_runs(root, device, action, fs)
                assert runs == ([wanted] if wanted else []), (action, fs, runs)
                if wanted:
                    tried = inside(root, *wanted.split())
                    assert tried.returncode != 0 and (
                        "not been booted with systemd" in tried.stderr or "connect to bus" in tried.stderr), tried.stderr

        journal = root / "home/buzzerbox/.local/share/buzzerbox/journals/kept.jsonl"
        journal.write_text("{}\n")  # a journal of the night before the update
        # a box installed by the install.sh before this one: pip's pygame in the box's own environment
        old = inside(root, "env", "PIPX_HOME=/opt/buzzerbox/pipx", "pipx", "runpip", "buzzerbox", "install", "pygame>=2.5")
        assert old.returncode == 0, old.stdout + old.stderr
        assert drivers(root)[0] == f"{VENV}/lib/python3.11/site-packages/pygame" and not drivers(root)[2]
        before = state(root)
        again = inside(root, "sh", "/tmp/install.sh", "--wheel", f"/tmp/{wheel.name}", "--force")
        assert again.returncode == 0, again.stdout + again.stderr
        assert "Nothing to change: everything was already set up." in again.stdout, again.stdout
        assert state(root) == before
        assert drivers(root) == ("/usr/lib/python3/dist-packages/pygame", "2.1.2", True)  # the update fixed it
        ready(root)

        gone = inside(root, "buzzerbox", "kiosk", "uninstall", "--purge")
        assert gone.returncode == 0, gone.stdout + gone.stderr
        without = state(root)
        mentions = [rel for rel in without if "buzzerbox" in rel]
        assert mentions == [] and not any("buzzerbox" in (root / rel).read_text(errors="replace")
                                          for rel in ("etc/passwd", "etc/group", "etc/shadow", "etc/gshadow"))
        # install and uninstall once more: the system is back exactly where it was before the install
        assert inside(root, "buzzerbox", "kiosk", "install", "--force").returncode == 0
        assert inside(root, "buzzerbox", "kiosk", "uninstall", "--purge").returncode == 0
        assert state(root) == without
