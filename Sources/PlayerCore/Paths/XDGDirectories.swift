import Foundation

/// The XDG base directories, resolved by one rule for every file Tonearm keeps or reads: a
/// variable that holds an absolute path wins; unset, empty or relative (which the specification
/// says to ignore) falls back to the default under the home directory (an absolute `$HOME`, else
/// the account's). Every target asks here, so no two places can disagree about where a file is.
///
/// The library lives in the data directory, the settings in the config directory, the log in
/// the state directory (data kept between runs that is not worth backing up), what may be thrown
/// away (artwork, directory answers) in the cache directory, and the daemon's lock and sockets in
/// the runtime directory, which has no default under the home directory.
package struct XDGDirectories: Sendable, Equatable {
    package let home: URL
    package let dataHome: URL
    package let configHome: URL
    package let stateHome: URL
    package let cacheHome: URL
    /// `$XDG_RUNTIME_DIR` when it is an absolute path; nil otherwise (the daemon then falls back
    /// to a private folder under /tmp).
    package let runtimeDirectory: URL?

    package init(environment: [String: String] = ProcessInfo.processInfo.environment, home: URL? = nil) {
        let home = home ?? URL(fileURLWithPath: environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory(), isDirectory: true)
        func absolute(_ variable: String) -> URL? {
            environment[variable].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
        }
        func resolve(_ variable: String, _ fallback: String) -> URL {
            absolute(variable) ?? home.appendingPathComponent(fallback, isDirectory: true)
        }
        self.home = home
        dataHome = resolve("XDG_DATA_HOME", ".local/share")
        configHome = resolve("XDG_CONFIG_HOME", ".config")
        stateHome = resolve("XDG_STATE_HOME", ".local/state")
        cacheHome = resolve("XDG_CACHE_HOME", ".cache")
        runtimeDirectory = absolute("XDG_RUNTIME_DIR")
    }

    /// Tonearm's folder in each.
    package var data: URL { dataHome.appendingPathComponent("tonearm", isDirectory: true) }
    package var config: URL { configHome.appendingPathComponent("tonearm", isDirectory: true) }
    package var state: URL { stateHome.appendingPathComponent("tonearm", isDirectory: true) }
    package var cache: URL { cacheHome.appendingPathComponent("tonearm", isDirectory: true) }
}
