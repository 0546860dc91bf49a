#!/bin/sh
# The buzzer box on Raspberry Pi OS (Lite or with desktop), in one command:
#
#   curl -fsSL https://raw.githubusercontent.com/OWNER/buzzerbox/main/install.sh | sudo sh
#   sudo sh install.sh --wheel buzzerbox-0.1.0-py3-none-any.whl    # from a wheel you have
#
# It installs the system packages the box needs (apt; among them Debian's
# pygame, whose SDL can draw on the TV without a desktop), pipx, the box itself
# (from the wheel given, else from the package index) for every user in
# /opt/buzzerbox with the command in /usr/local/bin, then sets the Pi up to
# start into the box's menu (`buzzerbox kiosk install`, which says what it
# changed and how to undo it) and says what to do next.
#
# Run it again to update: the box is replaced by the new version; the
# journals, question packs, players' names and your own wiring profiles are in
# the box user's data folder (~/.local/share/buzzerbox) and stay as they are,
# and the kiosk set-up is changed only where the new version differs.
#
# Options: --wheel FILE (install this wheel), --package SPEC (what to ask the
# package index for; default buzzerbox). Everything else is passed on to
# `buzzerbox kiosk install`: --user NAME, --profile P, --mode lite|desktop,
# --lang cs|pl|en, --force (a test machine that is not a Pi).
#
# Its own lines are in the system's language when that is Czech or Polish
# ($LC_ALL, $LC_MESSAGES or $LANG starting with cs or pl; --lang wins), else
# in English; the language found is passed on to `buzzerbox kiosk install`.
# (The box's catalogue is not installed yet when these lines are said, so
# they are here, in the three languages the box speaks.)
set -eu

say() { printf '%s\n' "install.sh: $*"; }
fail() { printf '%s\n' "install.sh: $*" >&2; exit 1; }

# the language: --lang X among the arguments, else the system's
LANG_GIVEN=
prev=
for arg in "$@"; do
	[ "$prev" = "--lang" ] && LANG_GIVEN=$arg
	case "$arg" in --lang=*) LANG_GIVEN=${arg#--lang=} ;; esac
	prev=$arg
done
case "${LANG_GIVEN:-${LC_ALL:-${LC_MESSAGES:-${LANG:-}}}}" in
	cs*) BOX_LANG=cs ;;
	pl*) BOX_LANG=pl ;;
	*) BOX_LANG=en ;;
esac
case "$BOX_LANG" in
	cs)
		T_WHEEL="--wheel potřebuje soubor: --wheel buzzerbox-0.1.0-py3-none-any.whl"
		T_PACKAGE="--package potřebuje název: --package buzzerbox"
		T_ROOT="instaluje systémové balíčky, proto musí běžet jako root: sudo sh install.sh"
		T_APT="tady není apt-get: tento skript je pro Raspberry Pi OS (nebo Debian)"
		T_NOWHEEL="takový wheel neexistuje: %s (zadejte cestu k souboru .whl)"
		T_STEP1="[1/3] systémové balíčky (apt) ..."
		T_STEP2="[2/3] bzučáková krabička (pipx) ..."
		T_PIPX="pipx nedokázal nainstalovat %s: viz jeho hlášení výše"
		T_STEP3="[3/3] kiosk ..." ;;
	pl)
		T_WHEEL="--wheel wymaga pliku: --wheel buzzerbox-0.1.0-py3-none-any.whl"
		T_PACKAGE="--package wymaga nazwy: --package buzzerbox"
		T_ROOT="instaluje pakiety systemowe, więc musi działać jako root: sudo sh install.sh"
		T_APT="brak apt-get: ten skrypt jest dla Raspberry Pi OS (lub Debiana)"
		T_NOWHEEL="nie ma takiego pliku wheel: %s (podaj ścieżkę do pliku .whl)"
		T_STEP1="[1/3] pakiety systemowe (apt) ..."
		T_STEP2="[2/3] pudełko z brzęczykami (pipx) ..."
		T_PIPX="pipx nie zdołał zainstalować %s: zobacz jego komunikaty powyżej"
		T_STEP3="[3/3] kiosk ..." ;;
	*)
		T_WHEEL="--wheel needs a file: --wheel buzzerbox-0.1.0-py3-none-any.whl"
		T_PACKAGE="--package needs a name: --package buzzerbox"
		T_ROOT="it installs system packages, so it must run as root: sudo sh install.sh"
		T_APT="no apt-get here: this is for Raspberry Pi OS (or Debian)"
		T_NOWHEEL="no such wheel: %s (give the path of the .whl file)"
		T_STEP1="[1/3] system packages (apt) ..."
		T_STEP2="[2/3] the buzzer box (pipx) ..."
		T_PIPX="pipx could not install %s: see its messages above"
		T_STEP3="[3/3] the kiosk ..." ;;
esac
# shellcheck disable=SC2059  # the format is one of the lines above
fmt() { f=$1; shift; printf "$f" "$@"; }

PACKAGE=buzzerbox
WHEEL=
while [ $# -gt 0 ]; do
	case "$1" in
		--wheel) [ $# -ge 2 ] || fail "$T_WHEEL"
			WHEEL=$2; shift 2 ;;
		--package) [ $# -ge 2 ] || fail "$T_PACKAGE"
			PACKAGE=$2; shift 2 ;;
		*) break ;;
	esac
done

[ "$(id -u)" -eq 0 ] || fail "$T_ROOT $*"
command -v apt-get >/dev/null || fail "$T_APT"
if [ -n "$WHEEL" ]; then
	[ -f "$WHEEL" ] || fail "$(fmt "$T_NOWHEEL" "$WHEEL")"
	case "$WHEEL" in /*) ;; *) WHEEL="$(pwd)/$WHEEL" ;; esac
fi

# 1. system packages: Python with venv, pipx; on a Pi the GPIO library's headers
#    and swig, so that lgpio builds where no wheel fits (Raspberry Pi OS has them)
say "$T_STEP1"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# pygame's wheel carries SDL, whose sound (the mixer) needs GLib's thread library
packages="python3 python3-venv python3-pip pipx ca-certificates libglib2.0-0"
# pygame: Debian's, built on Debian's SDL, which has the kmsdrm driver that draws
# on the HDMI output where there is no desktop (Lite); pip's pygame wheel carries
# an SDL without it, and the TV would stay black. The box's environment sees
# the system's packages (--system-site-packages below) and takes this one.
SYSTEM_PYGAME=
if apt-cache show python3-pygame >/dev/null 2>&1; then
	packages="$packages python3-pygame"
	SYSTEM_PYGAME=1
fi
case "$(dpkg --print-architecture)" in
	arm64|armhf)
		for extra in python3-dev swig liblgpio-dev; do
			apt-cache show "$extra" >/dev/null 2>&1 && packages="$packages $extra"
		done ;;
esac
# shellcheck disable=SC2086  # a list of package names
apt-get install -y -q --no-install-recommends $packages >/dev/null

# 2. the box, in its own environment for every user (not in root's home: the
#    kiosk's user runs it); --force replaces an older version (the update)
say "$T_STEP2"
export PIPX_HOME=/opt/buzzerbox/pipx PIPX_BIN_DIR=/usr/local/bin
if [ -n "$WHEEL" ]; then
	spec="$WHEEL"
else
	spec="$PACKAGE"
fi
case "$(dpkg --print-architecture)" in
	arm64|armhf) spec="$spec[pi]" ;;  # lgpio (kernel edge stamps) and mpremote (the input board)
esac
VENV_ARGS=
if [ -n "$SYSTEM_PYGAME" ]; then
	VENV_ARGS=--system-site-packages
	# a box installed before with pip's pygame in its own environment (which
	# would hide Debian's): its environment is made anew (the data stay)
	venv=$PIPX_HOME/venvs/buzzerbox
	if [ -d "$venv" ] && { ! grep -qx 'include-system-site-packages = true' "$venv/pyvenv.cfg" 2>/dev/null ||
			ls -d "$venv"/lib/python3*/site-packages/pygame >/dev/null 2>&1; }; then
		pipx uninstall buzzerbox >/dev/null
	fi
fi
# shellcheck disable=SC2086  # none or one option
pipx install --force $VENV_ARGS "$spec" >/dev/null || fail "$(fmt "$T_PIPX" "$spec")"
/usr/local/bin/buzzerbox --version

# 3. start on boot into the menu (it says what it changed, and the next step)
say "$T_STEP3"
if [ -n "$LANG_GIVEN" ]; then
	exec /usr/local/bin/buzzerbox kiosk install --exe /usr/local/bin/buzzerbox "$@"
fi
exec /usr/local/bin/buzzerbox --lang "$BOX_LANG" kiosk install --exe /usr/local/bin/buzzerbox "$@"
