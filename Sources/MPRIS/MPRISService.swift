import CSDBus
import Foundation
import PlayerCore
import Synchronization

/// Tonearm on the session bus as an MPRIS media player (`org.mpris.MediaPlayer2.tonearm`, or
/// `.instance<pid>` when a second Tonearm runs), through sd-bus. Desktop shells, media keys, KDE
/// Connect and `playerctl` read `MPRISState` and send `Command`s.
///
/// One thread owns the bus (sd-bus is not thread-safe): it answers calls, and every 50 ms at most
/// it emits PropertiesChanged for what `update` changed and Seeked after `seeked`.
///
package final class MPRISService: Sendable {
    /// What a client asked for.
    package enum Command: Sendable, Equatable {
        case play, pause, playPause, stop, next, previous, quit
        /// Seek by this many seconds (negative = back).
        case seek(by: Double)
        /// Seek to this position of the track named `trackID` (ignored for another track).
        case setPosition(Double, trackID: String)
        case openURI(String)
        /// Set Tonearm's volume (1.0 = 100 %); a negative value is 0, as the specification says.
        case setVolume(Double)
        /// Set the speed of files and episodes; 0 means pause, as the specification says.
        case setRate(Double)
    }

    /// `Identity` and `DesktopEntry`.
    package static let identity = "Tonearm"
    package static let busName = "org.mpris.MediaPlayer2.tonearm"

    /// The share line of the Tonearm playing on the session bus (`tonearm share`): nil with the
    /// reason when there is none.
    package static func shareLine() -> Result<String, ShareProblem> {
        var buffer = [CChar](repeating: 0, count: 2048)
        let r = tn_share_line(&buffer, buffer.count)
        switch r {
        case 0: return .success(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        case -ESRCH: return .failure(.noPlayer)
        case -ENOENT: return .failure(.nothingPlaying)
        default: return .failure(.bus(String(cString: strerror(-r))))
        }
    }

    /// Why `shareLine` has no line.
    package enum ShareProblem: Error, Equatable {
        /// No Tonearm on the session bus.
        case noPlayer
        case nothingPlaying
        /// The session bus could not be asked (no bus, a refused call).
        case bus(String)
    }

    private struct Shared {
        var state = MPRISState(state: .idle)
        var emitted: MPRISState?
        var seekedTo: Int64?
        var stopping = false
    }

    private let shared = Mutex(Shared())
    private let onCommand: @Sendable (Command) -> Void
    private let ready = DispatchSemaphore(value: 0)
    private let startResult = Mutex<Result<String, PlaybackError>?>(nil)

    /// Connects and takes the bus name. No session bus (or no permission) is a failure whose
    /// `underlying` says why: callers warn and play on without MPRIS.
    ///
    /// - Returns: the service and the bus name it took.
    package static func start(onCommand: @escaping @Sendable (Command) -> Void) -> Result<(MPRISService, String), PlaybackError> {
        let service = MPRISService(onCommand: onCommand)
        let thread = Thread { service.run() }
        thread.name = "tonearm-mpris"
        thread.start()
        service.ready.wait()
        switch service.startResult.withLock({ $0 }) {
        case .success(let name)?: return .success((service, name))
        case .failure(let error)?: return .failure(error)
        case nil: return .failure(PlaybackError(.unknown, underlying: "the MPRIS thread did not start"))
        }
    }

    private init(onCommand: @escaping @Sendable (Command) -> Void) {
        self.onCommand = onCommand
    }

    /// The player changed: clients are told which properties did.
    package func update(_ state: MPRISState) {
        shared.withLock { $0.state = state }
    }

    /// The position jumped (a seek): clients get the Seeked signal.
    package func seeked(to seconds: Double) {
        shared.withLock { $0.seekedTo = Int64((seconds * 1_000_000).rounded()) }
    }

    /// Leaves the bus; the thread ends within 50 ms.
    package func stop() {
        shared.withLock { $0.stopping = true }
    }

    // MARK: The bus thread

    private func run() {
        var bus = tn_mpris()
        bus.context = Unmanaged.passUnretained(self).toOpaque()
        bus.get_property = { context, isPlayer, property, reply in
            guard let context, let property, let reply else { return -EINVAL }
            return Unmanaged<MPRISService>.fromOpaque(context).takeUnretainedValue().get(isPlayer != 0, String(cString: property), reply)
        }
        bus.call_method = { context, isPlayer, member, message in
            guard let context, let member, let message else { return -EINVAL }
            return Unmanaged<MPRISService>.fromOpaque(context).takeUnretainedValue().call(isPlayer != 0, String(cString: member), message)
        }
        bus.set_property = { context, property, value in
            guard let context, let property, let value else { return -EINVAL }
            return Unmanaged<MPRISService>.fromOpaque(context).takeUnretainedValue().set(String(cString: property), value)
        }
        var taken = [CChar](repeating: 0, count: 256)
        let opened = tn_mpris_open(&bus, Self.busName, &taken, taken.count)
        if opened < 0 {
            tn_mpris_close(&bus)
            startResult.withLock {
                $0 = .failure(PlaybackError(.unknown, underlying: "no D-Bus session bus (\(String(cString: strerror(-opened))))"))
            }
            ready.signal()
            return
        }
        let name = String(decoding: taken.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        startResult.withLock { $0 = .success(name) }
        ready.signal()
        while true {
            let (stopping, changed, seeked) = shared.withLock { shared -> (Bool, [String], Int64?) in
                let names = shared.state.changedProperties(since: shared.emitted)
                shared.emitted = shared.state
                defer { shared.seekedTo = nil }
                return (shared.stopping, names, shared.seekedTo)
            }
            if stopping { break }
            if !changed.isEmpty { emitChanged(&bus, changed) }
            if let seeked { _ = tn_mpris_seeked(&bus, seeked) }
            if tn_mpris_step(&bus, 50_000) < 0 { break }
        }
        tn_mpris_close(&bus)
    }

    private func emitChanged(_ bus: inout tn_mpris, _ names: [String]) {
        var pointers = names.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        _ = pointers.withUnsafeMutableBufferPointer { tn_mpris_changed(&bus, $0.baseAddress) }
    }

    private func get(_ isPlayer: Bool, _ property: String, _ reply: OpaquePointer) -> Int32 {
        let state = shared.withLock { $0.state }
        switch (isPlayer, property) {
        case (false, "CanQuit"), (true, "CanControl"): return tn_append_bool(reply, 1)
        case (false, "CanRaise"), (false, "HasTrackList"), (true, "Shuffle"): return tn_append_bool(reply, 0)
        case (false, "Identity"): return tn_append_string(reply, Self.identity)
        case (false, "DesktopEntry"): return tn_append_string(reply, "tonearm")
        case (false, "SupportedUriSchemes"): return Self.appendStrings(reply, ["file", "http", "https"])
        case (false, "SupportedMimeTypes"):
            return Self.appendStrings(reply, ["audio/mpeg", "audio/aac", "audio/mp4", "audio/ogg", "audio/opus", "audio/flac", "audio/x-wav", "audio/x-scpls", "audio/x-mpegurl"])
        case (true, "PlaybackStatus"): return tn_append_string(reply, state.status.rawValue)
        case (true, "LoopStatus"): return tn_append_string(reply, "None")
        case (true, "Rate"): return tn_append_double(reply, state.rate)
        case (true, "MinimumRate"): return tn_append_double(reply, PlaybackSpeed.range.lowerBound)
        case (true, "MaximumRate"): return tn_append_double(reply, PlaybackSpeed.range.upperBound)
        case (true, "Volume"): return tn_append_double(reply, state.volume)
        case (true, "Position"): return tn_append_int64(reply, state.positionMicroseconds)
        case (true, "CanGoNext"): return tn_append_bool(reply, state.canGoNext ? 1 : 0)
        case (true, "CanGoPrevious"): return tn_append_bool(reply, state.canGoPrevious ? 1 : 0)
        case (true, "CanPlay"): return tn_append_bool(reply, state.canPlay ? 1 : 0)
        case (true, "CanPause"): return tn_append_bool(reply, state.canPause ? 1 : 0)
        case (true, "CanSeek"): return tn_append_bool(reply, state.canSeek ? 1 : 0)
        case (true, "Metadata"): return Self.appendMetadata(reply, state)
        default: return -ENOENT
        }
    }

    private func call(_ isPlayer: Bool, _ member: String, _ message: OpaquePointer) -> Int32 {
        let command: Command?
        switch (isPlayer, member) {
        case (false, "Quit"): command = .quit
        case (false, "Raise"): command = nil
        case (true, "Play"): command = .play
        case (true, "Pause"): command = .pause
        case (true, "PlayPause"): command = .playPause
        case (true, "Stop"): command = .stop
        case (true, "Next"): command = .next
        case (true, "Previous"): command = .previous
        case (true, "Seek"):
            var offset: Int64 = 0
            let r = tn_read_int64(message, &offset)
            guard r >= 0 else { return r }
            command = .seek(by: Double(offset) / 1_000_000)
        case (true, "SetPosition"):
            var path: UnsafePointer<CChar>?
            var position: Int64 = 0
            let r = tn_read_path_int64(message, &path, &position)
            guard r >= 0, let path else { return r < 0 ? r : -EINVAL }
            command = .setPosition(Double(position) / 1_000_000, trackID: String(cString: path))
        case (true, "OpenUri"):
            var uri: UnsafePointer<CChar>?
            let r = tn_read_string(message, &uri)
            guard r >= 0, let uri else { return r < 0 ? r : -EINVAL }
            command = .openURI(TextSanitizer.singleLine(String(cString: uri), maxLength: 4096))
        default:
            return -ENOENT
        }
        if let command { onCommand(command) }
        return 0
    }

    private func set(_ property: String, _ value: OpaquePointer) -> Int32 {
        guard property == "Volume" || property == "Rate" else { return -EPERM }
        var number: Double = 0
        let r = tn_read_double(value, &number)
        guard r >= 0 else { return r }
        guard number.isFinite, number >= 0 || property == "Volume" else { return -EINVAL }
        onCommand(property == "Volume" ? .setVolume(max(0, number)) : .setRate(number))
        return 0
    }

    private static func appendStrings(_ reply: OpaquePointer, _ strings: [String]) -> Int32 {
        var pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { tn_append_strv(reply, $0.baseAddress) }
    }

    /// A Metadata entry whose value is a list of strings.
    private static func appendStrings(_ reply: OpaquePointer, key: String, _ strings: [String]) -> Int32 {
        var pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { tn_dict_strv(reply, key, $0.baseAddress) }
    }

    private static func appendMetadata(_ reply: OpaquePointer, _ state: MPRISState) -> Int32 {
        var r = tn_open_dict(reply)
        guard r >= 0 else { return r }
        r = tn_dict_object_path(reply, "mpris:trackid", state.trackID)
        if r >= 0, let title = state.title { r = tn_dict_string(reply, "xesam:title", title) }
        if r >= 0, let artists = state.song?.artists, !artists.isEmpty {
            r = appendStrings(reply, key: "xesam:artist", artists)
        } else if r >= 0, let artist = state.artist {
            r = tn_dict_strings(reply, "xesam:artist", artist)
        }
        if r >= 0, let song = state.song {
            if r >= 0, !song.albumArtists.isEmpty { r = appendStrings(reply, key: "xesam:albumArtist", song.albumArtists) }
            if r >= 0, !song.genres.isEmpty { r = appendStrings(reply, key: "xesam:genre", song.genres) }
            if r >= 0, !song.composers.isEmpty { r = appendStrings(reply, key: "xesam:composer", song.composers) }
            if r >= 0, let number = song.trackNumber { r = tn_dict_int32(reply, "xesam:trackNumber", number) }
            if r >= 0, let number = song.discNumber { r = tn_dict_int32(reply, "xesam:discNumber", number) }
        }
        if r >= 0, let album = state.album { r = tn_dict_string(reply, "xesam:album", album) }
        if r >= 0, let art = state.artURL { r = tn_dict_string(reply, "mpris:artUrl", art) }
        if r >= 0, let length = state.lengthMicroseconds { r = tn_dict_int64(reply, "mpris:length", length) }
        if r >= 0, let url = state.url { r = tn_dict_string(reply, "xesam:url", url) }
        if r >= 0, let share = state.share { r = tn_dict_string(reply, "tonearm:share", share) }
        if r >= 0, let sleepIn = state.sleepIn { r = tn_dict_int64(reply, "tonearm:sleepIn", sleepIn) }
        if r >= 0, let loudness = state.loudness { r = tn_dict_string(reply, "tonearm:loudness", loudness) }
        if r >= 0, let connection = state.connection { r = tn_dict_string(reply, "tonearm:connection", connection) }
        if r >= 0, let bitrate = state.bitrate { r = tn_dict_int64(reply, "tonearm:bitrate", bitrate) }
        if r >= 0, let layers = state.layers {
            r = tn_dict_int64(reply, "tonearm:elapsed", layers.elapsed)
            if r >= 0, let remaining = layers.remaining { r = tn_dict_int64(reply, "tonearm:remaining", remaining) }
            if r >= 0, let wait = layers.nextBellIn { r = tn_dict_int64(reply, "tonearm:nextBellIn", wait) }
            if r >= 0, let kind = layers.nextBell { r = tn_dict_string(reply, "tonearm:nextBell", kind) }
            if r >= 0, let bed = layers.bed { r = tn_dict_string(reply, "tonearm:bed", bed) }
        }
        guard r >= 0 else { return r }
        return tn_close(reply)
    }
}
