#!/bin/bash
# The kernel is an ordinary program: gdb stops in a system call handler
# when a guest makes that call, with the task's kernel stack as backtrace.
set -u
SKAS=${SKAS:-./skas}
n=0
failed=0
out=$(mktemp /tmp/skas-gdb.XXXXXX)
trap 'rm -f "$out" "$out.cmd"' EXIT

cat >"$out.cmd" <<'CMD'
set pagination off
set confirm off
break sys_openat
run
bt 3
kill
CMD
timeout -k 5 120 gdb -batch -x "$out.cmd" --args "$SKAS" run -- /bin/cat /etc/hostname \
	>"$out" 2>&1 </dev/null
n=$((n + 1))
if grep -q "Breakpoint 1, sys_openat" "$out" && grep -q "in task_main" "$out"; then
	echo "ok $n - gdb stops in sys_openat when the guest opens a file"
else
	echo "not ok $n - gdb stops in sys_openat when the guest opens a file"
	sed 's/^/# /' "$out" | tail -20
	failed=$((failed + 1))
fi
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
