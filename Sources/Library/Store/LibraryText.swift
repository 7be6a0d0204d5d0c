import Foundation
import PlayerCore

/// How the store cleans text on the way in, and its length limits,
/// in one place. The feed parser already sanitises, but the CLI feeds the same calls.
enum LibraryText {
    /// Episode and podcast summaries, flattened to one line (the library lists them, it does not
    /// lay them out).
    static let summaryLength = 4_000
    /// Feed GUIDs: long enough for any real one; cutting is deterministic, so matching still works.
    static let guidLength = 2_048
    /// ETag and Last-Modified values.
    static let headerLength = 1_024
    static let settingKeyLength = 128
    static let settingValueLength = 4_096
    static let pathLength = 4_096
    /// The largest session document kept (a real one with 1,000 stages is well under this).
    static let sessionJSONBytes = 1_048_576

    /// A one-line name or title that must not be empty after cleaning.
    static func requiredName(_ text: String, _ what: String) throws(PlaybackError) -> String {
        let cleaned = TextSanitizer.singleLine(text)
        guard !cleaned.isEmpty else { throw PlaybackError(.malformedData, underlying: "empty \(what)") }
        return cleaned
    }

    /// The case-insensitive identity of a name (see `LibrarySchema` on `nameKey`).
    static func key(_ name: String) -> String {
        name.lowercased()
    }

    static func optional(_ text: String?, maxLength: Int = TextSanitizer.defaultMaxLength) -> String? {
        TextSanitizer.optionalSingleLine(text, maxLength: maxLength)
    }
}
