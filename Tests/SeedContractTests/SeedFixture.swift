import Foundation
import Seams

// The seed's examples use three free names: `testURL`, `testData` and `expectedData`.
//
// Its "reads data correctly" example builds `SyncManager(fileAccessor:)` and so keeps the live
// `DefaultFileSystemProvider`, which reports a container only when the folder exists. The fixture
// points `XDG_DATA_HOME` at a fresh temporary folder holding `seams/container` (the Linux default
// location), so the live provider answers with a real, empty folder and every byte of `data.json`
// comes from the injected mock. Other suites never read the process environment: they pass their
// own `environment:` to the live provider. The same fixture points `XDG_CONFIG_HOME` and
// `XDG_STATE_HOME` at the temporary folder too, so the live bookmark store and sync state that a
// default-built `SyncManager` reaches are fresh and empty, never the person's own.

/// The default sync container, created once per test process in a temporary folder.
let seedContainer: URL = {
    let root = FileManager.default.temporaryDirectory
        .appending(path: "seams-seed-\(UUID().uuidString)", directoryHint: .isDirectory)
    let container = root.appending(path: "seams/container", directoryHint: .isDirectory)
    do {
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
    } catch {
        fatalError("cannot create the seed fixture's container: \(error)")
    }
    setenv("XDG_DATA_HOME", root.path, 1)
    setenv("XDG_CONFIG_HOME", root.appending(path: "config").path, 1)
    setenv("XDG_STATE_HOME", root.appending(path: "state").path, 1)
    return container
}()

/// `data.json` in the default container: the file `SyncManager.loadData()` reads.
let testURL = seedContainer.appending(path: "data.json", directoryHint: .notDirectory)

/// The bytes the mock serves.
let testData = Data(#"{"notes":[{"id":1,"title":"groceries"}]}"#.utf8)

/// What `loadData()` must return.
let expectedData = testData
