#!/bin/sh
# Installs a built nearby .deb on this machine the way a user does (dpkg -i, as root) and checks
# that it works with no Swift toolchain: CI runs it (`make deb-check`, part of `make test`).
#
#   deb-check.sh PACKAGE.deb [--keep]
#
# Checks (lintian is `make deb`'s): dpkg -i (dependencies from Debian's archive first) and the
# postinst (the nearby user; CAP_NET_ADMIN on /usr/bin/nearby where the file system holds file
# capabilities); no libswift* in `ldd`; then, in a mount namespace where the Swift toolchain's
# folder is an empty tmpfs and with a clean environment: `nearby --version` (the version and
# the commit of these sources), `nearby doctor --json` (a JSON report), `man -w nearby`, the
# completions, udev rule and unit in place, and `nearby demo` ranging to a summary.
# Afterwards the package is purged (the machine is left as it was) unless --keep is given.
set -eu

deb=${1:?usage: deb-check.sh PACKAGE.deb [--keep]}
keep=${2:-}
here=$(cd "$(dirname "$0")" && pwd -P)
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

fail() { echo "deb-check: FAILED: $*" >&2; exit 1; }
step() { echo "deb-check: $*"; }

if dpkg-query -W -f='${Status}' nearby 2> /dev/null | grep -q "install ok installed"; then
    fail "a nearby package is installed already; remove it first (dpkg -r nearby)"
fi
step "dpkg -i $(basename "$deb")"
# The package's Depends must be installable from Debian's archive: install those first (apt
# needs the package's own fields to know them), then the package itself with dpkg -i.
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -e 's/(.*)//' -e 's/|.*//' -e 's/ //g' | grep -v '^$')
for p in libmosquitto1 libsystemd0; do   # opened with dlopen: make-deb.sh names them itself
    printf '%s\n' "$depends" | grep -qx "$p" || fail "Depends lacks $p (nearby opens it with dlopen; make-deb.sh must add it)"
done
missing=""
for p in $depends; do
    dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    step "installing its dependencies:$missing"
    $SUDO apt-get install -y -qq --no-install-recommends $missing > /dev/null
fi
$SUDO dpkg -i "$deb"
cleanup() {
    if [ "$keep" != --keep ]; then
        step "dpkg --purge nearby"
        $SUDO dpkg --purge nearby > /dev/null
    fi
}
trap cleanup EXIT

[ -x /usr/bin/nearby ] || fail "/usr/bin/nearby is missing"
getent passwd nearby > /dev/null || fail "the postinst did not create the nearby user"
if getcap /usr/bin/nearby | grep -q cap_net_admin; then
    step "postinst: $(getcap /usr/bin/nearby)"
else
    # The postinst says why; the check fails only where the file system can hold capabilities.
    probe=$(mktemp /usr/bin/.nearby-capprobe.XXXXXX)
    if setcap cap_net_admin+ep "$probe" 2> /dev/null; then
        rm -f "$probe"
        fail "the postinst did not give /usr/bin/nearby CAP_NET_ADMIN"
    fi
    rm -f "$probe"
    step "postinst: this file system holds no file capabilities (the postinst said so)"
fi
for f in /usr/share/bash-completion/completions/nearby /usr/share/zsh/vendor-completions/_nearby \
    /usr/share/fish/vendor_completions.d/nearby.fish /lib/udev/rules.d/99-nearby-uwb.rules \
    /lib/systemd/system/nearby.service /usr/share/doc/nearby/copyright; do
    [ -f "$f" ] || fail "$f is missing"
done
grep -q '^ExecStart=/usr/bin/nearby ' /lib/systemd/system/nearby.service || fail "the unit does not run /usr/bin/nearby"

step "ldd /usr/bin/nearby"
ldd /usr/bin/nearby
if ldd /usr/bin/nearby | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|not found'; then
    fail "the binary needs the Swift toolchain's libraries (not linked statically)"
fi

# The checks, run where the toolchain cannot be reached: its folder is hidden under an empty
# tmpfs in a mount namespace of their own, PATH has only the system's folders.
toolchain=""
if swift=$(command -v swift 2> /dev/null); then
    toolchain=$(dirname "$(dirname "$(readlink -f "$swift")")")   # /opt/swift/usr
fi
# The version of these sources, and the commit the package says it was built from (its
# changelog; make-deb.sh takes it from the binary, VersionTests checks the binary against git).
expected_version=$("$here/build-info.sh" version)
expected_commit=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/nearby/changelog.gz | gzip -dc |
    sed -n 's/^  \* Built from commit \(.*\)\.$/\1/p')
[ -n "$expected_commit" ] || fail "the package's changelog names no commit"
scratch=$(mktemp -d)
chmod 0755 "$scratch"
cat > "$scratch/checks.sh" << 'CHECKS'
set -eu
fail() { echo "deb-check: FAILED: $*" >&2; exit 1; }
if [ -n "$TOOLCHAIN" ]; then
    [ ! -e "$TOOLCHAIN/bin/swift" ] || fail "the toolchain is still visible at $TOOLCHAIN"
    echo "deb-check: the toolchain ($TOOLCHAIN) is hidden"
fi
command -v swift > /dev/null && fail "swift is on PATH"
cd "$HOME"

out=$(nearby --version)
echo "deb-check: nearby --version: $out"
[ "$out" = "$EXPECTED_VERSION (commit $EXPECTED_COMMIT)" ] || fail "expected '$EXPECTED_VERSION (commit $EXPECTED_COMMIT)'"

status=0
nearby doctor --json > doctor.json || status=$?
[ "$status" = 0 ] || [ "$status" = 1 ] || fail "nearby doctor --json exited $status"
python3 -c 'import json; r=json.load(open("doctor.json")); assert r["findings"] and all({"check", "status", "message"} <= set(f) for f in r["findings"]) and isinstance(r["blocking"], int), r; print("deb-check: nearby doctor --json:", len(r["findings"]), "findings,", r["blocking"], "blocking,", r["warnings"], "warnings")'

page=$(man -w nearby) || fail "man -w nearby found no page"
[ "$page" = /usr/share/man/man1/nearby.1.gz ] || fail "man -w nearby: $page"
echo "deb-check: man -w nearby: $page"
man nearby 2> /dev/null | grep -q "nearby" || fail "man nearby shows nothing"

nearby demo --accessories 2 --speed 10 --duration 20 > demo.txt 2>&1 || { cat demo.txt; fail "nearby demo failed"; }
grep -q '^summary:' demo.txt || { cat demo.txt; fail "nearby demo printed no summary"; }
measured=$(sed -n 's/^  sim-1: [0-9]* updates (\([0-9]*\) measured).*/\1/p' demo.txt)
[ "${measured:-0}" -gt 10 ] || { cat demo.txt; fail "nearby demo: sim-1 did not range"; }
echo "deb-check: nearby demo: sim-1 measured $measured ranges"
CHECKS
run_checks() {
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$scratch" LANG=C.UTF-8 TERM=dumb \
        TOOLCHAIN="$1" EXPECTED_VERSION="$expected_version" EXPECTED_COMMIT="$expected_commit" \
        sh "$scratch/checks.sh"
}
status=0
if [ -n "$toolchain" ] && $SUDO unshare --mount true 2> /dev/null; then
    # Each check as the invoking user would run it, in the namespace (root there, as in CI).
    $SUDO unshare --mount --propagation private sh -c \
        'mount -t tmpfs -o ro,size=1m nearby-no-toolchain "$1" && shift && "$@"' sh "$toolchain" \
        env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$scratch" LANG=C.UTF-8 TERM=dumb \
        TOOLCHAIN="$toolchain" EXPECTED_VERSION="$expected_version" EXPECTED_COMMIT="$expected_commit" \
        sh "$scratch/checks.sh" || status=$?
else
    step "cannot hide the toolchain here (no unshare --mount): running with a clean environment only"
    run_checks "" || status=$?
fi
rm -rf "$scratch"
[ "$status" = 0 ] || fail "see above"
step "OK: $(basename "$deb") installs and runs without the Swift toolchain"
