#!/bin/sh
# Builds nearby_<version>_<arch>.deb from a built binary and the files in packaging/
# (`make deb` builds the binary first: release, Swift standard library linked in statically).
#
#   make-deb.sh BINARY OUTDIR      writes OUTDIR/nearby_<version>_<arch>.deb, prints its path
#
# What goes in: /usr/bin/nearby (stripped), the man page, bash/zsh/fish completions, the udev
# rule (/lib/udev/rules.d), the systemd unit (/lib/systemd/system, ExecStart=/usr/bin/nearby,
# not enabled), the copyright file and changelog, and packaging/deb/{postinst,postrm}.
# Depends: what dpkg-shlibdeps finds the binary linked against (libc, libusb, libstdc++, ...),
# libmosquitto1 and libsystemd0 (opened with dlopen, so not seen by dpkg-shlibdeps), adduser and
# libcap2-bin for the postinst.
# Reproducible: file dates and the changelog date are the last commit's (SOURCE_DATE_EPOCH).
set -eu

binary=${1:?usage: make-deb.sh BINARY OUTDIR}
outdir=${2:?usage: make-deb.sh BINARY OUTDIR}
here=$(cd "$(dirname "$0")" && pwd -P)
root=$(dirname "$here")

version=$("$here/build-info.sh" version)
# The commit is the one the binary says it was built from (`nearby --version`).
built=$("$binary" --version)
commit=$(printf '%s\n' "$built" | sed -n 's/^.* (commit \(.*\))$/\1/p')
case "$built" in
    "$version (commit "*) ;;
    *) echo "make-deb.sh: $binary --version says '$built', not version $version (VERSION): rebuild it" >&2; exit 1 ;;
esac
arch=$(dpkg --print-architecture)
maintainer="nearby maintainers <maintainers@users.noreply.a-seed-78724deb.example>"
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git -c safe.directory="$root" -C "$root" log -1 --format=%ct 2> /dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd -P)
name="nearby_${version}_${arch}"
stage="$outdir/$name"
rm -rf "$stage"
umask 022

# The binary must not need the Swift toolchain at run time (release, --static-swift-stdlib).
if ldd "$binary" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime' >&2; then
    echo "make-deb.sh: $binary needs the Swift toolchain's libraries (above): build it with --static-swift-stdlib (make release)" >&2
    exit 1
fi
install -D -m 0755 "$binary" "$stage/usr/bin/nearby"
# No debug symbols or notes in the shipped binary (lintian: unstripped-binary-or-object).
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$stage/usr/bin/nearby"

install -d "$stage/usr/share/man/man1"
gzip -9n < "$here/man/nearby.1" > "$stage/usr/share/man/man1/nearby.1.gz"
chmod 0644 "$stage/usr/share/man/man1/nearby.1.gz"
install -d "$stage/usr/share/bash-completion/completions"
sed '1{/^#!/d}' "$here/completions/nearby.bash" > "$stage/usr/share/bash-completion/completions/nearby"   # sourced, not run
chmod 0644 "$stage/usr/share/bash-completion/completions/nearby"
install -D -m 0644 "$here/completions/_nearby" "$stage/usr/share/zsh/vendor-completions/_nearby"
install -D -m 0644 "$here/completions/nearby.fish" "$stage/usr/share/fish/vendor_completions.d/nearby.fish"
install -D -m 0644 "$here/99-nearby-uwb.rules" "$stage/lib/udev/rules.d/99-nearby-uwb.rules"

# The unit: packaging/nearby.service with the packaged binary's path and a header for the
# package (its own header tells how to install it by hand).
install -d "$stage/lib/systemd/system"
{
    echo "# nearby: UWB ranging with set-up accessories and zone-trigger hooks (from the nearby package)."
    echo "#"
    echo "# The package created the nearby user (groups plugdev, dialout). Before enabling:"
    echo "#   install -d -m 0755 /etc/nearby && nearby config example > /etc/nearby/config.toml   # then edit it"
    echo "#   sudo -u nearby -H nearby accessory add ...       # set the accessories up as the nearby user"
    echo "#   sudo -u nearby nearby doctor --config /etc/nearby/config.toml"
    echo "#   systemctl enable --now nearby && journalctl -u nearby -f"
    echo
    sed -e '1,/^\[Unit\]/{/^\[Unit\]/!d}' -e 's|^ExecStart=/usr/local/bin/nearby |ExecStart=/usr/bin/nearby |' "$here/nearby.service"
} > "$stage/lib/systemd/system/nearby.service"
chmod 0644 "$stage/lib/systemd/system/nearby.service"
grep -q '^ExecStart=/usr/bin/nearby ' "$stage/lib/systemd/system/nearby.service"

doc="$stage/usr/share/doc/nearby"
install -D -m 0644 "$here/deb/copyright" "$doc/copyright"
date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
printf 'nearby (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n' \
    "$version" "$commit" "$maintainer" "$date" | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

install -d "$stage/DEBIAN"
install -m 0755 "$here/deb/postinst" "$here/deb/postrm" "$stage/DEBIAN/"

# Depends from the libraries the binary links (dpkg-shlibdeps wants a debian/control to read).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/debian"
printf 'Source: nearby\n\nPackage: nearby\nArchitecture: any\n' > "$scratch/debian/control"
depends=$(cd "$scratch" && dpkg-shlibdeps -O "$stage/usr/bin/nearby" 2> "$scratch/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') || {
    cat "$scratch/shlibdeps.log" >&2
    exit 1
}
[ -n "$depends" ] || { echo "make-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# libmosquitto (MQTT) and libsystemd (sd-bus, the BlueZ backend) are not linked: nearby opens them
# with dlopen at first use (specs/runtime.md §6.1), so dpkg-shlibdeps cannot see them. Name them
# here, with the versions dpkg-shlibdeps derived when they were linked (the symbols nearby uses:
# mosquitto_*_v5 since 1.6, sd_bus_flush_close_unref since 222).
for dlopened in 'libmosquitto1 (>= 1.6)' 'libsystemd0 (>= 222)'; do
    printf '%s' "$depends" | grep -q "${dlopened%% *}" || depends="$depends, $dlopened"
done
# A binary with packed relocations (make release links with -z pack-relative-relocs) needs the
# loader of glibc 2.36 (the GLIBC_ABI_DT_RELR version), which Debian's libc6 symbols file does not
# name: say so, or an older libc would install it and refuse to start it.
if readelf -V -W "$stage/usr/bin/nearby" | grep -q GLIBC_ABI_DT_RELR; then
    depends=$(printf '%s' "$depends" | sed -E 's/libc6 \(>= 2\.(3[0-5]|[12][0-9])[^)]*\)/libc6 (>= 2.36)/')
    printf '%s' "$depends" | grep -q 'libc6 (>= 2.36)' || depends="libc6 (>= 2.36), $depends"
fi
size=$(du -k -s --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@SIZE@|$size|" -e "s|@DEPENDS@|$depends|" "$here/deb/control.in" > "$stage/DEBIAN/control"

find "$stage" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$stage" "$outdir/$name.deb" > /dev/null
rm -rf "$stage"
echo "$outdir/$name.deb"
