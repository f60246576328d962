import Foundation
import Seams
import SeamsTesting
import Testing

@Suite struct UnimplementedTests {
    let url = URL(filePath: "/virtual/file")

    @Test("UnimplementedFileAccessor records an issue for each call and throws")
    func fileAccessor() {
        let accessor = UnimplementedFileAccessor()
        withKnownIssue {
            _ = try? accessor.read(from: url)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Unimplemented: FileAccessorProviding.read(from:)") }
        }
        withKnownIssue {
            try? accessor.write(Data("x".utf8), to: url)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("write(_:to:)") }
        }
        withKnownIssue {
            #expect(accessor.fileExists(at: url) == false)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("fileExists(at:)") }
        }
    }

    @Test("the thrown error names the requirement")
    func thrownError() {
        let accessor = UnimplementedFileAccessor()
        withKnownIssue {
            #expect(throws: UnimplementedError(requirement: "FileAccessorProviding.read(from:)")) {
                try accessor.read(from: url)
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Unimplemented: FileAccessorProviding.read(from:)") }
        }
    }

    @Test("the issue is reported at the line that made the double")
    func sourceLocation() {
        let line = #line + 1
        let accessor = UnimplementedFileAccessor()
        withKnownIssue {
            _ = try? accessor.read(from: url)
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
        }
    }

    @Test("UnimplementedFileSystemProvider records an issue and answers nil")
    func fileSystemProvider() {
        let provider = UnimplementedFileSystemProvider()
        withKnownIssue {
            #expect(provider.containerURL(for: .sync) == nil)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("FileSystemProviding.containerURL(for:)") }
        }
    }

    @Test("UnimplementedBookmarkStorage records an issue for save and for load")
    func bookmarkStorage() {
        let storage = UnimplementedBookmarkStorage()
        withKnownIssue {
            try? storage.saveBookmark(Data(), for: "k")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("saveBookmark(_:for:)") }
        }
        withKnownIssue {
            _ = try? storage.loadBookmark(for: "k")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("loadBookmark(for:)") }
        }
    }

    @Test("a double that is never touched records nothing")
    func untouchedIsSilent() {
        _ = UnimplementedFileAccessor()
        _ = UnimplementedFileSystemProvider()
        _ = UnimplementedBookmarkStorage()
    }
}
