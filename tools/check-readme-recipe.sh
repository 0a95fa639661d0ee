#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-readme-recipe.sh: run the README's manual patch recipe (the sh
# block after "<!-- recipe: git am -->") as a user would, in a scratch
# directory holding the FRR tarball and this checkout as ../pnc, and
# check that every patch of the series was applied and the links made.
# The tarball comes from the download cache or PNC_DEPS_DIR, through
# tools/fetch-dep.sh.

set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
recipe=$(awk '/<!-- recipe: git am -->/ { r = 1; next }
	      r && /^```sh/ { b = 1; next }
	      b && /^```/ { exit }
	      b { print }' "$repo/README.md")
[ -n "$recipe" ] || { echo "check-readme-recipe: no recipe in README.md" >&2; exit 1; }

tarball=$("$repo/tools/fetch-dep.sh" frr "${XDG_CACHE_HOME:-$HOME/.cache}/pnc" \
	"${PNC_DEPS_DIR:-}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$tarball" "$work/frr_10.7.1.orig.tar.xz"
ln -s "$repo" "$work/pnc"

# As root, tar keeps the archive's owners, which git then distrusts; a
# user extracting as himself never meets that.
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*'

# A user's interactive shell: errors stop it, but no pipefail (the
# recipe's cat may miss an empty series).
(
	cd "$work"
	export GIT_AUTHOR_NAME=pnc GIT_AUTHOR_EMAIL=pnc@localhost
	export GIT_COMMITTER_NAME=pnc GIT_COMMITTER_EMAIL=pnc@localhost
	bash -e -c "$recipe"
) >"$work/recipe.log" 2>&1 || { cat "$work/recipe.log"; echo "FAIL: README recipe" >&2; exit 1; }

want=$({ cat "$repo"/{zebra,isisd,ospfd,bgpd}-pnc/*.patch 2>/dev/null || true; } |
	grep -c '^From 0\{40\} ')
got=$(git -C "$work/frr-10.7.1" rev-list --count HEAD)
if [ "$got" != $((want + 1)) ]; then
	echo "FAIL: README recipe applied $((got - 1)) of $want patches" >&2
	exit 1
fi
for link in cnpproxyd yang/frr-cnpproxyd.yang; do
	[ -e "$work/frr-10.7.1/$link" ] || { echo "FAIL: README recipe: no $link" >&2; exit 1; }
done
echo "PASS: the README's git am recipe applies all $want patches to pristine FRR"
