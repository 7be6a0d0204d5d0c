import Foundation

/// An ICY `StreamTitle` (or a status API's title) split into artist and title.
///
/// Why a type of its own: the `Artist - Title` convention is informal, and the rules for the cases
/// that break it are decided once here. The separator is a space-surrounded hyphen, en dash or em
/// dash, so names with inner hyphens ("Jay-Z", "AC-DC") are never split; the first separator wins,
/// so "A - B - C" is artist "A", title "B - C" (artists rarely contain " - ", song titles with a
/// "- Remastered" suffix often do). Without a separator, or with an empty side, the whole text is
/// the title and there is no artist; a bare separator (" - ", sent by some servers between tracks)
/// is no title at all.
package struct StreamTitle: Sendable, Equatable, Hashable {
    /// Sanitised; nil when the input is absent or blank.
    package let title: String?
    /// Sanitised; nil when the text has no separator.
    package let artist: String?

    package init(title: String?, artist: String?) {
        self.title = title
        self.artist = artist
    }

    /// The separators recognised between artist and title.
    static let separators = [" - ", " – ", " — "]

    /// Splits `raw` (sanitised again here, so callers may pass text of any origin).
    package init(parsing raw: String?) {
        guard let text = MetadataText.line(raw) else {
            self.init(title: nil, artist: nil)
            return
        }
        // Sanitising folded whitespace runs to one space, so "A  -  B" is found as "A - B"; it also
        // trimmed the ends, so pad them back to find a dangling separator ("Artist - ", " - ").
        let padded = " \(text) "
        let found = Self.separators.compactMap { padded.range(of: $0) }.min { $0.lowerBound < $1.lowerBound }
        guard let separator = found else {
            self.init(title: text, artist: nil)
            return
        }
        let artist = MetadataText.line(String(padded[..<separator.lowerBound]))
        let title = MetadataText.line(String(padded[separator.upperBound...]))
        switch (artist, title) {
        case let (artist?, title?): self.init(title: title, artist: artist)
        case let (only?, nil), let (nil, only?): self.init(title: only, artist: nil)
        case (nil, nil): self.init(title: nil, artist: nil)
        }
    }

    /// "Artist - Title", or the title alone: what a status API's title is compared against.
    package var combined: String? {
        guard let title else { return artist }
        guard let artist else { return title }
        return "\(artist) - \(title)"
    }
}
