import Foundation

/// Where the library keeps its data: `$XDG_DATA_HOME/tonearm`, by default `~/.local/share/tonearm`.
public enum LibraryPaths {
    /// The data directory for `environment` (the process's by default).
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("tonearm", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/tonearm", isDirectory: true)
    }
}
