# tests/scenario/common.bash: what the scenario scripts share (sourced;
# run-all.sh runs only the *.sh files). SKAS made absolute, the TAP
# counter and check, a scratch directory and the closing summary.
SKAS=${SKAS:-./skas}
case $SKAS in /*) ;; */*) SKAS=$PWD/$SKAS ;; esac
n=0
failed=0

check() { # name expected actual
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "# expected: $(printf '%q' "$2")"
		echo "# got:      $(printf '%q' "$3")"
		failed=$((failed + 1))
	fi
}

# scratch NAME: $tmp, a directory removed at exit.
scratch() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/skas-$1.XXXXXX") || exit 2
	trap 'rm -rf "$tmp"' EXIT
}

summary() {
	echo "$((n - failed)) passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# platforms_probe: $host_platforms, the platforms this host runs (sigsys
# wants SECCOMP_RET_TRAP, seccomp USER_NOTIF), each one missing said once.
# platforms_of NAME...: those of NAMEs in it, in the order given.
platforms_probe() {
	local p
	host_platforms=
	for p in seccomp ptrace sigsys; do
		if "$SKAS" run --platform="$p" -- /bin/true >/dev/null 2>&1; then
			host_platforms="$host_platforms $p"
		else
			echo "# platform $p: not available on this host, its checks left out"
		fi
	done
}
platforms_of() {
	local p
	for p in "$@"; do
		case " $host_platforms " in *" $p "*) echo "$p" ;; esac
	done
}
