import Foundation
import Seams

/// The conformance suite of `FileSystemProviding`: a container is answered only while it
/// exists as a folder, and is never created.
///
/// ```swift
/// @Test(arguments: FileSystemProviderConformance.behaviours)
/// func conforms(_ behaviour: ConformanceBehaviour) throws { try behaviour.run(on: .inMemory()) }
/// ```
public enum FileSystemProviderConformance {
    /// Every behaviour of the suite.
    public static var behaviours: [ConformanceBehaviour] { all }

    static func behaviour(
        _ name: String, _ body: @escaping @Sendable (ConformanceSubject) throws -> Void
    ) -> ConformanceBehaviour {
        ConformanceBehaviour(suite: "FileSystemProvider", name, body)
    }

    static let all: [ConformanceBehaviour] = [
        behaviour("an existing container folder is answered") { s in
            let folder = try s.makeFolder("container")
            try Check.equal(s.makeContainerProvider(folder).containerURL(for: .sync)?.path, folder.path, "container")
        },
        behaviour("a missing container is nil") { s in
            try Check.that(s.makeContainerProvider(s.url("missing")).containerURL(for: .sync) == nil, "not nil")
        },
        behaviour("a file in place of the container is nil") { s in
            let file = try s.makeFile("container")
            try Check.that(s.makeContainerProvider(file).containerURL(for: .sync) == nil, "not nil")
        },
        behaviour("a container removed later reads as nil") { s in
            let folder = try s.makeFolder("container")
            let provider = s.makeContainerProvider(folder)
            try Check.that(provider.containerURL(for: .sync) != nil, "nil while present")
            try s.directories.removeItem(at: folder, recursively: true)
            try Check.that(provider.containerURL(for: .sync) == nil, "not nil after removal")
        },
        behaviour("asking never creates the container") { s in
            _ = s.makeContainerProvider(s.url("missing")).containerURL(for: .sync)
            try Check.that(!s.files.fileExists(at: s.url("missing")), "the container was created")
        },
        behaviour("another purpose is answered with the same container") { s in
            let folder = try s.makeFolder("container")
            let other = Purpose(rawValue: "conformance-other")
            try Check.equal(s.makeContainerProvider(folder).containerURL(for: other)?.path, folder.path, "container")
        },
    ]
}
