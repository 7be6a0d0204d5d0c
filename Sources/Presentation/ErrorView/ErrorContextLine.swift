import PlayerCore

/// One line of context under the error saying what failed, e.g. the episode title.
package struct ErrorContextLine: Sendable, Hashable, Codable {
    package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case episode, podcast, track, station, artist
    }

    package let kind: Kind
    /// The bare title, as the error view shows it.
    package let value: String
    /// The labelled form for speech and plain mode: "Episode: X".
    package let labelled: String

    package init(kind: Kind, value: String, language: Language) {
        self.kind = kind
        self.value = value
        let key: UIString =
            switch kind {
            case .episode: .contextEpisode
            case .podcast: .contextPodcast
            case .track: .contextTrack
            case .station: .contextStation
            case .artist: .contextArtist
            }
        self.labelled = UIStrings.format(key, in: language, value)
    }

    /// Episode and podcast titles; or track title and station name; or track and artist/album.
    static func lines(for track: Track?, context: PlaybackContext) -> [ErrorContextLine] {
        let language = context.language
        var lines: [ErrorContextLine] = []
        func add(_ kind: Kind, _ value: String?) {
            guard let value, !value.isEmpty, !lines.contains(where: { $0.value == value }) else { return }
            lines.append(ErrorContextLine(kind: kind, value: value, language: language))
        }
        if let episode = context.episode, track == nil || track?.kind == .episode {
            add(.episode, episode.title)
            add(.podcast, context.effectivePodcastTitle ?? track?.album)
        } else if let track {
            switch track.kind {
            case .episode:
                add(.episode, track.title)
                add(.podcast, context.effectivePodcastTitle ?? track.album)
            case .liveStream:
                let station = context.station?.name ?? track.album
                if track.title != station { add(.track, track.title) }
                add(.station, station)
            case .file:
                add(.track, track.title)
                add(.artist, track.artist ?? track.album)
            }
        } else if let station = context.station {
            add(.station, station.name)
        }
        return lines
    }
}
