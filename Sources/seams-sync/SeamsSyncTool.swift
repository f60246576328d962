import ArgumentParser
import CMallocTuning
import Foundation

/// `seams-sync`: two-way folder sync that never loses a version.
///
/// Exit codes (contract): 0 synced (conflicts kept both count as success), 2 bad usage or input,
/// 3 refused by a safety guard or an unavailable folder (nothing changed), 4 another run holds the
/// lock, 5 finished but some paths failed (listed; nothing lost), 1 anything else.
@main
struct SeamsSyncTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seams-sync",
        abstract: "Two-way folder sync that never loses a version.",
        discussion: """
            Exit codes: 0 synced (conflicts kept both count as success); 2 bad usage or input; \
            3 refused by a safety guard or an unavailable folder, nothing changed; 4 another run \
            holds the lock; 5 finished, but some paths failed (listed, nothing lost); 1 anything else.
            """,
        subcommands: [SyncCommand.self, WatchCommand.self, DemoCommand.self]
    )

    /// Parses and runs, mapping every failure to the contract's exit codes (ArgumentParser's own
    /// usage errors would exit 64; the contract says 2). A usage error on a command line that asks
    /// for `--json` is reported as the JSON report, so a script reading standard output always
    /// gets one JSON object.
    ///
    /// Synchronous, as every command is: a run stays on the main thread, and the process starts
    /// no thread of Swift's cooperative pool.
    static func main() {
        // Fixed thresholds for mapping large blocks and trimming heaps. glibc raises both after
        // each large block it frees, and then serves the next file bodies (up to 8 MiB each) from
        // its heaps, where their pages stay after use. Fixed, such a body is mapped and unmapped
        // when freed: a cold sync of 10,020 files to moto peaked at 66 to 67 MiB, not 84 to 89
        // (Benchmarks/s3-bench.sh's tree).
        _ = seams_tune_malloc(256 << 10, 128 << 10)
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                Foundation.exit(0)
            }
            if Output.requestsJSON(CommandLine.arguments.dropFirst()) {
                Output(json: true).fail(.badUsage, self.message(for: error))
            } else {
                FileHandle.standardError.write(Data((message + "\n").utf8))
            }
            Foundation.exit(ExitStatus.badUsage.rawValue)
        }
        do {
            var plain = command
            try plain.run()
            Foundation.exit(0)
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch let error where exitCode(for: error) == .success {
            print(fullMessage(for: error))
            Foundation.exit(0)
        } catch {
            FileHandle.standardError.write(Data("seams-sync: \(error)\n".utf8))
            Foundation.exit(ExitStatus.other.rawValue)
        }
    }
}
