// The tool behind the SeamsMockNames build plugin:
//
//   seams-mock-names OUTPUT.swift SOURCE.swift...
//
// writes OUTPUT.swift with `typealias MockX = MockXProviding` for every `@Mockable protocol
// XProviding` declared at the top level of the sources (see MockNameScanner).
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: seams-mock-names OUTPUT.swift SOURCE.swift...\n".utf8))
    exit(2)
}
var scanner = MockNameScanner()
for path in arguments.dropFirst() {
    do {
        scanner.scan(source: try String(contentsOfFile: path, encoding: .utf8))
    } catch {
        FileHandle.standardError.write(Data("seams-mock-names: cannot read \(path): \(error)\n".utf8))
        exit(1)
    }
}
let text = scanner.generatedSource()
// Rewrite only on change, so an unchanged alias list does not recompile the target.
if (try? String(contentsOfFile: output, encoding: .utf8)) != text {
    do {
        try text.write(toFile: output, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("seams-mock-names: cannot write \(output): \(error)\n".utf8))
        exit(1)
    }
}
