import Foundation
import PlayerCore

/// Where the podcast sync password comes from: the `TONEARM_SYNC_PASSWORD` environment variable,
/// else `[sync] password` in `config.toml`. Never an argument (it would show in `ps` and the shell's
/// history) and never the library (a copy of it must not carry the password). A configuration
/// file that holds it must be readable by its owner only, as ssh insists for its keys.
package enum SyncPassword {
    package static let environmentVariable = "TONEARM_SYNC_PASSWORD"

    /// The password, or the listener's mistake as a typed error that says where to put it (its
    /// text names no path: it goes to the log too).
    package static func find(
        environment: [String: String] = ProcessInfo.processInfo.environment, configFile: URL = TerminalConfig.file()
    ) throws(PlaybackError) -> String {
        if let password = environment[environmentVariable], !password.isEmpty { return password }
        guard let password = TerminalConfig.syncPassword(from: configFile), !password.isEmpty else {
            throw PlaybackError(
                .httpUnauthorized,
                underlying: "no sync password: set \(environmentVariable), or put password = \"...\" under [sync] in tonearm's config.toml")
        }
        let mode = ((try? FileManager.default.attributesOfItem(atPath: configFile.path))?[.posixPermissions] as? NSNumber)?.intValue ?? 0
        guard mode & 0o077 == 0 else {
            throw PlaybackError(
                .httpUnauthorized,
                underlying: "tonearm's config.toml holds the sync password but others can read it: chmod 600 it")
        }
        return password
    }
}
