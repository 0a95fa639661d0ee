#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Lay out pristine FRR as a git repository and apply pnc's patch series.
#
# Usage: tools/frr-tree.sh SRCDIR TARBALL TREE [--force]
#   SRCDIR   the pnc repository (holds zebra-pnc/ isisd-pnc/ ...)
#   TARBALL  verified FRR release tarball
#   TREE     where the FRR git tree goes (build/frr)
#
# The first commit of TREE is upstream FRR, tagged pnc-upstream; then one
# commit per patch, applied with git am in series order.  If TREE already
# exists it is left alone when it matches the patch files; when it does
# not, the script stops rather than throw away commits that were never
# exported (--force recreates it).

set -eu

src=$(cd "$1" && pwd)
tarball=$2
mkdir -p "$(dirname "$3")"
tree=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
force=${4:-}
. "$src/tools/series.sh"

log() { echo "frr-tree: $*" >&2; }

link_repo_files() {
	for f in $PNC_TREE_LINKS; do
		rm -rf "${tree:?}/$f"
		ln -s "$src/$f" "$tree/$f"
		grep -qxF "/$f" "$tree/.git/info/exclude" 2>/dev/null ||
			echo "/$f" >>"$tree/.git/info/exclude"
	done
}

if [ -d "$tree/.git" ] && [ "$force" != "--force" ]; then
	if "$src/tools/export-patches.sh" "$src" "$tree" --check >/dev/null 2>&1; then
		log "$tree already matches the patch series"
		link_repo_files
		exit 0
	fi
	log "$tree differs from the patch files in the repository."
	log "  keep the tree's commits:   make export-patches"
	log "  rebuild it from patches:   make frr-tree FORCE=1"
	exit 1
fi

rm -rf "$tree"
mkdir -p "$tree"
log "extracting $(basename "$tarball")"
tar -xf "$tarball" -C "$tree" --strip-components=1
cd "$tree"
git init -q -b pnc
git config user.name "$GIT_COMMITTER_NAME"
git config user.email "$GIT_COMMITTER_EMAIL"
git config core.autocrlf false
git config am.keepcr true
# The tarball is the truth: add ignored files too.
git add -A -f .
GIT_AUTHOR_NAME="FRRouting" GIT_AUTHOR_EMAIL="dev@lists.frrouting.org" \
GIT_AUTHOR_DATE="$GIT_COMMITTER_DATE" \
	git commit -q --no-verify -m "FRR $(basename "$tarball") (pristine upstream)"
git tag "$PNC_BASE_TAG"

for s in $PNC_SERIES; do
	set -- "$src/$s"/*.patch
	[ -e "$1" ] || continue
	log "applying $s ($# patches)"
	if ! git am -q --whitespace=nowarn "$@"; then
		git am --abort || true
		log "a patch of $s does not apply to FRR; see above"
		exit 1
	fi
done
link_repo_files
# Tells the build to configure this tree (Makefile.am, frr-configure).
touch .git/pnc-created
log "tree ready at $tree ($(git rev-list --count "$PNC_BASE_TAG"..HEAD) pnc commits)"
