package import Foundation

/// The XDG base directories this package reads (data, config, state).
package enum XDGDirectory: Sendable {
    case data, config, state

    private var variable: String {
        switch self {
        case .data: "XDG_DATA_HOME"
        case .config: "XDG_CONFIG_HOME"
        case .state: "XDG_STATE_HOME"
        }
    }

    private var homeRelative: String {
        switch self {
        case .data: ".local/share"
        case .config: ".config"
        case .state: ".local/state"
        }
    }

    /// The directory, following the XDG rule that a relative value is ignored.
    package func url(environment: [String: String]) -> URL? {
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(filePath: value, directoryHint: .isDirectory)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(filePath: home, directoryHint: .isDirectory)
            .appending(path: homeRelative, directoryHint: .isDirectory)
    }
}
