import Foundation

/// The sample folders of `seams-sync demo`, made and edited with plain Foundation (this is the
/// user's side of the story, not the engine's).
struct DemoFolders {
    let local: URL
    let container: URL

    private var manager: FileManager { .default }

    func createInitial() throws {
        try manager.createDirectory(at: local.appending(path: "photos"), withIntermediateDirectories: true)
        try manager.createDirectory(at: container, withIntermediateDirectories: true)
        try write("Shopping: milk, bread\n", "notes.txt", in: local, age: 3600)
        try write("# Plan\n- draft\n", "plan.md", in: local, age: 3600)
        try write("Holiday photos go here.\n", "photos/readme.md", in: local, age: 3600)
        try write("Ünïcödé and spaces are fine.\n", "Ünïcödé name.txt", in: local, age: 3600)
    }

    func editBothSides() throws {
        try write("Shopping: milk, bread, coffee\n", "notes.txt", in: local, age: 120)
        try write("Sent from my phone.\n", "from-phone.txt", in: container, age: 100)
        try manager.removeItem(at: container.appending(path: "photos/readme.md"))
        try write("# Plan\n- draft\n- local idea\n", "plan.md", in: local, age: 90)
        try write("# Plan\n- draft\n- container idea, newer\n", "plan.md", in: container, age: 60)
    }

    func listing(_ root: URL) throws -> String {
        let enumerator = manager.enumerator(at: root, includingPropertiesForKeys: nil)
        var names: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            if relative.hasPrefix(".seams") {
                enumerator?.skipDescendants()
                continue
            }
            names.append(relative)
        }
        return names.sorted().joined(separator: "\n")
    }

    private func write(_ text: String, _ path: String, in root: URL, age: TimeInterval) throws {
        let url = root.appending(path: path)
        try Data(text.utf8).write(to: url)
        // In whole microseconds: Foundation on Linux sets the date through `utimes`, and refuses
        // (EINVAL) a fraction it rounds up to a whole second, such as x.9999998.
        let date = Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 - age) * 1e6).rounded() / 1e6)
        try manager.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
    }
}
