public import Foundation

extension HTTPArchive {
    /// Reads a HAR file.
    ///
    /// ```swift
    /// let archive = try HTTPArchive(contentsOf: Bundle.module.url(forResource: "login", withExtension: "har")!)
    /// ```
    ///
    /// - Parameter url: The file.
    /// - Throws: ``HTTPReplayError/Kind/fixtureMissing`` when there is no file,
    ///   ``HTTPReplayError/Kind/corruptFixture`` when it is not a HAR file (the detail says where).
    public init(contentsOf url: URL) throws(HTTPReplayError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let missing = (error as? CocoaError)?.code == .fileReadNoSuchFile
            throw HTTPReplayError(missing ? .fixtureMissing : .corruptFixture, path: url.path, detail: "\(error)")
        }
        try self.init(data: data, path: url.path)
    }

    /// Reads a HAR document from `data`.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - path: The file's path, for errors.
    /// - Throws: ``HTTPReplayError/Kind/corruptFixture`` when it is not a HAR document.
    public init(data: Data, path: String? = nil) throws(HTTPReplayError) {
        do {
            self = try JSONDecoder().decode(HTTPArchive.self, from: data)
        } catch let error as DecodingError {
            throw HTTPReplayError(.corruptFixture, path: path, detail: Self.describe(error))
        } catch {
            throw HTTPReplayError(.corruptFixture, path: path, detail: "\(error)")
        }
    }

    /// The file's bytes: pretty-printed JSON with sorted keys, slashes unescaped, and a final
    /// newline, so the same exchanges give the same bytes and a change shows as a small diff.
    ///
    /// - Returns: The document.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every member is a string, a number or an array of them: encoding cannot fail.
        let data = (try? encoder.encode(self)) ?? Data()
        return data + Data("\n".utf8)
    }

    /// Writes ``encoded()`` to `url` atomically: a reader sees the old file or the new, never a
    /// torn one. Missing parent folders are created.
    ///
    /// - Parameter url: The file.
    /// - Throws: ``HTTPReplayError/Kind/cannotWrite``.
    public func write(to url: URL) throws(HTTPReplayError) {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoded().write(to: url, options: .atomic)
        } catch {
            throw HTTPReplayError(.cannotWrite, path: url.path, detail: "\(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context.codingPath)
            return "\(parent.isEmpty ? key.stringValue : parent + "." + key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            let place = path(context.codingPath)
            return place.isEmpty ? "not JSON: \(context.debugDescription)" : "\(place): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
