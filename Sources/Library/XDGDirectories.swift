import Foundation

/// The XDG base directories, resolved by one rule for every file Tonearm keeps: a variable that
/// holds an absolute path wins; unset, empty or relative (which the specification says to ignore)
/// falls back to the default under the home directory (`$HOME`, else the account's).
///
/// The library lives in the data directory, the settings in the config directory, and the log in
/// the state directory (data kept between runs that is not worth backing up).
package struct XDGDirectories: Sendable, Equatable {
    package let dataHome: URL
    package let configHome: URL
    package let stateHome: URL

    package init(environment: [String: String] = ProcessInfo.processInfo.environment, home: URL? = nil) {
        let home = home ?? URL(fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory(), isDirectory: true)
        func resolve(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        dataHome = resolve("XDG_DATA_HOME", ".local/share")
        configHome = resolve("XDG_CONFIG_HOME", ".config")
        stateHome = resolve("XDG_STATE_HOME", ".local/state")
    }

    /// Tonearm's folder in each.
    package var data: URL { dataHome.appendingPathComponent("tonearm", isDirectory: true) }
    package var config: URL { configHome.appendingPathComponent("tonearm", isDirectory: true) }
    package var state: URL { stateHome.appendingPathComponent("tonearm", isDirectory: true) }
}
