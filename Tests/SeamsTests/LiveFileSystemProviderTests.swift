import Foundation
import Seams
import Testing

@Suite struct LiveFileSystemProviderTests {
    @Test("an explicit container that exists is reported for every purpose")
    func explicitContainer() throws {
        let temp = try TemporaryDirectory()
        let provider = DefaultFileSystemProvider(containerDirectory: temp.url, environment: [:])
        #expect(provider.containerURL(for: .sync) == temp.url)
        #expect(provider.containerURL(for: Purpose(rawValue: "exports")) == temp.url)
    }

    @Test("a missing container reads as not available and is never created")
    func missingContainerIsNotCreated() throws {
        let temp = try TemporaryDirectory()
        let missing = temp.folder("unmounted/share")
        let provider = DefaultFileSystemProvider(containerDirectory: missing, environment: [:])
        #expect(provider.containerURL(for: .sync) == nil)
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        #expect(!FileManager.default.fileExists(atPath: temp.folder("unmounted").path))
    }

    @Test("a file where the container should be reads as not available")
    func fileInsteadOfContainer() throws {
        let temp = try TemporaryDirectory()
        let file = temp.file("container")
        try Data("x".utf8).write(to: file)
        #expect(DefaultFileSystemProvider(containerDirectory: file, environment: [:]).containerURL(for: .sync) == nil)
    }

    @Test("the Linux default is $XDG_DATA_HOME/seams/container, reported once it exists")
    func xdgDefault() throws {
        let temp = try TemporaryDirectory()
        let environment = ["XDG_DATA_HOME": temp.url.path, "HOME": "/nonexistent-home"]
        let provider = DefaultFileSystemProvider(environment: environment)
        #expect(provider.containerURL(for: .sync) == nil)
        #expect(!FileManager.default.fileExists(atPath: temp.folder("seams").path))

        let container = temp.folder("seams/container")
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        #expect(provider.containerURL(for: .sync)?.standardizedFileURL == container.standardizedFileURL)
    }

    @Test("without XDG_DATA_HOME the default is ~/.local/share/seams/container")
    func homeDefault() throws {
        let temp = try TemporaryDirectory()
        let container = temp.folder(".local/share/seams/container")
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        let provider = DefaultFileSystemProvider(environment: ["HOME": temp.url.path])
        #expect(provider.containerURL(for: .sync)?.standardizedFileURL == container.standardizedFileURL)
    }

    @Test("a relative XDG_DATA_HOME is ignored, as the XDG specification requires")
    func relativeXDGIsIgnored() throws {
        let temp = try TemporaryDirectory()
        let url = DefaultFileSystemProvider.linuxDefaultContainer(
            environment: ["XDG_DATA_HOME": "relative/data", "HOME": temp.url.path]
        )
        #expect(url?.path(percentEncoded: false).hasPrefix(temp.url.path(percentEncoded: false)) == true)
        #expect(url?.path(percentEncoded: false).hasSuffix(".local/share/seams/container/") == true)
    }

    @Test("with neither XDG_DATA_HOME nor HOME there is no default container")
    func noEnvironment() {
        #expect(DefaultFileSystemProvider.linuxDefaultContainer(environment: [:]) == nil)
        #expect(DefaultFileSystemProvider(environment: [:]).containerURL(for: .sync) == nil)
    }
}
