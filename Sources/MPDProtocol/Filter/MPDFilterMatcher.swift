/// A filter ready to decide on many songs: its regular expressions compiled once. Built per
/// command (a `find` over the database), never shared between tasks.
public struct MPDFilterMatcher {
    public let filter: MPDFilter
    private var patterns: [PatternKey: MPDFilterPattern] = [:]

    private struct PatternKey: Hashable {
        var text: String
        var foldCase: Bool
    }

    public init(_ filter: MPDFilter) {
        self.filter = filter
        for match in filter.stringMatches where match.op == .regex {
            // Each pattern compiled when it was parsed; one that fails now matches nothing.
            patterns[PatternKey(text: match.value, foldCase: match.foldCase)] = try? MPDFilterPattern(match.value, ignoringCase: match.foldCase)
        }
    }

    /// Whether the song passes, decided as MPD decides each kind of condition.
    public func matches(_ song: some MPDFilterSubject) -> Bool { matches(filter, song) }

    private func matches(_ filter: MPDFilter, _ song: some MPDFilterSubject) -> Bool {
        switch filter {
        case .tag(nil, let match):
            return song.allTagValues.contains { found(match, in: $0) } != match.negated
        case .tag(let name?, let match):
            let values = song.values(ofTag: name)
            if !values.isEmpty { return values.contains { found(match, in: $0) } != match.negated }
            // An absent tag: the first fallback tag present decides; with none, an empty value
            // matches it (so `(Album == "")` finds songs without an album).
            for other in Self.fallback(for: name) {
                let values = song.values(ofTag: other)
                if !values.isEmpty { return values.contains { found(match, in: $0) } != match.negated }
            }
            return match.value.isEmpty != match.negated
        case .uri(let match):
            return found(match, in: song.uri) != match.negated
        case .base(let path):
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            return base.isEmpty || song.uri == base || song.uri.hasPrefix(base + "/")
        case .modifiedSince(let time):
            return song.modified.map { $0 >= time } ?? false
        case .addedSince(let time):
            return song.added.map { $0 >= time } ?? false
        case .audioFormat(let mask, _):
            return song.audioFormat?.isMatched(by: mask) ?? false
        case .priority(let value):
            return song.priority >= value
        case .not(let inner):
            return !matches(inner, song)
        case .and(let items):
            return items.allSatisfy { matches($0, song) }
        }
    }

    private func found(_ match: MPDStringMatch, in string: String) -> Bool {
        guard match.op == .regex else { return match.matchesIgnoringNegation(string, pattern: nil) }
        guard let pattern = patterns[PatternKey(text: match.value, foldCase: match.foldCase)] else { return false }
        return match.matchesIgnoringNegation(string, pattern: pattern)
    }

    /// The tags a missing tag is looked up in instead, in order (MPD's `ApplyTagFallback`): an
    /// album artist's sort name falls back to the album artist, then the artist; an album
    /// artist or an artist's sort name to the artist; an album's sort name to the album.
    static func fallback(for tag: String) -> [String] {
        switch tag {
        case "AlbumArtistSort": ["AlbumArtist", "Artist"]
        case "AlbumArtist", "ArtistSort": ["Artist"]
        case "AlbumSort": ["Album"]
        default: []
        }
    }
}

extension MPDFilter {
    /// Whether one song passes (compiles the filter's expressions for it; for many songs, build
    /// one `MPDFilterMatcher`).
    public func matches(_ song: some MPDFilterSubject) -> Bool { MPDFilterMatcher(self).matches(song) }

    /// Every string comparison in the tree.
    var stringMatches: [MPDStringMatch] {
        switch self {
        case .tag(_, let match), .uri(let match): [match]
        case .not(let inner): inner.stringMatches
        case .and(let items): items.flatMap(\.stringMatches)
        case .base, .modifiedSince, .addedSince, .audioFormat, .priority: []
        }
    }
}
