// Cost of one recorded call through three mocks of the same one-method protocol: a hand-written
// Mutex mock, Seams' @Mockable mock and Kolos65/Mockable's generated mock. Not a target of Seams'
// Package.swift: Benchmarks/mock-compare.sh copies this folder, with Harness.swift and
// PathChecking.swift from Benchmarks/seams-mock-bench, into a scratch package and runs it.
//
//   mock-compare [CALLS]      CALLS calls per round (default 10,000), best of 5 rounds
import Foundation
import Mockable
import SeamsMacros
import Testing

let calls = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 10_000
let paths = samplePaths(calls)

let handWritten = HandWrittenPathChecker()
handWritten.answer = true
let handWrittenTime = nanosecondsPerCall(calls: calls) { handWritten.fileExists(at: paths[$0]) }
precondition(handWritten.callCount == calls * 5)

let seams = MockPathChecking()
seams.stubs.fileExistsAt.returns(true)
let seamsTime = nanosecondsPerCall(calls: calls) { seams.fileExists(at: paths[$0]) }
precondition(seams.stubs.fileExistsAt.callCount == calls * 5)

let kolos = MockKolosPathChecking()
given(kolos).fileExists(at: .any).willReturn(true)
let kolosTime = nanosecondsPerCall(calls: calls) { kolos.fileExists(at: paths[$0]) }

print("one call with recording, best of 5 rounds of \(calls) calls (calls accumulate over the rounds)")
report("hand-written mock (Mutex)", handWrittenTime, baseline: handWrittenTime)
report("Seams @Mockable", seamsTime, baseline: handWrittenTime)
report("Kolos65/Mockable @Mockable", kolosTime, baseline: handWrittenTime)
print(String(format: "Kolos65/Mockable / Seams @Mockable: %.1fx", kolosTime / seamsTime))
