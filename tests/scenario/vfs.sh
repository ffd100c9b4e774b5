#!/bin/bash
# The filesystem's user-level promises: writes inside skas go to a private
# overlay and never reach the host; --rw --root writes through to the given
# directory; -v HOST:GUEST[:ro] volumes; no escape from --root through host
# symlinks or "..". One TAP line per check, then "N passed, M failed"; exit 1
# if anything failed.
#
# usage: SKAS=./skas tests/scenario/vfs.sh     (run from anywhere)
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SKAS=${SKAS:-$root/skas}
case $SKAS in
    /*) ;;
    */*) SKAS=$PWD/$SKAS ;;
esac
cd "$root" || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skas-vfs.XXXXXX") || exit 2
# a name in the host's / that an escape from --root would create
escape_name=skas-vfs-escape.$$
trap 'rm -rf "$tmp"; rm -f "/$escape_name"' EXIT

n=0
passed=0
failed=0
have_skas=1
command -v "$SKAS" >/dev/null 2>&1 || have_skas=0

# sk CMD...: run "$SKAS CMD..." with a timeout; stdout in $tmp/out, stderr in
# $tmp/err, status in $rc.
sk() {
    ( timeout -k 5 30 "$SKAS" "$@" </dev/null >"$tmp/out" 2>"$tmp/err" ) 2>/dev/null
    rc=$?
}

# t NAME FUNC: one check (see cli.sh)
t() {
    local name=$1 res
    shift
    n=$((n + 1))
    if [ "$have_skas" = 0 ]; then
        failed=$((failed + 1))
        echo "not ok $n - $name"
        echo "# skas not found: $SKAS"
        return
    fi
    rc=
    : >"$tmp/out"; : >"$tmp/err"
    "$@" >"$tmp/notes" 2>&1
    res=$?
    if [ "$res" = 0 ]; then
        passed=$((passed + 1))
        echo "ok $n - $name"
    else
        failed=$((failed + 1))
        echo "not ok $n - $name"
        echo "exit status ${rc:-?}" >>"$tmp/notes"
        [ -s "$tmp/out" ] && head -n 5 "$tmp/out" | sed 's/^/stdout: /' >>"$tmp/notes"
        [ -s "$tmp/err" ] && head -n 5 "$tmp/err" | sed 's/^/stderr: /' >>"$tmp/notes"
    fi
    sed 's/^/# /' "$tmp/notes"
}

# A static helper for --root directories that hold no shell:
#   h cat FILE | h write FILE TEXT | h ls DIR (sorted, without . and ..)
cat >"$tmp/h.c" <<'EOF'
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static int cmp(const void *a, const void *b)
{ return strcmp(*(char *const *)a, *(char *const *)b); }
int main(int argc, char **argv)
{
	char buf[4096], *names[1024];
	ssize_t r;
	int fd, k = 0;
	DIR *d;
	struct dirent *e;

	if (argc == 3 && !strcmp(argv[1], "cat")) {
		if ((fd = open(argv[2], O_RDONLY)) < 0) { perror(argv[2]); return 1; }
		while ((r = read(fd, buf, sizeof buf)) > 0)
			if (write(1, buf, r) != r) return 1;
		return r < 0;
	}
	if (argc == 4 && !strcmp(argv[1], "write")) {
		if ((fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) { perror(argv[2]); return 1; }
		if (write(fd, argv[3], strlen(argv[3])) < 0 || close(fd) < 0) { perror(argv[2]); return 1; }
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "ls")) {
		if (!(d = opendir(argv[2]))) { perror(argv[2]); return 1; }
		while ((e = readdir(d)) && k < 1024)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				names[k++] = strdup(e->d_name);
		qsort(names, k, sizeof names[0], cmp);
		for (int i = 0; i < k; i++) printf("%s\n", names[i]);
		return 0;
	}
	fprintf(stderr, "usage: h cat F | h write F TEXT | h ls D\n");
	return 2;
}
EOF
gcc -static -O1 -o "$tmp/h" "$tmp/h.c" || { echo "# cannot build the helper"; exit 2; }

sum() { if [ -e "$1" ]; then cksum <"$1"; else echo absent; fi; }
count() { find "$1" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }

# --- the overlay root: writes stay inside ---

c_motd() {
    local before after
    before=$(sum /etc/motd)
    sk run -- /bin/sh -c 'echo hi > /etc/motd; cat /etc/motd'
    after=$(sum /etc/motd)
    [ "$before" = "$after" ] || { echo "the host's /etc/motd changed"; return 1; }
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = hi ]
}
c_rm_doc() {
    local before after
    before=$(count /usr/share/doc)
    sk run -- /bin/sh -c 'rm -rf /usr/share/doc; ls /usr/share/doc'
    after=$(count /usr/share/doc)
    echo "host /usr/share/doc entries: before $before, after $after"
    [ "$before" -gt 0 ] && [ "$before" = "$after" ] || return 1
    [ "$rc" != 0 ] && [ ! -s "$tmp/out" ]
}
c_tmp_file() {
    sk run -- /bin/sh -c "echo inside > '$tmp/made_inside' && cat '$tmp/made_inside'"
    [ -e "$tmp/made_inside" ] && { echo "the file reached the host"; return 1; }
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = inside ]
}
c_tmp_file_runs() {
    # a second instance starts from the host's state again
    sk run -- /bin/sh -c "echo inside > '$tmp/made_inside'"
    sk run -- /bin/sh -c "test -e '$tmp/made_inside'"
    [ "$rc" = 1 ]
}
# A hard link to a lower file copies it up; every name then shows the
# lower file's device and number (its origin), so git's local clone,
# which links each object and checks the new name against the old
# one's stat, works on a repository in the lower layer (it died with
# "hardlink different from source").
c_link_lower() {
    rm -rf "$tmp/lk"
    mkdir -p "$tmp/lk"
    echo one >"$tmp/lk/a"
    git init -q "$tmp/lk/repo" && echo x >"$tmp/lk/repo/x" &&
        git -C "$tmp/lk/repo" add x &&
        git -C "$tmp/lk/repo" -c user.name=a -c user.email=a@b commit -qm x || return 1
    sk run -- /bin/sh -c "
        cd '$tmp/lk' && before=\$(stat -c %d.%i a) && ln a b &&
        [ \$(stat -c %d.%i a) = \$before ] && [ \$(stat -c %d.%i b) = \$before ] &&
        [ \$(stat -c %h b) = 2 ] && echo two >>b && cat a &&
        git clone -q '$tmp/lk/repo' '$tmp/lk/clone' && cat '$tmp/lk/clone/x'"
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "one
two
x" ] && [ ! -e "$tmp/lk/b" ] && [ "$(cat "$tmp/lk/a")" = one ]
}
c_ls_dotdot() {
    LC_ALL=C sk run -- /bin/ls /
    cp "$tmp/out" "$tmp/ls_root"
    LC_ALL=C sk run -- /bin/ls /..
    [ "$rc" = 0 ] && [ -s "$tmp/out" ] && diff -u "$tmp/ls_root" "$tmp/out"
}

# --- the overlay's rules against Linux's: one program, run natively on a
# copy of a tree and inside on the same tree as --root's lower layer ---
cat >"$tmp/ov.c" <<'EOF'
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
static void R(const char *what, long r)
{ printf("%s: %ld %s\n", what, r < 0 ? -1L : r, r < 0 ? strerror(errno) : ""); }
static int cmp(const void *a, const void *b)
{ return strcmp(*(char *const *)a, *(char *const *)b); }
static void ls(const char *d)
{
	DIR *D = opendir(d);
	struct dirent *e;
	char *names[64];
	int k = 0, i;

	printf("ls %s:", d);
	while (D && (e = readdir(D)) && k < 64)
		if (e->d_name[0] != '.')
			names[k++] = strdup(e->d_name);
	qsort(names, k, sizeof(names[0]), cmp);
	for (i = 0; i < k; i++)
		printf(" %s", names[i]);
	printf("%s\n", D ? "" : " (none)");
	if (D)
		closedir(D);
}
int main(int argc, char **argv)
{
	struct stat st;
	int fd;

	if (argc != 2 || chdir(argv[1]) < 0)
		return 2;
	/* a lower file changed (copied up), then removed or renamed away */
	fd = open("f", O_WRONLY | O_APPEND);
	R("append f", write(fd, "more\n", 5));
	close(fd);
	R("unlink f", unlink("f"));
	R("lstat f", lstat("f", &st));
	R("lchown sl", lchown("sl", 7, 7));
	R("rename sl sl2", rename("sl", "sl2"));
	R("lstat sl", lstat("sl", &st));
	R("chmod g", chmod("g", 0600));
	R("rename g d/g", rename("g", "d/g"));
	R("lstat g", lstat("g", &st));
	ls(".");
	/* an empty directory moved over a removed lower one stays empty */
	R("unlink e/x", unlink("e/x"));
	R("rmdir e", rmdir("e"));
	R("mkdir nd", mkdir("nd", 0755));
	R("rename nd e", rename("nd", "e"));
	ls("e");
	/* the cwd, and files open since before a copy-up through a later
	 * lookup of their name (a mkdir empties the name cache) */
	R("chdir s", chdir("s"));
	R("mkdir ../m1", mkdir("../m1", 0755));
	R("creat ../s/a", fd = open("../s/a", O_CREAT | O_WRONLY, 0644));
	close(fd);
	R("mkdir ../m2", mkdir("../m2", 0755));
	R("creat b (in the cwd)", fd = open("b", O_CREAT | O_WRONLY, 0644));
	close(fd);
	ls(".");
	R("chdir ..", chdir(".."));
	fd = open("h", O_RDONLY);
	R("mkdir m3", mkdir("m3", 0755));
	R("rename h h2", rename("h", "h2"));
	R("fchmod (h, renamed h2) 0600", fchmod(fd, 0600));
	R("lstat h", lstat("h", &st));
	R("stat h2", stat("h2", &st));
	printf("h2 mode %o\n", st.st_mode & 0777);
	close(fd);
	fd = open("i", O_RDONLY);
	R("unlink i", unlink("i"));
	R("fchmod (i, unlinked) 0600", fchmod(fd, 0600));
	R("fstat", fstat(fd, &st));
	printf("i mode %o\n", st.st_mode & 0777);
	R("lstat i", lstat("i", &st));
	close(fd);
	return 0;
}
EOF
gcc -static -O1 -o "$tmp/ov" "$tmp/ov.c" || { echo "# cannot build the overlay program"; exit 2; }

mkovtree() {
    rm -rf "$1"
    mkdir -p "$1/d" "$1/e" "$1/s"
    echo f >"$1/f"; echo g >"$1/g"; echo x >"$1/e/x"; ln -s f "$1/sl"
    echo h >"$1/h"; echo i >"$1/i"; echo z >"$1/s/z"
}
c_overlay_native() {
    mkovtree "$tmp/ovnative"
    "$tmp/ov" "$tmp/ovnative" >"$tmp/ov_native" 2>&1
    rm -rf "$tmp/ovroot"
    mkdir -p "$tmp/ovroot"
    cp "$tmp/ov" "$tmp/ovroot/ov"
    mkovtree "$tmp/ovroot/t"
    sk run --root "$tmp/ovroot" -- /ov /t
    [ "$rc" = 0 ] && diff -u "$tmp/ov_native" "$tmp/out"
}

# --- directories with lower content move (overlayfs's redirect_dir=on):
# os.rename of a host directory was EXDEV (git mv of a directory in a
# host repository failed)
cat >"$tmp/dmv.py" <<'EOF'
import ctypes, errno, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def exchange(a, b):
    if libc.syscall(316, -100, a.encode(), -100, b.encode(), 2) < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
def tr(what, f):
    try:
        r = f()
        print(what, "ok", "" if r is None else r)
    except OSError as e:
        print(what, errno.errorcode[e.errno])
def ls(d):
    return sorted(os.listdir(d))
def cat(p):
    return open(p).read().strip()
os.chdir(sys.argv[1])
ino = os.stat("a").st_ino
cwd = os.open("a/deep", os.O_RDONLY)
tr("rename a c", lambda: os.rename("a", "c"))
tr("stat a", lambda: os.stat("a"))
tr("ls c", lambda: ls("c"))
tr("c/f, c/deep/er/g", lambda: (cat("c/f"), cat("c/deep/er/g")))
tr("same st_ino", lambda: os.stat("c").st_ino == ino)
tr("append c/sub/h", lambda: open("c/sub/h", "a").write("more\n"))
tr("c/sub/h", lambda: cat("c/sub/h"))
tr("fchdir into the moved c/deep, mkdir new", lambda: (os.fchdir(cwd), os.mkdir("new"), os.chdir(sys.argv[1]))[1])
tr("ls c/deep", lambda: ls("c/deep"))
tr("mkdir a (empty)", lambda: os.mkdir("a"))
tr("ls a", lambda: ls("a"))
tr("rmdir a", lambda: os.rmdir("a"))
tr("rename c/deep b/deep2", lambda: os.rename("c/deep", "b/deep2"))
tr("ls b/deep2, b/deep2/er", lambda: (ls("b/deep2"), ls("b/deep2/er")))
tr("rename c t (t not empty)", lambda: os.rename("c", "t"))
tr("unlink t/x", lambda: os.unlink("t/x"))
tr("rename c t", lambda: os.rename("c", "t"))
tr("ls t", lambda: ls("t"))
tr("exchange t b", lambda: exchange("t", "b"))
tr("ls t, b", lambda: (ls("t"), ls("b")))
tr("rename b a (back)", lambda: os.rename("b", "a"))
tr("ls a, a/sub", lambda: (ls("a"), ls("a/sub")))
tr("rm a/f a/sub/h, rmdir a/sub a", lambda: (os.unlink("a/f"), os.unlink("a/sub/h"), os.rmdir("a/sub"), os.rmdir("a")))
tr("rename t/deep2 top", lambda: os.rename("t/deep2", "top"))
tr("top/er/g", lambda: cat("top/er/g"))
tr("ls .", lambda: ls("."))
EOF
mkdmv() {
    rm -rf "$1"
    mkdir -p "$1/a/sub" "$1/a/deep/er" "$1/b" "$1/t"
    echo f >"$1/a/f"; echo h >"$1/a/sub/h"; echo g >"$1/a/deep/er/g"; echo x >"$1/t/x"
}
c_overlay_dir_rename() {
    local before
    mkdmv "$tmp/dmv_native"
    python3 "$tmp/dmv.py" "$tmp/dmv_native" >"$tmp/dmv_want" 2>&1
    mkdmv "$tmp/dmv_lower"
    before=$(cd "$tmp/dmv_lower" && find . | sort && cat a/f a/sub/h a/deep/er/g t/x)
    sk run -- /usr/bin/python3 "$tmp/dmv.py" "$tmp/dmv_lower"
    [ "$rc" = 0 ] && diff -u "$tmp/dmv_want" "$tmp/out" &&
        [ "$before" = "$(cd "$tmp/dmv_lower" && find . | sort && cat a/f a/sub/h a/deep/er/g t/x)" ]
}

# Each moved host directory holds its host directory open: counted as an
# open file, so renames stop at --nofile (EXDEV, which mv and shutil.move
# answer by copying) and their places come back when the moves are undone.
c_overlay_dir_rename_cap() {
    local i
    rm -rf "$tmp/dcap"
    for i in $(seq 1 40); do mkdir -p "$tmp/dcap/d$i/x"; done
    sk run --nofile=45 -- /usr/bin/python3 -c '
import errno, os, sys
b = sys.argv[1]
r = {}
for i in range(1, 41):
    try:
        os.rename(b + "/d%d" % i, b + "/m%d" % i)
        e = "ok"
    except OSError as x:
        e = errno.errorcode[x.errno]
    r[e] = r.get(e, 0) + 1
print(sorted(r), r.get("ok", 0) > 20)
for i in range(1, 41):
    if os.path.exists(b + "/m%d" % i):
        os.rmdir(b + "/m%d/x" % i)
        os.rmdir(b + "/m%d" % i)
os.rename(b + "/d40", b + "/m40")
print("again", sorted(os.listdir(b + "/m40")))' "$tmp/dcap"
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "['EXDEV', 'ok'] True
again ['x']" ] && [ "$(ls "$tmp/dcap" | wc -l)" = 40 ] && [ -d "$tmp/dcap/d40/x" ]
}

# --- a file open for reading across its copy-up, against Linux's
# overlayfs itself: natively on a real overlay mount (a mount namespace of
# its own), inside on the same tree as --root's lower layer ---
cat >"$tmp/ovr.c" <<'EOF'
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
static void R(const char *what, long r)
{ printf("%s: %ld %s\n", what, r < 0 ? -1L : r, r < 0 ? strerror(errno) : ""); }
/* another process writes name: open with flags, write s, exit */
static void other(const char *name, int flags, const char *s)
{
	pid_t p = fork();
	int st;

	if (p == 0) {
		int fd = open(name, flags);

		_exit(fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s));
	}
	waitpid(p, &st, 0);
	R("other's write", WEXITSTATUS(st) ? -1 : 0);
}
static void show(const char *what, const char *buf, long n)
{
	printf("%s: %ld \"", what, n);
	for (long i = 0; i < n; i++)
		putchar(buf[i] == '\n' ? '|' : buf[i]);
	printf("\"\n");
}
int main(int argc, char **argv)
{
	char buf[256], path[64];
	struct stat st;
	int fd, fd2, fd3, fdt, fdu;
	char *m1, *m2;
	long n;

	if (argc != 2 || chdir(argv[1]) < 0)
		return 2;
	/* r: read, mapped, dup'd and reopened through /proc before another
	 * process copies it up by appending */
	fd = open("r", O_RDONLY);
	R("open r", fd);
	n = read(fd, buf, 2);
	show("read 2", buf, n);
	m1 = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	R("mmap before", m1 == MAP_FAILED ? -1 : 0);
	fd2 = dup(fd);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	fd3 = open(path, O_RDONLY);
	R("reopen via /proc", fd3 >= 0 ? 0 : -1);
	other("r", O_WRONLY | O_APPEND, "+more\n");
	n = read(fd, buf, sizeof(buf));
	show("read rest", buf, n);
	n = read(fd, buf, sizeof(buf));
	show("read at end", buf, n);
	n = pread(fd3, buf, sizeof(buf), 0);
	show("pread reopened", buf, n);
	R("lseek dup SEEK_END", lseek(fd2, 0, SEEK_END));
	R("lseek dup SEEK_CUR", lseek(fd2, 0, SEEK_CUR));
	R("fstat", fstat(fd, &st));
	printf("size %ld\n", (long)st.st_size);
	m2 = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	R("mmap after", m2 == MAP_FAILED ? -1 : 0);
	if (m2 != MAP_FAILED)
		show("mapped after", m2, (long)strnlen(m2, 64));
	/* the first mapping keeps the file it was made of: the lower one on
	 * an overlay (not shown natively without one) */
	if (m1 != MAP_FAILED)
		printf("mapped before: %c%c\n", m1[0], m1[1]);
	close(fd);
	close(fd2);
	close(fd3);
	/* t: truncated by another process's open */
	fdt = open("t", O_RDONLY);
	R("open t", fdt);
	other("t", O_WRONLY | O_TRUNC, "");
	n = read(fdt, buf, sizeof(buf));
	show("read truncated", buf, n);
	other("t", O_WRONLY, "new t\n");
	n = read(fdt, buf, sizeof(buf));
	show("read rewritten", buf, n);
	close(fdt);
	/* u: copied up by a chmod (no data changed), then written */
	fdu = open("u", O_RDONLY);
	n = read(fdu, buf, 3);
	show("read u", buf, n);
	R("chmod u", chmod("u", 0600));
	n = read(fdu, buf, sizeof(buf));
	show("read u after chmod", buf, n);
	other("u", O_WRONLY | O_APPEND, "u2\n");
	n = read(fdu, buf, sizeof(buf));
	show("read u after write", buf, n);
	R("fstat u", fstat(fdu, &st));
	printf("u mode %o size %ld\n", st.st_mode & 0777, (long)st.st_size);
	close(fdu);
	return 0;
}
EOF
gcc -static -O1 -o "$tmp/ovr" "$tmp/ovr.c" || { echo "# cannot build the copy-up program"; exit 2; }

mkovrtree() {
    rm -rf "$1"
    mkdir -p "$1"
    printf 'abcdef\n' >"$1/r"; printf 'tttt\n' >"$1/t"; printf 'uuuuu\n' >"$1/u"
}
c_overlay_open_copy_up() {
    local o=$tmp/ovrlinux
    rm -rf "$o"
    mkdir -p "$o/u" "$o/w" "$o/m"
    mkovrtree "$o/l/t"
    unshare -m --propagation private sh -c \
        'mount -t overlay overlay -o "lowerdir=$1/l,upperdir=$1/u,workdir=$1/w" "$1/m" && "$2" "$1/m/t"' \
        sh "$o" "$tmp/ovr" >"$tmp/ovr_native" 2>&1 || {
        echo "Linux's overlay did not run the program (root and unshare wanted):"
        cat "$tmp/ovr_native"
        return 1
    }
    rm -rf "$tmp/ovrroot"
    mkdir -p "$tmp/ovrroot"
    cp "$tmp/ovr" "$tmp/ovrroot/ovr"
    mkovrtree "$tmp/ovrroot/t"
    sk run --root "$tmp/ovrroot" -- /ovr /t
    [ "$rc" = 0 ] && diff -u "$tmp/ovr_native" "$tmp/out"
}

# --- --rw --root DIR ---

# Started by root, skas writes to the host as its --host-user (nobody by
# default): the directories it writes to are that user's.
host_user_owns() {
    [ "$(id -u)" = 0 ] && chown -R 65534:65534 "$@"
    return 0
}
mkroot() {
    rm -rf "$tmp/root"
    mkdir -p "$tmp/root"
    cp "$tmp/h" "$tmp/root/h"
    host_user_owns "$tmp/root"
}
c_rw_root() {
    mkroot
    sk run --root "$tmp/root" --rw -- /h write /made "written inside"
    [ "$rc" = 0 ] && [ "$(cat "$tmp/root/made" 2>/dev/null)" = "written inside" ]
}
c_ro_root() {
    mkroot
    sk run --root "$tmp/root" -- /h write /made "written inside"
    [ ! -e "$tmp/root/made" ] || { echo "the write reached the host without --rw"; return 1; }
    [ "$rc" = 0 ]
}
c_escape_cat() {
    mkroot
    ln -s / "$tmp/root/escape"
    [ -e "$tmp/root/etc/hostname" ] && return 1
    sk run --root "$tmp/root" --rw -- /h cat /escape/etc/hostname
    [ "$rc" != 0 ] && [ ! -s "$tmp/out" ] && grep -q 'No such file or directory' "$tmp/err"
}
c_escape_ls() {
    mkroot
    ln -s / "$tmp/root/escape"
    sk run --root "$tmp/root" --rw -- /h ls /
    cp "$tmp/out" "$tmp/ls_root"
    grep -qx escape "$tmp/ls_root" && grep -qx h "$tmp/ls_root" || return 1
    sk run --root "$tmp/root" --rw -- /h ls /escape
    [ "$rc" = 0 ] && diff -u "$tmp/ls_root" "$tmp/out"
}
c_escape_write() {
    mkroot
    ln -s / "$tmp/root/escape"
    sk run --root "$tmp/root" --rw -- /h write "/escape/$escape_name" x
    if [ -e "/$escape_name" ]; then
        echo "ESCAPE: the write landed in the host's /"
        rm -f "/$escape_name"
        return 1
    fi
    [ "$rc" = 0 ] && [ "$(cat "$tmp/root/$escape_name" 2>/dev/null)" = x ]
}
c_root_dotdot() {
    mkroot
    mkdir "$tmp/root/sub"
    sk run --root "$tmp/root" -- /h ls /
    cp "$tmp/out" "$tmp/ls_root"
    sk run --root "$tmp/root" -- /h ls /..
    [ "$rc" = 0 ] && diff -u "$tmp/ls_root" "$tmp/out" || return 1
    sk run --root "$tmp/root" -- /h ls /sub/../../..
    [ "$rc" = 0 ] && diff -u "$tmp/ls_root" "$tmp/out"
}
c_root_dotdot_cat() {
    mkroot
    [ -e "$tmp/root/etc/hostname" ] && return 1
    sk run --root "$tmp/root" -- /h cat /../../../../etc/hostname
    [ "$rc" != 0 ] && [ ! -s "$tmp/out" ]
}

# --- volumes ---

mkdata() {
    rm -rf "$tmp/data"
    mkdir -p "$tmp/data"
    echo one >"$tmp/data/one"
    echo two >"$tmp/data/two"
    host_user_owns "$tmp/data"
}
c_vol_read() {
    mkdata
    sk run -v "$tmp/data:/data" -- /bin/sh -c 'ls /data; cat /data/one'
    [ "$rc" = 0 ] && [ "$(tr '\n' ' ' <"$tmp/out")" = "one two one " ]
}
c_vol_write() {
    mkdata
    sk run -v "$tmp/data:/data" -- /bin/sh -c 'echo new > /data/new'
    [ "$rc" = 0 ] && [ "$(cat "$tmp/data/new" 2>/dev/null)" = new ]
}
# A host FIFO (in the overlay's lower layer, or a volume) is a named pipe
# of the instance's own, as a FIFO of Linux's overlayfs has the overlay
# inode's pipe: the guest's readers and writers meet through it, as they
# do natively through the host's. It was EACCES for reading, and a write
# open copied it up (a second pipe). A host process is not reached.
cat >"$tmp/fifo.py" <<'EOF'
import errno, os, sys, time
p = sys.argv[1]
r = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
w = os.open(p, os.O_WRONLY | os.O_NONBLOCK)
os.write(w, b"abc")
print(os.read(r, 8))
os.close(w)
os.close(r)
try:
    os.open(p, os.O_WRONLY | os.O_NONBLOCK)
except OSError as e:
    print(errno.errorcode[e.errno])
pid = os.fork()
if pid == 0:
    fd = os.open(p, os.O_RDONLY)
    print("child", os.read(fd, 10), flush=True)
    os._exit(0)
if sys.argv[2:] == ["chmod"]:
    time.sleep(0.3)
    os.chmod(p, 0o600)
fd = os.open(p, os.O_WRONLY)
os.write(fd, b"hello")
os.close(fd)
os.waitpid(pid, 0)
print(oct(os.stat(p).st_mode))
EOF
c_host_fifo() {
    local want
    rm -f "$tmp/fifo"; mkfifo -m 666 "$tmp/fifo" || return 1
    want=$(timeout 20 python3 "$tmp/fifo.py" "$tmp/fifo") || return 1
    sk run -- /usr/bin/python3 "$tmp/fifo.py" "$tmp/fifo"
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] || { echo "want: $want"; return 1; }
    mkdir -p "$tmp/fv" && rm -f "$tmp/fv/f" && mkfifo -m 666 "$tmp/fv/f" || return 1
    sk run -v "$tmp/fv:/mnt/fv" -- /usr/bin/python3 "$tmp/fifo.py" /mnt/fv/f
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] || { echo "volume: want: $want"; return 1; }
    [ -p "$tmp/fifo" ] && [ -p "$tmp/fv/f" ]
}
# A reader waits in its open; chmod copies the FIFO up (fifo.py's "chmod"
# step); the writer's open after it meets that reader: the pipe is the
# host file's in either layer.
c_host_fifo_copy_up() {
    local want
    rm -f "$tmp/fifo3"; mkfifo -m 666 "$tmp/fifo3" || return 1
    want=$(timeout 20 python3 "$tmp/fifo.py" "$tmp/fifo3" chmod) || return 1
    rm -f "$tmp/fifo3"; mkfifo -m 666 "$tmp/fifo3" || return 1
    sk run -- /usr/bin/python3 "$tmp/fifo.py" "$tmp/fifo3" chmod
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] || { echo "want: $want"; return 1; }
    [ "$(stat -c %a "$tmp/fifo3")" = 666 ] || { echo "the host's FIFO changed"; return 1; }
}
c_host_fifo_apart() {
    # a guest reader holds the FIFO open; the host's open for writing
    # still finds no reader of the host's pipe (ENXIO)
    local pid i res
    rm -f "$tmp/fifo2"; mkfifo -m 666 "$tmp/fifo2" || return 1
    timeout 20 "$SKAS" run -- /usr/bin/python3 -c '
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
print("ready", flush=True)
time.sleep(3)' "$tmp/fifo2" </dev/null >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    for i in $(seq 200); do
        grep -q ready "$tmp/out" 2>/dev/null && break
        sleep 0.05
    done
    res=$(python3 -c '
import errno, os, sys
try:
    os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK); print("opened")
except OSError as e:
    print(errno.errorcode[e.errno])' "$tmp/fifo2")
    wait "$pid"
    rc=$?
    [ "$rc" = 0 ] && grep -q ready "$tmp/out" && [ "$res" = ENXIO ] || { echo "host: $res"; return 1; }
}
c_vol_long() {
    mkdata
    sk run --volume "$tmp/data:/data" -- /bin/sh -c 'cat /data/two; echo new > /data/new'
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = two ] && [ "$(cat "$tmp/data/new" 2>/dev/null)" = new ]
}
c_vol_ro() {
    mkdata
    sk run -v "$tmp/data:/data:ro" -- /bin/sh -c 'cat /data/one; echo new > /data/new'
    [ -e "$tmp/data/new" ] && { echo "the write reached the host"; return 1; }
    [ "$rc" != 0 ] && [ "$(cat "$tmp/out")" = one ] && grep -q 'Read-only file system' "$tmp/err"
}
c_vol_ro_rm() {
    mkdata
    sk run -v "$tmp/data:/data:ro" -- /bin/rm /data/one
    [ -e "$tmp/data/one" ] || { echo "the host file was removed"; return 1; }
    [ "$rc" != 0 ] && grep -q 'Read-only file system' "$tmp/err"
}
# The lookup cache never hides a change the host makes: a file replaced by
# another (a new inode under the same name) and a new file are seen.
c_host_change() {
    local i
    mkdata
    ( timeout -k 5 30 "$SKAS" run -v "$tmp/data:/data" -- /bin/sh -c \
        'cat /data/one; cat /data/one; : >/data/ready
         while [ ! -e /data/go ]; do sleep 0.05; done; cat /data/one; ls /data' \
        </dev/null >"$tmp/out" 2>"$tmp/err" ) 2>/dev/null &
    for i in $(seq 200); do [ -e "$tmp/data/ready" ] && break; sleep 0.05; done
    echo ONE >"$tmp/data/one.new" && mv "$tmp/data/one.new" "$tmp/data/one"
    echo three >"$tmp/data/three"
    touch "$tmp/data/go"
    wait
    [ "$(cat "$tmp/out")" = "$(printf 'one\none\nONE\ngo\none\nready\nthree\ntwo')" ]
}

# A host symlink's target is kept once read: one the host replaces (a new
# inode at the name) is read afresh, and the path leads to its new target.
c_host_symlink() {
    local i
    mkdata
    ln -s one "$tmp/data/lnk"
    ( timeout -k 5 30 "$SKAS" run -v "$tmp/data:/data" -- /bin/sh -c \
        'readlink /data/lnk; readlink /data/lnk; cat /data/lnk; : >/data/ready
         while [ ! -e /data/go ]; do sleep 0.05; done; readlink /data/lnk; cat /data/lnk' \
        </dev/null >"$tmp/out" 2>"$tmp/err" ) 2>/dev/null &
    for i in $(seq 200); do [ -e "$tmp/data/ready" ] && break; sleep 0.05; done
    ln -sfn two "$tmp/data/lnk"
    touch "$tmp/data/go"
    wait
    [ "$(cat "$tmp/out")" = "$(printf 'one\none\none\ntwo\ntwo')" ]
}

# O_TMPFILE on a host volume is the host's own: linkat names it there.
c_vol_tmpfile() {
    mkdata
    sk run -v "$tmp/data:/data" -- "$(command -v python3)" -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open("/data", os.O_TMPFILE | os.O_RDWR, 0o640)
os.write(fd, b"unnamed\n")
print(sorted(os.listdir("/data")), os.fstat(fd).st_nlink)
r = libc.linkat(fd, b"", -100, b"/data/named", 0x1000)
print(r, sorted(os.listdir("/data")), os.fstat(fd).st_nlink)'
    [ "$rc" = 0 ] && [ "$(cat "$tmp/data/named" 2>&1)" = unnamed ] &&
        [ "$(cat "$tmp/out")" = "$(printf "['one', 'two'] 0\n0 ['named', 'one', 'two'] 1")" ]
}

# F_SETFL's O_APPEND reaches a host file's description: the write after
# it lands at the end, the one after clearing it at the position.
c_vol_setfl_append() {
    mkdata
    sk run -v "$tmp/data:/data" -- "$(command -v python3)" -c '
import fcntl, os
fd = os.open("/data/f", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
os.write(fd, b"aaaa"); os.lseek(fd, 0, 0)
fcntl.fcntl(fd, fcntl.F_SETFL, os.O_APPEND)
os.write(fd, b"b")
fcntl.fcntl(fd, fcntl.F_SETFL, 0); os.lseek(fd, 0, 0)
os.write(fd, b"c")
print(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND)'
    [ "$rc" = 0 ] && [ "$(cat "$tmp/data/f")" = caaab ] && [ "$(cat "$tmp/out")" = 0 ]
}

# stdout a host regular file opened read-write at 0: >>/dev/stdout inside
# appends, as natively, and the description the host's shell shares keeps
# its offset and flags (its Z lands at 0); F_SETFL O_APPEND on a reopened
# /dev/stdout appends too.
c_stdout_append() {
    printf xxxxxx >"$tmp/stdout"
    ( timeout -k 5 30 "$SKAS" run -- /bin/sh -c 'printf b >>/dev/stdout' 2>/dev/null
      printf Z ) 1<>"$tmp/stdout"
    [ "$(cat "$tmp/stdout")" = Zxxxxxb ] || return 1
    printf xxxxxx >"$tmp/stdout"
    ( timeout -k 5 30 "$SKAS" run -- "$(command -v python3)" -c '
import fcntl, os
fd = os.open("/dev/stdout", os.O_WRONLY)
fcntl.fcntl(fd, fcntl.F_SETFL, os.O_APPEND)
os.write(fd, b"c")' 2>/dev/null
      printf Z ) 1<>"$tmp/stdout"
    [ "$(cat "$tmp/stdout")" = Zxxxxxc ]
}

t "echo hi > /etc/motd inside: cat prints hi, the host's /etc/motd is unchanged" c_motd
t "rm -rf /usr/share/doc inside: ls fails inside, the host's is intact" c_rm_doc
t "a file made in $tmp inside is seen inside, not on the host" c_tmp_file
t "a second run does not see the first run's file" c_tmp_file_runs
t "ls /.. lists the same as ls /" c_ls_dotdot
t "ln of a lower file: both names show its device and number; git clone of a lower repository" c_link_lower
t "--root overlay: unlink/rename of copied-up files, a directory moved over a removed one, a copy-up seen by the cwd and open files, as natively" c_overlay_native
t "overlay: a host directory moves (os.rename, RENAME_EXCHANGE, back again) with its lower content, as overlayfs with redirect_dir=on; the host's is untouched" c_overlay_dir_rename
t "overlay: moved host directories count as open files: EXDEV at --nofile, their places back once removed" c_overlay_dir_rename_cap
t "--root overlay: a file open for reading across its copy-up (by a write, a truncation, a chmod) reads the copy from its position, maps the lower file, as Linux's overlayfs" c_overlay_open_copy_up
t "--rw --root DIR: a file written inside appears in DIR" c_rw_root
t "--root DIR without --rw: the write does not reach DIR" c_ro_root
t "--root: /escape -> / (host symlink): cat /escape/etc/hostname is ENOENT" c_escape_cat
t "--root: ls /escape lists the guest root" c_escape_ls
t "--root --rw: a write through /escape stays in DIR" c_escape_write
t "--root: ls /.. and ls /sub/../../.. list the same as ls /" c_root_dotdot
t "--root: cat /../../../../etc/hostname fails" c_root_dotdot_cat
t "-v HOST:/data shows the host files" c_vol_read
t "-v HOST:/data: a write appears on the host" c_vol_write
t "--volume HOST:/data reads and writes" c_vol_long
t "a host FIFO, in the lower layer and in a volume: the guest's ends meet" c_host_fifo
t "a host FIFO: the guest's reader is not the host pipe's (host writer: ENXIO)" c_host_fifo_apart
t "a host FIFO copied up (chmod) while a reader waits: the writer meets it" c_host_fifo_copy_up
t "-v HOST:/data:ro: a write fails with EROFS" c_vol_ro
t "-v HOST:/data:ro: rm fails with EROFS" c_vol_ro_rm
t "-v HOST:/data: a file the host replaces and a file it adds are seen" c_host_change
t "-v HOST:/data: a host symlink the host replaces is read afresh" c_host_symlink
t "-v HOST:/data: F_SETFL O_APPEND moves the next write to the end" c_vol_setfl_append
t "stdout a host file opened at 0: >>/dev/stdout appends, the host's description untouched" c_stdout_append
t "-v HOST:/data: O_TMPFILE there, linkat AT_EMPTY_PATH names it on the host" c_vol_tmpfile

# --- mount(8) inside ---

c_mount_tmpfs() {
    sk run -- /bin/sh -c 'mkdir -p /tmp/m && mount -t tmpfs -o size=1m,mode=700 none /tmp/m &&
        echo x >/tmp/m/f && grep " /tmp/m " /proc/mounts && findmnt -n -o FSTYPE,OPTIONS /tmp/m &&
        mount --bind /tmp/m /mnt && mount -o remount,bind,ro /mnt && ! touch /mnt/g 2>/dev/null &&
        cat /mnt/f && umount /mnt && umount /tmp/m && ! test -e /tmp/m/f && echo done'
    [ "$(cat "$tmp/out")" = "none /tmp/m tmpfs rw,relatime,size=1024k,mode=700 0 0
tmpfs  rw,relatime,size=1024k,mode=700
x
done" ]
}

c_mount_busybox() {
    command -v busybox >/dev/null || return 0
    sk run -- busybox sh -c 'mkdir -p /tmp/b && busybox mount -t tmpfs -o ro none /tmp/b &&
        busybox mount | grep " /tmp/b " && busybox umount /tmp/b && busybox mount -t proc proc /tmp/b &&
        test -e /tmp/b/self/status && busybox umount /tmp/b && echo done'
    [ "$(cat "$tmp/out")" = "none on /tmp/b type tmpfs (ro,relatime)
done" ]
}

c_mount_vol_ro() {
    mkdir -p "$tmp/rov" && echo keep >"$tmp/rov/f"
    sk run -v "$tmp/rov:/data:ro" -- /bin/sh -c 'mount -o remount,rw /data 2>/dev/null && echo rw;
        mkdir -p /tmp/v && mount --bind /data /tmp/v && mount -o remount,bind,rw /tmp/v 2>/dev/null && echo bindrw;
        echo bad 2>/dev/null >/tmp/v/f; echo bad 2>/dev/null >/data/f; mount -t hostfs / /mnt 2>/dev/null && echo hostfs;
        grep " /tmp/v " /proc/mounts | cut -d" " -f4 | cut -d, -f1'
    [ "$(cat "$tmp/out")" = ro ] && [ "$(cat "$tmp/rov/f")" = keep ]
}

t "mount -t tmpfs -o size=1m,mode=700, a read-only bind of it, umount: as /proc/mounts and findmnt show" c_mount_tmpfs
t "busybox mount -t tmpfs -o ro and -t proc, busybox umount" c_mount_busybox
t "-v HOST:/data:ro: no remount or bind remount makes it writable; hostfs is not mountable inside" c_mount_vol_ro

# Kernel stack depth: a write 60 directories down a host tree copies every
# parent up into the overlay (a loop, not one kernel frame per level); an
# O_CREAT through a chain of 40 dangling symlinks makes the last one's
# target, 41 is ELOOP (Linux's limit on links per open). Both crashed the
# kernel at about 30 levels when they recursed.
c_deep_copy_up() {
    local d=$tmp/deep i
    for i in $(seq 1 60); do d=$d/d$i; done
    mkdir -p "$d"
    sk run -- /bin/sh -c "echo deep >$d/f && cat $d/f"
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = deep ] && [ ! -e "$d/f" ]
}

c_link_chain() {
    sk run -- /bin/sh -c 'cd /tmp && mkdir c && cd c && i=0; while [ $i -lt 41 ]; do
        ln -s l$((i + 1)) l$i; ln -s m$((i + 1)) m$i; i=$((i + 1)); done
        rm l39 && ln -s target l39 && echo ok >l0 && cat target
        echo no 2>&1 >m0 | grep -c "Too many levels"; test -e m41 || echo none'
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "ok
1
none" ]
}

# Mounts nested 3000 deep (each a tmpfs on a directory of the one before),
# a recursive bind of the whole tree, then a lazy unmount of both: the
# kernel walks and detaches them in loops (a recursion crashed it at about
# 5000).
cat >"$tmp/nest.c" <<'EOF'
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
int main(int argc, char **argv)
{
	int n = atoi(argv[1]), i;

	if (mkdir("/tmp/nm", 0755) || mkdir("/tmp/nb", 0755) || chdir("/tmp/nm"))
		return 1;
	for (i = 0; i < n; i++)
		if (mkdir("d", 0755) || mount("none", "d", "tmpfs", 0, NULL) || chdir("d"))
			break;
	if (chdir("/") || mount("/tmp/nm", "/tmp/nb", NULL, MS_BIND | MS_REC, NULL))
		return 2;
	printf("%d %d %d\n", i, umount2("/tmp/nb", MNT_DETACH), umount2("/tmp/nm/d", MNT_DETACH));
	return 0;
}
EOF
c_nested_mounts() {
    gcc -static -O1 -o "$tmp/nest" "$tmp/nest.c" || return 1
    sk run -v "$tmp:/t:ro" -- /t/nest 3000
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "3000 0 0" ]
}

# A tmpfs holding directories 20000 deep (made by mkdir and chdir, so no
# path is long), unmounted: its inodes are released in a loop, not one
# kernel frame per level (the recursion crashed skas at about 5000).
cat >"$tmp/deeptmp.c" <<'EOF'
#include <stdio.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
int main(void)
{
	int i;

	if (mkdir("/tmp/dd", 0755) || mount("none", "/tmp/dd", "tmpfs", 0, NULL) || chdir("/tmp/dd"))
		return 1;
	for (i = 0; i < 20000; i++)
		if (mkdir("d", 0755) || chdir("d"))
			break;
	if (chdir("/"))
		return 2;
	printf("%d %d\n", i, umount2("/tmp/dd", MNT_DETACH));
	return 0;
}
EOF
c_deep_tmpfs() {
    gcc -static -O1 -o "$tmp/deeptmp" "$tmp/deeptmp.c" || return 1
    sk run -v "$tmp:/t:ro" -- /t/deeptmp
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "20000 0" ]
}

# chattr on the root's files: a host file's flags read as the host has
# them; +i copies it up (the host's own 'e' dropped) and holds the copy;
# the host's file untouched
c_chattr_root() {
    local before
    # (/usr: /etc is copied up at boot, for /etc/hosts)
    before=$(lsattr -d /usr 2>/dev/null | cut -c1-22)
    sk run -- /bin/sh -c 'lsattr -d /usr | cut -c1-22; chattr +i /etc/hostname && lsattr /etc/hostname | cut -c1-22
        echo x > /etc/hostname || echo refused; rm -f /etc/hostname || echo kept
        chattr -i /etc/hostname && echo x > /etc/hostname && cat /etc/hostname'
    [ "$rc" = 0 ] || return 1
    [ "$(cat "$tmp/out")" = "$before
----i-----------------
refused
kept
x" ] && [ "$(cat /etc/hostname)" != x ]
}

t "chattr of a root file: the host's flags read, +i holds the copy, the host untouched" c_chattr_root

# A copy-up leaves its parents' times as they were (Linux's
# ovl_set_timestamps): the names were there before
c_copy_up_times() {
    local before
    before=$(stat -c '%Y %X' /usr/share/doc/bash /usr/share/doc /usr/share)
    sk run -- /bin/sh -c 'chmod 600 /usr/share/doc/bash/INTRO.gz && stat -c "%Y %X" /usr/share/doc/bash /usr/share/doc /usr/share'
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$before" ]
}
t "a copy-up keeps its parents' times" c_copy_up_times

# A host file's xattrs: read from the root (getcap sees ping's file
# capability), read and written on a volume (they were EOPNOTSUPP: the
# host calls named the /proc/self/fd link instead of the file)
c_host_xattrs() {
    local want
    want=$(getcap /usr/bin/ping 2>/dev/null)
    [ -n "$want" ] || { echo "no file capability on the host's ping"; return 1; }
    mkdir -p "$tmp/xv" && : >"$tmp/xv/f" && chmod 666 "$tmp/xv/f" || return 1
    sk run -v "$tmp/xv:/xv" -- /usr/bin/python3 -c 'import os, subprocess
print(subprocess.run(["getcap", "/usr/bin/ping"], capture_output=True, text=True).stdout.strip())
os.setxattr("/xv/f", "user.k", b"v1")
print(os.getxattr("/xv/f", "user.k").decode(), sorted(os.listxattr("/xv/f")))
os.removexattr("/xv/f", "user.k")
print(os.listxattr("/xv/f"))'
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$want
v1 ['user.k']
[]" ]
}
t "host xattrs: the root's read (getcap), a volume's read, written and removed" c_host_xattrs

# The guest's /etc/hosts names its hostname (without it, a lookup of the
# own name failed: sudo's "unable to resolve host skas", Java's
# getLocalHost): a line in the overlay's copy, a missing newline before
# it added; the host's file untouched; none where the file names it
# already, nor with --rw (the file is the host's then)
c_hosts_self() {
    local before
    before=$(sha256sum /etc/hosts)
    sk run -- /bin/sh -c 'getent hosts "$(hostname)"'
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "127.0.1.1       skas" ] || return 1
    [ "$(sha256sum /etc/hosts)" = "$before" ] || { echo "the host's /etc/hosts changed"; return 1; }
    mkroot
    mkdir -p "$tmp/root/etc" && printf '127.0.0.1 localhost' >"$tmp/root/etc/hosts"
    sk run --root "$tmp/root" -- /h cat /etc/hosts
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$(printf '127.0.0.1 localhost\n127.0.1.1\tskas')" ] || return 1
    [ "$(cat "$tmp/root/etc/hosts")" = "127.0.0.1 localhost" ] || return 1
    printf '::1 x skas # mine\n' >"$tmp/root/etc/hosts"
    sk run --root "$tmp/root" -- /h cat /etc/hosts
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "::1 x skas # mine" ] || return 1
    printf '127.0.0.1 localhost\n' >"$tmp/root/etc/hosts"
    host_user_owns "$tmp/root"
    sk run --root "$tmp/root" --rw -- /h cat /etc/hosts
    [ "$rc" = 0 ] && [ "$(cat "$tmp/root/etc/hosts")" = "127.0.0.1 localhost" ]
}
t "/etc/hosts names the hostname: in the overlay's copy, not the host's, not with --rw" c_hosts_self

# A host file's birth time is the host's statx's (stat's "Birth" was "-"
# for every file): a root file's through the overlay, a volume's on the
# host's /dev/shm (a tmpfs: it keeps one)
c_host_btime() {
    local v want
    v=$(mktemp -d /dev/shm/skas-btime.XXXXXX) || return 1
    : >"$v/f"
    want=$(stat -c '%W' /etc/passwd "$v/f")
    sk run -v "$v:/bv" -- /bin/sh -c 'stat -c "%W" /etc/passwd /bv/f'
    rm -rf "$v"
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ "${want#*
}" != 0 ]
}
t "host files' birth times: the root's and a volume's, as the host says" c_host_btime

# lscpu's Vulnerability lines inside skas are the host's: the guest runs on
# the host's CPUs under its kernel's mitigations (sysfs shows the host's
# cpu/vulnerabilities files; skas had none, lscpu printed no such line)
c_lscpu_vulns() {
    command -v lscpu >/dev/null 2>&1 || return 0
    local want
    want=$(lscpu | grep '^Vulnerability')
    sk run -- lscpu
    [ "$rc" = 0 ] && [ "$(grep '^Vulnerability' "$tmp/out")" = "$want" ]
}
t "lscpu inside skas prints the host's Vulnerability lines" c_lscpu_vulns

# /proc/filesystems lists only what mount(2) takes (a runtime looks for
# "overlay" there before it tries one): none is "unknown" (ENODEV)
c_filesystems_mount() {
    sk run -- /usr/bin/unshare -m /bin/sh -c 'mkdir -p /mnt/fs; for t in $(cut -f2 /proc/filesystems); do
        mount -t $t x /mnt/fs 2>/tmp/e && umount /mnt/fs; grep -q "unknown filesystem" /tmp/e && echo $t; done; echo end'
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = end ]
}
t "every type /proc/filesystems lists mounts or is refused as Linux's (never ENODEV)" c_filesystems_mount
t "a write 60 directories down the host's tree: copied up, the host untouched" c_deep_copy_up
t "mounts nested 3000 deep, a recursive bind of them, lazy unmounts" c_nested_mounts
t "a tmpfs with directories 20000 deep, unmounted" c_deep_tmpfs
t "O_CREAT through 40 dangling symlinks makes the target; through 41, ELOOP" c_link_chain

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
