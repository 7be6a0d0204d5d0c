import Foundation
import PlayerCore

/// Where the library keeps its data: `$XDG_DATA_HOME/tonearm`, by default `~/.local/share/tonearm`.
package enum LibraryPaths {
    /// The data directory for `environment` (the process's by default).
    package static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectories(environment: environment).data
    }
}
