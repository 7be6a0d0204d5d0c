import Foundation
import Library
import Logging
import Streaming
import PlayerCore
import Services

/// Which station directory server a run asks: `--directory-url`, else the `TONEARM_DIRECTORY_URL`
/// environment variable, else `[directory] url` in `config.toml`; none of them: the published list
/// of radio-browser servers is discovered. A server that is set replaces discovery entirely (a
/// mirror, a local copy, the tests' server).
package enum DirectorySettings {
    package static let environmentVariable = "TONEARM_DIRECTORY_URL"

    /// The configured server, or nil to discover; an address that is not http(s) is the
    /// listener's mistake, told as such (`streamUnavailable` naming where it came from).
    package static func server(
        option: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: URL = TerminalConfig.file()
    ) throws(PlaybackError) -> URL? {
        let candidates: [(String?, String)] = [
            (option, "--directory-url"), (environment[environmentVariable], environmentVariable),
            (TerminalConfig.directoryURL(from: configFile), "[directory] url in \(configFile.path)"),
        ]
        guard let (text, origin) = candidates.first(where: { $0.0?.isEmpty == false }), let text else { return nil }
        guard let url = WebAddress.parse(text) else {
            throw PlaybackError(.streamUnavailable, underlying: "\(origin) must be an http(s) URL")
        }
        return url
    }

    /// The directory configured as above, on `network`.
    package static func directory(
        option: String? = nil, network: NetworkClient, logger: Logger
    ) throws(PlaybackError) -> StationDirectory {
        StationDirectory(
            configuration: .init(servers: try server(option: option).map { [$0] } ?? []), network: network,
            logger: logger)
    }

    /// Counts a click in the directory when `station` came from it, in the background (playing
    /// does not wait); a directory that is misconfigured is logged and skipped.
    package static func countClick(of station: StationRecord, network: NetworkClient, logger: Logger) {
        guard let id = station.directoryID else { return }
        do throws(PlaybackError) {
            let directory = try directory(network: network, logger: logger)
            Task { await directory.countClick(id: id) }
        } catch {
            logger.mappedError(error, level: .notice, "directory click not counted")
        }
    }
}
