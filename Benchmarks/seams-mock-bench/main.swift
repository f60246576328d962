// Cost of one recorded call through a mock: the @Mockable-generated mock against a hand-written
// one. Build in release: `swift run -c release seams-mock-bench`.
import Foundation
import SeamsMacros

let calls = 200_000
let paths = samplePaths(calls)

let handWritten = HandWrittenPathChecker()
handWritten.answer = true
let handWrittenTime = nanosecondsPerCall(calls: calls) { handWritten.fileExists(at: paths[$0]) }
precondition(handWritten.callCount == calls * 5)

let generated = MockPathChecking()
generated.stubs.fileExistsAt.returns(true)
let generatedTime = nanosecondsPerCall(calls: calls) { generated.fileExists(at: paths[$0]) }
precondition(generated.stubs.fileExistsAt.callCount == calls * 5)

print("one call with recording, best of 5 rounds of \(calls) calls")
report("hand-written mock (Mutex)", handWrittenTime, baseline: handWrittenTime)
report("@Mockable generated mock", generatedTime, baseline: handWrittenTime)
