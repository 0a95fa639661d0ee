#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Obtain a verified source tarball of a third-party dependency.
#
# Usage: tools/fetch-dep.sh NAME DESTDIR [EXPLICIT]
#   NAME      frr, libyang, frr-debian or libyang-debian (tools/deps.sha256)
#   DESTDIR   where the verified tarball is placed (the download cache)
#   EXPLICIT  optional tarball file, or directory holding it
#
# Sources are tried in this order, and each candidate must match one of
# the digests in tools/deps.sha256 before it is used:
#   1. EXPLICIT (configure --with-NAME-tarball / --with-deps-dir)
#   2. DESTDIR, the local download cache (a previous run)
#   3. Debian's source package (apt-get source), adding a deb-src entry
#      for the suites that carry the version if none is configured
#   4. the upstream release archive
# The path of the verified tarball is printed on stdout.

set -eu

name=$1
dest=$2
explicit=${3:-}
here=$(cd "$(dirname "$0")" && pwd)

line=$(awk -v n="$name" '$1 == n' "$here/deps.sha256")
[ -n "$line" ] || { echo "fetch-dep: unknown dependency '$name'" >&2; exit 2; }
set -- $line
version=$2
file=$3
sum_file=$4
sum_tar=$5

log() { echo "fetch-dep: $name $version: $*" >&2; }

# Downloads land in a scratch directory that goes away however we exit.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# verify FILE: 0 if FILE is the known tarball (or a recompression of it)
verify() {
	[ -f "$1" ] || return 1
	s=$(sha256sum "$1" | cut -d' ' -f1)
	[ "$s" = "$sum_file" ] && return 0
	case "$1" in
	*.xz) s=$(xz -dc "$1" | sha256sum | cut -d' ' -f1) ;;
	*.gz) s=$(gzip -dc "$1" | sha256sum | cut -d' ' -f1) ;;
	*.bz2) s=$(bzip2 -dc "$1" | sha256sum | cut -d' ' -f1) ;;
	*) return 1 ;;
	esac
	[ "$s" = "$sum_tar" ]
}

# accept FILE: verify it and copy it into the cache
accept() {
	if verify "$1"; then
		mkdir -p "$dest"
		case "$1" in
		"$dest"/*) ;;
		*) cp "$1" "$dest/$(basename "$1").tmp" &&
		   mv "$dest/$(basename "$1").tmp" "$dest/$(basename "$1")" ;;
		esac
		log "verified $(basename "$1") (from $2)"
		echo "$dest/$(basename "$1")"
		exit 0
	fi
	log "REJECTED $1: SHA-256 does not match tools/deps.sha256"
	return 1
}

# 1. explicit file or directory
if [ -n "$explicit" ]; then
	if [ -d "$explicit" ]; then
		for f in "$explicit/$file" "$explicit"/"$name"[-_]"$version".*tar*; do
			[ -f "$f" ] && accept "$f" "$explicit" || true
		done
		log "nothing usable in $explicit"
	elif [ -f "$explicit" ]; then
		accept "$explicit" "option" || true
	else
		log "$explicit does not exist"
	fi
	exit 1
fi

# 2. cache
for f in "$dest/$file" "$dest"/"$name"[-_]"$version".tar*; do
	[ -f "$f" ] && accept "$f" "cache" || true
done

# download URL FILE ORIGIN: fetch URL into the scratch directory as FILE
# and accept it (which exits) if it verifies
download() {
	if command -v curl >/dev/null 2>&1 &&
		curl -fsSL --max-time 120 -o "$tmp/$2" "$1"; then
		accept "$tmp/$2" "$3" || true
	fi
}

# mirror_uri: the Debian mirror apt is configured with (not security)
mirror_uri() {
	uri=$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '{print $2}' | grep -v -- '-security' | head -1)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 !~ /security/ {print $2; exit}' \
		/etc/apt/sources.list 2>/dev/null)
	echo "$uri"
}

# 3'. Debian packaging: straight from the mirror's pool
case "$name" in
*-debian)
	src=${name%-debian}
	uri=$(mirror_uri)
	[ -n "$uri" ] || { log "no Debian mirror configured"; exit 1; }
	# The pool files lib* sources under their first four letters.
	case "$src" in
	lib?*) initial=$(echo "$src" | cut -c1-4) ;;
	*) initial=$(echo "$src" | cut -c1) ;;
	esac
	url="${uri%/}/pool/main/$initial/$src/$file"
	log "fetching $file from the configured mirror's pool"
	download "$url" "$file" "Debian pool"
	log "could not obtain a verified $file; pass its directory with PNC_DEPS_DIR"
	exit 1
	;;
esac

# 3. Debian source package
apt_source() {
	command -v apt-get >/dev/null 2>&1 || return 1
	if ! apt-cache showsrc "$name" 2>/dev/null |
		grep -q "^Version: $version-"; then
		[ "$(id -u)" = 0 ] || { log "no deb-src for $version (not root, not adding one)"; return 1; }
		# Reuse the mirror this machine already uses for Debian.
		uri=$(mirror_uri)
		[ -n "$uri" ] || { log "no Debian mirror configured"; return 1; }
		log "adding deb-src entry (unstable, testing) from the configured mirror"
		cat >/etc/apt/sources.list.d/pnc-deb-src.sources <<EOT
# Added by pnc tools/fetch-dep.sh to fetch FRR and libyang sources.
Types: deb-src
URIs: $uri
Suites: unstable testing trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
		apt-get update -q >&2 || true
	fi
	dv=$(apt-cache showsrc "$name" 2>/dev/null |
		awk -v v="$version" '$1 == "Version:" && index($2, v "-") == 1 {print $2; exit}')
	[ -n "$dv" ] || { log "Debian has no source package for $version"; return 1; }
	log "apt-get source $name=$dv"
	# The .dsc of an old upload may already be gone from the mirror while
	# its orig tarball (shared by all uploads) is still there: use what
	# arrived and let the digest decide.
	(cd "$tmp" && apt-get source -q --download-only "$name=$dv" >&2) || true
	for f in "$tmp/$file" "$tmp"/"$name"_"$version".orig.tar*; do
		[ -f "$f" ] && accept "$f" "Debian source package" || true
	done
	return 1
}
apt_source || true

# 4. upstream release archive
case "$name" in
frr) url="https://github.com/FRRouting/frr/archive/refs/tags/frr-$version.tar.gz" ;;
libyang) url="https://github.com/CESNET/libyang/archive/refs/tags/v$version.tar.gz" ;;
esac
log "trying upstream $url"
download "$url" "$name-$version.tar.gz" upstream
log "could not obtain a verified tarball; pass one with --with-$name-tarball=FILE"
exit 1
