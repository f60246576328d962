import Foundation
import Testing

/// The "moved my photos to another disk" setup: a synced folder replaced by a symbolic link to
/// the same files elsewhere. Nothing may read as deleted, run after run.
@Suite struct FolderBecameLinkTests {
    func moveAndLink(_ folder: URL, to outside: URL) throws {
        try FileManager.default.moveItem(at: folder, to: outside)
        try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: outside)
    }

    @Test(
        "a local folder replaced by a link: the container's folder stays whole, the link stays, reported every run (exit 5)"
    )
    func localFolderBecameLink() async throws {
        try await offPool {
            let w = try Workspace()
            for name in ["a.jpg", "b.jpg", "sub/c.jpg"] { try w.write("photo \(name)", "photos/\(name)", in: w.local) }
            try w.write("n", "notes.txt", in: w.local)
            #expect(try w.sync().status == 0)
            let outside = w.base.appending(path: "other-disk-photos")
            try moveAndLink(w.local.appending(path: "photos"), to: outside)
            for run in 1...2 {
                let result = try w.sync()
                #expect(result.status == 5, "run \(run): \(result.stdout)\(result.stderr)")
                #expect(
                    result.stdout.contains("failed: photos: a symbolic link on the local side"),
                    "run \(run): \(result.stdout)")
                #expect(
                    w.tree(w.container)["photos/sub/c.jpg"] == "photo sub/c.jpg",
                    "run \(run): the container's folder is whole")
                #expect(w.tree(w.container).filter { $0.key.hasPrefix("photos/") }.count == 4)
                #expect(w.trashed(w.container).isEmpty, "run \(run): nothing went to the container's trash")
                #expect(
                    try FileManager.default.destinationOfSymbolicLink(atPath: w.local.appending(path: "photos").path)
                        == outside.path)
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: outside.path).sorted() == [
                        "a.jpg", "b.jpg", "sub",
                    ],
                    "nothing was written through the link")
            }
        }
    }

    @Test("a container folder replaced by a link: the local folder stays whole, nothing of it is deleted")
    func containerFolderBecameLink() async throws {
        try await offPool {
            let w = try Workspace()
            for name in ["a.jpg", "b.jpg"] { try w.write("photo \(name)", "photos/\(name)", in: w.local) }
            for n in 1...6 { try w.write("k\(n)", "keep\(n).txt", in: w.local) }
            #expect(try w.sync().status == 0)
            try moveAndLink(w.container.appending(path: "photos"), to: w.base.appending(path: "elsewhere"))
            let result = try w.sync()
            #expect(result.status == 5, "\(result.stdout)")
            #expect(
                w.read("photos/a.jpg", in: w.local) == "photo a.jpg"
                    && w.read("photos/b.jpg", in: w.local) == "photo b.jpg")
            #expect(w.trashed(w.local).isEmpty)
        }
    }

    @Test("first sync: a link on one side facing a folder on the other: nothing is copied through the link")
    func linkFacingFolder() async throws {
        try await offPool {
            let w = try Workspace()
            try w.write("inside", "shared/x.txt", in: w.container)
            let outside = w.base.appending(path: "outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: w.local.appending(path: "shared"), withDestinationURL: outside)
            let result = try w.sync()
            #expect(result.status == 5, "\(result.stdout)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty,
                "nothing staged through the link")
            #expect(w.read("shared/x.txt", in: w.container) == "inside")
        }
    }
}
