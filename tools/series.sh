# SPDX-License-Identifier: GPL-2.0-or-later
# Shared definitions for frr-tree.sh and export-patches.sh (sourced).

# The patch series, in the order they are applied to pristine FRR.
PNC_SERIES="zebra-pnc isisd-pnc ospfd-pnc bgpd-pnc"

# Tag on the pristine upstream commit in the FRR tree.
PNC_BASE_TAG="pnc-upstream"

# Repository files that become part of the FRR tree (as symlinks, so that
# editing them in the repository is enough).  Listed in the tree's
# .git/info/exclude: they are never part of a patch.
PNC_TREE_LINKS="cnpproxyd yang/frr-cnpproxyd.yang"

# A fixed identity and date for the commits the scripts make, so that the
# tree and the exported patches do not depend on who runs them or when.
export GIT_COMMITTER_NAME="pnc tree"
export GIT_COMMITTER_EMAIL="pnc@localhost"
export GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

# series_of SUBJECT: which series a commit belongs to.  The area before
# the first ": " of an FRR-style subject decides ("isisd: ...",
# "isisd, doc: ..." -> isisd-pnc); anything not naming a protocol daemon
# (lib, zebra, vtysh, build, tools, tests, doc, ...) is zebra-pnc.
series_of() {
	area=${1%%: *}
	[ "$area" = "$1" ] && area=""
	for a in $(echo "$area" | tr ',/' '  '); do
		case "$a" in
		isisd) echo isisd-pnc; return ;;
		ospfd|ospf6d) echo ospfd-pnc; return ;;
		bgpd) echo bgpd-pnc; return ;;
		esac
	done
	echo zebra-pnc
}

# series_index NAME: position of NAME in PNC_SERIES (0-based)
series_index() {
	i=0
	for s in $PNC_SERIES; do
		[ "$s" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo 99
}
