import ArgumentParser
import Daemon
import Foundation
import MPDProtocol
import TerminalApp

/// `tonearm serve`'s own options: the MPD server (off unless asked for) and the music folder.
struct DaemonArguments: ParsableArguments {
    @Option(
        name: .customLong("mpd"), defaultAsFlag: ListenAddress.mpdDefault.description, parsing: .next,
        help: ArgumentHelp(
            "Serve the MPD protocol, on ADDR:PORT ([V6]:PORT, or a socket path); bare: 127.0.0.1:6600.", valueName: "addr:port"))
    var mpd: String?

    @Option(help: ArgumentHelp("Another address for the MPD server (repeatable; turns MPD on). Anything but loopback needs a password.", valueName: "addr:port"))
    var mpdBind: [String] = []

    @Option(help: "The password MPD clients must send (also TONEARM_MPD_PASSWORD, or [mpd] password in config.toml, which a process list does not show).")
    var mpdPassword: String?

    @Option(
        help: ArgumentHelp(
            "The most KiB one MPD command list may hold (mpd's max_command_list_size; also [mpd] max_command_list_size in config.toml); default 2048.",
            valueName: "kib"))
    var mpdMaxCommandListSize: Int?

    @Option(help: "The folder MPD clients browse as local files (default: the XDG music folder, `xdg-user-dir MUSIC`, else ~/Music).")
    var musicDirectory: String?

    @Option(help: "The folder MPD's stored playlists are kept in, one NAME.m3u each (default: $XDG_DATA_HOME/tonearm/playlists).")
    var playlistDirectory: String?

    @Option(
        name: .customLong("metrics"), defaultAsFlag: DaemonOptions.metricsDefault.description, parsing: .next,
        help: ArgumentHelp(
            "Serve the player's metrics for Prometheus at http://ADDR:PORT/metrics; bare: 127.0.0.1:9464. No URL, title or host is in them.",
            valueName: "addr:port"))
    var metrics: String?

    /// The metrics address, validated; nil when metrics are off.
    func metricsAddress() throws -> ListenAddress? {
        do throws(DaemonOptions.Invalid) {
            return try metrics.map(DaemonOptions.metrics)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The MPD settings, validated (an address, a password for anything but loopback).
    func mpdSettings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DaemonOptions.MPDSettings? {
        do {
            return try DaemonOptions.mpd(
                flag: mpd, binds: mpdBind, password: mpdPassword, environment: environment,
                configPassword: mpd != nil || !mpdBind.isEmpty ? MPDConfig.password() : nil)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The MPD servers' limits, validated.
    func mpdLimits() throws -> MPDLimits {
        do throws(DaemonOptions.Invalid) {
            return try DaemonOptions.mpdLimits(maxCommandListKiB: mpdMaxCommandListSize, config: MPDConfig.maxCommandListSize())
        } catch {
            throw ValidationError(error.description)
        }
    }

    var musicFolder: URL {
        guard let musicDirectory else { return MusicDirectory.standard() }
        return URL(fileURLWithPath: NSString(string: musicDirectory).expandingTildeInPath, isDirectory: true)
    }

    var playlistFolder: URL? {
        playlistDirectory.map { URL(fileURLWithPath: NSString(string: $0).expandingTildeInPath, isDirectory: true) }
    }

    func validate() throws {
        _ = try mpdSettings()
        _ = try mpdLimits()
        _ = try metricsAddress()
        var isDirectory: ObjCBool = false
        if musicDirectory != nil, !FileManager.default.fileExists(atPath: musicFolder.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw ValidationError("--music-directory must be an existing folder")
        }
    }
}
