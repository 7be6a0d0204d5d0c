import Foundation

/// A podcast episode as the library knows it. Its audio URL may be missing (a feed item without
/// an enclosure); playing it is then a clear, non-recoverable error, not a silent no-op.
public struct Episode: Sendable, Hashable, Codable, Identifiable {
    public let id: String
    public let title: String
    public let podcastTitle: String?
    public let audioURL: URL?
    public let duration: TimeInterval?
    /// The feed's `podcast:chapters` document, when it names one.
    public let chaptersURL: URL?
    /// The feed's transcript, when it names one Tonearm reads.
    public let transcript: TranscriptLink?

    public init(
        id: String, title: String, podcastTitle: String? = nil, audioURL: URL?, duration: TimeInterval? = nil, chaptersURL: URL? = nil,
        transcript: TranscriptLink? = nil
    ) {
        self.transcript = transcript
        self.id = id
        self.title = TextSanitizer.singleLine(title)
        self.podcastTitle = TextSanitizer.optionalSingleLine(podcastTitle)
        self.audioURL = audioURL
        self.duration = duration
        self.chaptersURL = chaptersURL
    }

    /// The playable track, or `missingAudioURL` when the feed gave no usable enclosure.
    public func track() throws(PlaybackError) -> Track {
        guard let audioURL, let scheme = audioURL.scheme?.lowercased(), Track.playableSchemes.contains(scheme) else {
            throw PlaybackError(.missingAudioURL)
        }
        return Track(
            id: "episode:\(id)", url: audioURL, kind: .episode, title: title, artist: nil,
            album: podcastTitle, duration: duration, chaptersURL: chaptersURL, transcript: transcript)
    }
}

/// An internet radio station.
public struct Station: Sendable, Hashable, Codable, Identifiable {
    public let id: String
    public let name: String
    public let url: URL
    public let genre: String?

    public init(id: String, name: String, url: URL, genre: String? = nil) {
        self.id = id
        self.name = TextSanitizer.singleLine(name)
        self.url = url
        self.genre = TextSanitizer.optionalSingleLine(genre)
    }

    /// The station as a live track.
    public var track: Track {
        Track(id: "station:\(id)", url: url, kind: .liveStream, title: name, artist: genre, album: name)
    }
}
