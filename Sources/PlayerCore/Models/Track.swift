import Foundation

/// One playable thing: a local file, a podcast episode's audio, or a live stream.
///
/// Tonearm crossfades all three alike, so a track carries what the state machine needs to decide
/// (is it live? can it seek?) and what a screen shows (sanitised title, artist, album).
public struct Track: Sendable, Hashable, Codable, Identifiable {
    /// What kind of source the track is; decides seeking, resuming and what "the end" means.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A local audio file.
        case file
        /// A podcast episode's enclosure (usually HTTP); seekable, resumable at a byte offset.
        case episode
        /// Internet radio: no duration, never "finished" because its connection ended.
        case liveStream
    }

    /// Stable identity; two queue entries of the same file (two stages of one session) get distinct ids.
    public let id: String
    public let url: URL
    public let kind: Kind
    /// Sanitised display title (nil when unknown).
    public let title: String?
    /// Sanitised artist, podcast author or station genre.
    public let artist: String?
    /// Sanitised album, podcast title or station name.
    public let album: String?
    /// Length in seconds when known; nil for live streams and not-yet-probed files. A session stage
    /// may set it shorter than the source: playback hands over (or fades out) at this point.
    public let duration: TimeInterval?
    /// Playback gain of this track, 0...1 (a session stage's volume).
    public let volume: Float
    /// How the source repeats within this one track (a looped session stage); nil plays it once.
    public let loop: SourceLoop?
    /// How loud the track is, when known before it plays (a tag, or a measurement kept in the
    /// library); levelling uses it from the first frame.
    public var loudness: Loudness?
    /// A session stage: how loud the whole session is, so session levelling gives every stage one
    /// gain and they keep their relative loudness.
    public var sessionLoudness: Loudness?
    /// A song of an album whose loudness the library knows from measuring each of its songs: the
    /// album's combined figure, which session levelling (ReplayGain's album mode) uses when the
    /// file carries no album gain tag of its own (a tag, written by whoever mastered or tagged the
    /// album, is believed first). Set by a front end that knows the album; nil otherwise.
    public var measuredAlbumLoudness: Loudness?
    /// An episode's Podcasting 2.0 JSON chapters document (the feed's `podcast:chapters`), fetched
    /// while it plays; nil for everything else.
    public let chaptersURL: URL?
    /// An episode's transcript as its feed names it, fetched (or read from the library) while it
    /// plays; nil for everything else (a local file's transcript beside it is found by the app).
    public let transcript: TranscriptLink?
    /// Other addresses of the same audio, tried in order when `url` cannot be opened (an episode's
    /// alternate sources: a mirror, another CDN); empty for most tracks. Stored as an optional so
    /// a track encoded before it existed still decodes.
    private let alternateURLs: [URL]?
    public var alternates: [URL] { alternateURLs ?? [] }
    /// A local file's tags as read from it (all of them, for MPRIS's album artist, track and disc
    /// numbers, genres); nil for episodes, streams and files whose tags were not read.
    public let tags: SongTags?

    public init(
        id: String,
        url: URL,
        kind: Kind,
        title: String? = nil,
        artist: String? = nil,
        album: String? = nil,
        duration: TimeInterval? = nil,
        volume: Float = 1,
        loop: SourceLoop? = nil,
        loudness: Loudness? = nil,
        sessionLoudness: Loudness? = nil,
        chaptersURL: URL? = nil,
        transcript: TranscriptLink? = nil,
        alternates: [URL] = [],
        tags: SongTags? = nil
    ) {
        self.id = id
        self.url = url
        self.kind = kind
        self.title = TextSanitizer.optionalSingleLine(title)
        self.artist = TextSanitizer.optionalSingleLine(artist)
        self.album = TextSanitizer.optionalSingleLine(album)
        self.duration = kind == .liveStream ? nil : duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.volume = volume.isFinite ? min(1, max(0, volume)) : 1
        self.loop = kind == .liveStream ? nil : loop
        self.loudness = kind == .liveStream ? nil : loudness
        self.sessionLoudness = kind == .liveStream ? nil : sessionLoudness
        self.chaptersURL = kind == .liveStream ? nil : chaptersURL
        self.transcript = kind == .liveStream ? nil : transcript
        self.alternateURLs = alternates.isEmpty ? nil : alternates
        self.tags = kind == .liveStream ? nil : tags
    }

    /// A live stream has no end; its connection ending is a drop, not a finish.
    public var isLive: Bool { kind == .liveStream }

    /// Files and episodes can seek; live streams cannot.
    public var isSeekable: Bool { !isLive }

    /// True when the bytes come over the network (http or https), so network faults apply.
    public var isRemote: Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// The schemes Tonearm can play. Files, HTTP episodes and streams all crossfade, so a state
    /// checks the URL's scheme rather than demanding a file URL.
    public static let playableSchemes: Set<String> = ["file", "http", "https"]

    /// True when the URL's scheme is one Tonearm can open, or the URL is one of its own sounds.
    /// (Feeds and playlists accept only `playableSchemes`: a built-in sound comes from sessions,
    /// timers and alarms, never from what a server sends.)
    public var hasPlayableURL: Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return Track.playableSchemes.contains(scheme) || BuiltInSound(url: url) != nil
    }

    /// How long the track plays: the decoder's length, unless the queue planned it shorter (a
    /// session stage with a `duration` hands over at that point). One rule for the state machine and
    /// the engine's decks. For a looped track, `decoded` is the length of all its repeats
    /// (`SourceLoop.playLength(source:)`), which the deck reports.
    public func playLength(decoded: TimeInterval?) -> TimeInterval? {
        switch (duration, decoded) {
        case let (planned?, decoded?): min(planned, decoded)
        case let (planned, decoded): planned ?? decoded
        }
    }

    /// This live address as the finished recording it turned out to hold (an HLS playlist with an
    /// end): an episode-like item with an end, which can seek.
    public func asRecording() -> Track {
        Track(
            id: id, url: url, kind: kind == .liveStream ? .episode : kind, title: title, artist: artist, album: album,
            duration: duration, volume: volume, loop: loop, chaptersURL: chaptersURL, alternates: alternates, tags: tags)
    }

    /// A copy with another id and, optionally, a known duration (used for probing).
    public func with(id: String? = nil, duration: TimeInterval? = nil) -> Track {
        Track(
            id: id ?? self.id, url: url, kind: kind, title: title, artist: artist, album: album,
            duration: duration ?? self.duration, volume: volume, loop: loop, loudness: loudness,
            sessionLoudness: sessionLoudness, chaptersURL: chaptersURL, alternates: alternates, tags: tags)
    }

    /// A copy that falls over to `alternates` when its address cannot be opened.
    public func with(alternates: [URL]) -> Track {
        Track(
            id: id, url: url, kind: kind, title: title, artist: artist, album: album, duration: duration, volume: volume,
            loop: loop, loudness: loudness, sessionLoudness: sessionLoudness, chaptersURL: chaptersURL, transcript: transcript,
            alternates: alternates, tags: tags)
    }
}
