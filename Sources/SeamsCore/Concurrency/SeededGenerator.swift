/// Steele, Lea and Flood's SplitMix64: a small, fast, seedable generator whose sequence is the
/// same on every platform. SeamsTesting's public `SplitMix64` and the engine's seeded
/// interleavings use it.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// The generator of `seed`'s sequence.
    package init(seed: UInt64) { state = seed }

    /// The next number of the sequence.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
