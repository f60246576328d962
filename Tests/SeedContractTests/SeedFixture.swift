import Foundation
import Seams
import TestProcessEnvironment

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
//
// The folder is made and the variables are set by the `TestProcessEnvironment` C target when the
// test binary is loaded, before any thread exists: `setenv` here, while other tests start
// processes (which copy the environment), can free the array another thread is reading.

/// The default sync container, created in a temporary folder when the test process started.
let seedContainer: URL = {
    guard let path = seams_seed_container() else {
        fatalError(
            "the seed fixture's container was not created: \(seams_seed_environment_failure().map { String(cString: $0) } ?? "unknown")"
        )
    }
    return URL(filePath: String(cString: path), directoryHint: .isDirectory)
}()

/// `data.json` in the default container: the file `SyncManager.loadData()` reads.
let testURL = seedContainer.appending(path: "data.json", directoryHint: .notDirectory)

/// The bytes the mock serves.
let testData = Data(#"{"notes":[{"id":1,"title":"groceries"}]}"#.utf8)

/// What `loadData()` must return.
let expectedData = testData
