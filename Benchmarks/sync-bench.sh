#!/usr/bin/env bash
# Benchmark, not a test: seams-sync against rsync and unison on the standard tree of
# ../shared/bench/make-tree.py (10,020 files, 140 MB), every tool on the same data in one run.
#
#   Benchmarks/sync-bench.sh            # from the package root; WORK=/some/dir to choose the scratch dir
#
# Phases: cold copy into an empty folder, a re-run with no change, a re-run after --modify 100.
# Each phase runs COLD_RUNS (3) or RUNS (7) times, the tools taking turns; medians are compared.
# Peers: rsync -a (and rsync -a --fsync for the cold copy, since seams-sync flushes every file),
# unison -batch. Prints seconds, peak RSS (from /usr/bin/time -v) and the ratios to the goals:
# no-change and modified runs no slower than rsync, cold copy within 1.2x of rsync --fsync,
# peak memory under 64 MiB.
set -euo pipefail
export LC_ALL=C   # a dot in $EPOCHREALTIME and in awk's numbers
cd "$(dirname "$0")/.."
MAKE_TREE=${MAKE_TREE:-$(cd .. && pwd)/shared/bench/make-tree.py}
WORK=${WORK:-$(mktemp -d /tmp/seams-bench.XXXXXX)}
mkdir -p "$WORK"

for tool in rsync unison; do
    if ! command -v "$tool" >/dev/null; then
        echo "installing $tool from Debian's packages" >&2
        apt-get install -y "$tool" >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y "$tool" >/dev/null 2>&1; } \
            || echo "could not install $tool; its column will be empty" >&2
    fi
done

# The static build links FoundationNetworking's libcurl: its development package must be there.
dpkg -s libcurl4-openssl-dev >/dev/null 2>&1 || apt-get install -y libcurl4-openssl-dev >/dev/null 2>&1 \
    || { apt-get update >/dev/null 2>&1 && apt-get install -y libcurl4-openssl-dev >/dev/null 2>&1; } || echo "could not install libcurl4-openssl-dev; the static build may not link" >&2
swift build -c release --product seams-sync --static-swift-stdlib >&2
BIN=$PWD/.build/release/seams-sync

SRC=$WORK/src
rm -rf "$SRC" "$WORK"/dst-* "$WORK/state" "$WORK/unison-home" "$WORK"/result-*
python3 "$MAKE_TREE" "$SRC" >/dev/null
export UNISON=$WORK/unison-home

# run NAME PHASE COMMAND...: prints nothing, appends "seconds peak-KiB" to $WORK/result-NAME-PHASE
run() {
    local name=$1 phase=$2
    shift 2
    sync
    # Wall time from the shell's microsecond clock (time -v rounds to 10 ms), peak memory from time -v.
    local start=$EPOCHREALTIME
    /usr/bin/time -v -o "$WORK/time.txt" "$@" >"$WORK/out-$name-$phase.txt" 2>&1 || {
        echo "$name $phase failed (exit $?); see $WORK/out-$name-$phase.txt" >&2
    }
    local end=$EPOCHREALTIME secs kib
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')
    kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")
    echo "$secs $kib" >>"$WORK/result-$name-$phase"
}

# phase PHASE: every tool once, one after the other, on its own copy
phase() {
    local phase=$1
    run seams "$phase" "$BIN" sync "$SRC" "$WORK/dst-seams" --state-dir "$WORK/state" --max-delete 100
    if command -v rsync >/dev/null; then
        run rsync "$phase" rsync -a "$SRC/" "$WORK/dst-rsync/"
        [ "$phase" = cold ] && run rsync-fsync "$phase" rsync -a --fsync "$SRC/" "$WORK/dst-rsync-fsync/"
    fi
    if command -v unison >/dev/null; then
        run unison "$phase" unison -batch -auto -silent "$SRC" "$WORK/dst-unison"
    fi
    return 0
}

# Each phase runs several times, the tools taking turns, and the median counts: one slow run
# on a busy machine does not decide a ratio.
COLD_RUNS=${COLD_RUNS:-3}
RUNS=${RUNS:-7}
for i in $(seq "$COLD_RUNS"); do
    rm -rf "$WORK"/dst-* "$WORK/state" "$UNISON"
    mkdir -p "$WORK/dst-seams" "$WORK/dst-unison" "$UNISON"
    phase cold
done
for i in $(seq "$RUNS"); do phase nochange; done
for i in $(seq "$RUNS"); do
    python3 "$MAKE_TREE" "$SRC" --modify 100 >/dev/null
    phase modify100
done

# value TOOL PHASE COLUMN: the median seconds (column 1) or the largest peak (column 2)
value() {
    local file="$WORK/result-$1-$2"
    [ -f "$file" ] || { echo "-"; return; }
    if [ "$3" = 1 ]; then
        cut -d' ' -f1 "$file" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
    else
        cut -d' ' -f2 "$file" | sort -n | tail -1
    fi
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }

printf "\n%-10s %-12s %6s %16s %12s\n" phase tool runs "median seconds" "peak MiB"
for phase in cold nochange modify100; do
    for tool in seams rsync rsync-fsync unison; do
        [ -f "$WORK/result-$tool-$phase" ] || continue
        printf "%-10s %-12s %6s %16s %12s\n" "$phase" "$tool" "$(wc -l <"$WORK/result-$tool-$phase")" "$(value $tool $phase 1)" \
            "$(awk -v k="$(value $tool $phase 2)" 'BEGIN { printf "%.1f", k / 1024 }')"
    done
done
echo
echo "ratios (seams-sync / peer; goal in brackets):"
echo "  cold copy  / rsync -a --fsync : $(ratio "$(value seams cold 1)" "$(value rsync-fsync cold 1)")  [<= 1.2]"
echo "  cold copy  / rsync -a         : $(ratio "$(value seams cold 1)" "$(value rsync cold 1)")"
echo "  no change  / rsync -a         : $(ratio "$(value seams nochange 1)" "$(value rsync nochange 1)")  [<= 1.0]"
echo "  modify 100 / rsync -a         : $(ratio "$(value seams modify100 1)" "$(value rsync modify100 1)")  [<= 1.0]"
for phase in cold nochange modify100; do
    echo "  vs unison, $phase: $(ratio "$(value seams $phase 1)" "$(value unison $phase 1)")"
done
peak=$(for p in cold nochange modify100; do value seams $p 2; done | sort -n | tail -1)
echo "  seams-sync peak memory: $(awk -v k="$peak" 'BEGIN { printf "%.1f", k / 1024 }') MiB  [< 64]"
if diff -r -x '.seams*' "$SRC" "$WORK/dst-seams" >/dev/null; then echo "  seams-sync copy identical to the source"; else echo "  seams-sync copy DIFFERS from the source"; fi
echo "scratch: $WORK"
