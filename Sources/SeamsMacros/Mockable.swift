/// Writes a race-free mock of the protocol it is attached to, as a peer type named `Mock` followed
/// by the protocol's name: `WeatherService` gives `MockWeatherService`, `FileAccessorProviding`
/// gives `MockFileAccessorProviding` (and `MockFileAccessor` with the `SeamsMockNames` plugin, see
/// "Names" below).
///
/// ```swift
/// import SeamsMacros                  // the only import the protocol's file needs
///
/// @Mockable
/// public protocol WeatherProviding: Sendable {
///     func temperature(in city: String) async throws -> Double
/// }
///
/// // In any test target, with a plain `import MyApp` (no `@testable`):
/// @Test func readsTheTemperature() async throws {
///     let mock = MockWeatherProviding(strict: true)
///     mock.stubs.temperatureIn.returns(21.5, when: "Oslo")
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
/// - Each handle sets a value (`returns`), a value for one argument value (`returns(_:when:)`,
///   `throwing(_:when:)`; several arguments as their labelled tuple; `Equatable` types), a sequence (`returnsInOrder`), an error
///   (`throwing`, typed as the requirement throws) or a closure (`handle`), and reads the typed
///   `calls` and `callCount`. `resetMock()` forgets everything.
/// - `Self` in a requirement (results, parameters, static factories, initializers) is written as
///   the mock's own type, which a `final class` or actor may do.
/// - `init(strict:fileID:filePath:line:column:)`: in strict mode a call that finds nothing
///   configured is reported as an issue at the line that created the mock. Otherwise it returns
///   `Void`/`nil`, throws ``UnconfiguredMockCall`` from an untyped `throws`, or else reports the
///   issue and stops.
///
/// ## Imports, and how issues reach the test framework
///
/// The file that applies `@Mockable` imports `SeamsMacros` alone, in any target, and so does a
/// file that creates a mock: the generated code names no type of `Testing` or `XCTest`. Issues go
/// through ``MockIssue``, which finds the running test framework (Swift Testing or XCTest) at run
/// time with IssueReporting (pointfreeco/xctest-dynamic-overlay). A test target that uses mocks
/// adds that package's `IssueReportingTestSupport` product, which reaches the frameworks; a mock
/// that must report an issue without it stops the process and says so. With no test framework
/// running, a strict mock's unconfigured call stops the process with a message that names the call.
///
/// ## Access
///
/// The mock has its protocol's access level: a `public` protocol gets a `public` mock, with
/// public `stubs`, handles and initializers, so another module's tests use it with a plain
/// `import` (`package` gives `package`; `private` gives `fileprivate`). In a target built with
/// `InternalImportsByDefault`, a file with a public `@Mockable` protocol writes
/// `public import SeamsMacros`, since the mock's public API names its handle types.
///
/// ## Inherited protocols
///
/// A protocol that inherits other `@Mockable` protocols gets a mock of the whole protocol: it
/// holds one mock of each parent (made with the same strictness and location), and its `stubs`
/// reaches their handles by the same names (`@dynamicMemberLookup`). The child's macro cannot see
/// the parent's requirements, so each `@Mockable` protocol also writes
/// `extension Parent where Self: MockInheriting { … }`, which forwards every requirement to the
/// parent mock a child's mock holds (see ``MockInheriting``); it is empty in release builds.
/// A parent with `Self` in a requirement (`Comparable` among its parents, or an operator on
/// `Self`), an operator, initializers (`Decodable` among its parents) or associated types, or an
/// `Actor` or `@MainActor` parent, gets no such extension, and a child's mock of it does not
/// compile.
///
/// ## Release builds
///
/// The mock is wrapped in `#if DEBUG || SEAMS_MOCKS`: it is not compiled in release builds unless
/// the target defines `SEAMS_MOCKS` (`swiftSettings: [.define("SEAMS_MOCKS")]`), as a benchmark
/// does. A release build of a module that applies `@Mockable` holds no mock type and links no
/// test framework (in no build does `SeamsMacros` link one).
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
/// Sync, `async`, `throws`, `throws(E)`, generic methods (configured per type; a generic parameter
/// not constrained to `Sendable`, as in `func get<T: Decodable>(_ path: String) async throws -> T`,
/// is configured with a `Sendable` type, and its values are not recorded),
/// overloads, `get` and `get set` properties (with `async`/`throws` getters), static members,
/// initializers, `inout` parameters (the handler may change them), closure parameters (passed to
/// the handler, not recorded), variadic parameters (recorded, and handed to the handler, as an
/// array), subscripts (`subscriptKey` for `subscript(key:)`; a set value is answered by the getter
/// for the same arguments), `some P` parameters of methods (the generic parameter they stand for: stubbed per type,
/// as `stubs.save(Int.self)`), operators (`staticStubs.operatorPlus` for `+`), `rethrows` with one throwing closure parameter (the mock throws
/// only what that closure throws; the handler gets it), associated types (the mock becomes generic over them), `Sendable`,
/// `Actor` and `@MainActor` protocols. Arguments and results must be `Sendable` unless the mock
/// is written with `sendable: false` (see above). Anything else
/// (generic subscripts, `some` parameters of initializers and subscripts, `rethrows` without
/// exactly one throwing closure parameter, parameter packs,
/// standard parents other than `Equatable`, `Hashable`, `Comparable`, `Identifiable`, `Error`,
/// `CustomStringConvertible`, `CustomDebugStringConvertible` and `Codable`, `where` requirements other than on `Self`, on
/// associated types, or `ID == T`) is an error at its declaration. `Self` may appear anywhere in a requirement; inherited `@Mockable` protocols are
/// mocked too (above).
///
/// - Parameter sendable: `true` (the default) for a `Sendable` mock whose state is behind a lock;
///   `false` for a mock that is not `Sendable`, of a protocol that is not `Sendable`, whose
///   arguments and results may be non-`Sendable`.
@attached(peer, names: prefixed(Mock))
@attached(extension, names: arbitrary)
public macro Mockable(sendable: Bool = true) = #externalMacro(module: "SeamsMacrosPlugin", type: "MockableMacro")
