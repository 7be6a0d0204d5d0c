import Foundation
import PlayerCore

/// The user's music folder as `xdg-user-dir MUSIC` finds it: `XDG_MUSIC_DIR` from
/// `$XDG_CONFIG_HOME/user-dirs.dirs` (`~/.config/user-dirs.dirs`), then the variable of that name
/// in the environment, then `~/Music`.
package enum MusicDirectory {
    /// Reads the file and applies `resolve`.
    package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let directories = XDGDirectories(environment: environment)
        let home = directories.home.path
        let file = try? String(contentsOf: directories.configHome.appendingPathComponent("user-dirs.dirs"), encoding: .utf8)
        return resolve(userDirs: file, environment: environment, home: home)
    }

    /// The rule, pure: the file's line wins, then the environment, then `home/Music`.
    package static func resolve(userDirs: String?, environment: [String: String], home: String) -> URL {
        if let userDirs, let path = musicLine(in: userDirs, home: home) { return URL(fileURLWithPath: path, isDirectory: true) }
        if let path = environment["XDG_MUSIC_DIR"], path.hasPrefix("/") { return URL(fileURLWithPath: path, isDirectory: true) }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent("Music", isDirectory: true)
    }

    /// The last `XDG_MUSIC_DIR="..."` line's path. The file's format allows only an absolute path
    /// or one starting with `$HOME/`, in double quotes; other lines are ignored, as are values
    /// that are just `$HOME` (the user turned the folder off).
    static func musicLine(in text: String, home: String) -> String? {
        var found: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("XDG_MUSIC_DIR=") else { continue }
            var value = String(line.dropFirst("XDG_MUSIC_DIR=".count))
            guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { continue }
            value = String(value.dropFirst().dropLast())
            if value.hasPrefix("$HOME/") {
                found = home + value.dropFirst("$HOME".count)
            } else if value.hasPrefix("/") {
                found = value
            }
        }
        return found
    }
}
