import SeamsMacros
import Synchronization

/// The protocol every contender mocks: one cheap synchronous call with one argument.
@Mockable
protocol PathChecking: Sendable {
    func fileExists(at path: String) -> Bool
}

/// The hand-written mock in the style of SeamsTesting's `MockFileAccessor`: one `Mutex`, a
/// configured answer and a record of every call.
final class HandWrittenPathChecker: PathChecking {
    private struct State {
        var answer = false
        var calls: [String] = []
    }

    private let state = Mutex(State())

    var answer: Bool {
        get { state.withLock { $0.answer } }
        set { state.withLock { $0.answer = newValue } }
    }

    var callCount: Int { state.withLock { $0.calls.count } }

    func fileExists(at path: String) -> Bool {
        state.withLock { state in
            state.calls.append(path)
            return state.answer
        }
    }
}
