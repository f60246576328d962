import CMallocTuning
import Testing

/// The malloc tuning `seams-sync` starts with (a fixed mmap threshold and trim threshold, so
/// file bodies are given back when freed) is taken by glibc, not silently skipped.
@Suite struct MallocTuningTests {
    @Test("glibc takes the mmap and trim thresholds seams-sync sets; elsewhere the call says it did nothing")
    func tuningIsTaken() {
        #if os(Linux)
            // 1, not the -1 of a build that took this C library for another one.
            #expect(seams_tune_malloc(256 << 10, 128 << 10) == 1)
        #else
            #expect(seams_tune_malloc(256 << 10, 128 << 10) == -1)
        #endif
    }
}
