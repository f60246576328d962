#!/usr/bin/env bash
# Benchmark, not a test: what @Mockable costs at build time. A scratch package holds two library
# targets of the same 50 protocols: `Generated` applies @Mockable to each; `HandWritten` has a
# hand-written Mutex mock of each (calls recorded, answers configurable, what a careful developer
# writes without a macro). Both are built once with their dependencies (swift-syntax, for the
# macro: several minutes the first time), then, in turns A B A B:
#
#   no-op        nothing changed: SwiftPM's own planning, the floor of every build below
#   clean        every source of the target touched, so every file is compiled again
#   incremental  one protocol gains a requirement (and its hand-written mock an implementation)
#
#   Benchmarks/mock-build-bench.sh            # RUNS=3 turns each (medians); WORK=/tmp/seams-mock-build-bench
#   LOAD=1 Benchmarks/mock-build-bench.sh     # the same with one busy loop running (the other core busy)
#
# Prints the medians side by side with the ratio Generated / HandWritten.
set -euo pipefail
SEAMS=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
WORK=${WORK:-/tmp/seams-mock-build-bench}
COUNT=50
# A path dependency's identity is its folder's name.
IDENTITY=$(basename "$SEAMS" | tr '[:upper:]' '[:lower:]')

mkdir -p "$WORK/Sources/Generated" "$WORK/Sources/HandWritten"
cat > "$WORK/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "MockBuildBench",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$SEAMS")],
    targets: [
        .target(name: "Generated", dependencies: [.product(name: "SeamsMacros", package: "$IDENTITY")]),
        .target(name: "HandWritten"),
    ]
)
EOF

# The protocol's requirements; $2 adds one more (the incremental edit).
requirements() {
    cat <<EOF
    func fetch(id: Int) async throws -> String
    func store(_ value: String, for id: Int) throws
    func count() -> Int
    var name: String { get }$2
EOF
}

generated() {
    local n=$1 extra=${2:-}
    {
        echo "public import SeamsMacros"
        echo
        echo "@Mockable"
        echo "public protocol Service$n: Sendable {"
        requirements "$n" "$extra"
        echo "}"
    } > "$WORK/Sources/Generated/Service$n.swift"
}

handwritten() {
    local n=$1 extra=${2:-} extraImplementation=${3:-}
    cat > "$WORK/Sources/HandWritten/Service$n.swift" <<EOF
import Synchronization

public protocol Service$n: Sendable {
$(requirements "$n" "$extra")
}

public struct UnconfiguredCall$n: Error {}

/// A hand-written race-free mock: calls recorded and answers configured under one Mutex.
public final class MockService$n: Service$n, Sendable {
    private struct State {
        var fetchCalls: [Int] = []
        var fetchAnswer: Result<String, any Error>?
        var storeCalls: [(value: String, id: Int)] = []
        var storeError: (any Error)?
        var countCalls = 0
        var countAnswer = 0
        var name = ""
    }

    private let state = Mutex(State())

    public init() {}

    public func answerFetch(with answer: Result<String, any Error>) { state.withLock { \$0.fetchAnswer = answer } }
    public var fetchCalls: [Int] { state.withLock { \$0.fetchCalls } }
    public func fetch(id: Int) async throws -> String {
        let answer = state.withLock { state in
            state.fetchCalls.append(id)
            return state.fetchAnswer
        }
        guard let answer else { throw UnconfiguredCall$n() }
        return try answer.get()
    }

    public func failStore(with error: (any Error)?) { state.withLock { \$0.storeError = error } }
    public var storeCalls: [(value: String, id: Int)] { state.withLock { \$0.storeCalls } }
    public func store(_ value: String, for id: Int) throws {
        let error = state.withLock { state in
            state.storeCalls.append((value, id))
            return state.storeError
        }
        if let error { throw error }
    }

    public func answerCount(with answer: Int) { state.withLock { \$0.countAnswer = answer } }
    public var countCalls: Int { state.withLock { \$0.countCalls } }
    public func count() -> Int {
        state.withLock { state in
            state.countCalls += 1
            return state.countAnswer
        }
    }

    public func answerName(with answer: String) { state.withLock { \$0.name = answer } }
    public var name: String { state.withLock { \$0.name } }$extraImplementation
}
EOF
}

for n in $(seq 1 $COUNT); do
    generated "$n"
    handwritten "$n"
done

cd "$WORK"
echo "building the scratch package and its dependencies once (swift-syntax: minutes the first time)..." >&2
swift build > "$WORK/first-build.log" 2>&1 || { tail -30 "$WORK/first-build.log" >&2; exit 1; }

if [ "${LOAD:-0}" = 1 ]; then
    # A fixed load for the timed builds: one busy loop, so a build has one core to itself.
    (while :; do :; done) &
    trap 'kill $(jobs -p) 2>/dev/null' EXIT
    echo "load: one busy loop" >&2
fi

seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" > "$WORK/last-build.log" 2>&1 || { tail -30 "$WORK/last-build.log" >&2; exit 1; }
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

declare -A times
edit=0
for run in $(seq 1 "$RUNS"); do
    for target in Generated HandWritten; do
        times[$target-noop]+="$(seconds swift build --target "$target") "
        # Every source of the target changed: each file compiled again (its dependencies stay).
        touch "$WORK/Sources/$target"/*.swift
        times[$target-clean]+="$(seconds swift build --target "$target") "
        edit=$((edit + 1))
        if [ "$target" = Generated ]; then
            generated 1 "
    func ping$edit() -> Bool"
        else
            handwritten 1 "
    func ping$edit() -> Bool" "

    public func ping$edit() -> Bool { state.withLock { _ in false } }"
        fi
        times[$target-incremental]+="$(seconds swift build --target "$target") "
    done
done

echo
echo "mock build cost: $COUNT protocols of 4 requirements each, median of $RUNS, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)$([ "${LOAD:-0}" = 1 ] && echo ', one busy loop')"
printf '%-12s %12s %12s %8s\n' phase "@Mockable" "hand-written" ratio
for phase in noop clean incremental; do
    a=$(echo "${times[Generated-$phase]}" | tr ' ' '\n' | grep . | median)
    b=$(echo "${times[HandWritten-$phase]}" | tr ' ' '\n' | grep . | median)
    printf '%-12s %11.2fs %11.2fs %7.2fx\n' "$phase" "$a" "$b" "$(echo "$a / $b" | bc -l)"
done
