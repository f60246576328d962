import Foundation
import Testing

/// Progress is for people: shown on a terminal (a pseudo-terminal here, as a terminal window
/// gives the tool), never written into a pipe, a file or the JSON report.
@Suite struct ProgressTests {
    /// A workspace with enough files for several progress updates.
    private func workspace(files: Int = 150) throws -> Workspace {
        let w = try Workspace()
        for index in 0..<files { try w.write("\(index)", "f/\(index).txt", in: w.local) }
        return w
    }

    /// The `syncing: DONE/TOTAL items, …` updates in `text`, in order.
    private func updates(in text: String) -> [(done: Int, total: Int)] {
        text.split(separator: "\r").compactMap { piece in
            guard piece.hasPrefix("syncing: "), let end = piece.firstIndex(of: " ") else { return nil }
            let counts = piece[piece.index(after: end)...].prefix { $0 != " " }
            let numbers = counts.replacingOccurrences(of: ",", with: "").split(separator: "/")
            guard numbers.count == 2, let done = Int(numbers[0]), let total = Int(numbers[1]) else { return nil }
            return (done, total)
        }
    }

    @Test("on a terminal: progress lines that count up to the total, then the summary")
    func terminal() async throws {
        try await offPool {
            let w = try workspace()
            let result = try w.sync(stdout: .terminal, stderr: .terminal)
            #expect(result.status == 0, "\(result.terminal)")
            #expect(result.terminal.contains("\rscanning: "), "the scan shows: \(result.terminal.debugDescription)")
            #expect(result.terminal.contains("\rsyncing: "), "\(result.terminal.debugDescription)")
            #expect(result.terminal.contains("\u{1B}[K"), "clears the rest of the line")
            let updates = updates(in: result.terminal)
            #expect(updates.count >= 1, "\(result.terminal.debugDescription)")
            let last = try #require(updates.last)
            #expect(last.done == last.total && last.total >= 150, "\(updates)")
            // The last update: every item and every byte (150 files of 1 to 3 bytes, 340 in all), 100%
            // (then the rate, when the run took half a second or more), then a line end.
            let lastPiece = try #require(result.terminal.split(separator: "\r").last { $0.hasPrefix("syncing: ") })
            let lastLine = lastPiece.prefix { $0 != "\u{1B}" }  // the text before the clear to the line's end
            #expect(
                lastLine.hasPrefix("syncing: \(last.total)/\(last.total) items, 340 B/340 B, 100%"),
                "\(lastLine.debugDescription)")
            #expect(!lastLine.contains("left"), "no time left at the end: \(lastLine.debugDescription)")
            #expect(
                result.terminal.contains("\(lastLine)\u{1B}[K\r\n"),
                "a line end after the last update: \(result.terminal.debugDescription)")
            #expect(updates.map(\.done) == updates.map(\.done).sorted())
            #expect(result.terminal.contains("150 to container"), "\(result.terminal)")
            #expect(w.tree(w.container) == w.tree(w.local))
        }
    }

    @Test("standard output redirected, standard error on the terminal: progress on the terminal only")
    func stdoutRedirected() async throws {
        try await offPool {
            let w = try workspace()
            let result = try w.sync(stdout: .file, stderr: .terminal)
            #expect(result.status == 0)
            #expect(!updates(in: result.terminal).isEmpty, "\(result.terminal.debugDescription)")
            #expect(result.stdout.hasPrefix("150 to container"), "\(result.stdout.debugDescription)")
            #expect(
                !result.stdout.contains("\u{1B}") && !result.stdout.contains("\r"), "\(result.stdout.debugDescription)")
        }
    }

    @Test("no terminal: no progress and no escape sequences anywhere")
    func noTerminal() async throws {
        try await offPool {
            let w = try workspace()
            let result = try w.sync()
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("150 to container"), "\(result.stdout.debugDescription)")
            for text in [result.stdout, result.stderr] {
                #expect(
                    !text.contains("\u{1B}") && !text.contains("\r") && !text.contains("syncing"),
                    "\(text.debugDescription)")
            }
        }
    }

    @Test("--json on a terminal: one JSON object and no progress")
    func jsonOnTerminal() async throws {
        try await offPool {
            let w = try workspace()
            let result = try w.sync(["--json"], stdout: .terminal, stderr: .terminal)
            #expect(result.status == 0)
            #expect(
                !result.terminal.contains("\u{1B}") && !result.terminal.contains("syncing"),
                "\(result.terminal.debugDescription)")
            let lines = result.terminal.split(separator: "\r\n")
            #expect(lines.count == 1, "\(result.terminal.debugDescription)")
            let object = try JSONSerialization.jsonObject(with: Data(result.terminal.utf8)) as? [String: Any]
            #expect(object?["status"] as? String == "synced")
        }
    }
}
