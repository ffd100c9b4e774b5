#!/bin/bash
# tools/vmoracle.sh: Linux as the oracle where the host cannot be one. Runs
# one static x86-64 program as root in a QEMU virtual machine booted with
# Debian's own kernel (the newest linux-image-*-amd64 apt offers: 6.12 on
# Debian 12 with its security suite), every controller on cgroup v2
# (cgroup_no_v1=all), cgroup2 on /sys/fs/cgroup, and prints its stdout
# and stderr byte for byte (each on a serial port of its own, the kernel's
# console on a third) and exits with its status (128+N if killed by signal
# N; 124 when the machine timed out, 125 when the harness failed). With
# /dev/kvm it uses KVM, else TCG (about 4 s a run here). Not part of
# `make test`: a tool to learn what Linux does where the host's kernel is
# set up otherwise (tests/scenario/cgroup_pids.c's expectations came from
# it: the host binds pids to cgroup v1).
#
# usage: tools/vmoracle.sh PROGRAM [ARGS...]
#
# The first run installs qemu-system-x86, busybox-static and cpio (root
# only) and fetches the kernel package with `apt-get download` into the
# cache (unpacked with dpkg -x, nothing installed). Environment:
#   VMORACLE_CACHE    where the kernel is kept (default ~/.cache/skas-vmoracle)
#   VMORACLE_KERNEL   a vmlinuz of your own instead
#   VMORACLE_TIMEOUT  seconds before the machine is stopped (default 60)
#   VMORACLE_CGOPTS   cgroup2's mount options (e.g. nsdelegate)
#   VMORACLE_APPEND   more words for the kernel's command line
#   VMORACLE_DEBUG=1  the kernel's console to stderr after the run
set -u

die() {
	echo "vmoracle: $*" >&2
	exit 125
}

[ $# -ge 1 ] || {
	echo "usage: $0 PROGRAM [ARGS...]" >&2
	exit 2
}
BIN=$1
shift
[ -f "$BIN" ] || die "no such file: $BIN"
if command -v file >/dev/null && file -L "$BIN" | grep -q 'dynamically linked'; then
	die "$BIN is dynamically linked; the machine has no libc (gcc -static)"
fi

need=
command -v qemu-system-x86_64 >/dev/null || need="$need qemu-system-x86"
[ -x /bin/busybox ] && file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' ||
	need="$need busybox-static"
command -v cpio >/dev/null || need="$need cpio"
if [ -n "$need" ]; then
	[ "$(id -u)" = 0 ] || die "needs:$need (apt-get install -y$need, as root)"
	{ apt-get update && apt-get install -y $need; } >/dev/null 2>&1 || die "apt-get install$need failed"
fi

CACHE=${VMORACLE_CACHE:-$HOME/.cache/skas-vmoracle}
KERNEL=${VMORACLE_KERNEL:-}
if [ -z "$KERNEL" ]; then
	KERNEL=$(ls "$CACHE"/boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$KERNEL" ]; then
		mkdir -p "$CACHE/debs" || die "cannot make $CACHE"
		pkg=$(apt-cache search --names-only '^linux-image-[0-9.]+[-+].*-amd64-unsigned$' |
			awk '{print $1}' | grep -Ev -- '-(rt|cloud)-amd64' | sort -V | tail -n 1)
		[ -n "$pkg" ] || die "no linux-image-*-amd64-unsigned package known to apt (apt-get update?)"
		(cd "$CACHE/debs" && apt-get download "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed"
		dpkg -x "$CACHE"/debs/"$pkg"_*.deb "$CACHE" || die "dpkg -x failed"
		KERNEL=$(ls "$CACHE"/boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
	fi
fi
[ -n "$KERNEL" ] && [ -f "$KERNEL" ] || die "no kernel"

W=$(mktemp -d "${TMPDIR:-/tmp}/vmoracle.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$W"' EXIT

# The initramfs: busybox, the program as /test, its arguments, /init.
R=$W/root
mkdir -p "$R"/{bin,proc,sys,dev,tmp,run,root}
cp /bin/busybox "$R/bin/busybox"
for a in sh mount mkdir cat echo stty poweroff sync; do
	ln -s busybox "$R/bin/$a"
done
cp "$BIN" "$R/test" && chmod 755 "$R/test"
{
	printf 'set --'
	for a in "$@"; do
		printf " '%s'" "${a//\'/\'\\\'\'}"
	done
	printf '\n'
} >"$R/args.sh"
CGOPTS=${VMORACLE_CGOPTS:-}
cat > "$R/init" <<EOF
#!/bin/busybox sh
export PATH=/bin:/sbin HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t cgroup2 ${CGOPTS:+-o $CGOPTS} none /sys/fs/cgroup || echo "VMORACLE-WARN cgroup2 mount failed"
echo 1 > /proc/sys/kernel/printk        # keep kernel chatter off the console
stty -F /dev/ttyS1 raw -echo
stty -F /dev/ttyS2 raw -echo
exec 3>/dev/ttyS1 4>/dev/ttyS2
. /args.sh
cd /
echo VMORACLE-START
# exec via a child sh so ash's "Killed"/"Segmentation fault" notices land on the console, not in test stderr
sh -c 'exec "\$0" "\$@" </dev/null >&3 2>&4 3>&- 4>&-' /test "\$@"
st=\$?
[ \$st -gt 128 ] && echo "VMORACLE-NOTE test killed by signal \$((st-128))"
exec 3>&- 4>&-                          # last close waits for the UARTs to drain
echo "VMORACLE-EXIT \$st"
sync
poweroff -f
EOF
chmod 755 "$R/init"
(cd "$R" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet >"$W/initrd.cpio") ||
	die "cpio failed"

# KVM where it can, else TCG.
if [ -r /dev/kvm ] && [ -w /dev/kvm ] && [ "${VMORACLE_NOKVM:-0}" != 1 ]; then
    ACCEL=(-enable-kvm -cpu host); ACCNAME=kvm
else
    ACCEL=(-accel tcg -cpu max); ACCNAME=tcg
fi

APPEND="console=ttyS0 quiet cgroup_no_v1=all panic=-1 rdinit=/init ${VMORACLE_APPEND:-}"
: > "$W/console.log"; : > "$W/out"; : > "$W/err"
timeout -k 5 "${VMORACLE_TIMEOUT:-60}" qemu-system-x86_64 \
    "${ACCEL[@]}" -m 1024 -smp 2 \
    -nodefaults -no-user-config -display none -monitor none -no-reboot \
    -serial "file:$W/console.log" -serial "file:$W/out" -serial "file:$W/err" \
    -kernel "$KERNEL" -initrd "$W/initrd.cpio" -append "$APPEND" \
    </dev/null >"$W/qemu.log" 2>&1
qrc=$?

cat "$W/out"
cat "$W/err" >&2
[ "${VMORACLE_DEBUG:-0}" = 1 ] && { echo "----- vmoracle console ($ACCNAME, $(basename "$KERNEL")) -----" >&2; tr -d '\r' < "$W/console.log" >&2; cat "$W/qemu.log" >&2; }

st=$(tr -d '\r' < "$W/console.log" | sed -n 's/.*VMORACLE-EXIT \([0-9][0-9]*\).*/\1/p' | tail -1)
if [ -z "$st" ]; then
    if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
        echo "vmoracle: VM timed out after ${VMORACLE_TIMEOUT:-60}s ($ACCNAME)" >&2; rc=124
    else
        echo "vmoracle: no exit marker (qemu rc=$qrc, $ACCNAME)" >&2; rc=125
    fi
    echo "----- last console lines -----" >&2
    tr -d '\r' < "$W/console.log" | tail -25 >&2
    cat "$W/qemu.log" >&2
    exit $rc
fi
grep -qE "VMORACLE-(WARN|NOTE)" "$W/console.log" && grep -E "VMORACLE-(WARN|NOTE)" "$W/console.log" | tr -d '\r' >&2
exit "$st"
