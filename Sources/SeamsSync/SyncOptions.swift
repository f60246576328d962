public import Foundation

/// How a run behaves: guards, dry run, trash retention, lock timing.
///
/// ```swift
/// var options = SyncOptions()
/// options.maxDeletePercent = 20
/// options.dryRun = true
/// ```
public struct SyncOptions: Hashable, Sendable {
    /// Decide and report, but change nothing (no lock, no state, no files).
    public var dryRun = false
    /// Run even when the empty-side guard or the max-delete guard would refuse.
    public var force = false
    /// The largest share of known items a run may delete on one side, in percent.
    public var maxDeletePercent = 50
    /// How long deleted and replaced versions stay in `.seams-trash`.
    public var trashRetention: TimeInterval = 30 * 24 * 3600
    /// How long a lock lives without a heartbeat before another run may take it.
    public var lockExpiry: TimeInterval = 60
    /// How many copies wait for one flush at most: their contents are flushed together, then each
    /// is renamed into place. Larger batches cost fewer device flushes; each batch's copies are
    /// lost together if the power fails before its flush (their sources are untouched).
    public var copyBatchCount = 2048
    /// Patterns of paths to leave alone, in `.gitignore` syntax (`node_modules/`, `*.tmp`,
    /// `/build`), on top of the `.seamsignore` files; they win over those files' `!` patterns. An
    /// ignored path is never read, written, moved, deleted or trashed on either side.
    public var excludes: [String] = []
    /// Whether platform junk is left alone too: `.DS_Store`, `._*`, `Thumbs.db`, `desktop.ini`,
    /// `.Trash-*`, `~$*`.
    public var defaultExcludes = true

    /// The lines of a file of patterns, as a `.seamsignore` is read: split at `\n` and `\r\n`,
    /// a leading byte-order mark dropped. For ``excludes`` read from a file (`--exclude-from`).
    public static func ignoreFileLines(_ text: String) -> [String] {
        IgnoreRules.lines(of: text)
    }

    /// The patterns ``defaultExcludes`` adds: Finder's `.DS_Store`, the AppleDouble `._*` files
    /// macOS writes on FAT and exFAT, Windows' `Thumbs.db` and `desktop.ini`, the `.Trash-*`
    /// folders of Linux desktops on removable drives, and Office's `~$*` lock files.
    public static let defaultExcludePatterns = [".DS_Store", "._*", "Thumbs.db", "desktop.ini", ".Trash-*", "~$*"]

    /// The default options.
    public init() {}
}
