#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install test of the packages `make deb` built (doc/packaging.md):
#   1. a clean Debian root of this machine's release (mmdebstrap, minbase,
#      from the Debian mirror apt is configured with);
#   2. Debian's own frr installed first, then ours over it with
#      `apt-get install ./*.deb`: an upgrade, as on a router;
#   3. cnpproxyd enabled in /etc/frr/daemons, frr started by frrinit.sh
#      (watchfrr, no systemd) inside a network namespace of the test's own;
#      vtysh answers `show cnpproxy status json`, and watchfrr restarts a
#      cnpproxyd killed with SIGKILL;
#   4. frrinit.sh stop leaves no process; purge (with the dependencies it
#      pulled in) leaves no file the clean root did not have.
#
# Usage: tools/deb/install-test.sh DEBDIR
# Root only.  KEEP_ROOT=1 keeps the Debian root for a look afterwards.

set -euo pipefail

debdir=$(cd "$1" && pwd)
root=$debdir/test-root
ns=pnc-deb-test
log() { echo "install-test: $*" >&2; }
fail() { log "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || fail "must run as root (debootstrap, chroot, netns)"
debs=$(ls "$debdir"/*.deb 2>/dev/null) || fail "no packages in $debdir: run make deb"
. /etc/os-release
codename=$VERSION_CODENAME

in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"; }
# HOME: vtysh keeps its history there; that is the operator's, not the
# packages' to remove.
in_ns() { ip netns exec "$ns" chroot "$root" env -i \
	PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/tmp "$@"; }
# processes whose root directory is the test root
root_pids() {
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && echo "${p#/proc/}"
	done
	true
}
cleanup() {
	for p in $(root_pids); do kill -9 "$p" 2>/dev/null || true; done
	for m in dev/pts dev sys proc; do
		umount -l "$root/$m" 2>/dev/null || true
	done
	ip netns del "$ns" 2>/dev/null || true
	[ "${KEEP_ROOT:-}" = 1 ] || rm -rf "$root"
}
trap cleanup EXIT

command -v mmdebstrap >/dev/null || {
	log "installing mmdebstrap"
	apt-get install -y -q --no-install-recommends mmdebstrap >&2
}

# --- 1. a clean root ----------------------------------------------------------
# The release's Debian entries of this machine's apt configuration, so the
# root uses the same mirror and the same snapshot of the archive.  Only
# files with binary entries: on Debian 13 the deb-src file fetch-dep.sh
# may have added (suites unstable, testing, trixie) names the release too.
binary_entries() {
	grep -qE '^[[:space:]]*deb[[:space:]]|^Types:(.*[[:space:]])?deb([[:space:]]|$)' "$1"
}
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
	/etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] && grep -q "$codename" "$f" && binary_entries "$f" && sources+=("$f")
done
[ "${#sources[@]}" -gt 0 ] || fail "no apt source for $codename on this machine"
rm -rf "$root"
log "mmdebstrap $codename (minbase) into $root"
# systemd-standalone-sysusers: what creates the frr user where systemd
# itself is not installed (frr depends on one of the two).
mmdebstrap --quiet --variant=minbase --skip=cleanup/apt/lists \
	--include=systemd-standalone-sysusers "$codename" "$root" "${sources[@]}" >&2
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# Every installed system has an /etc/hosts (the installer writes it);
# mmdebstrap's root has none.  Without one, netbase (on Debian 13 it
# comes with python3, which frr-pythontools pulls in) writes one in its
# postinst and keeps it on purge: its postrm removes only a file with
# the checksum of an older default.
[ -e "$root/etc/hosts" ] ||
	printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
		>"$root/etc/hosts"
# As in any chroot: maintainer scripts must not start services here (in
# this machine's own network namespace).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"

# What a purge must come back to: every path.  (The frr user and group
# stay, as Debian leaves every system account it created.)
snapshot() {
	(cd "$root" && find . -xdev \
		\( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o \
		-path ./tmp -o -path ./var/cache -o -path ./var/lib/apt -o \
		-path ./var/lib/dpkg -o -path ./var/log/apt -o \
		-path ./var/log/dpkg.log -o -path ./var/log/alternatives.log -o \
		-path ./var/tmp -o \
		-path ./etc/resolv.conf -o -path ./etc/ld.so.cache -o \
		-path ./etc/passwd- -o -path ./etc/group- -o -path ./etc/shadow- -o \
		-path ./etc/gshadow- \) -prune -o -print |
		LC_ALL=C sort)
}
snapshot >"$debdir/root-before.txt"
packages() { in_root dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' |
	awk '$1 ~ /^.i/ {print $2}' | LC_ALL=C sort; }
packages >"$debdir/packages-before.txt"

mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"

# --- 2. Debian's frr, then ours over it ------------------------------------------
log "installing Debian's frr"
in_root apt-get install -y -q --no-install-recommends frr >&2
old=$(in_root dpkg-query -W -f='${Version}' frr)
mkdir -p "$root/tmp/debs"
cp $debs "$root/tmp/debs/"
new=$(dpkg-deb -f "$(ls "$debdir"/frr_*.deb)" Version)
dpkg --compare-versions "$new" gt "$old" ||
	fail "our frr $new does not sort above Debian's $old"
log "upgrading frr $old -> $new with apt-get install ./*.deb"
in_root sh -c 'cd /tmp/debs && apt-get install -y -q --no-install-recommends ./*.deb' >&2
got=$(in_root dpkg-query -W -f='${Version}' frr)
[ "$got" = "$new" ] || fail "frr is $got after the upgrade, not $new"
for d in $debs; do
	p=$(dpkg-deb -f "$d" Package)
	v=$(dpkg-deb -f "$d" Version)
	s=$(in_root dpkg-query -W -f='${Status} ${Version}' "$p")
	[ "$s" = "install ok installed $v" ] || fail "$p: '$s', expected $v installed"
done
[ -x "$root/usr/lib/frr/cnpproxyd" ] || fail "no /usr/lib/frr/cnpproxyd"
[ -f "$root/usr/share/yang/frr-cnpproxyd.yang" ] || fail "no frr-cnpproxyd.yang"
grep -qx 'cnpproxyd=no' "$root/etc/frr/daemons" ||
	fail "/etc/frr/daemons does not say cnpproxyd=no"
in_root id frr >/dev/null || fail "no frr user"
for t in pnc-pkt roce-emu pnc-qmon pnc-tc-mark pnc-fl-encap pnc-delay-line; do
	[ -x "$root/usr/bin/$t" ] || fail "pnc-tools: no /usr/bin/$t"
	[ -f "$root/usr/share/man/man1/$t.1.gz" ] || fail "pnc-tools: no man page for $t"
done
# The tools run from the package: a notification built and decoded.
in_root sh -c 'pnc-pkt build notif invoking=rc-write inv.dqpn=0x11 |
	pnc-pkt decode' | grep -q '"kind":"notif"' || fail "pnc-pkt does not run"

# --- 3. frr with cnpproxyd, under watchfrr, in a namespace ----------------------------
sed -i 's/^cnpproxyd=no$/cnpproxyd=yes/' "$root/etc/frr/daemons"
ip netns add "$ns"
ip -n "$ns" link set lo up
log "frrinit.sh start in netns $ns"
in_ns /usr/lib/frr/frrinit.sh start >&2 || fail "frrinit.sh start failed"

# status_json: vtysh's answer, checked to be JSON of cnpproxyd's status
status_json() {
	in_ns vtysh -c 'show cnpproxy status json' 2>/dev/null |
		python3 -c 'import json, sys
s = json.load(sys.stdin)
assert isinstance(s, dict) and s, "empty"
print(json.dumps(s, sort_keys=True))'
}
wait_status() {
	for _ in $(seq 1 60); do
		status_json >"$debdir/status.json" 2>/dev/null && return 0
		sleep 0.5
	done
	return 1
}
wait_status || fail "vtysh: no JSON from 'show cnpproxy status json' in 30 s"
log "show cnpproxy status json: $(head -c 300 "$debdir/status.json")"

cnp_pid() {
	for p in $(root_pids); do
		[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$root/usr/lib/frr/cnpproxyd" ] &&
			echo "$p"
	done
	true
}
pid=$(cnp_pid)
[ -n "$pid" ] || fail "no cnpproxyd process"
[ "$(readlink "/proc/$pid/ns/net")" = "$(ip netns exec "$ns" readlink /proc/self/ns/net)" ] ||
	fail "cnpproxyd is not in the test's network namespace"
log "SIGKILL to cnpproxyd ($pid): watchfrr must restart it"
kill -9 "$pid"
restarted=""
for _ in $(seq 1 60); do
	n=$(cnp_pid)
	if [ -n "$n" ] && [ "$n" != "$pid" ] && status_json >/dev/null 2>&1; then
		restarted=$n
		break
	fi
	sleep 0.5
done
[ -n "$restarted" ] || fail "watchfrr did not restart cnpproxyd within 30 s"
log "cnpproxyd restarted as $restarted and answers"

log "frrinit.sh stop"
in_ns /usr/lib/frr/frrinit.sh stop >&2 || fail "frrinit.sh stop failed"
for _ in $(seq 1 20); do
	[ -z "$(root_pids)" ] && break
	sleep 0.5
done
[ -z "$(root_pids)" ] || fail "processes left after stop: $(root_pids)"

# --- 4. purge -----------------------------------------------------------------------
# pnc's packages, and every package installed since the clean root (Debian's
# frr and what either pulled in).
pkgs=$(for d in $debs; do dpkg-deb -f "$d" Package; done)
extra=$(packages | LC_ALL=C comm -13 "$debdir/packages-before.txt" - |
	grep -vxF -f <(echo "$pkgs") || true)
log "purging $(echo $pkgs), then what came with them: $(echo $extra)"
# shellcheck disable=SC2086
in_root apt-get purge -y -q $pkgs >&2
# shellcheck disable=SC2086
[ -z "$extra" ] || in_root apt-get purge -y -q $extra >&2
rm -rf "$root/tmp/debs"
for m in dev sys proc; do umount -l "$root/$m"; done
snapshot >"$debdir/root-after.txt"
if ! diff -u "$debdir/root-before.txt" "$debdir/root-after.txt" >"$debdir/root-diff.txt"; then
	grep '^[-+]\.' "$debdir/root-diff.txt" | sed -n 1,20p >&2
	fail "purge left the root different (see $debdir/root-diff.txt)"
fi
log "PASS: installed over Debian's frr $old, ran cnpproxyd, purged clean"
