#!/usr/bin/env bash
# Benchmark, not a test: seams-sync against rsync -a as the tree grows, side by side on the same
# trees, printing time ratios and peak memory per size.
#
#   Benchmarks/scale-bench.sh                  # 10k, 100k and 1M files; WORK=/some/dir for the scratch dir
#   SIZES="10k 100k" Benchmarks/scale-bench.sh # fewer sizes
#   BEFORE=/path/to/old/seams-sync SIZES=100k Benchmarks/scale-bench.sh
#                                              # also an earlier build, in turn with the others
#   LOAD=1 Benchmarks/scale-bench.sh           # with two busy loops running (both cores busy)
#
# Sizes:
#   10k   ../shared/bench/make-tree.py: 10,000 files of 1-4 KiB in 100 folders + 20 files of 5 MiB
#   100k  the same generator: 100,000 small files in 1,000 folders + 20 files of 5 MiB
#   1M    1,000,000 tiny files (0-64 bytes) in 10,000 folders, from a seeded generator below: it
#         fits in a few GiB of disk (three copies) and minutes of time
# Phases, each run RUNS (3) times with the tools taking turns (which goes first alternates), medians
# compared: cold copy into an
# empty folder (seams-sync flushes every file, rsync -a does not), a re-run with no change, a re-run
# after 100 files were rewritten, and a first sync into a folder that already holds a copy of the
# tree (`cp -a`, untimed; seams-sync has no state for the pair, so it compares every file by content
# and records it, rsync -a compares sizes and dates). Peak RSS from /usr/bin/time -v; the largest
# of the runs is shown.
# Goals (issue 15): no change and 100 modified at most 0.7x rsync -a, cold copy at 100k at most 1.0x,
# peak RSS under 64 MiB at every size.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
MAKE_TREE=${MAKE_TREE:-$(cd .. && pwd)/shared/bench/make-tree.py}
WORK=${WORK:-$(mktemp -d /tmp/seams-scale.XXXXXX)}
SIZES=${SIZES:-10k 100k 1M}
RUNS=${RUNS:-3}
BEFORE=${BEFORE:-}
mkdir -p "$WORK"
rm -f "$WORK/copies"
if [ "${LOAD:-0}" = 1 ]; then
    # A fixed load: one busy loop per core of this 2-core machine, for the whole run.
    for _ in 1 2; do (while :; do :; done) & done
    trap 'kill $(jobs -p) 2>/dev/null' EXIT
    echo "load: two busy loops" >&2
fi
# Flushes cost nothing on tmpfs: say where the trees are.
echo "scratch: $WORK on $(df -T "$WORK" | awk 'NR == 2 { print $2 }')" >&2

command -v rsync >/dev/null || apt-get install -y rsync >/dev/null 2>&1 \
    || { apt-get update >/dev/null 2>&1 && apt-get install -y rsync >/dev/null 2>&1; } || { echo "rsync is needed" >&2; exit 1; }
[ -x /usr/bin/time ] || apt-get install -y time >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y time >/dev/null 2>&1; }

# The static build links FoundationNetworking's libcurl: its development package must be there.
dpkg -s libcurl4-openssl-dev >/dev/null 2>&1 || apt-get install -y libcurl4-openssl-dev >/dev/null 2>&1 \
    || { apt-get update >/dev/null 2>&1 && apt-get install -y libcurl4-openssl-dev >/dev/null 2>&1; } || echo "could not install libcurl4-openssl-dev; the static build may not link" >&2
swift build -c release --product seams-sync --static-swift-stdlib >&2
BIN=$PWD/.build/release/seams-sync

# tiny DIR [--modify K SEED]: 1,000,000 files of 0-64 bytes in 10,000 folders, or rewrite K of them.
tiny() {
    python3 - "$@" <<'EOF'
import os, random, sys
root = sys.argv[1]
modify = int(sys.argv[3]) if len(sys.argv) > 4 and sys.argv[2] == "--modify" else 0
rng = random.Random(1000 + int(sys.argv[4]) if modify else 1)
def path(i): return os.path.join(root, f"d{i // 100:04d}", f"f{i % 100:02d}.txt")
if modify:
    for i in rng.sample(range(1_000_000), modify):
        with open(path(i), "wb") as f: f.write(rng.randbytes(rng.randint(0, 64)))
    sys.exit(0)
for d in range(10_000):
    os.makedirs(os.path.join(root, f"d{d:04d}"), exist_ok=True)
for i in range(1_000_000):
    with open(path(i), "wb") as f: f.write(rng.randbytes(rng.randint(0, 64)))
EOF
}

# build_tree SIZE DIR / modify_tree SIZE DIR ROUND
build_tree() {
    case $1 in
        10k) python3 "$MAKE_TREE" "$2" >/dev/null ;;
        100k) python3 "$MAKE_TREE" "$2" --small 100000 >/dev/null ;;
        1M) tiny "$2" ;;
    esac
}
modify_tree() {
    case $1 in
        10k) python3 "$MAKE_TREE" "$2" --modify 100 --seed "$3" >/dev/null ;;
        100k) python3 "$MAKE_TREE" "$2" --small 100000 --modify 100 --seed "$3" >/dev/null ;;
        1M) tiny "$2" --modify 100 "$3" ;;
    esac
}

# run SIZE TOOL PHASE COMMAND...: appends "seconds peak-KiB" to $WORK/result-SIZE-TOOL-PHASE
run() {
    local size=$1 tool=$2 phase=$3
    shift 3
    sync
    local start=$EPOCHREALTIME
    /usr/bin/time -v -o "$WORK/time.txt" "$@" >"$WORK/out-$size-$tool-$phase.txt" 2>&1 \
        || echo "$tool $phase at $size failed (exit $?); see $WORK/out-$size-$tool-$phase.txt" >&2
    local end=$EPOCHREALTIME
    echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }') $(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")" \
        >>"$WORK/result-$size-$tool-$phase"
}

# both SIZE PHASE ROUND COPY: each tool once into its copy number COPY; on odd rounds rsync goes first
both() {
    local size=$1 phase=$2 round=$3 copy=$4
    if [ $((round % 2)) = 1 ]; then run "$size" rsync "$phase" rsync -a "$WORK/src-$size/" "$WORK/dst-rsync-$size.$copy/"; fi
    run "$size" seams "$phase" "$BIN" sync "$WORK/src-$size" "$WORK/dst-seams-$size.$copy" --state-dir "$WORK/state-$size.$copy" --max-delete 100
    if [ -n "$BEFORE" ]; then
        run "$size" before "$phase" "$BEFORE" sync "$WORK/src-$size" "$WORK/dst-before-$size.$copy" \
            --state-dir "$WORK/state-before-$size.$copy" --max-delete 100
    fi
    if [ $((round % 2)) = 0 ]; then run "$size" rsync "$phase" rsync -a "$WORK/src-$size/" "$WORK/dst-rsync-$size.$copy/"; fi
}

# precopied SIZE ROUND: each tool once on its own copy of the tree, made before; on odd rounds rsync goes first
precopied() {
    local size=$1 round=$2
    if [ $((round % 2)) = 1 ]; then run "$size" rsync precopied rsync -a "$WORK/src-$size/" "$WORK/dst-pre-rsync-$size.$round/"; fi
    run "$size" seams precopied "$BIN" sync "$WORK/src-$size" "$WORK/dst-pre-seams-$size.$round" \
        --state-dir "$WORK/state-pre-$size.$round" --max-delete 100
    if [ $((round % 2)) = 0 ]; then run "$size" rsync precopied rsync -a "$WORK/src-$size/" "$WORK/dst-pre-rsync-$size.$round/"; fi
    # Nothing copied again: every file was found the same and recorded.
    grep -q "0 to container, 0 to local" "$WORK/out-$size-seams-precopied.txt" 2>/dev/null \
        || echo "$size pre-copied: seams-sync's report does not say it copied nothing; see $WORK/out-$size-seams-precopied.txt" >&2
}

median() { cut -d' ' -f1 "$1" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
peak() { cut -d' ' -f2 "$1" | sort -n | tail -1 | awk '{ printf "%.1f", $1 / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2f", a / b }'; }

# Every cold copy goes into a folder of its own, and no copy is deleted until the end: on ext4
# without a journal, a file made within minutes of many deletions waits while the kernel skips
# each recently freed inode (`recently_deleted`), which would time the last deletion, not the copy.
if compgen -G "$WORK/dst-*" >/dev/null; then
    rm -rf "$WORK"/dst-* "$WORK"/state-*
    sync
    echo "waiting a minute after deleting an earlier run's copies" >&2
    sleep 60
fi
for size in $SIZES; do
    echo "== $size: making the tree" >&2
    rm -rf "$WORK/src-$size" "$WORK"/result-"$size"-*
    build_tree "$size" "$WORK/src-$size"
    for i in $(seq "$RUNS"); do
        mkdir -p "$WORK/dst-seams-$size.$i" "$WORK/dst-rsync-$size.$i" "$WORK/dst-before-$size.$i"
        both "$size" cold "$i" "$i"
    done
    # The later phases sync the last cold copies again.
    for i in $(seq "$RUNS"); do both "$size" nochange "$i" "$RUNS"; done
    for i in $(seq "$RUNS"); do
        modify_tree "$size" "$WORK/src-$size" "$i"
        both "$size" modify100 "$i" "$RUNS"
    done
    for i in $(seq "$RUNS"); do
        for tool in seams rsync; do cp -a "$WORK/src-$size" "$WORK/dst-pre-$tool-$size.$i"; done
        sync
        precopied "$size" "$i"
    done
    if diff -r -q -x '.seams*' "$WORK/src-$size" "$WORK/dst-seams-$size.$RUNS" >/dev/null; then same=identical; else same=DIFFERS; fi
    echo "== $size: seams-sync's copy is $same to the source" >&2
    echo "$size $same" >>"$WORK/copies"
done
rm -rf "$WORK"/dst-* "$WORK"/state-*

# table PEER LABEL: seams-sync against the tool whose results are named PEER, per size and phase
table() {
    local peer=$1 label=$2
    printf "\n| files | phase | %s | seams-sync | ratio | %s peak | seams-sync peak |\n|---|---|---|---|---|---|---|\n" "$label" "$label"
    for size in $SIZES; do
        for phase in cold nochange modify100 precopied; do
            local s="$WORK/result-$size-seams-$phase" p="$WORK/result-$size-$peer-$phase"
            [ -f "$p" ] || continue  # the earlier build does not run the pre-copied phase
            printf "| %s | %s | %.3f s | %.3f s | %sx | %s MiB | %s MiB |\n" "$size" "$phase" "$(median "$p")" "$(median "$s")" \
                "$(ratio "$(median "$s")" "$(median "$p")")" "$(peak "$p")" "$(peak "$s")"
        done
    done
}
table rsync "rsync -a"
[ -n "$BEFORE" ] && table before "earlier build"
echo
[ "${LOAD:-0}" = 1 ] && echo "measured with two busy loops running"
cat "$WORK/copies"
echo "medians of $RUNS runs; scratch: $WORK ($(df -T "$WORK" | awk 'NR == 2 { print $2 }'))"
