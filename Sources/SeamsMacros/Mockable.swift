/// Writes a race-free mock of the protocol it is attached to, as a peer type named `Mock` followed
/// by the protocol's name: `WeatherService` gives `MockWeatherService`, `FileAccessorProviding`
/// gives `MockFileAccessorProviding` (and `MockFileAccessor` with the `SeamsMockNames` plugin, see
/// "Names" below).
///
/// ```swift
/// import SeamsMacros
/// import Testing
///
/// @Mockable
/// protocol WeatherService: Sendable {
///     func temperature(in city: String) async throws -> Double
/// }
///
/// @Test func readsTheTemperature() async throws {
///     let mock = MockWeatherService(strict: true)
///     mock.stubs.temperatureIn.returns(21.5)
///     #expect(try await mock.temperature(in: "Oslo") == 21.5)
///     #expect(mock.stubs.temperatureIn.calls == ["Oslo"])
/// }
/// ```
///
/// ## The generated mock
///
/// - A `final class` (an `actor` for a protocol refining `Actor`, `@MainActor` for a main-actor
///   protocol) conforming to the protocol and to `Sendable`. Its state sits behind one
///   `Mutex` per instance (``MockLock``); there is no global registry, so parallel tests never
///   share a mock's state. Static requirements keep their state in one lock per mock type.
/// - `stubs` gives one ``MockStubHandle`` per requirement (``MockNonSendableStubHandle`` with
///   `sendable: false`; both have the API of ``MockStubHandling``), named after the requirement and its
///   argument labels (`read(from:)` → `stubs.readFrom`, a property `name` → `stubs.name` and, when
///   settable, `stubs.setName`). Overloads with the same labels add their parameter types. A generic
///   method's handle is a function of the generic types: `stubs.decodeFrom(User.self)`.
/// - Each handle sets a value (`returns`), a sequence (`returnsInOrder`), an error (`throwing`,
///   typed as the requirement throws) or a closure (`handle`), and reads the typed `calls` and
///   `callCount`. `resetMock()` forgets everything.
/// - `init(strict:sourceLocation:)`: in strict mode a call that finds nothing configured records a
///   Swift Testing issue at the line that created the mock. Otherwise it returns `Void`/`nil`,
///   throws ``UnconfiguredMockCall`` from an untyped `throws`, or else records the issue and stops.
///
/// ## What the file that applies it must import
///
/// The generated code calls `Issue.record` and names `SourceLocation`, so the file imports
/// `Testing` beside `SeamsMacros`; so does every file that creates a mock, because the default
/// argument `#_sourceLocation` expands where the mock is created. Put `@Mockable` protocols you
/// mock in a test target, or in a module that may import `Testing` in debug builds. `SeamsMacros`
/// itself never imports `Testing`, so an app target may depend on it for the attribute alone.
/// The mock is internal (`fileprivate` for a private protocol) even for a public protocol: it is
/// for the declaring module's tests, and a public mock would need `public import Testing`.
///
/// ## Release builds
///
/// The mock is wrapped in `#if DEBUG || SEAMS_MOCKS`: it is not compiled in release builds unless
/// the target defines `SEAMS_MOCKS` (`swiftSettings: [.define("SEAMS_MOCKS")]`), as a benchmark does.
///
/// ## Names
///
/// The seed names `FileAccessorProviding`'s mock `MockFileAccessor`. A macro cannot declare that
/// name: a macro must announce the names it introduces, and at global scope Swift (6.3) accepts
/// only names made from the declaration's own name by a fixed prefix or suffix
/// (`prefixed(Mock)` gives `MockFileAccessorProviding`); `names: arbitrary` is rejected there
/// ("'peer' macros are not allowed to introduce arbitrary names at global scope"), and so is
/// every other kind of macro that could name a global type. Two ways to get the seed's name:
///
/// - Apply the `SeamsMockNames` build plugin to the target that declares the protocols. For every
///   top-level `@Mockable` protocol named `…Providing` that is not private, it adds
///   `typealias MockFileAccessor = MockFileAccessorProviding` (skipped where the target declares
///   that name itself):
///   `.testTarget(name: "MyAppTests", dependencies: [...], plugins: [.plugin(name: "SeamsMockNames", package: "seams")])`
/// - Or write that one line beside the protocol yourself.
///
/// ## Protocols that are not `Sendable`
///
/// The mock hands recorded arguments and configured results between threads, so their types
/// must be `Sendable`; the mock's first member names them all, so a non-`Sendable` one is
/// reported there, under a comment that says so. For a protocol that is not `Sendable` (nor
/// `Actor` or `@MainActor`), `@Mockable(sendable: false)` writes a mock that is not `Sendable`
/// either: a `final class` whose state sits in a plain ``MockBox`` (the compiler keeps the mock
/// in one isolation domain, so it needs no lock), whose handlers are not `@Sendable`, and whose
/// arguments, results and generic parameters may be any type. Its handles are
/// ``MockNonSendableStubHandle``s with the same API. Static requirements keep locked, `Sendable`
/// state in both kinds of mock, so their types must be `Sendable`. The price: such a mock cannot
/// be shared with another task or actor, and code under test cannot either, since the protocol
/// is not `Sendable`.
///
/// ```swift
/// @Mockable(sendable: false)
/// protocol DocumentStoreProviding {
///     func open(named name: String) throws -> Document     // Document is a non-Sendable class
/// }
///
/// let store = MockDocumentStoreProviding()
/// store.stubs.openNamed.handle { name in Document(name: name) }
/// ```
///
/// ## Requirements it mocks
///
/// Sync, `async`, `throws`, `throws(E)`, generic methods whose generic parameters are `Sendable`,
/// overloads, `get` and `get set` properties (with `async`/`throws` getters), static members,
/// initializers, `inout` parameters (the handler may change them), closure parameters (passed to
/// the handler, not recorded), associated types (the mock becomes generic over them), `Sendable`,
/// `Actor` and `@MainActor` protocols. Arguments and results must be `Sendable` unless the mock
/// is written with `sendable: false` (see above). Anything else
/// (subscripts, variadic or `some` parameters, `rethrows`, operators, parameter packs, inherited
/// protocols other than `Sendable`/`Actor`/`AnyObject`, `where` clauses on the protocol or its
/// associated types) is an error at its declaration.
///
/// - Parameter sendable: `true` (the default) for a `Sendable` mock whose state is behind a lock;
///   `false` for a mock that is not `Sendable`, of a protocol that is not `Sendable`, whose
///   arguments and results may be non-`Sendable`.
@attached(peer, names: prefixed(Mock))
public macro Mockable(sendable: Bool = true) = #externalMacro(module: "SeamsMacrosPlugin", type: "MockableMacro")
