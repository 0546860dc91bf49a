"""Optional test runtimes (programs outside Python that some tests need).

A test asks ``require("micropython")``; when the runtime is missing the test
is skipped on a developer's machine (listed loudly at the end of the run by
tests/conftest.py) but FAILS when ``BUZZERBOX_REQUIRE_RUNTIMES=1`` is set, as
``.ci/run`` does: CI can never go green with a runtime silently absent.

Adding a runtime: one function returning ``None`` when it is
there, or what is missing and the command that installs it; one line in
``CHECKS``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQUIRE_ENV = "BUZZERBOX_REQUIRE_RUNTIMES"
MPY_DIR = ROOT / "tests" / "firmware" / "mpy"


def _micropython() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed (apt-get install nodejs npm)"
    if not (MPY_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript").is_dir():
        return "the MicroPython npm package is missing (npm ci --prefix tests/firmware/mpy)"
    return None


CHROMIUM = "/usr/bin/chromium"


def _chromium() -> str | None:
    """Debian's chromium, driven by the playwright package (never its own browser download)."""
    if not os.path.exists(CHROMIUM) and shutil.which("chromium") is None:
        return "Debian's chromium is not installed (apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install -e '.[dev]')"
    return None


def _mosquitto() -> str | None:
    """Debian's Mosquitto broker: the league tests start a real one on a free loopback port."""
    if shutil.which("mosquitto") is None and not os.path.exists("/usr/sbin/mosquitto"):
        return "the Mosquitto broker is not installed (apt-get install -y mosquitto)"
    return None


def _debootstrap() -> str | None:
    """debootstrap makes the clean Debian root install.sh is tried in (tests/install), as root."""
    if shutil.which("debootstrap") is None and not os.path.exists("/usr/sbin/debootstrap"):
        return "debootstrap is not installed (apt-get install -y debootstrap)"
    if os.geteuid() != 0:
        return "a chroot needs root: run the suite as root (CI does)"
    return None


#: runtime name -> check (None: present; else what is missing and how to install it)
CHECKS: dict[str, Callable[[], str | None]] = {
    "micropython": _micropython,
    "chromium": _chromium,
    "mosquitto": _mosquitto,
    "debootstrap": _debootstrap,
}

#: (runtime, reason, test id) of every skip in this run, for the terminal summary;
#: filled from the skip reports (tests/conftest.py), so also from xdist's workers
SKIPPED: list[tuple[str, str, str]] = []


def required() -> bool:
    """True when a missing runtime must fail the run (CI)."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def missing(name: str) -> str | None:
    """Why runtime ``name`` cannot run here, or None."""
    check = CHECKS.get(name)
    if check is None:
        raise KeyError(f"unknown test runtime {name!r}: add it to tests/runtimes.py CHECKS")
    return check()


def require(name: str, test_id: str = "") -> None:
    """Skip (developer) or fail (``BUZZERBOX_REQUIRE_RUNTIMES=1``) when ``name`` is missing."""
    why = missing(name)
    if why is None:
        return
    text = f"test runtime {name!r} missing: {why}"
    if required():
        pytest.fail(f"{text} ({REQUIRE_ENV}=1: CI must run every test)", pytrace=False)
    pytest.skip(text)
