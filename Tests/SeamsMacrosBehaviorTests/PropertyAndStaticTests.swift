import Foundation
import SeamsMacros
import Testing

@Suite struct PropertyAndStaticTests {
    @Test("a get-only property answers as configured")
    func getOnly() {
        let mock = MockWeatherService()
        mock.stubs.name.returns("Met")
        #expect(mock.name == "Met")
        #expect(mock.stubs.name.callCount == 1)
    }

    @Test("a get/set property returns what was set and records each set")
    func getSet() {
        let mock = MockWeatherService()
        mock.unit = "C"
        mock.unit = "F"
        #expect(mock.unit == "F")
        #expect(mock.stubs.setUnit.calls == ["C", "F"])
        #expect(mock.stubs.unit.callCount == 1)
    }

    @Test("an async throwing getter throws or returns as configured")
    func asyncThrowingGetter() async throws {
        let mock = MockWeatherService()
        mock.stubs.current.throwing(URLError(.timedOut))
        await #expect(throws: URLError(.timedOut)) { try await mock.current }
        mock.stubs.current.returnsInOrder([1, 2])
        #expect(try await mock.current == 1)
        #expect(try await mock.current == 2)
    }

    @Test("a typed-throwing getter throws its own error type")
    func typedGetter() throws {
        let mock = MockWeatherService()
        mock.stubs.station.throwing(LoadError(code: 3))
        #expect(throws: LoadError(code: 3)) { try mock.station }
        mock.stubs.station.returns("Blindern")
        #expect(try mock.station == "Blindern")
    }

    @Test("static members are configured through staticStubs")
    func statics() {
        MockWeatherService.staticStubs.defaultCity.returns("Oslo")
        MockWeatherService.staticStubs.makeNamed.handle { "made \($0)" }
        #expect(MockWeatherService.defaultCity == "Oslo")
        #expect(MockWeatherService.make(named: "x") == "made x")
        #expect(MockWeatherService.staticStubs.makeNamed.calls.contains("x"))
    }
}
