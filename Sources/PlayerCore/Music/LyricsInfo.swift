import Foundation

/// What marks a transcript as a song's lyrics rather than a talk's words: where they were found
/// and what their own header says of the song. Front ends title the pane "Lyrics" for these, and
/// say so when the lyrics carry no times (they are shown whole, not followed).
public struct LyricsInfo: Sendable, Hashable, Codable {
    /// Where the lyrics were found, in the order they are preferred.
    public enum Origin: String, Sendable, Hashable, Codable {
        /// An `.lrc` file beside the audio file, with the same base name.
        case lrcFile
        /// An ID3v2 `SYLT` frame (synchronised lyrics).
        case synchronisedFrame
        /// A tag holding text: an ID3v2 `USLT` frame, a Vorbis `LYRICS` comment, an MP4 `©lyr`
        /// atom; timed when the text is LRC.
        case tag
    }

    public let origin: Origin
    /// From the LRC header (`[ar:]`, `[ti:]`, `[al:]`): sanitised, nil when not given.
    public let artist: String?
    public let title: String?
    public let album: String?

    public init(origin: Origin, artist: String? = nil, title: String? = nil, album: String? = nil) {
        self.origin = origin
        self.artist = TextSanitizer.optionalSingleLine(artist, maxLength: 200)
        self.title = TextSanitizer.optionalSingleLine(title, maxLength: 200)
        self.album = TextSanitizer.optionalSingleLine(album, maxLength: 200)
    }
}
