import Foundation

/// Where the library keeps its data: `$XDG_DATA_HOME/tonearm`, by default `~/.local/share/tonearm`.
public enum LibraryPaths {
    /// The data directory for `environment` (the process's by default).
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectories(environment: environment).data
    }
}
