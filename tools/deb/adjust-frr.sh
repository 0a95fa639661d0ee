#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Adjust Debian's packaging of FRR 10.7.1 (debian/ of the 10.7.1-2
# upload, written for unstable) into pnc's packages for Debian 12 or 13.
# Each change is the smallest that makes the package build and install on
# the target release, or adds what pnc adds; doc/packaging.md lists them.
#
# Usage: tools/deb/adjust-frr.sh TREE RELEASE MAINTAINER PATCH...
#   TREE        the unpacked source (FRR 10.7.1 with debian/ inside)
#   RELEASE     12 or 13
#   MAINTAINER  "Name <address>" of whoever builds these packages
#   PATCH...    pnc's patch series, in the order it applies

set -eu

tree=$1
rel=$2
maintainer=$3
shift 3
deb=$tree/debian

log() { echo "adjust-frr: $*" >&2; }
die() { log "$*"; exit 1; }

# edit FILE SED-SCRIPT: sed -i, but fail when the text to change is gone,
# so that a new Debian upload cannot silently lose an adjustment.
edit() {
	cp "$1" "$1.before"
	sed -i -e "$2" "$1"
	if cmp -s "$1" "$1.before"; then
		rm -f "$1.before"
		die "$(basename "$1"): '$2' changed nothing; has Debian's packaging changed?"
	fi
	rm -f "$1.before"
}

# --- pnc's patch series, after Debian's own patches ------------------------
mkdir -p "$deb/patches/pnc"
touch "$deb/patches/series"
for p in "$@"; do
	series=$(basename "$(dirname "$p")")
	mkdir -p "$deb/patches/pnc/$series"
	cp "$p" "$deb/patches/pnc/$series/"
	echo "pnc/$series/$(basename "$p")" >>"$deb/patches/series"
done
log "$# pnc patches added to debian/patches/series"

# --- debian/control ---------------------------------------------------------
c=$deb/control
# Whoever builds these packages maintains them; Debian's maintainers'
# names stay in the changelog's entries, but not as this build's.
edit "$c" "s/^Maintainer: .*/Maintainer: $maintainer/"
edit "$c" '/^Uploaders:$/,/^[^ ]/{/^Uploaders:$/d;/^ /d}'
# Debian 12 and 13 have no debhelper 14: at compat 13 the relationship
# substitution variables are not implicit, so name them.
edit "$c" 's/debhelper-compat (= 14)/debhelper-compat (= 13)/'
awk '
	/^Package: / { pkg = $2 }
	/^Depends:/ && pkg != "" {
		print
		if (pkg !~ /-(doc|dev)$/ && pkg != "frr-pythontools")
			print " ${shlibs:Depends},"
		print " ${misc:Depends},"
		next
	}
	{ print }
' "$c" >"$c.new"
mv "$c.new" "$c"
# cnpproxyd's XDP and tc programs: compiled with clang against the
# build machine's kernel BTF (CO-RE), loaded with libbpf and libxdp.
edit "$c" 's/^ bison,$/ bison,\n bpftool,\n clang,\n libbpf-dev,\n libxdp-dev,/'
# Unstable's frr breaks systemd older than 259 (which changed how it
# restarts frr's workers) and sysusers older than 257 (the "u!" user
# line).  Debian 12 has systemd 252 and 13 has 257: drop the first, and
# on 12 the second with the "u!" (below).
awk -v rel="$rel" '
	/^Package: / { pkg = $2 }
	/^$/ { pkg = "" }
	inb && !/^( |#)/ { inb = 0; held = "" }
	pkg == "frr" && /^Breaks:$/ { inb = 1; held = $0; next }
	inb {
		if ($0 ~ /^# changed restart/ || $0 ~ /^ systemd \(<< 259\),$/)
			next
		if (rel == 12 && $0 ~ /^ (opensysusers|systemd-standalone-sysusers) /)
			next
		if (held != "") { print held; held = "" }
		print
		next
	}
	{ print }
' "$c" >"$c.new"
cmp -s "$c" "$c.new" && die "control: frr's Breaks on systemd not found"
mv "$c.new" "$c"
# The package description says what this build adds.
awk '
	/^Package: frr$/ { infrr = 1 }
	/^$/ { if (infrr && !done) {
		print " ."
		print " This build carries pnc: the Proxy Node Capability (PNC) in IS-IS,"
		print " OSPFv2, OSPFv3 and BGP, zebra'"'"'s proxy field for routes, and"
		print " cnpproxyd, the congestion notification proxy daemon for RoCEv2."
		done = 1 }
		infrr = 0 }
	{ print }
' "$c" >"$c.new"
mv "$c.new" "$c"

# Debian 12 and 13 have Lua 5.4 (FRR takes 5.3 or 5.4) and Sphinx 5.3
# and 8.1, which build FRR 10.7.1's manuals; unstable's 5.5 and 9 they
# do not have.
edit "$c" 's/liblua5\.5-dev/liblua5.4-dev/; s/^ lua5\.5 / lua5.4 /'
edit "$c" 's/python3-sphinx:native (>= 9)/python3-sphinx:native/'
if [ "$rel" = 12 ]; then
	# systemd 252's sysusers does not know "u!" (a locked account, 257);
	# a plain system user has no password either.
	edit "$deb/frr.sysusers" 's/^u! /u /'
fi

# --- upgrading from Debian 12's frr (8.4) ---------------------------------------
# That frr had a SysV init script; this packaging has only the systemd
# unit, and nothing took the script's conffile and rc.d links away.
echo "rm_conffile /etc/init.d/frr 10.7.1-0pnc1~" >>"$deb/frr.maintscript"
edit "$deb/frr.postinst" 's|^\tconfigure)$|&\n\t\t# The SysV script is gone (frr.maintscript): so are its links.\n\t\tif [ ! -e /etc/init.d/frr ] \&\& command -v update-rc.d >/dev/null\n\t\tthen\n\t\t\tupdate-rc.d frr remove >/dev/null \|\| true\n\t\tfi\n|'

# --- debian/rules -------------------------------------------------------------
r=$deb/rules
# Compat 14 runs dh_installsysusers by itself (it creates the frr user
# and group, which nothing else does any more); at 13 it is an add-on.
edit "$r" 's/^\tdh ${@} -Bbuild --with=sphinxdoc$/\tdh ${@} -Bbuild --with=sphinxdoc,installsysusers/'
edit "$r" 's/^\t\t--enable-multipath=256 \\$/\t\t--enable-multipath=256 \\\n\t\t--enable-cnpproxyd \\/'
# The YANG module travels in the cnpproxyd component; FRR's build wants
# it in yang/ with the others.
edit "$r" 's|^override_dh_auto_configure:$|execute_before_dh_auto_configure:\n\tln -sf ../cnpproxyd/yang/frr-cnpproxyd.yang yang/frr-cnpproxyd.yang\n\n&|'
edit "$r" 's|^\trm -f debian/frr@.service$|&\n\trm -f yang/frr-cnpproxyd.yang|'

log "debian/ adjusted for Debian $rel"
