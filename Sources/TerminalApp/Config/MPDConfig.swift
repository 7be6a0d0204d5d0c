import Foundation
import TOMLKit

/// The MPD server's settings in `config.toml`:
///
///     [mpd]
///     password = "..."
///
/// The file is the place for a password that should not appear in a process list or a unit
/// file; keep it mode 0600.
package enum MPDConfig {
    /// `[mpd] password`; nil when the file, the section or the key is missing or unreadable.
    package static func password(from file: URL = TerminalConfig.file()) -> String? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        return (try? TOMLDecoder().decode(ConfigFile.self, from: text))?.mpd?.password
    }

    private struct ConfigFile: Decodable {
        var mpd: Section?
    }

    private struct Section: Decodable {
        var password: String?
    }
}
