import Foundation
import Testing

/// Links synced as links by the real binary: the same target text on both sides, never followed.
@Suite struct SymbolicLinkCLITests {
    let manager = FileManager.default

    func target(_ path: String, in root: URL) -> String? {
        try? manager.destinationOfSymbolicLink(atPath: root.appending(path: path).path)
    }

    @Test("relative, absolute and dangling links arrive as links with the same text; an outside folder is never read")
    func linksAsLinks() async throws {
        try await offPool {
            let w = try Workspace()
            let outside = w.base.appending(path: "outside")
            try w.write("private", "secret.txt", in: outside)
            try w.write("n", "notes.txt", in: w.local)
            try manager.createSymbolicLink(
                atPath: w.local.appending(path: "latest").path, withDestinationPath: "notes.txt")
            try manager.createSymbolicLink(
                atPath: w.local.appending(path: "elsewhere").path, withDestinationPath: outside.path)
            try manager.createSymbolicLink(
                atPath: w.local.appending(path: "dangling").path, withDestinationPath: "../no/such")
            var result = try w.sync()
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(target("latest", in: w.container) == "notes.txt")
            #expect(target("elsewhere", in: w.container) == outside.path)
            #expect(target("dangling", in: w.container) == "../no/such")
            #expect(
                try manager.contentsOfDirectory(atPath: w.container.path).sorted()
                    == [".seams-replica", "dangling", "elsewhere", "latest", "notes.txt"],
                "no copy of secret.txt, no temp file")
            #expect(try manager.contentsOfDirectory(atPath: outside.path) == ["secret.txt"])

            result = try w.sync()
            #expect(result.status == 0 && result.stdout.contains("0 to container, 0 to local"), "\(result.stdout)")

            // Retargeted in the container: the local link follows, its old text kept in the trash.
            try manager.removeItem(atPath: w.container.appending(path: "latest").path)
            try manager.createSymbolicLink(
                atPath: w.container.appending(path: "latest").path, withDestinationPath: "notes-v2.txt")
            result = try w.sync()
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(target("latest", in: w.local) == "notes-v2.txt")
            let trash = w.local.appending(path: ".seams-trash")
            let run = try #require(try manager.contentsOfDirectory(atPath: trash.path).first)
            #expect(target("\(run)/latest", in: trash) == "notes.txt", "the replaced link is in the trash as a link")
            #expect(try manager.contentsOfDirectory(atPath: outside.path) == ["secret.txt"])
        }
    }
}
