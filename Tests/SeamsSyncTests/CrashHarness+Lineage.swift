import Foundation
import Seams
import SeamsTesting

@testable import SeamsSync

/// Each path's own history, not a bag of contents: after a crash and after recovery, a path holds
/// only versions of itself, and no version of any path is lost.
extension CrashHarness {
    /// The versions each path held at the start, on either side (files and links), and the one
    /// the user saves during the run.
    struct Lineage {
        /// Every version of each path: what the path may hold.
        var history: [SyncPath: Set<Data>] = [:]
        /// The versions that must still exist at the end: the history but the one the user's
        /// save overwrote, if only that side had it (the user dropped it, not the engine).
        var required: [SyncPath: Set<Data>] = [:]
        /// For a path in an item the scenario moved, its paths before and after the moves (through
        /// chains and swaps): they share one history, and a version kept at any is kept.
        var counterparts: [SyncPath: Set<SyncPath>] = [:]
    }

    /// The paths that share a history with `path` through the scenario's moves: its path before
    /// or after each move, and theirs in turn (`a`→`b` then `b`→`c`: all three).
    func counterparts(of path: SyncPath) -> Set<SyncPath> {
        var found: Set<SyncPath> = [path]
        var pending = [path]
        while let current = pending.popLast() {
            for (from, to) in moved {
                for (old, new) in [(from, to), (to, from)] where current == old || current.isDescendant(of: old) {
                    let other = new.appendingRelative(current, under: old)
                    if found.insert(other).inserted { pending.append(other) }
                }
            }
        }
        found.remove(path)
        return found
    }

    /// The starting versions of every user path, and the version the user saves during the run.
    func lineage() throws -> Lineage {
        var result = Lineage()
        for root in [Self.local, Self.container] {
            for (path, data) in try files(under: root) where !path.rawValue.hasSuffix("/") {
                result.history[path, default: []].insert(data)
            }
        }
        for path in Array(result.history.keys) {
            for other in counterparts(of: path) {
                result.counterparts[path, default: []].insert(other)
                result.counterparts[other, default: []].insert(path)
            }
        }
        let before = result.history
        for (path, others) in result.counterparts {
            for other in others { result.history[path, default: []].formUnion(before[other] ?? []) }
        }
        result.required = result.history
        if let save = duringRun {
            let path = SyncPath(save.path)
            let own = try? fileSystem.read(
                from: (save.side == .local ? Self.local : Self.container).appending(path: save.path))
            let other = try? fileSystem.read(
                from: (save.side == .local ? Self.container : Self.local).appending(path: save.path))
            if let own, own != other { result.required[path]?.remove(own) }
            result.history[path, default: []].insert(Data(save.text.utf8))
            result.required[path, default: []].insert(Data(save.text.utf8))
            // The save follows a move the other side made of its path.
            for other in counterparts(of: path) {
                result.counterparts[path, default: []].insert(other)
                result.counterparts[other, default: []].insert(path)
                result.history[other, default: []].insert(Data(save.text.utf8))
            }
        }
        return result
    }

    /// Where the newest version, the user's save during the run, is neither at its path on a side
    /// nor in a conflict copy beside it (in the trash only, or gone).
    ///
    /// - Parameter inTrashAllowed: Whether the trash counts too: when the save came in the instant
    ///   between the engine's check and its move of the path into the trash, and the run stopped
    ///   before it could move the save back (the one window a change by path cannot close).
    func newestVersionViolations(inTrashAllowed: Bool = false) throws -> [String] {
        guard let save = duringRun else { return [] }
        let path = SyncPath(save.path)
        let newest = Data(save.text.utf8)
        // A save to a path the scenario moved on the other side follows the move (`a` renamed to
        // `b` there, `a` saved here: the save ends at `b`).
        let places = counterparts(of: path).union([path])
        for root in [Self.local, Self.container]
        where try files(under: root).contains(where: { $0.value == newest && places.contains(Self.origin(of: $0.key)) })
        {
            return []
        }
        if inTrashAllowed, try trashed()[path]?.contains(newest) == true { return [] }
        return ["the user's save of \(path) during the run is not at its path nor in a conflict copy beside it"]
    }

    /// The path a conflict copy keeps a version of (`a.sync-conflict-20261122-034512-local-2.txt`
    /// is `a.txt`), or the path itself.
    static func origin(of path: SyncPath) -> SyncPath {
        let name = path.name
        guard let range = name.range(of: ".sync-conflict-") else { return path }
        var rest = name[range.upperBound...]
        // YYYYMMDD-HHMMSS-side[-n]
        guard rest.count >= 16 else { return path }
        rest = rest.dropFirst(16)
        for side in ["local", "container"] where rest.hasPrefix(side) {
            rest = rest.dropFirst(side.count)
            if rest.hasPrefix("-") { rest = rest.drop { $0 == "-" || $0.isNumber } }
            guard rest.isEmpty || rest.hasPrefix(".") else { return path }
            return path.replacingName(with: String(name[..<range.lowerBound]) + rest)
        }
        return path
    }

    /// What the trash of both sides holds, by the relative path each version had.
    func trashed() throws -> [SyncPath: Set<Data>] {
        var result: [SyncPath: Set<Data>] = [:]
        for root in [Self.local, Self.container] {
            let trash = root.appending(path: ".seams-trash")
            guard (try? fileSystem.metadata(at: trash))?.kind == .directory else { continue }
            for run in try fileSystem.contentsOfDirectory(at: trash) where run.metadata.kind == .directory {
                for (path, data) in try files(under: trash.appending(path: run.name), includingOwn: true)
                where !path.rawValue.hasSuffix("/") {
                    result[path, default: []].insert(data)
                }
            }
        }
        return result
    }

    /// Where the lineage is broken: a path holding a version from another path's history (or
    /// from nowhere), or a starting version of a path that is neither at the path, nor in a
    /// conflict copy beside it, nor in the trash under the path's own name.
    func lineageViolations(_ start: Lineage) throws -> [String] {
        var problems: [String] = []
        var kept: [SyncPath: Set<Data>] = try trashed()
        for root in [Self.local, Self.container] {
            for (path, data) in try files(under: root) where !path.rawValue.hasSuffix("/") {
                let origin = Self.origin(of: path)
                kept[path, default: []].insert(data)
                kept[origin, default: []].insert(data)
                // A user's own file may have a name like a conflict copy's: its own history counts.
                if start.history[path]?.contains(data) != true, start.history[origin]?.contains(data) != true {
                    problems.append(
                        "\(root.lastPathComponent)/\(path) holds a version that is not from \(origin)'s history "
                            + "(\(data.count) bytes: \(String(decoding: data.prefix(24), as: UTF8.self)))")
                }
            }
        }
        for (path, versions) in start.required {
            for version in versions where kept[path]?.contains(version) != true {
                if start.counterparts[path]?.contains(where: { kept[$0]?.contains(version) == true }) == true {
                    continue
                }
                problems.append("lost a version of \(path): \(String(decoding: version.prefix(24), as: UTF8.self))")
            }
        }
        return problems
    }

    /// Both folders' user files with conflict-copy dates left out, for comparing a recovered run
    /// with an uninterrupted one.
    func outcome() throws -> [String: [Data]] {
        var result: [String: [Data]] = [:]
        for root in [Self.local, Self.container] {
            for (path, data) in try files(under: root) {
                let origin = Self.origin(of: path)
                let key =
                    root.lastPathComponent + "/"
                    + (origin == path ? path.rawValue : origin.rawValue + " (conflict copy)")
                result[key, default: []].append(data)
            }
        }
        return result.mapValues { $0.sorted { $0.lexicographicallyPrecedes($1) } }
    }

    /// Where the folders and the trash differ from what the scenario's rules say (nothing when
    /// the scenario states no end).
    func expectationProblems(_ scenario: CrashScenario) throws -> [String] {
        guard let expected = scenario.expected else { return ["\(scenario.name) states no expected end"] }
        var problems: [String] = []
        // Names Swift's `String` takes for one (NFC and NFD) or a copy's name a user's file has
        // too: their versions joined by " | ", in byte order.
        var actual: [String: String] = [:]
        for (key, versions) in try outcome() where key.hasPrefix("local/") {
            actual[String(key.dropFirst("local/".count))] = versions.map { String(decoding: $0, as: UTF8.self) }.joined(
                separator: " | ")
        }
        if actual != expected.files {
            for key in Set(actual.keys).union(expected.files.keys).sorted() where actual[key] != expected.files[key] {
                problems.append(
                    "\(key): \(actual[key].map { "\"\($0)\"" } ?? "nothing") where the rules say "
                        + "\(expected.files[key].map { "\"\($0)\"" } ?? "nothing")")
            }
        }
        let trash = try trashed().mapValues { Set($0.map { String(decoding: $0, as: UTF8.self) }) }
        let wanted = expected.trash.mapValues(Set.init)
        if trash.mapKeys(\.rawValue) != wanted {
            problems.append("the trash holds \(trash.mapKeys(\.rawValue)) where the rules say \(wanted)")
        }
        return problems
    }
}

extension Dictionary {
    fileprivate func mapKeys<K: Hashable>(_ transform: (Key) -> K) -> [K: Value] {
        [K: Value](uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}
