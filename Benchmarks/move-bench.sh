#!/usr/bin/env bash
# Benchmark, not a test: a folder of FILES (10,000) files renamed on one side, synced.
#
# Locally, side by side, each tool on its own pair of folders: seams-sync, rsync -a --delete (a
# mirror: it copies the renamed folder again and deletes the old one) and Unison (two-way, its
# defaults plus -batch). Each tool syncs its pair once (cold), then RUNS (5) times the folder is
# renamed back and forth in every pair's source and each tool syncs, taking turns; medians. Goal
# (issue 27): seams-sync's rename at most 1% of its own cold copy's time.
#
# Over WebDAV (Apache on loopback), seams-sync and rclone bisync each sync their own collection
# once, then the folder is renamed and each syncs once (rclone bisync refuses it as too many
# deletes, then with --force uploads it again, about 5 minutes for 10,000 files at its 10 ms
# between requests): seconds and requests (Apache's
# access log). Goals: at most 5 requests about the user's paths for the rename beyond a run with no
# change (the lock and marker, which any run that changes something writes, counted apart), and at most
# 1% of seams-sync's cold copy's time. WEBDAV=0 leaves this part out; PEERS=0 leaves out rclone.
#
#   Benchmarks/move-bench.sh                  # WORK=/some/dir for the scratch dir
#   LOAD=1 Benchmarks/move-bench.sh           # with two busy loops running (both cores busy)
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
WORK=${WORK:-$(mktemp -d /tmp/seams-move.XXXXXX)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
RUNS=${RUNS:-5}
FILES=${FILES:-10000}
WEBDAV=${WEBDAV:-1}
PEERS=${PEERS:-1}
export DEBIAN_FRONTEND=noninteractive
for pair in rsync:rsync unison:unison /usr/sbin/apache2:apache2 /usr/bin/htpasswd:apache2-utils rclone:rclone; do
    tool=${pair%%:*} package=${pair#*:}
    command -v "$tool" >/dev/null || [ -e "$tool" ] || apt-get install -y "$package" >/dev/null 2>&1 \
        || { echo "could not install $package; this benchmark needs it" >&2; exit 1; }
done
swift build -c release --product seams-sync --static-swift-stdlib >&2
BIN=$PWD/.build/release/seams-sync
if [ "${LOAD:-0}" = 1 ]; then
    for _ in 1 2; do (while :; do :; done) & done
    trap 'kill $(jobs -p) 2>/dev/null' EXIT
    echo "load: two busy loops" >&2
fi

# tree DIR: FILES files of 1-20 KB in folders of 100 under Photos/, and 100 others beside it
tree() {
    python3 - "$1" "$FILES" <<'PY'
import os, random, sys
root, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(27)
def write(path, size):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(rng.randbytes(size))
for i in range(count):
    write(os.path.join(root, "Photos", f"d{i // 100:03d}", f"IMG_{i:05d}.JPG"), rng.randint(1000, 20000))
for i in range(100):
    write(os.path.join(root, "other", f"note{i:03d}.txt"), rng.randint(100, 1000))
PY
}

# time_it FILE COMMAND...: appends the command's wall seconds to FILE
time_it() {
    local file=$1
    shift
    sync
    local start=$EPOCHREALTIME
    "$@" >"$WORK/out.txt" 2>&1 || { echo "failed (exit $?): $*" >&2; tail -5 "$WORK/out.txt" >&2; }
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f\n", b - a }' >>"$file"
}
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.4f", a / b }'; }

rm -rf "$WORK"/local-* "$WORK"/result-* "$WORK"/state-* "$WORK/unison-home"
export UNISON=$WORK/unison-home
mkdir -p "$UNISON"
seams() { "$BIN" sync "$WORK/local-seams-a" "$WORK/local-seams-b" --state-dir "$WORK/state-local"; }
mirror() { rsync -a --delete "$WORK/local-rsync-a/" "$WORK/local-rsync-b/"; }
unison_sync() { unison "$WORK/local-unison-a" "$WORK/local-unison-b" -batch -auto -confirmbigdel=false -ui text; }
for tool in seams rsync unison; do
    tree "$WORK/local-$tool-a"
    mkdir -p "$WORK/local-$tool-b"
done
time_it "$WORK/result-local-cold-seams" seams
time_it "$WORK/result-local-cold-rsync" mirror
time_it "$WORK/result-local-cold-unison" unison_sync
names=("Photos" "Photos 2024")
for i in $(seq "$RUNS"); do
    from=${names[$(((i + 1) % 2))]} to=${names[$((i % 2))]}
    for tool in seams rsync unison; do mv "$WORK/local-$tool-a/$from" "$WORK/local-$tool-a/$to"; done
    time_it "$WORK/result-local-rename-seams" seams
    time_it "$WORK/result-local-rename-rsync" mirror
    time_it "$WORK/result-local-rename-unison" unison_sync
done
for tool in seams rsync unison; do
    diff -r -x '.seams*' "$WORK/local-$tool-a" "$WORK/local-$tool-b" >/dev/null && echo "local $tool: both folders equal" >>"$WORK/checks" \
        || echo "local $tool: folders DIFFER" >>"$WORK/checks"
done
trash=$( (find "$WORK/local-seams-b/.seams-trash" -type f 2>/dev/null || true) | wc -l)
echo "local seams-sync: $trash files in the trash after $RUNS renames" >>"$WORK/checks"

printf "\nlocal, %s files renamed (median of %s; cold: one run)\n" "$FILES" "$RUNS"
printf "%-10s %12s %14s %10s\n" tool cold rename "rename/cold"
for tool in seams rsync unison; do
    cold=$(median "$WORK/result-local-cold-$tool") rename=$(median "$WORK/result-local-rename-$tool")
    printf "%-10s %12s %14s %10s\n" "$tool" "$cold" "$rename" "$(ratio "$rename" "$cold")"
done
seams_rename=$(median "$WORK/result-local-rename-seams")
echo "seams-sync rename / rsync -a --delete: $(ratio "$seams_rename" "$(median "$WORK/result-local-rename-rsync")")"
echo "seams-sync rename / unison: $(ratio "$seams_rename" "$(median "$WORK/result-local-rename-unison")")"
echo "goal: seams-sync rename / its cold copy = $(ratio "$seams_rename" "$(median "$WORK/result-local-cold-seams")")  [<= 0.01]"

if [ "$WEBDAV" = 1 ]; then
    SERVED=$WORK/served
    rm -rf "$SERVED" "$WORK/apache" "$WORK/rclone"
    . Benchmarks/apache-dav.sh
    start_apache "$WORK" "$SERVED" dav bisync
    export SEAMS_WEBDAV_USER=$USER_NAME SEAMS_WEBDAV_PASSWORD=$PASSWORD
    mkdir -p "$WORK/rclone"
    export RCLONE_CONFIG=$WORK/rclone/rclone.conf RCLONE_CACHE_DIR=$WORK/rclone/cache
    printf '[dav-mtime]\ntype = webdav\nurl = http://127.0.0.1:%s/\nvendor = owncloud\nuser = %s\npass = %s\n' \
        "$PORT" "$USER_NAME" "$(rclone obscure "$PASSWORD")" >"$RCLONE_CONFIG"
    tree "$WORK/dav-seams"
    tree "$WORK/dav-bisync"
    # requests NAME COMMAND...: times the command, and counts Apache's log lines it added
    requests() {
        local name=$1
        shift
        local before
        before=$(wc -l <"$ACCESS_LOG")
        time_it "$WORK/result-dav-$name" "$@"
        echo $(($(wc -l <"$ACCESS_LOG") - before)) >>"$WORK/result-dav-$name-requests"
        tail -n +"$((before + 1))" "$ACCESS_LOG" >"$WORK/requests-$name.txt"
        # Those about the user's paths: not the run's lock, marker and trash (every run that
        # changes anything writes those).
        grep -vc '/[.]seams' "$WORK/requests-$name.txt" >>"$WORK/result-dav-$name-user" || true
    }
    dav_seams() { "$BIN" sync "$WORK/dav-seams" "http://127.0.0.1:$PORT/dav/" --state-dir "$WORK/state-dav"; }
    requests cold-seams dav_seams
    requests nochange-seams dav_seams
    mv "$WORK/dav-seams/Photos" "$WORK/dav-seams/Photos 2024"
    requests rename-seams dav_seams
    if [ "$PEERS" = 1 ]; then
        requests cold-bisync rclone bisync "$WORK/dav-bisync" dav-mtime:bisync --resync --workdir "$WORK/rclone/workdir"
        mv "$WORK/dav-bisync/Photos" "$WORK/dav-bisync/Photos 2024"
        # bisync refuses a run that deletes more than half the files ("Safety abort: too many
        # deletes"): tried once as is, then with --force, which uploads the folder again.
        requests refused-bisync rclone bisync "$WORK/dav-bisync" dav-mtime:bisync --workdir "$WORK/rclone/workdir"
        grep -q "too many deletes" "$WORK/out.txt" && echo "webdav rclone bisync: the rename refused as too many deletes without --force" >>"$WORK/checks"
        requests rename-bisync rclone bisync "$WORK/dav-bisync" dav-mtime:bisync --workdir "$WORK/rclone/workdir" --force
    fi
    diff -r -x '.seams*' -x .DAV "$WORK/dav-seams" "$SERVED/dav" >/dev/null && echo "webdav seams-sync: server equals the folder" >>"$WORK/checks" \
        || echo "webdav seams-sync: server DIFFERS" >>"$WORK/checks"
    printf "\nWebDAV (Apache), %s files renamed (one run each)\n" "$FILES"
    printf "%-22s %10s %10s\n" run seconds requests
    for name in cold-seams nochange-seams rename-seams cold-bisync refused-bisync rename-bisync; do
        [ -f "$WORK/result-dav-$name" ] || continue
        printf "%-22s %10s %10s\n" "$name" "$(median "$WORK/result-dav-$name")" "$(median "$WORK/result-dav-$name-requests")"
    done
    echo "seams-sync rename requests by method: $(awk '{ n[$1 "/" $2]++ } END { for (k in n) print k "=" n[k] }' "$WORK/requests-rename-seams.txt" | sort | paste -sd' ')"
    extra=$(($(median "$WORK/result-dav-rename-seams-user") - $(median "$WORK/result-dav-nochange-seams-user")))
    echo "goal: seams-sync rename requests about the user's paths beyond a run with no change = $extra  [<= 5]"
    overhead=$(($(median "$WORK/result-dav-rename-seams-requests") - $(median "$WORK/result-dav-rename-seams-user")))
    echo "  (and $overhead requests for the lock, the container's marker and the trash, as any run that changes something makes)"
    echo "goal: seams-sync rename / its cold copy = $(ratio "$(median "$WORK/result-dav-rename-seams")" "$(median "$WORK/result-dav-cold-seams")")  [<= 0.01]"
    if [ -f "$WORK/result-dav-rename-bisync" ]; then
        echo "seams-sync rename / rclone bisync --force rename = $(ratio "$(median "$WORK/result-dav-rename-seams")" "$(median "$WORK/result-dav-rename-bisync")")"
    fi
fi
echo
echo "checks:"
sed 's/^/  /' "$WORK/checks"
echo "scratch: $WORK"
