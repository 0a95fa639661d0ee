#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check-debian13: the README on a fresh Debian 13 ("trixie"), from
# any Debian host (root):
#
#   1. mmdebstrap makes a minimal trixie root with only what a newcomer
#      has before reading the README: git, make, sudo, ca-certificates.
#      No compiler: the README's own commands (tools/install-deps.sh)
#      must install everything else;
#   2. the project's committed HEAD is cloned into it (/src/pnc);
#   3. inside it, the README's "Quick start" commands run as the README
#      lists them (extracted as .ci/run extracts them, so that README and
#      this check cannot drift apart: `sudo make demo`, `sudo make check`),
#      then the first command of "Install on a router" (`sudo make deb`)
#      and `sudo make check-deb`.
#
# Each step's rc and time is printed and kept in OUTDIR/summary.txt, its
# output in OUTDIR/STEP.log (demo.log, check.log, deb.log,
# check-deb.log); the script fails if any step fails.  The root stays in
# OUTDIR/root for a look (the topotests' logs are in its /tmp/topotests);
# the next run removes it.
#
# Usage: tools/check-debian13.sh SRCDIR OUTDIR
#
# Environment:
#   PNC_DEPS_DIR   the verified dependency tarballs (.ci/run sets it):
#                  bind-mounted read-only at /deps in the root and passed
#                  on to the commands as PNC_DEPS_DIR=/deps
#   CHECK_DEBIAN13_STEPS    the steps to run, of: install-deps (only
#                  tools/install-deps.sh), the README's steps (demo
#                  check), deb, check-deb; default: all but install-deps
#   CHECK_DEBIAN13_REUSE=1  keep the root of a previous run (no new
#                  mmdebstrap, no new clone): for looking into a failure
#   CHECK_DEBIAN13_TIMEOUT  seconds one step may take (default 7200)
#
# The apt sources of the root are this machine's Debian mirrors with
# trixie's suites; its apt settings (the files of /etc/apt/apt.conf.d that
# no package owns), /etc/hosts and /etc/resolv.conf are this machine's:
# the root reaches the archive the way the host does.
#
# Why not chroot: FRR's topotest library starts each router in namespaces
# of its own (unshare) and later enters them with nsenter.  Entering a
# mount namespace (setns) sets the caller's root directory to that
# namespace's root -- the host's /, outside a chroot -- so in a chroot the
# harness's commands no longer find the root's programs ("unshare
# failed", rc 127).  The commands here run instead, as a container
# runtime would run them, in a private mount namespace whose root is the
# trixie root (pivot_root): every namespace made inside it has that root
# too.  And in a PID namespace of their own: munet (FRR's topotest
# library) runs its top-level commands in the namespaces of PID 1, which
# would otherwise be this machine's init (its root and its /sys); and a
# topotest session's start SIGKILLs the processes of every other munet
# session it can see in /proc: here it sees none of the host's (a session
# started on the host still sees, and ends, these).  The network
# namespace stays the host's (the archive is reached through it); the
# tests make their own.

set -uo pipefail

[ $# -eq 2 ] || { echo "usage: $0 SRCDIR OUTDIR" >&2; exit 2; }
src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
root=$out/root
codename=trixie
clone=/src/pnc
timeout=${CHECK_DEBIAN13_TIMEOUT:-7200}

log() { echo "check-debian13: $*"; }
die() { log "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (mmdebstrap, mount namespaces)"
deps=""
if [ -n "${PNC_DEPS_DIR:-}" ]; then
	deps=$(cd "$PNC_DEPS_DIR" && pwd) || die "PNC_DEPS_DIR $PNC_DEPS_DIR: no such directory"
fi

# --- the README's commands ---------------------------------------------------
# section_commands TITLE: the commands of the first sh block under the
# "## TITLE" heading of README.md, comments dropped (as .ci/run reads them)
section_commands() {
	awk -v t="## $1" 'index($0, t) == 1 { q = 1; next }
	     q && /^```sh/ { b = 1; next }
	     b && /^```/ { exit }
	     b { sub(/[ \t]*#.*/, ""); if ($0 != "") print }' "$src/README.md"
}
mapfile -t quick < <(section_commands "Quick start")
if [ "${#quick[@]}" -lt 2 ] || [ "${quick[0]}" != "sudo make demo" ]; then
	die "README's quick start is not 'sudo make demo' first: ${quick[*]}"
fi
mapfile -t install < <(section_commands "Install on a router")
[ "${install[0]:-}" = "sudo make deb" ] ||
	die "README's install section does not start with 'sudo make deb'"

# Steps, in order: name and command.  A README command's step is named
# after its make target (`sudo make demo` -> demo).
step_names=() step_cmds=()
add_step() { step_names+=("$1"); step_cmds+=("$2"); }
add_step install-deps "sudo tools/install-deps.sh"
for c in "${quick[@]}"; do
	n=${c#sudo }
	n=${n#make }
	add_step "${n// /-}" "$c"
done
add_step deb "${install[0]}"
add_step check-deb "sudo make check-deb"
want=${CHECK_DEBIAN13_STEPS:-${step_names[*]:1}}
for w in $want; do
	printf '%s\n' "${step_names[@]}" | grep -qxF -- "$w" ||
		die "no step '$w' (steps: ${step_names[*]})"
done

# --- processes of the root ---------------------------------------------------------
# Processes whose root directory is the trixie root (inside its mount
# namespace, or namespaces made there): what a step left running.
root_id=""
root_pids() {
	[ -n "$root_id" ] || return 0
	for p in /proc/[0-9]*; do
		[ "$(stat -L -c %d:%i "$p/root" 2>/dev/null)" = "$root_id" ] &&
			echo "${p#/proc/}"
	done
	true
}
kill_leftovers() {
	pids=$(root_pids)
	[ -n "$pids" ] || return 0
	log "ending what $1 left running:$(for p in $pids; do printf ' %s(%s)' "$p" "$(cat "/proc/$p/comm" 2>/dev/null)"; done)"
	# shellcheck disable=SC2086
	kill -TERM $pids 2>/dev/null
	sleep 2
	pids=$(root_pids)
	# shellcheck disable=SC2086
	[ -z "$pids" ] || kill -KILL $pids 2>/dev/null
	true
}

# --- 1. the root ----------------------------------------------------------------------
# The Debian mirrors this machine's apt uses: the URI of its release's
# main suite and of its security suite, from one-line or deb822 sources.
host_sources() {
	. /etc/os-release
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" { sub(/^deb[ \t]+(\[[^]]*\][ \t]+)?/, ""); print $1, $2 }' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'function flush() {
			if (deb && uri != "") { n = split(suites, s, " "); for (i = 1; i <= n; i++) print uri, s[i] }
			deb = 0; uri = ""; suites = "" }
		     /^[ \t]*$/ { flush(); next }
		     /^Types:/ { deb = (" " $0 " ") ~ /[ \t]deb[ \t]/ }
		     /^URIs:/ { uri = $2 }
		     /^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
		     END { flush() }' "$f"
	done | awk -v c="$VERSION_CODENAME" '$2 == c || $2 == c "-updates" || $2 == c "-security"'
}
mirror=$(host_sources | awk '$2 !~ /-security$/ {print $1; exit}')
security=$(host_sources | awk '$2 ~ /-security$/ {print $1; exit}')
[ -n "$mirror" ] || die "no Debian mirror in this machine's apt sources"

summary=$out/summary.txt
rm -f "$summary"
made=""
reuse=${CHECK_DEBIAN13_REUSE:-}
if [ "$reuse" = 1 ] && [ -d "$root/$clone" ]; then
	root_id=$(stat -c %d:%i "$root")
	log "reusing $root"
else
	if [ -e "$root" ]; then
		root_id=$(stat -c %d:%i "$root")
		kill_leftovers "the previous run"
		# Never remove through a mount: the steps' mounts live in their
		# own namespaces, so nothing of this machine's is mounted there.
		! findmnt -rn -o TARGET | grep -qF "$root" ||
			die "something is mounted under $root: not removing it"
		rm -rf "$root"
	fi
	rm -f "$out"/*.log
	log "mmdebstrap $codename (minbase + git make sudo ca-certificates) into $root"
	t=$(date +%s)
	# The host's apt configuration goes in before apt first runs: the
	# files of /etc/apt/apt.conf.d that no package of the host owns (its
	# local settings).  A package's own (say appstream's 50appstream)
	# would be a conffile "created by you" in the root, and dpkg would
	# stop at a prompt when the package comes to the root too.
	conf=$out/apt.conf.d
	rm -rf "$conf" && mkdir -p "$conf"
	for f in /etc/apt/apt.conf.d/*; do
		[ -f "$f" ] || continue
		dpkg-query -S "$f" >/dev/null 2>&1 || cp -p "$f" "$conf/"
	done
	log "this machine's apt settings: $(cd "$conf" && echo *)"
	# shellcheck disable=SC2016
	mmdebstrap --variant=minbase --include=git,make,sudo,ca-certificates \
		--setup-hook='mkdir -p "$1/etc/apt/apt.conf.d" && cp -p '"$conf"'/* "$1/etc/apt/apt.conf.d/"' \
		"$codename" "$root" \
		"deb $mirror $codename main" "deb $mirror $codename-updates main" \
		${security:+"deb $security $codename-security main"} \
		>"$out/mmdebstrap.log" 2>&1 ||
		{ tail -20 "$out/mmdebstrap.log"; die "mmdebstrap failed (log: $out/mmdebstrap.log)"; }
	made="root made by mmdebstrap in $(($(date +%s) - t)) s"
	log "$made: Debian $(cat "$root/etc/debian_version")"
	root_id=$(stat -c %d:%i "$root")
	cp /etc/hosts "$root/etc/hosts"
	cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
	# sudo keeps only a few variables; the tarballs' directory is one
	# more, as on a machine whose admin set it up so.
	if [ -n "$deps" ]; then
		echo 'Defaults env_keep += "PNC_DEPS_DIR"' >"$root/etc/sudoers.d/pnc-deps-dir"
		chmod 440 "$root/etc/sudoers.d/pnc-deps-dir"
	fi

	# --- 2. the clone ------------------------------------------------------------------
	mkdir -p "$root$(dirname "$clone")"
	git clone -q --no-hardlinks "$src" "$root$clone" || die "git clone failed"
	log "cloned $(git -C "$root$clone" log -1 --format='%h %s') into $clone"
	[ -z "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ] ||
		log "(uncommitted changes in $src are not part of this check: it runs HEAD)"
fi

# --- 3. the steps, in the pivoted root ----------------------------------------------------
# in_root CMD: run CMD (bash) in /src/pnc of the trixie root, in private
# mount and PID namespaces, the mount namespace pivoted to the root, with
# a clean environment.
# shellcheck disable=SC2016
setup='set -e
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
r=$1 deps=$2 cmd=$3
mount --bind "$r" "$r"
mount -t proc proc "$r/proc"
mount --rbind /sys "$r/sys"
mount --rbind /dev "$r/dev"
mount -t tmpfs -o mode=755 tmpfs "$r/run"
mkdir -p "$r/run/lock"
if [ -n "$deps" ]; then
	mkdir -p "$r/deps"
	mount --bind "$deps" "$r/deps"
	mount -o remount,bind,ro "$r/deps"
fi
cd "$r"
mkdir -p oldroot
pivot_root . oldroot
cd /
umount -l /oldroot
rmdir /oldroot
cd '"$clone"'
# This shell is the init (PID 1) of the namespace: it reaps orphans (the
# daemons) while the command runs, and ending it ends them all.
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root USER=root LOGNAME=root SHELL=/bin/bash LANG=C.UTF-8 TERM=dumb \
	${deps:+PNC_DEPS_DIR=/deps} /bin/bash -c "$cmd" &
set +e
wait $!'
in_root() {
	timeout --kill-after=60 "$timeout" \
		unshare -m -p --fork --kill-child --propagation private \
		/bin/bash -c "$setup" setup "$root" "$deps" "$1"
}

failed=0
{
	echo "check-debian13: $(git -C "$root$clone" log -1 --format='%H') on Debian $(cat "$root/etc/debian_version")"
	[ -z "$made" ] || echo "check-debian13: $made"
	[ -z "$deps" ] || echo "check-debian13: dependency tarballs from PNC_DEPS_DIR ($deps, /deps in the root)"
} | tee -a "$summary"
declare -A rc_of
for i in "${!step_names[@]}"; do
	name=${step_names[$i]} cmd=${step_cmds[$i]}
	case " $want " in *" $name "*) ;; *) continue ;; esac
	steplog=$out/$name.log
	if [ "$name" = check-deb ] && [ "${rc_of[deb]:-0}" != 0 ]; then
		echo "check-debian13: $name: skipped (make deb failed)" | tee -a "$summary"
		failed=1
		continue
	fi
	log "\$ $cmd (log: $steplog)"
	t=$(date +%s)
	in_root "$cmd" </dev/null >"$steplog" 2>&1
	rc=$?
	rc_of[$name]=$rc
	secs=$(($(date +%s) - t))
	kill_leftovers "$name"
	echo "check-debian13: $name ($cmd): rc $rc, $secs s" | tee -a "$summary"
	if [ "$rc" != 0 ]; then
		failed=1
		[ "$rc" != 124 ] || log "$name: stopped after $timeout s"
		tail -30 "$steplog" | sed "s/^/  $name: /"
	fi
done

if [ "$failed" = 0 ]; then
	echo "check-debian13: PASS" | tee -a "$summary"
else
	echo "check-debian13: FAIL (logs: $out/*.log)" | tee -a "$summary"
fi
exit "$failed"
