"""install.sh's own lines in the system's language: Czech or Polish from
$LANG (or --lang), else English. Tried for real, but only as far as its
refusals, and as a user who is not root: the script then stops before it
installs anything (tests/install/test_debian_root.py runs the whole of it)."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.install.wheel import REPO
from tests.processes import HANG_S


def install_sh(*args: str, lang: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANG"}
    env["LANG"] = lang
    # never root: a run that got past the refusals would install packages on this machine
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    return subprocess.run([*nobody, "sh", str(REPO / "install.sh"), *args], capture_output=True, text=True,
                          env=env, timeout=HANG_S, check=False)


ROOT = "sudo sh install.sh"


@pytest.mark.parametrize(("lang", "args", "said"), [
    ("cs_CZ.UTF-8", ["--wheel"], "--wheel potřebuje soubor: --wheel buzzerbox-0.1.0-py3-none-any.whl"),
    ("pl_PL.UTF-8", ["--wheel"], "--wheel wymaga pliku: --wheel buzzerbox-0.1.0-py3-none-any.whl"),
    ("de_DE.UTF-8", ["--wheel"], "--wheel needs a file: --wheel buzzerbox-0.1.0-py3-none-any.whl"),
    ("cs_CZ.UTF-8", ["--lang", "pl"], f"instaluje pakiety systemowe, więc musi działać jako root: {ROOT} --lang pl"),
    ("C.UTF-8", ["--lang=cs"], f"instaluje systémové balíčky, proto musí běžet jako root: {ROOT} --lang=cs"),
    ("en_GB.UTF-8", [], f"it installs system packages, so it must run as root: {ROOT} "),
])
def test_install_sh_speaks_the_system_s_language_or_english(lang: str, args: list[str], said: str) -> None:
    done = install_sh(*args, lang=lang)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"install.sh: {said}\n")
