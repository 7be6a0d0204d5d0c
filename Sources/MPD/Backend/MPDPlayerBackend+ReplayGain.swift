import AudioEngine
import LibraryKit
import MPDProtocol
import PlayerCore

/// `replay_gain_mode` applied by Tonearm's own levelling rather than kept as a label: `track`
/// levels each song to the target by its loudness (a ReplayGain or R128 track tag, a kept or a
/// background measurement), `album` levels the album as a whole (its album gain tag, else the
/// album's loudness measured song by song when the library knows every one of them; else each
/// song by its own, as mpd falls back to track gain), `off` plays songs as they were mastered, and `auto` is `album`
/// while the queue plays in order and `track` when it is shuffled (an album heard out of order is
/// no album), as mpd decides it. The levelling's target and limiter stay as configured.
extension MPDQueue.ReplayGainMode {
    /// The levelling this mode asks for, with the queue in random order or not.
    func levelling(random: Bool) -> LoudnessMode {
        switch self {
        case .off: .off
        case .track: .track
        case .album: .session
        case .auto: random ? .track : .session
        }
    }

    /// The mode a client is first told: the levelling the daemon started with.
    init(_ levelling: LoudnessMode) {
        switch levelling {
        case .off: self = .off
        case .track: self = .track
        case .session: self = .album
        }
    }
}

extension MPDPlayerBackend {
    /// The loudness of the album a music song belongs to, combined from what the library kept of
    /// each of the album's songs (measured while heard, or by `tonearm loudness`), weighted by
    /// their lengths; nil when any song of it is unknown (a figure from part of an album would
    /// level the album as something it is not), and for anything but a song of the music index.
    /// An album is its songs with the same album tag and album artist (the artist when none),
    /// as clients group them.
    func measuredAlbumLoudness(of entry: MPDEntry) -> Loudness? {
        guard let tags = entry.fileTags, tags.part == nil, let album = tags[.album], let directory = catalog.musicDirectory,
            let songs = try? databaseSongs()
        else { return nil }
        let albumArtist = tags[.albumArtist] ?? tags[.artist]
        let members = songs.filter {
            $0.record.tags[.album] == album && ($0.record.tags[.albumArtist] ?? $0.record.tags[.artist]) == albumArtist
        }
        guard !members.isEmpty, members.count <= Self.albumSongLimit else { return nil }
        let store = LibraryLoudnessStore(store: catalog.library.store, logger: logger)
        let parts = members.map { song in
            let track = Track(id: song.uri, url: directory.appendingPathComponent(song.record.path), kind: .file)
            return (loudness: song.record.tags.part == nil ? store.loudness(of: track) : nil, duration: song.record.tags.audio.duration ?? 0)
        }
        return Loudness.combined(parts)
    }

    /// More songs than any album has: a tag shared by a whole library ("Unknown") is no album.
    static let albumSongLimit = 500

    /// Gives the player the levelling the queue's options ask for, when it differs from what it
    /// plays with (a client's `tonearm_levelling` or a key on the terminal may have changed it).
    func applyReplayGain() async throws(MPDAck) {
        let current = await player.loudness
        let mode = queue.options.replayGain.levelling(random: queue.options.random)
        guard current.mode != mode else { return }
        logger.info("MPD replay gain mode applied", metadata: ["mode": "\(queue.options.replayGain.rawValue)", "levelling": "\(mode.rawValue)"])
        try await send(.setLoudness(LoudnessLevelling(mode: mode, target: current.target)))
    }
}
