import Foundation
import PlayerCore

/// Where the services keep what they may throw away: `$XDG_CACHE_HOME/tonearm/<name>`, by default
/// `~/.cache/tonearm/<name>` (a relative `XDG_CACHE_HOME` is ignored, as the XDG rules say).
package enum CacheHome {
    package static func directory(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectories(environment: environment).cache.appendingPathComponent(name, isDirectory: true)
    }
}
