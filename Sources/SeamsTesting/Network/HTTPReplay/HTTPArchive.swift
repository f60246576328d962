/// An HTTP Archive (HAR 1.2): the file ``RecordingHTTPTransport`` writes and
/// ``ReplayHTTPTransport`` answers from, and what browsers, Charles and Proxyman export.
///
/// Only what replay needs is kept; fields of other tools (`pages`, `cache` contents, cookies,
/// `_initiator` and other `_`-prefixed fields) are read past and not written back. Reading is
/// lenient about fields HAR 1.2 calls required but tools leave out (`cookies`, `headersSize`,
/// `bodySize`, `httpVersion`); writing always writes them.
///
/// ```swift
/// let archive = try HTTPArchive(contentsOf: fixtureURL)        // a browser's export works too
/// print(archive.log.entries.map(\.request.url))
/// ```
public struct HTTPArchive: Codable, Hashable, Sendable {
    /// The archive's one top-level object.
    public var log: Log

    /// Creates an archive with `entries`, written by this package.
    ///
    /// - Parameter entries: The exchanges, in the order they happened.
    public init(entries: [Entry] = []) {
        log = Log(creator: Creator(name: "Seams", version: "1"), entries: entries)
    }

    /// `log`: the version, the tool that wrote it, and the exchanges.
    public struct Log: Codable, Hashable, Sendable {
        /// `1.2` when written here.
        public var version: String
        /// The tool that wrote the file.
        public var creator: Creator
        /// The exchanges, in the order they happened.
        public var entries: [Entry]

        /// Creates a log.
        ///
        /// - Parameters:
        ///   - version: The HAR version; `1.2` unless given.
        ///   - creator: The tool that wrote the file.
        ///   - entries: The exchanges.
        public init(version: String = "1.2", creator: Creator, entries: [Entry]) {
            self.version = version
            self.creator = creator
            self.entries = entries
        }

        private enum CodingKeys: String, CodingKey { case version, creator, entries }

        /// Reads a log; a missing `version` or `creator` is tolerated, missing `entries` is not.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decodeIfPresent(String.self, forKey: .version) ?? "1.2"
            creator =
                try container.decodeIfPresent(Creator.self, forKey: .creator) ?? Creator(name: "unknown", version: "")
            entries = try container.decode([Entry].self, forKey: .entries)
        }
    }

    /// `creator`: the name and version of the tool that wrote the file.
    public struct Creator: Codable, Hashable, Sendable {
        /// The tool's name.
        public var name: String
        /// The tool's version.
        public var version: String

        /// Creates a creator.
        ///
        /// - Parameters:
        ///   - name: The tool's name.
        ///   - version: The tool's version.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// A header field or a query item: `{"name": …, "value": …}`.
    public struct NameValue: Codable, Hashable, Sendable {
        /// The name, as it was sent.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a pair.
        ///
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `timings`, in milliseconds; `-1` (or absent) where a phase does not apply.
    ///
    /// A recording measures the whole exchange and files it under ``wait``: a transport does not
    /// tell how long sending and receiving took apart.
    public struct Timings: Codable, Hashable, Sendable {
        /// Waiting for a connection, or `nil`.
        public var blocked: Double?
        /// Resolving the host name, or `nil`.
        public var dns: Double?
        /// Making the connection, or `nil`.
        public var connect: Double?
        /// Sending the request.
        public var send: Double
        /// Waiting for the response.
        public var wait: Double
        /// Receiving the response.
        public var receive: Double
        /// The TLS handshake, or `nil`.
        public var ssl: Double?

        /// Creates timings.
        ///
        /// - Parameters:
        ///   - send: Sending, in milliseconds.
        ///   - wait: Waiting, in milliseconds.
        ///   - receive: Receiving, in milliseconds.
        public init(send: Double = 0, wait: Double, receive: Double = 0) {
            self.send = send
            self.wait = wait
            self.receive = receive
        }

        private enum CodingKeys: String, CodingKey { case blocked, dns, connect, send, wait, receive, ssl }

        /// Reads timings; a missing phase reads as 0.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            blocked = try container.decodeIfPresent(Double.self, forKey: .blocked)
            dns = try container.decodeIfPresent(Double.self, forKey: .dns)
            connect = try container.decodeIfPresent(Double.self, forKey: .connect)
            send = try container.decodeIfPresent(Double.self, forKey: .send) ?? 0
            wait = try container.decodeIfPresent(Double.self, forKey: .wait) ?? 0
            receive = try container.decodeIfPresent(Double.self, forKey: .receive) ?? 0
            ssl = try container.decodeIfPresent(Double.self, forKey: .ssl)
        }
    }
}
