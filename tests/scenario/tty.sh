#!/bin/bash
# The console and the interactive shell, driven through tmux: `skas` with
# no arguments in a tmux pane gives a prompt; a command runs; Ctrl-C ends
# `sleep 100`; Ctrl-Z, bg, fg; stty -a shows a canonical terminal with
# echo; a resize reaches the guest; vi edits a file; Ctrl-D ends the shell;
# and the host's `stty -g` of the pane is the same before and after, also
# when a guest's stub is killed with SIGKILL and when skas gets SIGTERM.
# Then the terminal-less paths: pipes and files pass through untouched.
# One TAP line per check, then "N passed, M failed". Every wait is bounded.
#
# usage: SKAS=./skas tests/scenario/tty.sh     (run from anywhere)
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SKAS=${SKAS:-$root/skas}
case $SKAS in
    /*) ;;
    */*) SKAS=$PWD/$SKAS ;;
esac
cd "$root" || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skas-tty.XXXXXX") || exit 2
sock=skas-tty-$$
WAIT=${TTY_TEST_WAIT:-20} # seconds for anything to show up in the pane (a bound, not a delay:
# each wait ends as soon as its line shows; 5 s was too short for vi to exit
# and the prompt to come back on a machine loaded by other test suites)
cleanup() {
    tmux -L "$sock" kill-server >/dev/null 2>&1
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
    rm -rf "$tmp"
}
trap cleanup EXIT

n=0
passed=0
failed=0

if ! command -v tmux >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q tmux >/dev/null 2>&1
fi
have_tmux=1
command -v tmux >/dev/null 2>&1 || have_tmux=0

t() {
    local name=$1 res
    shift
    n=$((n + 1))
    "$@" >"$tmp/notes" 2>&1
    res=$?
    if [ "$res" = 0 ]; then
        passed=$((passed + 1))
        echo "ok $n - $name"
    else
        failed=$((failed + 1))
        echo "not ok $n - $name"
        sed 's/^/# /' "$tmp/notes"
        if [ "$have_tmux" = 1 ] && [ -n "${pane_started:-}" ]; then
            echo "# the pane:"
            pane | sed '/^$/d' | tail -n 12 | sed 's/^/#   /'
        fi
    fi
}

# The pane

tm() { tmux -L "$sock" "$@"; }
pane() { tm capture-pane -p -J -t m 2>/dev/null; }
last_line() { pane | sed '/^[[:space:]]*$/d' | tail -n 1; }
keys() { tm send-keys -t m "$@"; }
line() { tm send-keys -t m -l "$1" && tm send-keys -t m Enter; }

# wait_for REGEX [SECONDS]: a line of the pane matches (extended regex).
wait_for() {
    local i limit=$((${2:-$WAIT} * 10))
    for ((i = 0; i < limit; i++)); do
        pane | grep -qE -- "$1" && return 0
        sleep 0.1
    done
    echo "waited ${2:-$WAIT} s for /$1/"
    return 1
}

# wait_last REGEX [SECONDS]: the last non-empty line matches.
wait_last() {
    local i limit=$((${2:-$WAIT} * 10))
    for ((i = 0; i < limit; i++)); do
        last_line | grep -qE -- "$1" && return 0
        sleep 0.1
    done
    echo "waited ${2:-$WAIT} s for the last line to match /$1/: $(last_line)"
    return 1
}

wait_file() {
    local i
    for ((i = 0; i < WAIT * 10; i++)); do
        [ -s "$1" ] && return 0
        sleep 0.1
    done
    echo "no $1"
    return 1
}

pane_pid() { tm display -p -t m '#{pane_pid}'; }
skas_pid() { pgrep -P "$(pane_pid)" -x skas | head -n 1; }

# stubs: skas's live stubs (its zygote, then one per guest process).
stubs() { ps --ppid "$(skas_pid)" -o stat= 2>/dev/null | grep -vc '^Z'; }
# wait_stubs TEST N: [ "$(stubs)" TEST N ], at most WAIT s.
wait_stubs() {
    local i
    for ((i = 0; i < WAIT * 10; i++)); do
        [ "$(stubs)" "$1" "$2" ] && return 0
        sleep 0.1
    done
    echo "waited $WAIT s for $1 $2 stubs: $(stubs)"
    return 1
}
# fg_line LINE K: LINE typed once no guest process runs but the shell;
# returns once the guest forked K processes for it. A host-side delay before
# a key counts from there, not from the typing: on a loaded machine the
# guest may take long to fork, and a ^C that comes first is lost.
fg_line() {
    wait_stubs -le "$idle" && line "$1" && wait_stubs -ge $((idle + $2))
}

wait_no_skas() {
    local i
    for ((i = 0; i < WAIT * 10; i++)); do
        [ -z "$(skas_pid)" ] && return 0
        sleep 0.1
    done
    echo "skas still runs"
    return 1
}

start_pane() {
    tm -f /dev/null new-session -d -s m -x 100 -y 30 \
        "env -i PATH=$PATH HOME=${HOME:-/root} TERM=screen HISTFILE=/dev/null PS1='HOST\$ ' bash --norc --noprofile" ||
        return 1
    pane_started=1
    wait_last '^HOST\$ ?$'
}

# The host's terminal settings, as the pane's host shell sees them.
host_stty() {
    rm -f "$tmp/stty.$1"
    line "stty -g > $tmp/stty.$1"
    wait_file "$tmp/stty.$1"
}

same_stty() {
    host_stty "$1" || return 1
    if ! cmp -s "$tmp/stty.0" "$tmp/stty.$1"; then
        echo "before: $(cat "$tmp/stty.0")"
        echo "after:  $(cat "$tmp/stty.$1")"
        return 1
    fi
}

# skas with no arguments: the root's shell; its prompt becomes GUEST>.
# Its prompt is root's (#): the host's "HOST$ " matched '[#$]' before
# tmux had echoed the typed command, and the check failed under load.
start_skas() {
    line "$SKAS"
    wait_last '# ?$' $((2 * WAIT)) || return 1
    last_line | grep -q '^HOST\$' && { echo "no guest prompt"; return 1; }
    line "PS1='GUEST> '"
    wait_last '^GUEST> ?$' || return 1
    idle=$(stubs) # the zygote and the shell
}

c_start() {
    start_pane && host_stty 0 && start_skas
}
c_raw_host() {
    local tty
    tty=$(tm display -p -t m '#{pane_tty}')
    stty -F "$tty" -a | tr ' ' '\n' | grep -xE -- '-isig' >/dev/null &&
        stty -F "$tty" -a | tr ' ' '\n' | grep -xE -- '-opost' >/dev/null
}
c_echo() {
    line "echo hi" && wait_for '^hi$' && wait_last '^GUEST> ?$'
}
c_tty() {
    line "tty" && wait_for '^/dev/console$'
}
c_stty() {
    line "stty -a | tr ' ' '\n' | grep -xE -- '-?(icanon|echo)' | tr '\n' ' '; echo END" &&
        wait_for '^icanon echo END$'
}
c_ctrl_c() {
    fg_line "sleep 100" 1 && sleep 0.5 && keys C-c && wait_last '^GUEST> ?$' &&
        line 'echo rc=$?' && wait_for '^rc=130$'
}
c_ctrl_c_load() {
    # Two guest processes trapping all the time: ^C still arrives.
    fg_line "yes >/dev/null & yes >/dev/null & sleep 100" 3 && sleep 0.5 && keys C-c &&
        wait_last '^GUEST> ?$' && line 'echo rc=$?; kill %1 %2' && wait_for '^rc=130$'
}
c_ctrl_z() {
    # After fg, the shell's "sleep 100" (the job it continues) starts the
    # delay before ^C.
    fg_line "sleep 100" 1 && sleep 0.5 && keys C-z && wait_for 'Stopped +sleep 100' &&
        line "bg" && line "jobs" && wait_for 'Running +sleep 100 &' &&
        line "fg" && wait_last '^sleep 100$' && sleep 0.5 && keys C-c && wait_last '^GUEST> ?$' &&
        line 'echo rc2=$?' && wait_for '^rc2=130$'
}
# The trap's own line is awaited, not only a prompt: the prompt before
# the typed line matched at once, and a resize before bash had set the
# trap was lost under load.
c_resize() {
    line "trap 'echo SIG\$((20 + 8))' WINCH; echo trap-\$((1 + 1))" && wait_for '^trap-2$' &&
        wait_last '^GUEST> ?$' &&
        tm resize-window -t m -x 90 -y 25 && wait_for 'SIG28' &&
        line "stty size" && wait_for '^25 90$'
}
c_vi() {
    local f=/tmp/skas-tty-vi.$$
    # vi's empty lines (~), not the typed line with $f: the keys go to vi
    # once it has the terminal.
    line "vi $f" && wait_for '^~ *$' && keys i "hello vi" Escape && keys ":wq" Enter &&
        wait_last '^GUEST> ?$' && line "cat $f" && wait_for '^hello vi$' &&
        { [ ! -e "$f" ] || { echo "the host's /tmp changed"; return 1; }; }
}
c_ctrl_d() {
    # At the prompt: readline has the terminal (a ^D typed before would
    # be a canonical end-of-file that readline then reads as a NUL).
    wait_last '^GUEST> ?$' && keys C-d && wait_last '^HOST\$ ?$' && wait_no_skas &&
        same_stty 1
}
c_sigterm() {
    local pid
    start_skas || return 1
    pid=$(skas_pid)
    [ -n "$pid" ] || { echo "no skas process"; return 1; }
    kill -TERM "$pid" && wait_last 'HOST\$ ?$' && wait_no_skas && same_stty 2
}
c_kill_stub() {
    local pid stub
    start_skas || return 1
    pid=$(skas_pid)
    stub=$(pgrep -n -P "$pid")
    [ -n "$stub" ] || { echo "no stub process"; return 1; }
    kill -KILL "$stub" && wait_last 'HOST\$ ?$' && wait_no_skas && same_stty 3
}

# Without a terminal

c_pipe_sort() {
    local out
    out=$(printf 'b\na\n' | timeout 20 "$SKAS" run -- sort)
    [ "$out" = "$(printf 'a\nb')" ] || { echo "got: $out"; return 1; }
}
c_big_file() {
    local want got
    head -c 100M /dev/urandom >"$tmp/big" || return 1
    want=$(sha256sum <"$tmp/big")
    got=$(timeout 60 "$SKAS" run -- cat <"$tmp/big" | sha256sum)
    rm -f "$tmp/big"
    [ "$want" = "$got" ] || { echo "want $want got $got"; return 1; }
}
c_dash_t_pipe() {
    local out
    out=$(timeout 20 "$SKAS" run -t -- /bin/sh -c 'tty; stty size' </dev/null | tr -d '\r')
    [ "$out" = "$(printf '/dev/console\n0 0')" ] || { echo "got: $out"; return 1; }
}
c_dash_t_eof() {
    local out
    out=$(printf 'echo in-""guest\n' | timeout 20 "$SKAS" run -t -- /bin/sh 2>&1 | tr -d '\r')
    echo "$out" | grep -q 'in-guest$' || { echo "got: $out"; return 1; }
}
c_no_tty() {
    local out
    out=$(timeout 20 "$SKAS" run -- /bin/sh -c 'tty; ls /dev/pts' </dev/null)
    [ "$out" = "$(printf 'not a tty\nptmx')" ] || { echo "got: $out"; return 1; }
}
# kernel.pty.{max,reserve,nr} (Linux's pty_table; skas-only: natively the
# host's counts move with every terminal): nr counts the ptys open (one
# whose master closed while its slave is open still counts), max caps them
# (as Linux's devpts_new_index, max - 1 at most: ENOSPC past it), both
# setters take 0..INT_MAX and only root.
c_pty_sysctl() {
    local out want
    out=$(timeout 20 "$SKAS" run -- /usr/bin/python3 -c '
import errno, os, subprocess
def rd(f): return open("/proc/sys/kernel/pty/" + f).read().strip()
def wr(f, v):
    try:
        with open("/proc/sys/kernel/pty/" + f, "w") as o: o.write(v)
        return "ok"
    except OSError as e: return errno.errorcode[e.errno]
def opn():
    try: return os.openpty()
    except OSError as e: return errno.errorcode[e.errno]
print(rd("max"), rd("reserve"), rd("nr"))
a = opn(); b = opn()
print(rd("nr"))
print(wr("max", "4"), rd("max"))
c = opn(); print(rd("nr"), opn())
os.close(c[0]); print(rd("nr"))
os.close(c[1]); print(rd("nr"), type(opn()).__name__)
print(wr("max", "2147483648"), wr("max", "-1"), wr("max", "2147483647"), wr("reserve", "100"), rd("reserve"))
print(wr("nr", "0"))
print(subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c",
      "echo 5 >/proc/sys/kernel/pty/max"], capture_output=True).returncode)
' </dev/null 2>&1)
    want=$(printf '%s\n' "4096 1024 0" "2" "ok 4" "3 ENOSPC" "3" "2 tuple" \
        "EINVAL EINVAL ok ok 100" "EACCES" "2")
    [ "$out" = "$want" ] || { echo "got: $out"; return 1; }
}

# util-linux script(1): a pty pair, signalfd for SIGCHLD and SIGWINCH.
c_script() {
    local out script
    script=$(command -v script) || return 1
    out=$(timeout 20 "$SKAS" run -- "$script" -qc 'echo hi' /dev/null </dev/null | od -c | tr -s ' ')
    [ "$out" = "$(printf 'hi\r\n' | od -c | tr -s ' ')" ] || { echo "got: $out"; return 1; }
    timeout 20 "$SKAS" run -- "$script" -qec 'exit 3' /dev/null </dev/null >/dev/null
    [ $? = 3 ] || { echo "script -e: status not 3"; return 1; }
}

# --init -t: keys typed on the host's terminal (script's pty here) once
# the program said "ready" on it. keys_after_ready KEYS... CMD: runs
# "skas run --init -t -- CMD" under script(1) and types each of KEYS
# (printf formats, 0.5 s apart) after "ready"; its output in $tmp/init.out,
# status in $rc.
keys_after_ready() {
    local cmd=$1 k i
    shift
    : >"$tmp/init.out"
    {
        for i in $(seq 200); do
            grep -q ready "$tmp/init.out" && break
            sleep 0.05
        done
        for k in "$@"; do
            printf "$k"
            sleep 0.5
        done
    } | timeout 20 script -qec "$SKAS run --init -t -- $cmd" /dev/null >"$tmp/init.out" 2>&1
    rc=$?
}
# Ctrl-C reaches the program, pid 2, in the terminal's foreground group:
# `sleep 100` ends, skas exits 130 (as pid 1 it ignored the SIGINT).
c_init_ctrl_c() {
    keys_after_ready "sh -c 'echo ready; exec sleep 100'" '\003'
    [ "$rc" = 130 ] || { echo "status $rc"; return 1; }
}
# Ctrl-Z stops the program and its children; no shell could continue
# them, so init does, the whole group: the shell's sleep goes on, the
# shell prints "done" and exits 0 (init continuing only the shell left
# its sleep stopped: a timeout).
c_init_ctrl_z() {
    keys_after_ready "sh -c 'echo ready; sleep 2; echo done'" '\032'
    [ "$rc" = 0 ] && grep -q done "$tmp/init.out" || { echo "status $rc"; return 1; }
}

# expect(1) drives a shell through a pty it makes inside.
c_expect() {
    local out
    out=$(timeout 30 "$SKAS" run -- "$(command -v expect)" -c \
        'spawn /bin/sh -c {read x; echo got:$x}; send "hello\r"; expect "got:hello"; puts "\nDONE"' \
        </dev/null 2>&1 | tr -d '\r' | tail -1)
    [ "$out" = DONE ] || { echo "got: $out"; return 1; }
}
# screen(1) runs a command in a detached session on a pty of its own.
c_screen() {
    local out
    out=$(timeout 30 "$SKAS" run -- /bin/sh -c \
        'screen -D -m -S t sh -c "echo from-screen > /tmp/sc.txt"; cat /tmp/sc.txt' </dev/null 2>&1)
    [ "$out" = from-screen ] || { echo "got: $out"; return 1; }
}

if [ "$have_tmux" = 1 ] && command -v "$SKAS" >/dev/null 2>&1; then
    t "skas with no arguments: the root's shell prompts in a tmux pane" c_start
    t "the host terminal is raw while skas runs" c_raw_host
    t "echo hi" c_echo
    t "tty is /dev/console" c_tty
    t "stty -a shows icanon and echo" c_stty
    t "Ctrl-C ends sleep 100 (status 130)" c_ctrl_c
    t "Ctrl-C ends sleep 100 while two yes loops keep the kernel busy" c_ctrl_c_load
    t "Ctrl-Z stops sleep 100; bg, jobs, fg" c_ctrl_z
    t "a resize: SIGWINCH and the new size" c_resize
    if [ -x /usr/bin/vi ]; then
        t "vi writes a file inside" c_vi
    fi
    t "Ctrl-D ends the shell; the host's stty -g is as before" c_ctrl_d
    t "skas killed with SIGTERM: the host's stty -g is as before" c_sigterm
    t "the guest shell's stub killed with SIGKILL: stty -g as before" c_kill_stub
else
    n=$((n + 1))
    failed=$((failed + 1))
    echo "not ok $n - tmux or skas missing (apt-get install tmux)"
fi
t "printf 'b\\na\\n' | skas run -- sort" c_pipe_sort
t "skas run -- cat < 100 MB file: the same bytes" c_big_file
t "run -t with pipes: the guest has a terminal" c_dash_t_pipe
t "run -t: the end of piped input ends the shell" c_dash_t_eof
t "no terminal: the guest's stdio is the host's" c_no_tty
if [ -x /usr/bin/python3 ] && command -v setpriv >/dev/null 2>&1; then
    t "kernel.pty.max, reserve and nr" c_pty_sysctl
fi
if command -v script >/dev/null 2>&1; then
    t "script -qc 'echo hi' /dev/null (util-linux, signalfd)" c_script
    t "run --init -t: Ctrl-C ends sleep 100, skas exits 130" c_init_ctrl_c
    t "run --init -t: Ctrl-Z stops sh and its sleep; init continues both" c_init_ctrl_z
fi
if command -v expect >/dev/null 2>&1; then
    t "expect spawns a shell on a pty, sends a line, sees the answer" c_expect
fi
if command -v screen >/dev/null 2>&1; then
    t "screen runs a command in a detached session" c_screen
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
