import Foundation
import PlayerCore

/// Where Tonearm's log lives when the user does not say: `$XDG_STATE_HOME/tonearm/tonearm.log`,
/// or `~/.local/state/tonearm/tonearm.log` when the variable is unset.
///
/// Why the state directory: the XDG Base Directory specification puts logs and history there
/// (data the program keeps between runs that is not worth backing up), apart from the library in
/// `$XDG_DATA_HOME` and the settings in `$XDG_CONFIG_HOME`.
package enum LogFileLocation {
    package static let folderName = "tonearm"
    package static let fileName = "tonearm.log"

    /// The default log file. A relative `XDG_STATE_HOME` is ignored, as the specification asks.
    package static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment, home: URL? = nil) -> URL {
        XDGDirectories(environment: environment, home: home).stateHome
            .appendingPathComponent(folderName, isDirectory: true).appendingPathComponent(fileName)
    }
}
