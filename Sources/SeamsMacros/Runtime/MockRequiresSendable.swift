/// A compile-time check that a generated `Sendable` mock puts first: it names every argument and
/// result type the mock records or returns, so a non-`Sendable` one is reported on a line whose
/// comment says why and what to do, before the errors it causes further down.
///
/// ```swift
/// private typealias _MockArgumentAndResultTypesMustBeSendable = MockRequiresSendable<(URL, Data)>
/// ```
///
/// A `Sendable` mock hands recorded arguments and configured results from thread to thread, so
/// they must be `Sendable`. For a protocol that is not `Sendable`, `@Mockable(sendable: false)`
/// writes a mock without that need.
public enum MockRequiresSendable<Types: Sendable> {}
