import Foundation
import TOMLKit

/// The MPD server's settings in `config.toml`:
///
///     [mpd]
///     password = "..."
///     max_command_list_size = 2048   # KiB, as in mpd.conf
///
/// The file is the place for a password that should not appear in a process list or a unit
/// file; keep it mode 0600.
package enum MPDConfig {
    /// `[mpd] password`; nil when the file, the section or the key is missing or unreadable.
    package static func password(from file: URL = TerminalConfig.file()) -> String? { section(from: file)?.password }

    /// `[mpd] max_command_list_size`: the most KiB of one command list, as mpd.conf names it;
    /// nil when the file, the section or the key is missing or unreadable.
    package static func maxCommandListSize(from file: URL = TerminalConfig.file()) -> Int? { section(from: file)?.maxCommandListSize }

    private static func section(from file: URL) -> Section? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        return (try? TOMLDecoder().decode(ConfigFile.self, from: text))?.mpd
    }

    private struct ConfigFile: Decodable {
        var mpd: Section?
    }

    private struct Section: Decodable {
        var password: String?
        var maxCommandListSize: Int?

        enum CodingKeys: String, CodingKey {
            case password
            case maxCommandListSize = "max_command_list_size"
        }
    }
}
