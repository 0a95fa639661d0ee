#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build pnc's Debian packages for the Debian release of this machine
# (doc/packaging.md says what each one holds and why it is built so):
#
#   libyang3, libyang-dev, libyang3-tools  libyang 3.12.2, Debian 12 only
#                                          (Debian 13 has it already)
#   frr, frr-doc, frr-pythontools, frr-snmp, frr-rpki-rtrlib, frr-dev
#                                          FRR 10.7.1 + the patch series
#                                          + cnpproxyd
#   pnc-tools                              the packet and test tools
#
# FRR and libyang are built from Debian's own packaging of exactly these
# upstream versions (tools/deps.sha256), adjusted for the release by
# tools/deb/adjust-frr.sh; the source packages (.dsc) are kept beside the
# binaries so that the result can be rebuilt with Debian's own tools.
#
# Usage: tools/deb/make-deb.sh SRCDIR OUTDIR CACHEDIR [FRR_TARBALL] [LIBYANG_TARBALL]
#   The tarball arguments are what configure was given (a file or a
#   directory, possibly empty); tools/fetch-dep.sh does the rest.
#
# Root is needed to install the build dependencies (apt-get build-dep),
# and on Debian 12 the libyang-dev it has just built.  As another user the
# script only checks that they are there.

set -euo pipefail

src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
cache=$3
frr_hint=${4:-}
ly_hint=${5:-}
work=$out/work
jobs=$(nproc 2>/dev/null || echo 2)

log() { echo "make-deb: $*" >&2; }
die() { log "$*"; exit 1; }

. /etc/os-release
case "${ID:-}:${VERSION_ID:-}" in
debian:12 | debian:13) ;;
*) die "builds for Debian 12 and 13 only; this is ${PRETTY_NAME:-unknown}" ;;
esac
rel=$VERSION_ID
codename=$VERSION_CODENAME

# The packaging revision: bumped when the packages change while FRR's
# version stays.  "0pnc" sorts below any Debian revision of the same
# upstream version, "~debNNu1" below the plain revision, so Debian 13's
# build supersedes Debian 12's on a release upgrade.
pnc_rev=1
pnc_version=$(sed -n 's/^#define CNPPROXYD_VERSION "\(.*\)"/\1/p' \
	"$src/cnpproxyd/cnpproxy_version.h")
frr_upstream=10.7.1
frr_version=$frr_upstream-0pnc$pnc_rev~deb${rel}u1
ly_upstream=3.12.2
ly_version=$ly_upstream-1~pnc$pnc_rev~deb${rel}u1
tools_version=$pnc_version-1~deb${rel}u1

maintainer=${PNC_DEB_MAINTAINER:-pnc developers <pnc-devel@pnc.invalid>}
# Reproducible: every date in the packages is the last commit's.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$src" log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH
changelog_date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")

export DEBIAN_FRONTEND=noninteractive
# No test suites here: pnc's own `make check` tests this code, and FRR's
# and libyang's suites would double the build time.  PNC_DEB_NODDEBS=1
# (CI) leaves out the -dbgsym packages, which the install test does not use.
export DEB_BUILD_OPTIONS="nocheck parallel=$jobs${PNC_DEB_NODDEBS:+ noddebs}"
profiles=nocheck

# changelog_entry DIR PACKAGE VERSION TEXT...: put a new entry on top
changelog_entry() {
	dir=$1 pkg=$2 ver=$3
	shift 3
	{
		echo "$pkg ($ver) $codename; urgency=medium"
		echo
		for line in "$@"; do echo "  * $line"; done
		echo
		echo " -- $maintainer  $changelog_date"
		echo
		[ ! -f "$dir/debian/changelog" ] || cat "$dir/debian/changelog"
	} >"$dir/debian/changelog.new"
	mv "$dir/debian/changelog.new" "$dir/debian/changelog"
}

# build_deps DIR: install (root) or check the build dependencies of DIR
build_deps() {
	if [ "$(id -u)" = 0 ]; then
		log "installing the build dependencies of $(basename "$1")"
		apt-get build-dep -y -q --no-remove -P "$profiles" "$1" \
			>>"$work/apt.log" 2>&1 ||
			{ tail -20 "$work/apt.log"; die "apt-get build-dep failed"; }
	else
		(cd "$1" && dpkg-checkbuilddeps -P "$profiles") ||
			die "build dependencies missing; run as root to install them"
	fi
}

# build DIR [dpkg-buildpackage options]: source and binary packages
build() {
	dir=$1
	shift
	log "building $(basename "$dir") (log: $work/$(basename "$dir").log)"
	# The system's tools only, as on a Debian build daemon (a python3
	# earlier in PATH would be the one FRR's build takes).
	(cd "$dir" && PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		dpkg-buildpackage -us -uc -P"$profiles" "$@") \
		>"$work/$(basename "$dir").log" 2>&1 ||
		{ tail -40 "$work/$(basename "$dir").log"; die "$(basename "$dir") failed"; }
}

fetch() { "$src/tools/fetch-dep.sh" "$@"; }

# fetch_packaging NAME HINT: Debian's packaging tarball, from the
# directory the orig tarball came from if one was named, else as usual
fetch_packaging() {
	if [ -d "$2" ] && fetch "$1" "$cache" "$2" 2>/dev/null; then
		return 0
	fi
	fetch "$1" "$cache"
}

# unpack NAME UPSTREAM ORIG PACKAGING: lay out NAME's source the Debian
# way (the orig tarball beside the tree, Debian's debian/ inside it) and
# print the tree's path
unpack() {
	d=$work/$1-$2
	mkdir -p "$d"
	tar -xf "$3" -C "$d" --strip-components=1
	cp "$3" "$work/$1_$2.orig.tar.${3##*.tar.}"
	tar -xf "$4" -C "$d"
	echo "$d"
}

# Whether the release's archive has libyang-dev >= 3.12.2 (Debian 13).
# The archive, not this machine: a libyang-dev a previous run installed
# here is not one the router can get; and binary packages only, not the
# source packages fetch-dep.sh's deb-src entries (other suites) list.
have_libyang3() {
	for v in $(apt-cache madison libyang-dev 2>/dev/null |
		awk -F'|' '$3 !~ /Sources/ {print $2}'); do
		dpkg --compare-versions "$v" ge "$ly_upstream" && return 0
	done
	return 1
}

start=$(date +%s)
tools="dpkg-dev debhelper fakeroot lintian curl xz-utils"
missing=$(for p in $tools; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		echo "$p"
done)
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || die "missing: $(echo $missing); run as root to install them"
	log "installing $(echo $missing) (log: $out/apt-tools.log)"
	apt-get install -y -q --no-install-recommends $missing >"$out/apt-tools.log" 2>&1 ||
		{ tail -20 "$out/apt-tools.log"; die "installing $(echo $missing) failed"; }
fi
rm -rf "$work" "$out"/*.deb "$out"/*.dsc "$out"/*.tar.* "$out"/*.buildinfo \
	"$out"/*.changes "$out"/lintian.txt
mkdir -p "$work"

# --- libyang 3.12.2 (Debian 12) ------------------------------------------
if have_libyang3; then
	log "Debian $rel has libyang-dev >= $ly_upstream: using it"
else
	ly_orig=$(fetch libyang "$cache" "$ly_hint")
	ly_deb=$(fetch_packaging libyang-debian "$ly_hint")
	d=$(unpack libyang "$ly_upstream" "$ly_orig" "$ly_deb")
	changelog_entry "$d" libyang "$ly_version" \
		"Rebuild of Debian's $ly_upstream-1 for Debian $rel ($codename), whose" \
		"own libyang (2.1) is older than FRR $frr_upstream needs."
	build_deps "$d"
	build "$d"
	if [ "$(id -u)" = 0 ]; then
		# FRR's build dependency; --no-remove refuses rather than take
		# anything away from this machine.
		log "installing libyang3 and libyang-dev $ly_version here"
		apt-get install -y -q --no-remove \
			"$work"/libyang3_"$ly_version"_*.deb \
			"$work"/libyang-dev_"$ly_version"_*.deb >>"$work/apt.log" 2>&1 ||
			{ tail -20 "$work/apt.log"; die "installing libyang failed"; }
	fi
fi

# --- FRR 10.7.1 + pnc ------------------------------------------------------
frr_orig=$(fetch frr "$cache" "$frr_hint")
frr_deb=$(fetch_packaging frr-debian "$frr_hint")
d=$(unpack frr "$frr_upstream" "$frr_orig" "$frr_deb")

# cnpproxyd is pnc's own source: a second upstream tarball (component
# "cnpproxyd"), holding the daemon and its YANG module.
files=$(cd "$src" && { git ls-files --cached --others --exclude-standard cnpproxyd yang/frr-cnpproxyd.yang 2>/dev/null ||
	find cnpproxyd yang/frr-cnpproxyd.yang -type f; })
(cd "$src" && tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 \
	--numeric-owner --transform 's|^yang/|cnpproxyd/yang/|' -cJf \
	"$work/frr_$frr_upstream.orig-cnpproxyd.tar.xz" $files)
tar -xf "$work/frr_$frr_upstream.orig-cnpproxyd.tar.xz" -C "$d"

. "$src/tools/series.sh"
patches=()
for s in $PNC_SERIES; do
	for p in "$src/$s"/*.patch; do
		[ -f "$p" ] && patches+=("$p")
	done
done
"$src/tools/deb/adjust-frr.sh" "$d" "$rel" "$maintainer" "${patches[@]}"
changelog_entry "$d" frr "$frr_version" \
	"pnc $pnc_version: the Proxy Node Capability in IS-IS, OSPFv2, OSPFv3 and" \
	"BGP, zebra's proxy field, and cnpproxyd, the congestion notification" \
	"proxy daemon (off by default: cnpproxyd=no in /etc/frr/daemons)." \
	"Debian's $frr_upstream-2 packaging, adjusted for Debian $rel ($codename)."
build_deps "$d"
build "$d"

# --- pnc-tools ---------------------------------------------------------------
d=$work/pnc-tools-$pnc_version
mkdir -p "$d"
(cd "$src" && { git ls-files --cached --others --exclude-standard 2>/dev/null || find . -type f -not -path './build/*'; } |
	tar -cf - -T -) | tar -xf - -C "$d"
rm -rf "$d/debian"
cp -r "$src/tools/deb/pnc-tools" "$d/debian"
changelog_entry "$d" pnc-tools "$tools_version" \
	"pnc $pnc_version tools, built for Debian $rel ($codename)."
build_deps "$d"
build "$d" -b

mv "$work"/*.deb "$work"/*.dsc "$work"/*.buildinfo "$work"/*.changes "$out"/
mv "$work"/*.orig*.tar.* "$work"/*.debian.tar.* "$out"/ 2>/dev/null || true
# The debug symbols are kept, but not beside what an operator installs.
mkdir -p "$out/dbgsym"
mv "$out"/*-dbgsym_*.deb "$out/dbgsym/" 2>/dev/null || true

# --- lintian ------------------------------------------------------------------
if command -v lintian >/dev/null 2>&1; then
	log "lintian (report: $out/lintian.txt)"
	status=0
	lintian --fail-on error --tag-display-limit 0 "$out"/*.deb >"$out/lintian.txt" 2>&1 ||
		status=$?
	grep -E '^(E|W): ' "$out/lintian.txt" | sed 's/^/  /' >&2 || true
	[ "$status" = 0 ] || die "lintian found errors (see $out/lintian.txt)"
else
	log "lintian is not installed: packages not checked"
fi

log "built in $(($(date +%s) - start)) s:"
(cd "$out" && ls -s --block-size=K *.deb) | sed 's/^/  /' >&2
