import Foundation

/// Where the services keep what they may throw away: `$XDG_CACHE_HOME/tonearm/<name>`, by default
/// `~/.cache/tonearm/<name>` (a relative `XDG_CACHE_HOME` is ignored, as the XDG rules say).
package enum CacheHome {
    package static func directory(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent("tonearm", isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }
}
