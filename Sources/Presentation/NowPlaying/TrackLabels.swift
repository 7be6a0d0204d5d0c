import PlayerCore

/// Title and subtitle of what plays, shared by the expanded and the mini player.
///
/// Title: the episode's title for an episode, the current ICY title of a live stream when it
/// announced one (with "Artist · Station" below), else the track's title, else "Unknown title"
/// ("Nothing playing" with no track at all). Subtitle: the podcast title for an episode, the
/// station's name (or genre, when the title already is the name) for a live stream, the artist
/// and the album for a file ("Artist · Album", either alone when the other is unknown), never the
/// title again.
struct TrackLabels: Sendable, Hashable {
    let title: String
    let subtitle: String?

    init(track: Track?, context: PlaybackContext) {
        let language = context.language
        guard let track else {
            if let episode = context.episode {
                title = episode.title
                subtitle = context.effectivePodcastTitle
            } else {
                title = UIStrings.text(.nothingPlaying, in: language)
                subtitle = nil
            }
            return
        }
        switch track.kind {
        case .episode:
            title = track.title ?? context.episode?.title ?? UIStrings.text(.unknownTitle, in: language)
            subtitle = context.effectivePodcastTitle ?? track.album ?? track.artist
        case .liveStream:
            let name = context.station?.name ?? track.album
            if let now = context.nowPlaying, let nowTitle = now.title, !nowTitle.isEmpty {
                // What is on now: "Title" over "Artist · Station".
                title = nowTitle
                let line = [now.artist, now.station ?? name ?? track.title].compactMap { $0 }.joined(separator: " · ")
                subtitle = line.isEmpty ? nil : line
                return
            }
            let shown = track.title ?? name ?? UIStrings.text(.unknownTitle, in: language)
            title = shown
            let candidates = [name, context.station?.genre, track.artist]
            subtitle = candidates.compactMap { $0 }.first { $0 != shown }
        case .file:
            let shown = track.title ?? UIStrings.text(.unknownTitle, in: language)
            title = shown
            // Never the title again (a timer's session is named as its one stage).
            let line = [track.artist, track.album].compactMap { $0 }.filter { $0 != shown }.joined(separator: " · ")
            subtitle = line.isEmpty ? nil : line
        }
    }
}
