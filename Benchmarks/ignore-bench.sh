#!/usr/bin/env bash
# Benchmark, not a test: what an ignored folder costs a run. Two trees, side by side, runs taking
# turns: PLAIN holds 50,000 small files in 500 folders; IGNORING holds the same plus a
# node_modules/ of 50,000 more in 500 folders, which its .seamsignore leaves alone. Both are synced
# once, then each is synced again with no change, RUNS (5) times in turn; the medians and their
# ratio are printed (goal, issue 27: IGNORING within 10% of PLAIN, so an ignored folder costs
# about nothing), with rsync -a --exclude node_modules/ on the IGNORING tree beside them.
#
#   Benchmarks/ignore-bench.sh          # WORK=/some/dir for the scratch dir
#   LOAD=1 Benchmarks/ignore-bench.sh   # with two busy loops running (both cores busy)
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
WORK=${WORK:-$(mktemp -d /tmp/seams-ignore.XXXXXX)}
RUNS=${RUNS:-5}
mkdir -p "$WORK"
if [ "${LOAD:-0}" = 1 ]; then
    for _ in 1 2; do (while :; do :; done) & done
    trap 'kill $(jobs -p) 2>/dev/null' EXIT
    echo "load: two busy loops" >&2
fi
command -v rsync >/dev/null || apt-get install -y rsync >/dev/null 2>&1 || { echo "rsync is needed" >&2; exit 1; }
dpkg -s libcurl4-openssl-dev >/dev/null 2>&1 || apt-get install -y libcurl4-openssl-dev >/dev/null 2>&1 || true
swift build -c release --product seams-sync --static-swift-stdlib >&2
BIN=$PWD/.build/release/seams-sync

# tree DIR COUNT PREFIX: COUNT files of 100-1,000 bytes in folders of 100
tree() {
    python3 - "$@" <<'EOF'
import os, random, sys
root, count, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = random.Random(prefix)
for i in range(count):
    folder = os.path.join(root, prefix, f"d{i // 100:03d}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"f{i % 100:02d}.txt"), "wb") as f:
        f.write(rng.randbytes(rng.randint(100, 1000)))
EOF
}

rm -rf "$WORK"/plain* "$WORK"/ignoring* "$WORK"/state-* "$WORK"/result-*
tree "$WORK/plain" 50000 src
tree "$WORK/ignoring" 50000 src
tree "$WORK/ignoring" 50000 node_modules
printf 'node_modules/\n' >"$WORK/plain/.seamsignore"
printf 'node_modules/\n' >"$WORK/ignoring/.seamsignore"
mkdir -p "$WORK/plain-copy" "$WORK/ignoring-copy" "$WORK/ignoring-rsync"
"$BIN" sync "$WORK/plain" "$WORK/plain-copy" --state-dir "$WORK/state-plain" >/dev/null
"$BIN" sync "$WORK/ignoring" "$WORK/ignoring-copy" --state-dir "$WORK/state-ignoring" >/dev/null
rsync -a --exclude node_modules/ "$WORK/ignoring/" "$WORK/ignoring-rsync/"

run() {
    local name=$1
    shift
    local start=$EPOCHREALTIME
    "$@" >/dev/null 2>&1 || echo "$name failed (exit $?)" >&2
    local end=$EPOCHREALTIME
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }' >>"$WORK/result-$name"
}
for i in $(seq "$RUNS"); do
    if [ $((i % 2)) = 1 ]; then run plain "$BIN" sync "$WORK/plain" "$WORK/plain-copy" --state-dir "$WORK/state-plain"; fi
    run ignoring "$BIN" sync "$WORK/ignoring" "$WORK/ignoring-copy" --state-dir "$WORK/state-ignoring"
    run rsync rsync -a --exclude node_modules/ "$WORK/ignoring/" "$WORK/ignoring-rsync/"
    if [ $((i % 2)) = 0 ]; then run plain "$BIN" sync "$WORK/plain" "$WORK/plain-copy" --state-dir "$WORK/state-plain"; fi
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
p=$(median "$WORK/result-plain")
g=$(median "$WORK/result-ignoring")
r=$(median "$WORK/result-rsync")
if [ -e "$WORK/ignoring-copy/node_modules" ]; then echo "node_modules was synced: the rule did not hold" >&2; exit 1; fi
printf "\n| no-change run | seconds | ratio to 50k plain |\n|---|---|---|\n"
printf "| seams-sync, 50k files | %.3f s | 1.00x |\n" "$p"
printf "| seams-sync, 50k files + ignored node_modules/ of 50k | %.3f s | %.2fx |\n" "$g" "$(awk -v a="$g" -v b="$p" 'BEGIN { printf "%.4f", a / b }')"
printf "| rsync -a --exclude node_modules/, the same tree | %.3f s | %.2fx |\n" "$r" "$(awk -v a="$r" -v b="$p" 'BEGIN { printf "%.4f", a / b }')"
echo
[ "${LOAD:-0}" = 1 ] && echo "measured with two busy loops running"
echo "medians of $RUNS runs; scratch: $WORK ($(df -T "$WORK" | awk 'NR == 2 { print $2 }'))"
