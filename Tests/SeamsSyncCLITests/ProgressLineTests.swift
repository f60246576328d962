import SeamsSync
import Testing

/// The words and numbers of the progress line, and how often it is drawn.
struct ProgressLineTests {
    @Test("scanning counts the items found; syncing shows items, bytes, percentage, rate and time left")
    func text() {
        #expect(
            ProgressLine.text(SyncProgress(phase: .scanning, completed: 12_345, total: 0), elapsed: .zero)
                == "scanning: 12,345 items found")
        #expect(
            ProgressLine.text(SyncProgress(phase: .scanning, completed: 1, total: 0), elapsed: .zero)
                == "scanning: 1 item found")
        let halfway = SyncProgress(
            phase: .applying, completed: 1_234, total: 30_306, bytesCompleted: 512 << 20, bytesTotal: 1_288_490_189)
        #expect(
            ProgressLine.text(halfway, elapsed: .seconds(4))
                == "syncing: 1,234/30,306 items, 512.0 MiB/1.2 GiB, 41%, 128.0 MiB/s, 0:06 left")
        #expect(
            ProgressLine.text(halfway, elapsed: .milliseconds(200))
                == "syncing: 1,234/30,306 items, 512.0 MiB/1.2 GiB, 41%", "no rate before half a second")
        let noBytes = SyncProgress(phase: .applying, completed: 3, total: 4)
        #expect(
            ProgressLine.text(noBytes, elapsed: .seconds(9)) == "syncing: 3/4 items, 75%", "deletions only: by items")
        let done = SyncProgress(phase: .applying, completed: 4, total: 4, bytesCompleted: 2048, bytesTotal: 2048)
        #expect(ProgressLine.text(done, elapsed: .seconds(2)) == "syncing: 4/4 items, 2.0 KiB/2.0 KiB, 100%, 1.0 KiB/s")
    }

    @Test("numbers: grouped by thousands; bytes in binary units; time as m:ss or h:mm:ss")
    func numbers() {
        #expect(ProgressLine.grouped(0) == "0")
        #expect(ProgressLine.grouped(999) == "999")
        #expect(ProgressLine.grouped(1_000) == "1,000")
        #expect(ProgressLine.grouped(1_234_567) == "1,234,567")
        #expect(ProgressLine.bytes(0) == "0 B")
        #expect(ProgressLine.bytes(1023) == "1023 B")
        #expect(ProgressLine.bytes(1536) == "1.5 KiB")
        #expect(ProgressLine.bytes(5 << 30) == "5.0 GiB")
        #expect(ProgressLine.clock(7) == "0:07")
        #expect(ProgressLine.clock(62.2) == "1:03")
        #expect(ProgressLine.clock(3723) == "1:02:03")
        #expect(ProgressLine.clock(1e30) == "99:59:59", "an estimate past a hundred hours is shown as the most")
    }

    @Test(
        "drawn at most every 100 ms within a phase, at once when the phase changes, and always at the end, with a line end"
    )
    func throttled() {
        let line = ProgressLine()
        let start = ContinuousClock.now
        let scanning = SyncProgress(phase: .scanning, completed: 10, total: 0)
        #expect(line.update(scanning, now: start) != nil)
        #expect(line.update(scanning, now: start + .milliseconds(50)) == nil)
        #expect(line.update(scanning, now: start + .milliseconds(150)) != nil)
        let applying = SyncProgress(phase: .applying, completed: 1, total: 3)
        #expect(line.update(applying, now: start + .milliseconds(160)) != nil, "a new phase is drawn at once")
        #expect(line.update(applying, now: start + .milliseconds(170)) == nil)
        let last = line.update(SyncProgress(phase: .applying, completed: 3, total: 3), now: start + .milliseconds(171))
        #expect(last == "\rsyncing: 3/3 items, 100%\u{1B}[K\n")
        #expect(
            line.update(SyncProgress(phase: .applying, completed: 3, total: 3), now: start + .seconds(1)) == nil,
            "nothing after the end")
    }
}
