/// Writes a race-free mock of the protocol it is attached to, as a peer type named `Mock` followed
/// by the protocol's name: `WeatherService` gives `MockWeatherService`, `FileAccessorProviding`
/// gives `MockFileAccessorProviding`.
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
/// - `stubs` gives one ``MockStubHandle`` per requirement, named after the requirement and its
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
/// ## Why `Providing` is not dropped from the name
///
/// The seed names `FileAccessorProviding`'s mock `MockFileAccessor`. A macro must declare the
/// names it introduces, and at global scope Swift 6.3 rejects `names: arbitrary` for peer macros
/// ("'peer' macros are not allowed to introduce arbitrary names at global scope") and rejects a
/// generated name that no `prefixed`/`suffixed`/`named` pattern covers. `prefixed(Mock)` covers
/// only `Mock` + the full name. For the seed's spelling, add one line beside the protocol:
/// `typealias MockFileAccessor = MockFileAccessorProviding`.
///
/// ## Requirements it mocks
///
/// Sync, `async`, `throws`, `throws(E)`, generic methods whose generic parameters are `Sendable`,
/// overloads, `get` and `get set` properties (with `async`/`throws` getters), static members,
/// initializers, `inout` parameters (the handler may change them), closure parameters (passed to
/// the handler, not recorded), associated types (the mock becomes generic over them), `Sendable`,
/// `Actor` and `@MainActor` protocols. Arguments and results must be `Sendable`. Anything else
/// (subscripts, variadic or `some` parameters, `rethrows`, operators, parameter packs, inherited
/// protocols other than `Sendable`/`Actor`/`AnyObject`, `where` clauses on the protocol or its
/// associated types) is an error at its declaration.
@attached(peer, names: prefixed(Mock))
public macro Mockable() = #externalMacro(module: "SeamsMacrosPlugin", type: "MockableMacro")
