import Foundation
import Seams
import SeamsTesting
import Testing

/// Renames between folders flushed at different times, under the strict model.
@Suite struct PowerLossRenameTests {
    @Test(
        "each folder is as its last flush left it: a rename between two folders flushed after it survives a cut, the others' unflushed renames do not"
    )
    func flushedNameSurvives() throws {
        let fs = InMemoryFileSystem()
        fs.powerLossModel = .perItem
        fs.powerLossSelection = .combination(0)
        let root = URL(filePath: "/c", directoryHint: .isDirectory)
        let (x, y, t) = (root.appending(path: "x"), root.appending(path: "y"), root.appending(path: "t"))
        for folder in [root, x, y, t] { try fs.createDirectory(at: folder, withIntermediateDirectories: false) }
        try fs.write(Data("x one".utf8), to: x.appending(path: "one.txt"))
        try fs.write(Data("x two".utf8), to: x.appending(path: "two.txt"))
        try fs.write(Data("y one".utf8), to: y.appending(path: "one.txt"))
        fs.synchronizeAll()
        try fs.moveItem(at: y.appending(path: "one.txt"), to: t.appending(path: "one.txt"), replacingExisting: false)
        try fs.synchronizeDirectory(at: t)
        try fs.synchronizeDirectory(at: y)
        try fs.moveItem(at: x.appending(path: "one.txt"), to: y.appending(path: "one.txt"), replacingExisting: false)
        try fs.synchronizeDirectory(at: y)
        try fs.synchronizeDirectory(at: x)
        try fs.moveItem(at: t.appending(path: "one.txt"), to: x.appending(path: "one.txt"), replacingExisting: false)
        try fs.moveItem(at: x.appending(path: "two.txt"), to: y.appending(path: "two.txt"), replacingExisting: false)
        try fs.synchronizeDirectory(at: y)
        try fs.synchronizeDirectory(at: x)
        fs.cutPower()
        fs.restart()
        let names = { (folder: URL) in try fs.contentsOfDirectory(at: folder).map(\.name).sorted() }
        #expect(try names(x) == ["one.txt"])
        #expect(try names(y) == ["one.txt", "two.txt"])
        #expect(try names(t) == ["one.txt"])
    }
}
