"""Building the box's wheel from the repository's files, for the tests that
install it (a fresh venv here, a Debian root in test_debian_root.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def copy_sources(dest: Path) -> None:
    """The repository's files as a fresh clone has them (git's list; no .venv, no build/)."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-co", "--exclude-standard", "-z"],
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def build_wheel(top: Path) -> Path:
    """``pip wheel`` of a copy of the repository (the build writes nothing into the checkout)."""
    src, dist = top / "src", top / "dist"
    copy_sources(src)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)],
                   check=True, cwd=top)
    return next(dist.glob("buzzerbox-*.whl"))
