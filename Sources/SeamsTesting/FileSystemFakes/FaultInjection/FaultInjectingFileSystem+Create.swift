public import Foundation
import Seams

extension FaultInjectingFileSystem {
    /// The wrapped exclusive create, unless failed; counted and matched as a ``FileSystemOperation/write``.
    public func createFile(_ data: Data, at url: URL) throws {
        try perform(.write, url) { try files.createFile(data, at: url) }
    }

    /// The wrapped piecewise create, unless failed; counted and matched as one ``FileSystemOperation/write``.
    public func createFile(at url: URL, pieces nextPiece: () throws -> Data?) throws {
        try perform(.write, url) { try files.createFile(at: url, pieces: nextPiece) }
    }

    /// The wrapped accessor's answer.
    public var usesThisMachinesFileSystem: Bool { files.usesThisMachinesFileSystem }

    /// The wrapped comparison, unless failed; counted and matched as a ``FileSystemOperation/read``.
    public func contentsEqual(_ first: URL, _ second: URL) throws -> Bool {
        try perform(.read, first, second) { try files.contentsEqual(first, second) }
    }
}

extension FaultInjectingFileSystem {
    /// The wrapped swap, unless failed; counted and matched as a ``FileSystemOperation/moveItem``.
    public func exchangeItems(at first: URL, and second: URL) throws -> Bool {
        try perform(.moveItem, first, second) { try directories.exchangeItems(at: first, and: second) }
    }
}
