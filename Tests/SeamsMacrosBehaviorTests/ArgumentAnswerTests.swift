import Foundation
import SeamsMacros
import Testing

/// Answers chosen by argument value, without a closure.
@Suite struct ArgumentAnswerTests {
    @Test("each argument value gets its own answer")
    func answersByArgument() async throws {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.returns(21.5, when: "Oslo")
        mock.stubs.temperatureIn.returns(-3, when: "Tromsø")
        #expect(try await mock.temperature(in: "Oslo") == 21.5)
        #expect(try await mock.temperature(in: "Tromsø") == -3)
        #expect(mock.stubs.temperatureIn.calls == ["Oslo", "Tromsø"])
    }

    @Test("a later answer for the same value replaces the earlier one")
    func laterAnswerReplaces() async throws {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.returns(1, when: "Oslo")
        mock.stubs.temperatureIn.returns(2, when: "Oslo")
        #expect(try await mock.temperature(in: "Oslo") == 2)
    }

    @Test("an unmatched call on a lenient mock falls back as an unconfigured one")
    func unmatchedLenient() async {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.returns(21.5, when: "Oslo")
        await #expect(throws: UnconfiguredMockCall(requirement: "temperature(in:)")) {
            try await mock.temperature(in: "Bergen")
        }
        mock.stubs.forecastDays.returns([1], when: 1)
        #expect(mock.forecast(days: 2) == nil)
    }

    @Test("an unmatched call on a strict mock records the unconfigured-call issue")
    func unmatchedStrict() {
        let mock = MockWeatherService(strict: true)
        mock.stubs.forecastDays.returns([1], when: 1)
        #expect(mock.forecast(days: 1) == [1])
        withKnownIssue {
            _ = mock.forecast(days: 2)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("forecast(days:)") }
        }
    }

    @Test("an unmatched call gets the rest of the configuration when there is one")
    func unmatchedUsesDefault() async throws {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.returns(10)
        mock.stubs.temperatureIn.returns(21.5, when: "Oslo")
        #expect(try await mock.temperature(in: "Oslo") == 21.5)
        #expect(try await mock.temperature(in: "Bergen") == 10)
    }

    @Test("an error for one argument value, a value for another")
    func throwingWhen() async throws {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.throwing(URLError(.timedOut), when: "Longyearbyen")
        mock.stubs.temperatureIn.returns(5, when: "Oslo")
        await #expect(throws: URLError(.timedOut)) { try await mock.temperature(in: "Longyearbyen") }
        #expect(try await mock.temperature(in: "Oslo") == 5)
        mock.stubs.loadIdInt.throwing(LoadError(code: 4), when: 4)
        #expect(throws: LoadError(code: 4)) { try mock.load(id: 4) }
    }

    @Test("reset forgets the answers by argument")
    func resetForgets() async {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.returns(21.5, when: "Oslo")
        mock.stubs.temperatureIn.reset()
        await #expect(throws: UnconfiguredMockCall(requirement: "temperature(in:)")) {
            try await mock.temperature(in: "Oslo")
        }
    }

    @Test("a mock that is not Sendable answers by argument too")
    func nonSendable() throws {
        let store = MockDocumentStoreProviding()
        let document = Document(text: "a")
        store.stubs.openNamed.returns(document, when: "a.txt")
        #expect(try store.open(named: "a.txt") === document)
    }

    @Test("several arguments: one answer per tuple of values, matched element by element")
    func severalArguments() {
        let mock = MockWeatherService(strict: true)
        mock.stubs.distanceFromTo.returns(1_150, when: (from: "Oslo", to: "Tromsø"))
        mock.stubs.distanceFromTo.returns(300, when: (from: "Oslo", to: "Bergen"))
        #expect(mock.distance(from: "Oslo", to: "Tromsø") == 1_150)
        #expect(mock.distance(from: "Oslo", to: "Bergen") == 300)
        mock.stubs.distanceFromTo.returns(305, when: (from: "Oslo", to: "Bergen"))
        #expect(mock.distance(from: "Oslo", to: "Bergen") == 305)
        mock.stubs.distanceFromTo.returns(0)
        #expect(mock.distance(from: "Bergen", to: "Oslo") == 0)
        #expect(mock.stubs.distanceFromTo.calls.map(\.to) == ["Tromsø", "Bergen", "Bergen", "Oslo"])
    }

    @Test("an argument that is not Equatable: the answer is refused with an issue at the caller's line")
    func notEquatableRefused() {
        let shape = MockShape()
        let other = MockShape()
        let line = #line + 2
        withKnownIssue {
            shape.stubs.contains.returns(true, when: other)
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.comments.contains { $0.rawValue.contains("need Equatable arguments; MockShape is not") }
        }
        shape.stubs.contains.returns(false)
        #expect(shape.contains(other) == false)
    }
}
