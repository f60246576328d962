import Foundation
import SeamsMacros

/// A protocol with one requirement of every method and property shape `@Mockable` supports.
@Mockable
protocol WeatherService: Sendable {
    func temperature(in city: String) async throws -> Double
    func ping()
    func forecast(days: Int) -> [Double]?
    func load(id: Int) throws(LoadError) -> String
    func load(id: String) -> String
    func distance(from: String, to: String) -> Double
    func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data) throws -> T
    func adjust(_ value: inout Int)
    func onChange(_ handler: @escaping @Sendable (Double) -> Void)
    func transform(_ value: Int, _ body: (Int) -> Int) -> Int
    func record(reading: Double, at city: String) async
    var name: String { get }
    var unit: String { get set }
    var current: Double { get async throws }
    var station: String { get throws(LoadError) }
    static var defaultCity: String { get }
    static func make(named name: String) -> String
}

/// The typed error of `WeatherService.load(id:)`.
struct LoadError: Error, Equatable {
    var code: Int
}

/// A value decoded by the generic requirement.
struct City: Decodable, Sendable, Equatable {
    var name: String
}
