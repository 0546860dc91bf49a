"""The wheel is the product: built from the repository, installed in a fresh
virtual environment outside it, every command a box owner runs works from
there, with its files (games' assets, catalogues, font, firmware, wiring
profiles, the kiosk's unit, the guides) and no checkout anywhere on the path.

The wheel is built once for this file (a module fixture; ``--dist loadfile``
keeps the file on one worker): about 20 s of the suite. The new environment
takes its third-party packages (pygame, aiohttp...) from the test's own
environment through a path line (installing them from the index again would
cost a minute and test pip, not the box); the box's own code and files come
from the wheel only, which the first test checks."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.install.wheel import REPO, build_wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the fresh venv's bin folder, the built wheel)."""
    top = tmp_path_factory.mktemp("wheel")
    wheel, venv = build_wheel(top), top / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--no-index", str(wheel)], check=True, cwd=top)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "zz_test_dependencies.pth").write_text("\n".join(sorted(deps)) + "\n")
    return venv / "bin", wheel


def box(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", HOME=str(cwd), XDG_DATA_HOME=str(cwd / "data"),
               PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}")
    return subprocess.run([str(bin_dir / "buzzerbox"), *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    where = tmp_path / "elsewhere"
    where.mkdir()
    return where


def test_the_box_runs_from_the_wheel_alone(installed: tuple[Path, Path], elsewhere: Path) -> None:
    bin_dir, _ = installed
    found = subprocess.run([str(bin_dir / "python"), "-c", "import controller, games, firmware, sys; "
                            "print(controller.__file__, games.__file__, firmware.__file__, *sys.path)"],
                           capture_output=True, text=True, check=True, cwd=elsewhere).stdout.split()
    venv = str(bin_dir.parent)
    assert all(path.startswith(venv) for path in found[:3]), found[:3]
    assert not any(Path(p) == REPO for p in found[3:] if p), "the checkout is on the path"


def test_every_owner_command_works_outside_the_repository(installed: tuple[Path, Path], elsewhere: Path) -> None:
    bin_dir, _ = installed
    shot = elsewhere / "last.png"
    demo = box(bin_dir, "demo", "quiz", "--headless", "--seconds", "20", "--seed", "3", "--screenshot", str(shot),
               cwd=elsewhere)
    assert demo.returncode == 0, demo.stderr
    assert "scores:" in demo.stdout and shot.stat().st_size > 10_000  # drawn with the shipped font

    site = next(bin_dir.parent.glob("lib/python*/site-packages"))
    pack = box(bin_dir, "pack", "check", str(site / "games" / "quiz" / "packs" / "en-general.csv"), cwd=elsewhere)
    assert pack.returncode == 0 and pack.stdout.startswith("OK"), pack.stdout + pack.stderr

    wiring = box(bin_dir, "wiring", "check", "header-4", cwd=elsewhere)
    assert wiring.returncode == 0, wiring.stdout + wiring.stderr

    # a shipped profile's test result goes to the data folder, not into the package an update replaces
    tried = box(bin_dir, "wiring", "test", "header-4", "--mock", "--no-lights", "--timeout", "2", cwd=elsewhere)
    saved = elsewhere / "data" / "buzzerbox" / "wiring-tests" / "header-4.mock.test-result.txt"
    assert tried.returncode == 0 and f"saved to {saved}" in tried.stdout, tried.stdout + tried.stderr
    assert not list((site / "controller").rglob("*.test-result.txt"))

    pinmap_py = site / "firmware" / "buzzer" / "pinmap.py"
    before = pinmap_py.read_text()
    pinmap = box(bin_dir, "firmware", "pinmap", cwd=elsewhere)
    assert pinmap.returncode == 0, pinmap.stderr
    assert pinmap_py.read_text() == before  # the wheel's pin map is the one its TOML makes

    doctor = box(bin_dir, "doctor", "--quick", cwd=elsewhere)
    assert doctor.returncode == 0 and "verdict:" in doctor.stdout, doctor.stdout + doctor.stderr

    czech = box(bin_dir, "--lang", "cs", "wiring", "check", "header-44", cwd=elsewhere)  # the compiled catalogues
    assert czech.returncode == 1 and "header-4" in czech.stderr and "profil" in czech.stderr, czech.stderr

    status = box(bin_dir, "kiosk", "status", "--root", str(elsewhere), "--user", "pi", cwd=elsewhere)
    assert status.returncode == 1 and "sudo buzzerbox kiosk install" in status.stdout, status.stdout


def test_the_wheel_carries_the_files_the_commands_name(installed: tuple[Path, Path]) -> None:
    names = set(zipfile.ZipFile(installed[1]).namelist())
    for needed in ("controller/_shipped/wiring/header-4.toml", "controller/_shipped/wiring/board-pinmap.toml",
                   "controller/_shipped/wiring/kiosk/buzzerbox.service", "controller/_shipped/wiring/README.md",
                   "controller/_shipped/docs/question-packs.md", "controller/_shipped/docs/display.md",
                   "games/locale/cs/LC_MESSAGES/buzzerbox.mo", "games/locale/pl/LC_MESSAGES/buzzerbox.mo",
                   "games/toolkit/fonts/DejaVuSans-Bold.ttf", "firmware/main.py", "firmware/buzzer/pinmap.py",
                   "firmware/PROTOCOL.md"):
        assert needed in names, needed
