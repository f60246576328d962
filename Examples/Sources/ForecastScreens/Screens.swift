import SeamsMacros

// This module is built with `.defaultIsolation(MainActor.self)`, as Xcode 26 sets for new app
// targets, and `NonisolatedNonsendingByDefault`: what is not marked otherwise is `@MainActor`.

/// Implicitly `@MainActor`: the screen the forecast is shown on.
@Mockable
public protocol ForecastScreen {
    /// Shows `lines`, one per city.
    func show(_ lines: [String])
    /// Whether the screen is on display.
    var isVisible: Bool { get set }
    /// Asks the user to pick a city; `nil` when they cancel.
    func pickCity(from cities: [String]) async -> String?
}

/// Explicitly `nonisolated` and `Sendable` in the same module: a boundary used from any thread.
@Mockable
public nonisolated protocol ForecastCache: Sendable {
    /// The lines cached for `day`, if any.
    func lines(for day: Int) async throws -> [String]?
    /// Caches `lines` for `day`.
    func store(_ lines: [String], for day: Int) async throws
}

/// The screen's logic: reads the cache, asks for a city, shows the lines.
public struct ForecastPresenter {
    private var screen: any ForecastScreen
    private let cache: any ForecastCache

    /// A presenter for `screen`, reading `cache`.
    public init(screen: any ForecastScreen, cache: any ForecastCache) {
        self.screen = screen
        self.cache = cache
    }

    /// Shows the cached lines of `day` that mention the city the user picks.
    public mutating func present(day: Int) async throws {
        let lines = try await cache.lines(for: day) ?? []
        guard let city = await screen.pickCity(from: lines.map { String($0.prefix { $0 != ":" }) }) else { return }
        screen.show(lines.filter { $0.hasPrefix(city) })
        screen.isVisible = true
    }
}
