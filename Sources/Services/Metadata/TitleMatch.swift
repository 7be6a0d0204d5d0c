import Foundation

/// The track-mismatch check (is the status API answering for another
/// track?). Status APIs lag or lead the stream by seconds, so their artwork is used only when their
/// title is the one playing: compared tolerant of case, whitespace and punctuation, against the ICY
/// "artist - title" or against the ICY title alone (APIs that report only the song name).
package enum TitleMatch {
    /// True when `statusTitle` (the status API's "artist - title" or title) names the track `icy`.
    package static func matches(statusTitle: String?, icy: StreamTitle) -> Bool {
        let key = MetadataText.matchKey(statusTitle)
        guard !key.isEmpty else { return false }
        return key == MetadataText.matchKey(icy.combined) || key == MetadataText.matchKey(icy.title)
    }
}
