import Foundation
import PlayerCore
import Presentation

/// What MPRIS clients (desktop shells, media keys, `playerctl`) see, as a pure function of the
/// player's state: what is playing now, mapped onto `org.mpris.MediaPlayer2.Player`.
///
/// PlaybackStatus mapping: `playing`, `crossfading`, `preparingCrossfade`, `preparing`,
/// `buffering`, `seeking`, `reconnecting` and `fadingOut` are **Playing** (sound is playing or about to, and
/// nothing the listener did stopped it); `paused` and `crossfadePaused` are **Paused**; `idle`,
/// `finished` and `failed` are **Stopped**. The Can* properties come from `allowedActions` only:
/// CanPlay when play, resume, retry or pause is allowed; CanPause when pause is; CanSeek when seek
/// is (never for a live stream); CanGoNext when skip is; CanGoPrevious never (no history).
package struct MPRISState: Sendable, Equatable {
    package enum PlaybackStatus: String, Sendable {
        case playing = "Playing", paused = "Paused", stopped = "Stopped"
    }

    package var status: PlaybackStatus
    /// A D-Bus object path naming the track (`/org/mpris/MediaPlayer2/TrackList/NoTrack` without one).
    package var trackID: String
    package var title: String?
    package var artist: String?
    /// The album, or the station's name for a live stream.
    package var album: String?
    package var artURL: String?
    /// Microseconds; nil for live streams and unknown lengths.
    package var lengthMicroseconds: Int64?
    package var url: String?
    /// The line `tonearm share` gives (`tonearm:share` in Metadata), for the position of this state.
    package var share: String?
    package var positionMicroseconds: Int64
    package var canGoNext: Bool
    package var canGoPrevious: Bool
    package var canPlay: Bool
    package var canPause: Bool
    package var canSeek: Bool
    /// Tonearm's volume, 1.0 = 100 %.
    package var volume: Double
    /// The speed the current item plays at (1 for a live stream).
    package var rate: Double
    /// Whole seconds until the sleep timer runs out (`tonearm:sleepIn` in Metadata); nil without
    /// a countdown.
    package var sleepIn: Int64?
    /// Loudness levelling while it is on (`tonearm:loudness` in Metadata): "track -4.2 dB",
    /// "session +1.0 dB", "track adaptive".
    package var loudness: String?
    /// A live stream's connection (`tonearm:connection` in Metadata): its rating, and
    /// ", reconnecting" while a reconnect in the background is under way; `tonearm:bitrate` in
    /// kbit/s. Only these change Metadata: the buffer's seconds move every second.
    package var connection: String?
    package var bitrate: Int64?
    /// A session's layers, in whole seconds on its clock (which stops while paused):
    /// `tonearm:elapsed`, `tonearm:remaining` (none for an open-ended timer), `tonearm:nextBellIn`
    /// and `tonearm:nextBell` (`start`, `interval`, `end`; none once no bell is left), and
    /// `tonearm:bed`, what the bed does (`playing`, `ducked`...). Length and Position stay the
    /// current stage's, as Seek and SetPosition act on it; for a timer (one stage) they are the
    /// timer's own.
    package var layers: Layers?
    /// A local file's tags beyond its title and album, when they were read: `xesam:artist` one
    /// artist a value, `xesam:albumArtist`, `xesam:genre`, `xesam:composer`, `xesam:trackNumber`,
    /// `xesam:discNumber`.
    package var song: Song?

    package struct Song: Sendable, Equatable {
        package var artists: [String]
        package var albumArtists: [String]
        package var genres: [String]
        package var composers: [String]
        package var trackNumber: Int32?
        package var discNumber: Int32?

        package init(_ tags: SongTags) {
            artists = tags[all: .artist]
            albumArtists = tags[all: .albumArtist]
            genres = tags[all: .genre]
            composers = tags[all: .composer]
            trackNumber = tags.trackNumber.flatMap { Int32(exactly: $0) }
            discNumber = tags.discNumber.flatMap { Int32(exactly: $0) }
        }
    }

    package struct Layers: Sendable, Equatable {
        package var elapsed: Int64
        package var remaining: Int64?
        package var nextBellIn: Int64?
        package var nextBell: String?
        package var bed: String?

        package init(_ status: SessionLayersStatus) {
            elapsed = Int64(max(0, status.elapsed).rounded(.down))
            remaining = status.remaining.map { Int64($0.rounded(.up)) }
            nextBellIn = status.nextBell.map { Int64(max(0, $0.at - status.elapsed).rounded(.up)) }
            nextBell = status.nextBell?.kind.rawValue
            bed = status.bed?.phase.rawValue
        }
    }

    package static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    package init(
        state: PlayerState, metadata: NowPlayingMetadata? = nil, position: Double? = nil, duration: Double? = nil, artFile: URL? = nil,
        volume: Volume = .full, sleepIn: TimeInterval? = nil, speed: PlaybackSpeed = .normal,
        loudness: (levelling: LoudnessLevelling, gain: Double?)? = nil, connection: ConnectionQuality? = nil,
        layers: SessionLayersStatus? = nil
    ) {
        self.layers = layers.map(Layers.init)
        if let connection, state.currentTrack?.isLive == true {
            self.connection = connection.rating.rawValue + (connection.reconnecting ? ", reconnecting" : "")
            self.bitrate = connection.bitrate.map(Int64.init)
        }
        if let loudness, loudness.levelling.isOn {
            let figure = loudness.gain.map { String(format: "%+.1f dB", $0) } ?? "adaptive"
            self.loudness = "\(loudness.levelling.mode.rawValue) \(figure)"
        }
        self.rate = speed.rate(for: state.currentTrack)
        self.volume = volume.level
        self.sleepIn = sleepIn.map { Int64($0.rounded(.up)) }
        switch state.name {
        case .playing, .crossfading, .preparingCrossfade, .preparing, .buffering, .seeking, .reconnecting, .fadingOut: status = .playing
        case .paused, .crossfadePaused: status = .paused
        case .idle, .finished, .failed: status = .stopped
        }
        let track = state.currentTrack
        trackID = track.map { Self.objectPath(for: $0.id) } ?? Self.noTrack
        let live = track?.isLive ?? false
        if live, let metadata, let announced = metadata.title, !announced.isEmpty {
            title = announced
            artist = metadata.artist
            album = metadata.station ?? track?.album ?? track?.title
        } else {
            title = track?.title
            artist = track?.artist
            album = live ? (metadata?.station ?? track?.album) : track?.album
        }
        artURL = artFile?.absoluteString
        song = track?.kind == .file ? track?.tags.map(Song.init) : nil
        let length = live ? nil : (duration ?? track?.duration)
        lengthMicroseconds = length.map { Int64(($0 * 1_000_000).rounded()) }
        url = track?.url.absoluteString
        share = track.map { ShareLine.line(track: $0, metadata: metadata, position: position) }
        positionMicroseconds = live ? 0 : Int64(((position ?? 0) * 1_000_000).rounded())
        let allowed = state.allowedActions
        canGoNext = allowed.contains(.skip)
        canGoPrevious = false
        // "Play or PlayPause can act": also while playing, where PlayPause pauses (clients such
        // as playerctl refuse every command to a player whose CanPlay is false).
        canPlay = [.play, .resume, .retry, .pause].contains(where: allowed.contains)
        canPause = allowed.contains(.pause)
        canSeek = allowed.contains(.seek) && !live
    }

    /// A valid object path for any track id: ids are free text, paths are `[A-Za-z0-9_]` only.
    package static func objectPath(for id: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return "/org/tonearm/track/t" + String(hash, radix: 16)
    }

    /// The Player properties whose value differs from `old`'s (for PropertiesChanged). Position
    /// is never listed: clients ask for it, and a jump is the Seeked signal.
    package func changedProperties(since old: MPRISState?) -> [String] {
        guard let old else { return ["PlaybackStatus", "Metadata", "Volume", "Rate", "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek"] }
        var names: [String] = []
        if status != old.status { names.append("PlaybackStatus") }
        if trackID != old.trackID || title != old.title || artist != old.artist || album != old.album || artURL != old.artURL
            || lengthMicroseconds != old.lengthMicroseconds || url != old.url || sleepIn != old.sleepIn
            || loudness != old.loudness || connection != old.connection || bitrate != old.bitrate || layers != old.layers
            || song != old.song
        {
            names.append("Metadata")
        }
        if volume != old.volume { names.append("Volume") }
        if rate != old.rate { names.append("Rate") }
        if canGoNext != old.canGoNext { names.append("CanGoNext") }
        if canPlay != old.canPlay { names.append("CanPlay") }
        if canPause != old.canPause { names.append("CanPause") }
        if canSeek != old.canSeek { names.append("CanSeek") }
        return names
    }
}
