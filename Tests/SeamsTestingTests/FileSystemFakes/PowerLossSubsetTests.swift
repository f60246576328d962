import Foundation
import Seams
import SeamsTesting
import Testing

/// A power cut that keeps a chosen part of what was not flushed (`PowerLossSelection`).
@Suite struct PowerLossSubsetTests {
    let folder = URL(filePath: "/f", directoryHint: .isDirectory)

    func text(_ fileSystem: InMemoryFileSystem, _ name: String) -> String? {
        (try? fileSystem.read(from: folder.appending(path: name))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A flushed folder holding a flushed `old.txt`, with the given selection set, under the
    /// journaling model unless another is given.
    func setUp(_ selection: PowerLossSelection, model: PowerLossModel = .journaling) throws -> InMemoryFileSystem {
        let fileSystem = InMemoryFileSystem()
        fileSystem.powerLossModel = model
        fileSystem.powerLossSelection = selection
        try fileSystem.createDirectory(at: folder, withIntermediateDirectories: false)
        try fileSystem.write(Data("old".utf8), to: folder.appending(path: "old.txt"))
        fileSystem.synchronizeAll()
        return fileSystem
    }

    @Test("everything: a cut keeps every unflushed change; flushed only: none")
    func extremes() throws {
        for (selection, expected) in [(PowerLossSelection.everything, "new"), (.flushedOnly, nil)] {
            let fileSystem = try setUp(selection)
            try fileSystem.write(Data("new".utf8), to: folder.appending(path: "new.txt"))
            fileSystem.cutPower()
            #expect(text(fileSystem, "new.txt") == expected, "\(selection)")
            #expect(text(fileSystem, "old.txt") == "old")
        }
    }

    @Test("every combination of a cut with few changes is reachable, each once, and the report counts them")
    func combinations() throws {
        // Unflushed: the atomic write's temp name, then its rename to the new name (2 changes),
        // and the file's content (1 state): 8 outcomes.
        let probe = try setUp(.combination(0))
        try probe.write(Data("new".utf8), to: folder.appending(path: "new.txt"))
        probe.cutPower()
        let report = try #require(probe.lastPowerCut)
        #expect(report.combinations == 8 && report.unflushedChanges == 3 && report.keptChanges == 0)
        var outcomes: [String] = []
        for index in 0..<report.combinations {
            let fileSystem = try setUp(.combination(index))
            try fileSystem.write(Data("new".utf8), to: folder.appending(path: "new.txt"))
            fileSystem.cutPower()
            outcomes.append(text(fileSystem, "new.txt").map { "[\($0)]" } ?? "missing")
        }
        // The name without its content is the empty file ext4 leaves after a cut without fsync.
        #expect(outcomes.sorted() == ["[]", "[]", "[new]", "[new]", "missing", "missing", "missing", "missing"])
    }

    @Test(
        "a cut may keep an atomic write's temp file and lose its rename: Foundation's .dat.nosync file is left, whole or empty"
    )
    func atomicWriteLeavesItsTemp() throws {
        var left: Set<String> = []
        for index in 0..<8 {
            let fileSystem = try setUp(.combination(index))
            try fileSystem.write(Data("new".utf8), to: folder.appending(path: "old.txt"))
            fileSystem.cutPower()
            let names = try fileSystem.contentsOfDirectory(at: folder).map(\.name)
            #expect(names.contains("old.txt"), "the target keeps a version: combination \(index)")
            for name in names where name.hasPrefix(".dat.nosync") {
                left.insert(text(fileSystem, name) ?? "unreadable")
                #expect(text(fileSystem, "old.txt") == "old", "the temp is left only where the rename was lost")
            }
            #expect(names.count <= 2)
        }
        #expect(left == ["", "new"])
        // With nothing kept, or no cut armed, no temp is ever seen.
        let plain = try setUp(.flushedOnly, model: .perItem)
        try plain.write(Data("new".utf8), to: folder.appending(path: "old.txt"))
        #expect(try plain.contentsOfDirectory(at: folder).map(\.name) == ["old.txt"])
    }

    @Test("a rename inside one folder is kept or lost whole: never both names, never neither")
    func renameIsAtomic() throws {
        var seen: Set<String> = []
        for index in 0..<8 {
            let fileSystem = try setUp(.combination(index))
            let temp = folder.appending(path: "tmp")
            try fileSystem.write(Data("new".utf8), to: temp)
            try fileSystem.synchronizeFile(at: temp)
            try fileSystem.synchronizeDirectory(at: folder)
            try fileSystem.moveItem(at: temp, to: folder.appending(path: "old.txt"), replacingExisting: true)
            fileSystem.cutPower()
            let names = try fileSystem.contentsOfDirectory(at: folder).map(\.name)
            let state = "\(names) \(text(fileSystem, "old.txt") ?? "-")"
            #expect(state == "[\"old.txt\", \"tmp\"] old" || state == "[\"old.txt\"] new", "\(index): \(state)")
            seen.insert(state)
        }
        #expect(seen.count == 2, "both outcomes occur: \(seen)")
    }

    @Test("a move between two folders is kept or lost whole: never both names, never neither")
    func moveBetweenFolders() throws {
        var seen: Set<String> = []
        let other = URL(filePath: "/g", directoryHint: .isDirectory)
        for index in 0..<4 {
            let fileSystem = try setUp(.combination(index))
            try fileSystem.createDirectory(at: other, withIntermediateDirectories: false)
            fileSystem.synchronizeAll()
            try fileSystem.moveItem(
                at: folder.appending(path: "old.txt"), to: other.appending(path: "old.txt"), replacingExisting: false)
            fileSystem.cutPower()
            let here = fileSystem.fileExists(at: folder.appending(path: "old.txt"))
            let there = fileSystem.fileExists(at: other.appending(path: "old.txt"))
            seen.insert("\(here)-\(there)")
        }
        #expect(seen == ["true-false", "false-true"])
    }

    @Test("a name moved to another folder and back, then that folder flushed: every cut keeps it in one place, its own")
    func movedOutAndBack() throws {
        let other = URL(filePath: "/g", directoryHint: .isDirectory)
        for index in 0..<4 {
            let fileSystem = try setUp(.combination(index))
            try fileSystem.createDirectory(at: other, withIntermediateDirectories: false)
            fileSystem.synchronizeAll()
            try fileSystem.moveItem(
                at: folder.appending(path: "old.txt"), to: other.appending(path: "old.txt"), replacingExisting: false)
            try fileSystem.moveItem(
                at: other.appending(path: "old.txt"), to: folder.appending(path: "old.txt"), replacingExisting: false)
            // The flush commits both moves (a journal commits every earlier change), never the first alone.
            try fileSystem.synchronizeDirectory(at: other)
            fileSystem.cutPower()
            #expect(text(fileSystem, "old.txt") == "old", "combination \(index)")
            #expect(try fileSystem.contentsOfDirectory(at: other).isEmpty, "combination \(index)")
        }
    }

    @Test("two calls are kept independently: a later rename may survive an earlier link that was not flushed")
    func callsAreIndependent() throws {
        var seen: Set<String> = []
        let trash = URL(filePath: "/trash", directoryHint: .isDirectory)
        for index in 0..<4 {
            let fileSystem = try setUp(.combination(index))
            try fileSystem.createDirectory(at: trash, withIntermediateDirectories: false)
            try fileSystem.write(Data("new".utf8), to: folder.appending(path: "tmp"))
            fileSystem.synchronizeAll()
            try fileSystem.linkItem(at: folder.appending(path: "old.txt"), to: trash.appending(path: "old.txt"))
            try fileSystem.moveItem(
                at: folder.appending(path: "tmp"), to: folder.appending(path: "old.txt"), replacingExisting: true)
            fileSystem.cutPower()
            let kept = fileSystem.fileExists(at: trash.appending(path: "old.txt"))
            seen.insert("trash \(kept), target \(text(fileSystem, "old.txt") ?? "-")")
        }
        // The third is why a replaced version's trash entry must be flushed before the rename.
        #expect(
            seen == [
                "trash false, target old", "trash true, target old", "trash false, target new",
                "trash true, target new",
            ])
    }

    @Test("a seed gives the same outcome every time; different seeds give different ones")
    func seeded() throws {
        func outcome(_ seed: UInt64) throws -> String {
            let fileSystem = try setUp(.seeded(seed))
            for name in ["a", "b", "c", "d", "e", "f"] {
                try fileSystem.write(Data(name.utf8), to: folder.appending(path: name))
            }
            fileSystem.cutPower()
            return try fileSystem.contentsOfDirectory(at: folder).map { "\($0.name):\($0.metadata.size)" }.joined(
                separator: " ")
        }
        #expect(try outcome(7) == outcome(7))
        let outcomes = try Set((1...12).map { try outcome($0) })
        #expect(outcomes.count > 3, "\(outcomes)")
    }

    @Test(
        "per item: a folder's flush makes its own names durable and nothing else; journaling: every earlier name change too"
    )
    func modelsDiffer() throws {
        let other = URL(filePath: "/g", directoryHint: .isDirectory)
        var outcomes: [PowerLossModel: String] = [:]
        for model in PowerLossModel.allCases {
            let fileSystem = try setUp(.combination(0), model: model)
            try fileSystem.createDirectory(at: other, withIntermediateDirectories: false)
            fileSystem.synchronizeAll()
            // A new name in /f, not flushed; then /g changed and flushed.
            try fileSystem.write(Data("new".utf8), to: folder.appending(path: "new.txt"))
            try fileSystem.synchronizeFile(at: folder.appending(path: "new.txt"))
            try fileSystem.write(Data("g".utf8), to: other.appending(path: "g.txt"))
            try fileSystem.synchronizeDirectory(at: other)
            fileSystem.cutPower()
            outcomes[model] =
                "\(text(fileSystem, "new.txt") ?? "-") \(fileSystem.fileExists(at: other.appending(path: "g.txt")))"
        }
        #expect(outcomes == [.perItem: "- true", .journaling: "new true"])
    }

    @Test("per item, keeping parts: a flushed folder's names are never undone by an older change a cut keeps")
    func perItemFlushStands() throws {
        for index in 0..<8 {
            let fileSystem = try setUp(.combination(index), model: .perItem)
            try fileSystem.moveItem(
                at: folder.appending(path: "old.txt"), to: folder.appending(path: "b.txt"), replacingExisting: false)
            try fileSystem.moveItem(
                at: folder.appending(path: "b.txt"), to: folder.appending(path: "c.txt"), replacingExisting: false)
            try fileSystem.synchronizeDirectory(at: folder)
            fileSystem.cutPower()
            #expect(try fileSystem.contentsOfDirectory(at: folder).map(\.name) == ["c.txt"], "combination \(index)")
            #expect(fileSystem.lastPowerCut?.keptNameChanges == 0)
        }
    }

    @Test("the report counts the name changes a cut kept")
    func keptNameChangesCounted() throws {
        let fileSystem = try setUp(.everything, model: .perItem)
        try fileSystem.write(Data("new".utf8), to: folder.appending(path: "new.txt"))
        try fileSystem.moveItem(
            at: folder.appending(path: "old.txt"), to: folder.appending(path: "renamed.txt"), replacingExisting: false)
        fileSystem.cutPower()
        // The write's temp name and its rename, and the move.
        #expect(fileSystem.lastPowerCut?.keptNameChanges == 3)
        #expect(text(fileSystem, "renamed.txt") == "old")
    }
}
