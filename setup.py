"""The wheel carries the files its commands read that live outside the Python
packages: the wiring profiles and the kiosk's unit (wiring/), and the guides
the commands' messages name (docs/*.md, wiring/README.md). They are copied to
controller/_shipped/ in the built wheel, where ``controller.system.resources`` finds
them; a source checkout (and an editable install) reads the repository's own.
Everything else is in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: (folder of the repository, glob patterns) copied into controller/_shipped/<folder>
SHIPPED = {
    "wiring": ["*.toml", "*.md", "kiosk/*", "diagrams/*"],
    "docs": ["*.md"],
}


class BuildWithShippedFiles(build_py):
    """build_py, plus the repository's data folders copied under controller/_shipped."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # an editable install reads the checkout itself
            return
        for folder, patterns in SHIPPED.items():
            for pattern in patterns:
                for src in sorted((HERE / folder).glob(pattern)):
                    if src.is_file():
                        dest = Path(self.build_lib) / "controller" / "_shipped" / src.relative_to(HERE)
                        dest.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(src, dest)


setup(cmdclass={"build_py": BuildWithShippedFiles})
