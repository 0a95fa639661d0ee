#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Export the commits of the FRR tree back into the patch directories.
#
# Usage: tools/export-patches.sh SRCDIR TREE [--check]
#   --check  write nothing; exit 1 if exporting would change any file
#
# Every commit after the pnc-upstream tag goes, via git format-patch, to
# the series its subject names (see series_of in tools/series.sh).  The
# commits must already be grouped in series order; the output does not
# depend on commit hashes, dates of application or the git version, so
# exporting an unchanged tree is a no-op.

set -eu

src=$(cd "$1" && pwd)
tree=$2
mode=${3:-}
. "$src/tools/series.sh"

log() { echo "export-patches: $*" >&2; }

[ -d "$tree/.git" ] || { log "no FRR tree at $tree (make frr-tree)"; exit 2; }
cd "$tree"
git rev-parse -q --verify "$PNC_BASE_TAG" >/dev/null ||
	{ log "$tree has no $PNC_BASE_TAG tag"; exit 2; }
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	log "warning: uncommitted changes in $tree are not exported"
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for s in $PNC_SERIES; do mkdir -p "$out/$s"; done

# Assign each commit to a series and check the grouping.
last=0
git log --reverse --format='%H %s' "$PNC_BASE_TAG"..HEAD >"$out/commits"
while read -r sha subject; do
	s=$(series_of "$subject")
	i=$(series_index "$s")
	if [ "$i" -lt "$last" ]; then
		log "commit '$subject' belongs to $s but follows a later series;"
		log "reorder the tree (git rebase -i $PNC_BASE_TAG) so series stay in the order: $PNC_SERIES"
		exit 2
	fi
	last=$i
	echo "$sha" >>"$out/$s.list"
done <"$out/commits"

for s in $PNC_SERIES; do
	[ -f "$out/$s.list" ] || continue
	first=$(head -1 "$out/$s.list")
	lastc=$(tail -1 "$out/$s.list")
	git -c core.abbrev=12 -c diff.noprefix=false -c format.signoff=false \
		format-patch -q --zero-commit --no-signature --no-numbered \
		--stat=80 --no-renames -o "$out/$s" "$first^..$lastc" >/dev/null
done

changed=0
for s in $PNC_SERIES; do
	mkdir -p "$src/$s"
	if ! diff -r -q -x .gitkeep -x README.md "$src/$s" "$out/$s" >/dev/null 2>&1; then
		changed=1
		diff -r -q -x .gitkeep -x README.md "$src/$s" "$out/$s" | sed "s|$out/||; s|$src/||" >&2 || true
		if [ "$mode" != "--check" ]; then
			rm -f "$src/$s"/*.patch
			cp "$out/$s"/*.patch "$src/$s/" 2>/dev/null || true
		fi
	fi
done

if [ "$mode" = "--check" ]; then
	[ $changed = 0 ] && log "patch files match the tree" ||
		log "exporting would change the patch files"
	exit $changed
fi
[ $changed = 0 ] && log "no change" || log "patch files updated"
