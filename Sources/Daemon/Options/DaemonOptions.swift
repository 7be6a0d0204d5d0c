import Foundation
import MPDProtocol
import MPDServer
import PlayerCore
import PlayerKit

/// What `tonearm serve` was asked for, parsed and validated: the output, the MPD server's
/// addresses and password, the music folder, where the log goes.
package struct DaemonOptions: Sendable, Equatable {
    /// nil: PulseAudio when a server answers (as `play` chooses).
    package var output: OutputChoice?
    /// A second output beside the main one (`--also-output`: a visualiser's pipe).
    package var alsoOutput: OutputChoice?
    /// The MPD server; nil when MPD is off (the default).
    package var mpd: MPDSettings?
    /// What one MPD client may ask of every server the daemon runs (its own socket's too): the
    /// command list's bound comes from `--mpd-max-command-list-size` or config.toml.
    package var mpdLimits: MPDLimits
    /// The folder MPD clients browse as local files.
    package var musicDirectory: URL
    /// The folder MPD's stored playlists are kept in (`--playlist-directory`); nil: the XDG data
    /// folder's `tonearm/playlists`.
    package var playlistDirectory: URL? = nil
    package var log: DaemonLogTarget
    /// Where `/metrics` is served for Prometheus (`--metrics`); nil: not at all (the default).
    package var metrics: ListenAddress?
    /// When feeds, downloads and stations that never answer are tried once (config.toml's `[retries]`).
    package var learnedRetries: LearnedRetryRule

    package init(
        output: OutputChoice?, alsoOutput: OutputChoice? = nil, mpd: MPDSettings?, mpdLimits: MPDLimits = .standard, musicDirectory: URL,
        log: DaemonLogTarget, metrics: ListenAddress? = nil, learnedRetries: LearnedRetryRule = .standard
    ) {
        self.output = output
        self.alsoOutput = alsoOutput
        self.mpd = mpd
        self.mpdLimits = mpdLimits
        self.musicDirectory = musicDirectory
        self.log = log
        self.metrics = metrics
        self.learnedRetries = learnedRetries
    }

    /// Prometheus's usual port for an exporter of this kind, on loopback.
    package static let metricsDefault = ListenAddress.tcp(host: "127.0.0.1", port: 9464)

    /// The metrics address from `--metrics`'s word: `HOST:PORT` (a scrape is HTTP over TCP, so
    /// never a unix socket).
    package static func metrics(_ text: String) throws(Invalid) -> ListenAddress {
        guard let address = ListenAddress(parsing: text), case .tcp = address else {
            throw Invalid(description: "--metrics takes HOST:PORT (such as \(metricsDefault)), not '\(text)'")
        }
        return address
    }

    /// The MPD server's listening addresses and password.
    package struct MPDSettings: Sendable, Equatable {
        /// In the order given; never empty.
        package var addresses: [ListenAddress]
        /// Required by every connection when set (MPD's `password` command).
        package var password: String?

        package init(addresses: [ListenAddress], password: String?) {
            self.addresses = addresses
            self.password = password
        }
    }

    /// The MPD servers' limits, with the command list's bound in KiB as MPD's
    /// `max_command_list_size` takes it: `--mpd-max-command-list-size` when given, else
    /// `[mpd] max_command_list_size` in config.toml, else MPD's 2,048 (2 MiB). At least 1.
    package static func mpdLimits(maxCommandListKiB flag: Int?, config: Int?) throws(Invalid) -> MPDLimits {
        guard let kib = flag ?? config else { return .standard }
        // Past 1 GiB a list could not be held anyway; MPD reads it as a positive number too.
        guard (1...(1024 * 1024)).contains(kib) else {
            throw Invalid(
                description: "the MPD command list size is in KiB, from 1 to 1048576 (--mpd-max-command-list-size or [mpd] max_command_list_size), not \(kib)")
        }
        return MPDLimits(maxCommandListBytes: kib * 1024)
    }

    /// Why options were refused, in words for the command line.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The MPD settings from the command line's words: `--mpd [ADDR]` (nil: not given; "" never
    /// reaches here, a bare `--mpd` arrives as the default address), each `--mpd-bind`, and the
    /// password from the flag, the environment (`TONEARM_MPD_PASSWORD`) or the configuration
    /// file, first found wins. An address other than loopback needs a password.
    package static func mpd(
        flag: String?, binds: [String], password flagPassword: String?, environment: [String: String], configPassword: String?
    ) throws(Invalid) -> MPDSettings? {
        guard flag != nil || !binds.isEmpty else { return nil }
        var addresses: [ListenAddress] = []
        for (option, text) in (flag.map { [("--mpd", $0)] } ?? []) + binds.map({ ("--mpd-bind", $0) }) {
            guard let address = ListenAddress(parsing: text) else {
                throw Invalid(description: "\(option) takes HOST:PORT, [IPV6]:PORT or a socket path, not \"\(text)\"")
            }
            if !addresses.contains(address) { addresses.append(address) }
        }
        let password = [flagPassword, environment["TONEARM_MPD_PASSWORD"], configPassword].lazy.compactMap { $0 }.first { !$0.isEmpty }
        do throws(MPDServerError) {
            try MPDListenPolicy.check(addresses.map(\.mpdEndpoint), password: password)
        } catch {
            guard case .passwordRequired(let open) = error else { throw Invalid(description: error.description) }
            throw Invalid(
                description: "MPD on \(open) would let other machines control the player: set a password with --mpd-password, "
                    + "TONEARM_MPD_PASSWORD or [mpd] password in config.toml, or listen on loopback")
        }
        if let password, password.contains(where: { $0.isNewline || $0 == "\"" }) {
            throw Invalid(description: "the MPD password must be one line without double quotes")
        }
        return MPDSettings(addresses: addresses, password: password)
    }
}

/// Where the daemon's log goes.
package enum DaemonLogTarget: Sendable, Equatable {
    /// The systemd journal, through stderr with `<N>` priority prefixes.
    case journal
    /// A rotating log file, reopened on SIGHUP.
    case file(URL)

    /// `--log-file` when given; otherwise the journal when stderr is connected to it, otherwise
    /// the standard log file.
    package static func choose(logFile: URL?, journalConnected: Bool, standardFile: URL) -> Self {
        if let logFile { return .file(logFile) }
        return journalConnected ? .journal : .file(standardFile)
    }
}
