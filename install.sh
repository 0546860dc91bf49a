#!/bin/sh
# The buzzer box on Raspberry Pi OS (Lite or with desktop), in one command:
#
#   curl -fsSL https://raw.githubusercontent.com/OWNER/buzzerbox/main/install.sh | sudo sh
#   sudo sh install.sh --wheel buzzerbox-0.1.0-py3-none-any.whl    # from a wheel you have
#
# It installs the system packages the box needs (apt), pipx, the box itself
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
set -eu

say() { printf '%s\n' "install.sh: $*"; }
fail() { printf '%s\n' "install.sh: $*" >&2; exit 1; }

PACKAGE=buzzerbox
WHEEL=
while [ $# -gt 0 ]; do
	case "$1" in
		--wheel) [ $# -ge 2 ] || fail "--wheel needs a file: --wheel buzzerbox-0.1.0-py3-none-any.whl"
			WHEEL=$2; shift 2 ;;
		--package) [ $# -ge 2 ] || fail "--package needs a name: --package buzzerbox"
			PACKAGE=$2; shift 2 ;;
		*) break ;;
	esac
done

[ "$(id -u)" -eq 0 ] || fail "it installs system packages, so it must run as root: sudo sh install.sh $*"
command -v apt-get >/dev/null || fail "no apt-get here: this is for Raspberry Pi OS (or Debian)"
if [ -n "$WHEEL" ]; then
	[ -f "$WHEEL" ] || fail "no such wheel: $WHEEL (give the path of the .whl file)"
	case "$WHEEL" in /*) ;; *) WHEEL="$(pwd)/$WHEEL" ;; esac
fi

# 1. system packages: Python with venv, pipx; on a Pi the GPIO library's headers
#    and swig, so that lgpio builds where no wheel fits (Raspberry Pi OS has them)
say "[1/3] system packages (apt) ..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# pygame's wheel carries SDL, whose sound (the mixer) needs GLib's thread library
packages="python3 python3-venv python3-pip pipx ca-certificates libglib2.0-0"
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
say "[2/3] the buzzer box (pipx) ..."
export PIPX_HOME=/opt/buzzerbox/pipx PIPX_BIN_DIR=/usr/local/bin
if [ -n "$WHEEL" ]; then
	spec="$WHEEL"
else
	spec="$PACKAGE"
fi
case "$(dpkg --print-architecture)" in
	arm64|armhf) spec="$spec[pi]" ;;  # lgpio (kernel edge stamps) and mpremote (the input board)
esac
pipx install --force "$spec" >/dev/null || fail "pipx could not install $spec: see its messages above"
/usr/local/bin/buzzerbox --version

# 3. start on boot into the menu (it says what it changed, and the next step)
say "[3/3] the kiosk ..."
exec /usr/local/bin/buzzerbox kiosk install --exe /usr/local/bin/buzzerbox "$@"
