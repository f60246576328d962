import Foundation
import SeamsMacros
import Testing

@Suite struct MethodStubTests {
    @Test("an async throwing method returns the configured value and records its argument")
    func asyncThrowingReturns() async throws {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.returns(21.5)
        #expect(try await mock.temperature(in: "Oslo") == 21.5)
        #expect(mock.stubs.temperatureIn.calls == ["Oslo"])
        #expect(mock.stubs.temperatureIn.callCount == 1)
    }

    @Test("a configured error is thrown, and a handler computes answers from the arguments")
    func errorAndHandler() async throws {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.throwing(URLError(.notConnectedToInternet))
        await #expect(throws: URLError(.notConnectedToInternet)) { try await mock.temperature(in: "Oslo") }
        mock.stubs.temperatureIn.handle { city in Double(city.count) }
        #expect(try await mock.temperature(in: "Rome") == 4)
    }

    @Test("a sequence answers in order, then the call is unconfigured")
    func sequence() async throws {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.returnsInOrder([1, 2])
        #expect(try await mock.temperature(in: "a") == 1)
        #expect(try await mock.temperature(in: "b") == 2)
        await #expect(throws: UnconfiguredMockCall(requirement: "temperature(in:)")) {
            try await mock.temperature(in: "c")
        }
        #expect(mock.stubs.temperatureIn.calls == ["a", "b", "c"])
    }

    @Test("typed throws keep their error type, and overloads get one stub each")
    func typedThrowsAndOverloads() throws {
        let mock = MockWeatherService()
        mock.stubs.loadIdInt.throwing(LoadError(code: 7))
        mock.stubs.loadIdString.returns("by name")
        let error: LoadError? = { () -> LoadError? in
            do throws(LoadError) {
                _ = try mock.load(id: 1)
                return nil
            } catch {
                return error
            }
        }()
        #expect(error == LoadError(code: 7))
        #expect(mock.load(id: "x") == "by name")
        #expect(mock.stubs.loadIdInt.calls == [1])
        #expect(mock.stubs.loadIdString.calls == ["x"])
    }

    @Test("a generic method is configured and recorded per specialization, with its real types")
    func genericMethod() throws {
        let mock = MockWeatherService()
        mock.stubs.decodeFrom(City.self).returns(City(name: "Oslo"))
        mock.stubs.decodeFrom(Int.self).handle { _, data in data.count }
        #expect(try mock.decode(City.self, from: Data()) == City(name: "Oslo"))
        #expect(try mock.decode(Int.self, from: Data([1, 2, 3])) == 3)
        #expect(mock.stubs.decodeFrom(City.self).calls == [Data()])
        #expect(mock.stubs.decodeFrom(Int.self).callCount == 1)
        #expect(mock.stubs.decodeFrom(String.self).callCount == 0)
    }

    @Test("an inout parameter is recorded as passed and may be changed by the handler")
    func inoutParameter() {
        let mock = MockWeatherService()
        mock.stubs.adjust.handle { $0 *= 10 }
        var value = 4
        mock.adjust(&value)
        #expect(value == 40)
        #expect(mock.stubs.adjust.calls == [4])
    }

    @Test("closure parameters reach the handler, escaping or not")
    func closureParameters() {
        let mock = MockWeatherService()
        let received = MockLock<Double?>(nil)
        mock.stubs.onChange.handle { callback in callback(3.5) }
        mock.onChange { value in received.withLock { $0 = value } }
        #expect(received.withLock { $0 } == 3.5)
        mock.stubs.transform.handle { value, body in body(value) + 1 }
        #expect(mock.transform(2) { $0 * 100 } == 201)
        #expect(mock.stubs.transform.calls == [2])
        #expect(mock.stubs.onChange.callCount == 1)
    }

    @Test("several arguments are recorded as a tuple labelled with the parameter names")
    func labelledArguments() async {
        let mock = MockWeatherService()
        await mock.record(reading: 12.5, at: "Oslo")
        let call = mock.stubs.recordReadingAt.calls.first
        #expect(call?.reading == 12.5)
        #expect(call?.city == "Oslo")
    }

    @Test("unconfigured calls fall back: Void does nothing, an optional is nil")
    func lenientFallbacks() {
        let mock = MockWeatherService()
        mock.ping()
        #expect(mock.forecast(days: 3) == nil)
        #expect(mock.stubs.ping.callCount == 1)
        #expect(mock.stubs.forecastDays.calls == [3])
    }

    @Test("resetMock forgets calls and answers; a handle's reset forgets only its own")
    func reset() async throws {
        let mock = MockWeatherService()
        mock.stubs.temperatureIn.returns(1)
        mock.stubs.forecastDays.returns([1])
        _ = try await mock.temperature(in: "a")
        _ = mock.forecast(days: 1)
        mock.stubs.forecastDays.reset()
        #expect(mock.stubs.forecastDays.callCount == 0)
        #expect(mock.forecast(days: 1) == nil)
        #expect(mock.stubs.temperatureIn.callCount == 1)
        mock.resetMock()
        #expect(mock.stubs.temperatureIn.callCount == 0)
        await #expect(throws: UnconfiguredMockCall.self) { try await mock.temperature(in: "a") }
    }
}
