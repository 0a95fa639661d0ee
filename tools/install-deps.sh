#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install the Debian packages pnc needs to build FRR 10.7.1 + cnpproxyd,
# run its unit tests and topotests.  Idempotent: packages already present
# are left alone and apt is not touched at all when nothing is missing.
#
# Usage: tools/install-deps.sh [--check]
#   --check   only report missing packages (exit 1 if any)

set -eu

PKGS="
build-essential autoconf automake libtool make pkg-config bison flex perl
gawk texinfo git xz-utils ca-certificates cmake dpkg-dev
libjson-c-dev libreadline-dev libcap-dev libelf-dev libunwind-dev
libpcre2-dev libpam0g-dev libc-ares-dev python3-dev
clang llvm libbpf-dev libxdp-dev libmnl-dev linux-libc-dev bpftool
libcmocka-dev
python3 python3-pytest python3-pexpect python3-yaml python3-lxml python3-toml
python3-scapy python3-matplotlib python3-pytest-xdist exabgp
iproute2 iputils-ping ethtool tcpdump tshark gdb procps psmisc man-db
"

# Packages of PKGS (or of the list given) that are not installed.
missing_of() {
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$'; then
			printf ' %s' "$p"
		fi
	done
}

# The sanitizer runtime of the clang that is installed: Debian 12's
# clang-14 pulls it in, Debian 13's clang-19 does not (libclang-rt-19-dev),
# and the ASan builds of make check need it.
clang_rt() {
	v=$(clang --version 2>/dev/null |
		sed -n 's/.*clang version \([0-9][0-9]*\)\..*/\1/p' | head -1)
	[ -n "$v" ] && echo "libclang-rt-$v-dev"
}

# FRR daemons drop privileges to user frr; vtysh access is group frrvty.
ensure_users() {
	[ "$(id -u)" = 0 ] || return 0
	getent group frr >/dev/null || groupadd -r frr
	getent group frrvty >/dev/null || groupadd -r frrvty
	getent passwd frr >/dev/null ||
		useradd -r -g frr -G frrvty -d /var/run/frr \
			-s /usr/sbin/nologin -c "FRR suite" frr
}

apt_updated=
apt_install() {
	export DEBIAN_FRONTEND=noninteractive
	if [ -z "$apt_updated" ]; then
		# tshark asks whether non-root users may capture; the answer
		# does not matter for us (tests run as root) but must not block.
		echo "wireshark-common wireshark-common/install-setuid boolean false" |
			debconf-set-selections
		apt-get update -q
		apt_updated=1
	fi
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends "$@"
}

# shellcheck disable=SC2086
missing=$(missing_of $PKGS $(clang_rt))

if [ -z "$missing" ]; then
	ensure_users
	echo "install-deps: all build and test packages present"
	exit 0
fi

if [ "${1:-}" = "--check" ]; then
	echo "install-deps: missing:$missing"
	exit 1
fi

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing" >&2
	echo "install-deps: run as root (sudo make ...) to install them" >&2
	exit 1
fi

echo "install-deps: installing:$missing"
# shellcheck disable=SC2086
apt_install $missing
# clang came with this run: its runtime is known only now
rt=$(missing_of $(clang_rt))
if [ -n "$rt" ]; then
	echo "install-deps: installing:$rt"
	# shellcheck disable=SC2086
	apt_install $rt
fi
ensure_users
