/// The values of a parameter pack as an array: how a generated mock records a pack parameter
/// (`_ values: repeat each T`) and hands it to a handler.
///
/// ```swift
/// func log<each T: Sendable>(_ values: repeat each T, level: Int)   // the requirement
/// mock.stubs.logLevel.calls                                          // [(values: [any Sendable], level: Int)]
/// ```
///
/// One stub answers packs of every length and type, so their element types are gone once recorded:
/// a test compares them by casting (`values[0] as? Int`).
public enum MockPack {
    /// The pack's values, in order, in a `Sendable` array (for a `Sendable` mock).
    public static func sendableElements<each Element: Sendable>(_ values: repeat each Element) -> [any Sendable] {
        var elements: [any Sendable] = []
        for value in repeat each values { elements.append(value) }
        return elements
    }

    /// The pack's values, in order (for a mock made with `@Mockable(sendable: false)`).
    public static func elements<each Element>(_ values: repeat each Element) -> [Any] {
        var elements: [Any] = []
        for value in repeat each values { elements.append(value) }
        return elements
    }
}
