#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# pnc demo: the best end-to-end scenario the project has so far.
#
# Five network namespaces, all created and removed by this script:
#
#   sender --- pe1 ===== p ===== pe2 --- receiver
#    host      router  router  router     host
#
# The three routers run zebra, mgmtd, staticd and isisd from the pnc build
# (FRR 10.7.1 + the pnc patch series) with IS-IS between them; cnpproxyd
# runs on pe1 (proxy role) and p (congestion point role).  The demo shows
# the adjacencies, the routes, end-to-end reachability between the hosts
# and cnpproxyd's status, then tears everything down (also on Ctrl-C).
#
# Usage: tools/demo.sh FRR_ROOT

set -euo pipefail

root=${1:?usage: demo.sh FRR_ROOT}
frrdir=$root/lib/frr
vtysh_bin=$root/bin/vtysh
prefix=pncdemo
routers="pe1 p pe2"
hosts="sender receiver"

if [ "$(id -u)" != 0 ]; then
	echo "demo: needs root (network namespaces): sudo make demo" >&2
	exit 1
fi

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
ns() { local n=$1; shift; ip netns exec "$prefix-$n" "$@"; }
vty() { local n=$1; shift; ns "$n" "$vtysh_bin" -N "$prefix-$n" "$@"; }

cleanup() {
	set +e
	for r in $routers; do
		for pidf in /var/run/frr/$prefix-$r/*.pid; do
			[ -f "$pidf" ] && kill "$(cat "$pidf")" 2>/dev/null
		done
	done
	sleep 1
	for r in $routers; do
		for pidf in /var/run/frr/$prefix-$r/*.pid; do
			[ -f "$pidf" ] && kill -9 "$(cat "$pidf")" 2>/dev/null
		done
		rm -rf "/var/run/frr/$prefix-$r" "/etc/frr/$prefix-$r"
	done
	for n in $routers $hosts; do
		ip netns del "$prefix-$n" 2>/dev/null
	done
	rmdir /var/run/frr /etc/frr 2>/dev/null
	return 0
}
trap 'cleanup; echo "demo: torn down"' EXIT
trap 'echo; echo "demo: interrupted"; exit 130' INT TERM

cleanup

step "Topology: sender -- pe1 == p == pe2 -- receiver (namespaces $prefix-*)"
for n in $routers $hosts; do
	ip netns add "$prefix-$n"
	ns "$n" ip link set lo up
done

# link NAME_A IF_A ADDR_A NAME_B IF_B ADDR_B
link() {
	ip link add "$2" netns "$prefix-$1" type veth peer name "$5" netns "$prefix-$4"
	ns "$1" ip addr add "$3" dev "$2"
	ns "$4" ip addr add "$6" dev "$5"
	ns "$1" ip link set "$2" up
	ns "$4" ip link set "$5" up
}
link sender eth0 10.1.0.2/24 pe1 eth-sender 10.1.0.1/24
link pe1 eth-p 10.0.1.1/24 p eth-pe1 10.0.1.2/24
link p eth-pe2 10.0.2.2/24 pe2 eth-p 10.0.2.3/24
link pe2 eth-receiver 10.2.0.1/24 receiver eth0 10.2.0.2/24
ns sender ip route add default via 10.1.0.1
ns receiver ip route add default via 10.2.0.1
for r in $routers; do
	ns "$r" sysctl -qw net.ipv4.ip_forward=1
done

step "Starting FRR (pnc build in $root) and cnpproxyd"
sysid() { case $1 in pe1) echo 0001 ;; p) echo 0002 ;; pe2) echo 0003 ;; esac; }
loopback() { case $1 in pe1) echo 10.255.0.1 ;; p) echo 10.255.0.2 ;; pe2) echo 10.255.0.3 ;; esac; }
for r in $routers; do
	etc=/etc/frr/$prefix-$r
	run=/var/run/frr/$prefix-$r
	install -d -o frr -g frr "$etc" "$run"
	echo "service integrated-vtysh-config" >"$etc/vtysh.conf"
	{
		echo "hostname $r"
		echo "!"
		echo "interface lo"
		echo " ip address $(loopback "$r")/32"
		echo " ip router isis wan"
		echo " isis passive"
		echo "exit"
		for ifc in $(ns "$r" ls /sys/class/net | grep '^eth-'); do
			echo "interface $ifc"
			echo " ip router isis wan"
			case $ifc in
			eth-sender|eth-receiver) echo " isis passive" ;;
			*) echo " isis network point-to-point" ;;
			esac
			echo "exit"
		done
		echo "router isis wan"
		echo " net 49.0001.0000.0000.$(sysid "$r").00"
		echo " is-type level-2-only"
		echo " lsp-gen-interval 1"
		echo "exit"
		case $r in
		pe1) printf 'router cnpproxy\n proxy\nexit\n' ;;
		p) printf 'router cnpproxy\n congestion-point\nexit\n' ;;
		esac
	} >"$etc/frr.conf"
	chown frr:frr "$etc"/*.conf
	daemons="mgmtd zebra staticd isisd"
	[ "$r" != pe2 ] && daemons="$daemons cnpproxyd"
	# Each router gets its own UTS namespace so that IS-IS advertises
	# pe1/p/pe2 as dynamic hostnames instead of the machine's name.
	for d in $daemons; do
		ns "$r" unshare --uts sh -c 'hostname "$1"; shift; exec "$@"' - "$r" \
			"$frrdir/$d" -N "$prefix-$r" -d -A 127.0.0.1 \
			--log "file:$run/$d.log" >"$run/$d.start" 2>&1 ||
			{ cat "$run/$d.start"; echo "demo: $d failed to start on $r" >&2; exit 1; }
	done
	vty "$r" -b >"$run/boot.log" 2>&1 ||
		{ cat "$run/boot.log"; echo "demo: configuration of $r failed" >&2; exit 1; }
	echo "  $r: $daemons"
done

step "Waiting for IS-IS to converge"
ok=0
for _ in $(seq 1 60); do
	if ns sender ping -c1 -W1 10.2.0.2 >/dev/null 2>&1; then ok=1; break; fi
	sleep 1
done
[ $ok = 1 ] || { echo "demo: no end-to-end reachability after 60 s" >&2; exit 1; }
echo "  sender 10.1.0.2 reaches receiver 10.2.0.2 across pe1, p, pe2"

step "IS-IS adjacencies on p"
vty p -c "show isis neighbor"
step "Routes on pe1 learned by IS-IS"
vty pe1 -c "show ip route isis"
step "cnpproxyd on pe1 (proxy)"
vty pe1 -c "show cnpproxy status"
step "cnpproxyd on p (congestion point)"
vty p -c "show cnpproxy status"
step "Running configuration of cnpproxyd on p"
vty p -d cnpproxyd -c "show running-config" | sed -n '/^router cnpproxy/,/^exit/p'

cat <<'EOT'

What this shows: FRR 10.7.1 with the pnc patch series routes between the
two hosts, and cnpproxyd runs as an FRR daemon on pe1 and p, configured
from vtysh and connected to zebra.  The PNC signalling, the proxy and the
congestion point packet paths are the next steps (see README.md); this
demo grows into the closed-loop congestion demo as they land.
EOT
step "Tearing down"
