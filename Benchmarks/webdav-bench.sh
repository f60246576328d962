#!/usr/bin/env bash
# Benchmark, not a test: seams-sync against rclone bisync (and rclone copy, one-way, for reference)
# with a WebDAV container: Apache httpd (mod_dav_fs) on loopback, behind HTTP Basic auth, on the
# standard tree of ../shared/bench/make-tree.py (10,020 files, 140 MB), every tool in one run.
#
#   Benchmarks/webdav-bench.sh          # from the package root; WORK=/some/dir to choose the scratch dir
#   BEFORE=/path/to/old/seams-sync PEERS=0 Benchmarks/webdav-bench.sh
#                                       # this build against an earlier one only (/before), rclone left out
#
# Phases: cold sync into an empty collection, a re-run with no change, a re-run after --modify 100
# (a new --seed each run, so every run brings new content). Each phase runs COLD_RUNS (3) or RUNS (5)
# times, the tools taking turns; medians are compared. Each tool has its own collection (its own
# folder behind its own Alias): /dav (seams-sync), /bisync (rclone bisync), /copy (rclone copy).
# Prints seconds, peak RSS (from /usr/bin/time -v), HTTP requests (from Apache's access log) and the
# ratios to the goals: no slower than rclone bisync in any phase, peak memory under 64 MiB.
# rclone runs with its defaults (4 transfers, 8 checkers). rclone copy uses vendor=other, so it
# compares by size only (an edit that keeps the size is not copied). rclone bisync (v1.60) refuses a
# remote without modification times ("modification time support is missing on path2"), so it uses
# vendor=owncloud: Apache ignores the X-OC-Mtime header, the times bisync lists for the collection
# are Apache's upload times, which is all bisync needs (it compares each side with its last listing).
# rclone's WebDAV backend waits 10 ms between requests (its pacer, not adjustable in v1.60), so one
# cold rclone run of the 10,020 files (about 3 requests a file) takes about 5.5 minutes. On the
# project's 2-core machine one cold round of the three tools took about 15 minutes and the whole
# script with COLD_RUNS=1 took 17; with the defaults expect about 50.
# The correctness check leaves out .seams* (seams-sync's own names) and .DAV (mod_dav_fs's
# lock-null and property databases, made when a client LOCKs a name that does not exist yet).
set -euo pipefail
export LC_ALL=C   # a dot in $EPOCHREALTIME and in awk's numbers
cd "$(dirname "$0")/.."
MAKE_TREE=${MAKE_TREE:-$(cd .. && pwd)/shared/bench/make-tree.py}
WORK=${WORK:-$(mktemp -d /tmp/seams-webdav-bench.XXXXXX)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

APACHE=/usr/sbin/apache2
for pair in "$APACHE:apache2" "/usr/bin/htpasswd:apache2-utils" "rclone:rclone"; do
    tool=${pair%%:*} package=${pair#*:}
    if ! command -v "$tool" >/dev/null && [ ! -e "$tool" ] && ! dpkg -s "$package" >/dev/null 2>&1; then
        echo "installing $package from Debian's packages" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y "$package" >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y "$package" >/dev/null 2>&1; } \
            || { echo "could not install $package; this benchmark needs it" >&2; exit 1; }
    fi
done

swift build -c release --product seams-sync --static-swift-stdlib >&2
BIN=$PWD/.build/release/seams-sync

SRC=$WORK/src
SERVED=$WORK/served
rm -rf "$SRC" "$SERVED" "$WORK"/state-* "$WORK"/result-* "$WORK"/out-* "$WORK"/requests-* "$WORK"/diff-* "$WORK/apache" "$WORK/rclone"
python3 "$MAKE_TREE" "$SRC" >/dev/null

# --- Apache httpd: its own configuration, nothing of /etc/apache2 read ------------------------------
BEFORE=${BEFORE:-}
PEERS=${PEERS:-1}
TOOLS="seams"
[ -n "$BEFORE" ] && TOOLS="$TOOLS before"
[ "$PEERS" = 1 ] && TOOLS="$TOOLS bisync copy"
. Benchmarks/apache-dav.sh
start_apache "$WORK" "$SERVED" dav before bisync copy

# --- the clients -------------------------------------------------------------------------------
export SEAMS_WEBDAV_USER=$USER_NAME SEAMS_WEBDAV_PASSWORD=$PASSWORD
mkdir -p "$WORK/rclone"
export RCLONE_CONFIG=$WORK/rclone/rclone.conf RCLONE_CACHE_DIR=$WORK/rclone/cache
cat >"$RCLONE_CONFIG" <<EOF
[dav]
type = webdav
url = http://127.0.0.1:$PORT/
vendor = other
user = $USER_NAME
pass = $(rclone obscure "$PASSWORD")

[dav-mtime]
type = webdav
url = http://127.0.0.1:$PORT/
vendor = owncloud
user = $USER_NAME
pass = $(rclone obscure "$PASSWORD")
EOF
SEAMS_URL=http://127.0.0.1:$PORT/dav/
BISYNC_WORKDIR=$WORK/rclone/bisync-workdir

# run NAME PHASE COMMAND...: prints nothing, appends "seconds peak-KiB requests" to $WORK/result-NAME-PHASE
run() {
    local name=$1 phase=$2
    shift 2
    sync
    local before after
    before=$(wc -l <"$ACCESS_LOG")
    # Wall time from the shell's microsecond clock (time -v rounds to 10 ms), peak memory from time -v.
    local start=$EPOCHREALTIME
    /usr/bin/time -v -o "$WORK/time.txt" "$@" >"$WORK/out-$name-$phase.txt" 2>&1 || {
        echo "$name $phase failed (exit $?); see $WORK/out-$name-$phase.txt" | tee -a "$WORK/failures.txt" >&2
        tail -5 "$WORK/out-$name-$phase.txt" | sed 's/^/    /' >&2
    }
    local end=$EPOCHREALTIME secs kib
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')
    kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")
    # Apache writes a request's line when it has answered: every line of this run is in by now.
    after=$(wc -l <"$ACCESS_LOG")
    tail -n +"$((before + 1))" "$ACCESS_LOG" | head -n "$((after - before))" >"$WORK/requests-$name-$phase.txt"
    echo "$secs $kib $((after - before))" >>"$WORK/result-$name-$phase"
}

# phase PHASE: every tool once, one after the other, each on its own collection
phase() {
    local phase=$1 resync=()
    [ "$phase" = cold ] && resync=(--resync)
    local tool
    for tool in $TOOLS; do
        case $tool in
            seams) run seams "$phase" "$BIN" sync "$SRC" "$SEAMS_URL" --state-dir "$WORK/state-seams" --max-delete 100 ;;
            before) run before "$phase" "$BEFORE" sync "$SRC" "http://127.0.0.1:$PORT/before/" --state-dir "$WORK/state-before" --max-delete 100 ;;
            bisync) run bisync "$phase" rclone bisync "$SRC" dav-mtime:bisync "${resync[@]}" --workdir "$BISYNC_WORKDIR" ;;
            copy) run copy "$phase" rclone copy "$SRC" dav:copy ;;
        esac
    done
    return 0
}

# check WHEN: each served folder against the source (seams-sync's .seams-* and Apache's .DAV left out)
check() {
    local tool
    for tool in $TOOLS; do
        [ "$tool" = seams ] && tool=dav
        if diff -r -x '.seams*' -x .DAV "$SRC" "$SERVED/$tool" >"$WORK/diff-$tool.txt" 2>&1; then
            echo "$1: /$tool identical to the source" >>"$WORK/checks.txt"
        else
            echo "$1: /$tool DIFFERS from the source ($(wc -l <"$WORK/diff-$tool.txt") lines of diff -r, first: $(head -1 "$WORK/diff-$tool.txt"))" >>"$WORK/checks.txt"
        fi
    done
}
empty() { find "$SERVED/dav" "$SERVED/before" "$SERVED/bisync" "$SERVED/copy" -mindepth 1 -delete; rm -rf "$WORK/state-seams" "$WORK/state-before" "$BISYNC_WORKDIR"; }

# Each phase runs several times, the tools taking turns, and the median counts: one slow run
# on a busy machine does not decide a ratio.
COLD_RUNS=${COLD_RUNS:-3}
RUNS=${RUNS:-5}
: >"$WORK/checks.txt"
: >"$WORK/failures.txt"
bench_start=$EPOCHREALTIME
for i in $(seq "$COLD_RUNS"); do
    empty
    phase cold
    check "cold run $i"
done
for i in $(seq "$RUNS"); do phase nochange; done
for i in $(seq "$RUNS"); do
    python3 "$MAKE_TREE" "$SRC" --modify 100 --seed "$((100 + i))" >/dev/null
    phase modify100
done
check "after the last modify100 run"
bench_end=$EPOCHREALTIME

# value TOOL PHASE COLUMN: the median seconds (column 1), the largest peak (column 2), the median requests (column 3)
value() {
    local file="$WORK/result-$1-$2"
    [ -f "$file" ] || { echo "-"; return; }
    if [ "$3" = 2 ]; then
        cut -d' ' -f2 "$file" | sort -n | tail -1
    else
        cut -d' ' -f"$3" "$file" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
    fi
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }
mib() { awk -v k="$1" 'BEGIN { if (k == "-" || k == "") print "-"; else printf "%.1f", k / 1024 }'; }

printf "\nmedian seconds (runs: cold %s, others %s)\n" "$COLD_RUNS" "$RUNS"
printf "%-10s %12s %14s %12s %14s\n" phase seams-sync "rclone bisync" "rclone copy" "seams/bisync"
for phase in cold nochange modify100; do
    printf "%-10s %12s %14s %12s %14s\n" "$phase" "$(value seams $phase 1)" "$(value bisync $phase 1)" "$(value copy $phase 1)" \
        "$(ratio "$(value seams $phase 1)" "$(value bisync $phase 1)")"
done
printf "\npeak RSS, MiB (largest of the runs)\n"
printf "%-10s %12s %14s %12s\n" phase seams-sync "rclone bisync" "rclone copy"
for phase in cold nochange modify100; do
    printf "%-10s %12s %14s %12s\n" "$phase" "$(mib "$(value seams $phase 2)")" "$(mib "$(value bisync $phase 2)")" "$(mib "$(value copy $phase 2)")"
done
printf "\nHTTP requests per run (median; Apache's access log)\n"
printf "%-10s %12s %14s %12s\n" phase seams-sync "rclone bisync" "rclone copy"
for phase in cold nochange modify100; do
    printf "%-10s %12s %14s %12s\n" "$phase" "$(value seams $phase 3)" "$(value bisync $phase 3)" "$(value copy $phase 3)"
done
printf "\nrequests by method and status, last run of each phase (and the sum of Apache's times per request)\n"
for phase in cold nochange modify100; do
    for tool in seams bisync copy; do
        [ -f "$WORK/requests-$tool-$phase.txt" ] || continue
        printf "  %-10s %-7s %s\n" "$phase" "$tool" \
            "$(awk '{ n[$1 "/" $2]++ } END { for (k in n) print k "=" n[k] }' "$WORK/requests-$tool-$phase.txt" | sort | paste -sd' ')  ($(awk '{ t += $4 } END { printf "%.2f s", t / 1e6 }' "$WORK/requests-$tool-$phase.txt"))"
    done
done
if [ -n "$BEFORE" ]; then
    printf "\nthis build against the earlier one (%s), same server, same sitting\n" "$BEFORE"
    printf "%-10s %12s %14s %8s %12s %14s\n" phase seams-sync "earlier build" ratio "requests" "earlier req."
    for phase in cold nochange modify100; do
        printf "%-10s %12s %14s %8s %12s %14s\n" "$phase" "$(value seams $phase 1)" "$(value before $phase 1)" \
            "$(ratio "$(value seams $phase 1)" "$(value before $phase 1)")" "$(value seams $phase 3)" "$(value before $phase 3)"
    done
fi
echo
echo "goals:"
for phase in cold nochange modify100; do
    echo "  $phase: seams-sync / rclone bisync = $(ratio "$(value seams $phase 1)" "$(value bisync $phase 1)")  [<= 1.0]"
done
peak=$(for p in cold nochange modify100; do value seams $p 2; done | sort -n | tail -1)
echo "  seams-sync peak memory: $(mib "$peak") MiB  [< 64]"
echo
echo "correctness:"
sed 's/^/  /' "$WORK/checks.txt"
if [ -s "$WORK/failures.txt" ]; then echo "  failed runs:"; sed 's/^/    /' "$WORK/failures.txt"; else echo "  every run exited 0"; fi
echo
echo "timed phases took $(awk -v a="$bench_start" -v b="$bench_end" 'BEGIN { printf "%.0f", b - a }') s"
echo "scratch: $WORK  (per-run output: out-TOOL-PHASE.txt, raw figures: result-TOOL-PHASE)"
