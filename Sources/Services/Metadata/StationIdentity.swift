import Foundation

/// The strings that mean "the station itself" rather than a track: its name (`icy-name`, the
/// configured name) and configured identity strings (the logo shows when the title is, say,
/// "OtonFM"). Stations send their own name as the title between songs, during jingles and talk;
/// showing a track cover search for it would be wrong, so such a title means "station logo".
///
/// Matching is case-, whitespace- and punctuation-tolerant ("OTON FM" matches "OtonFM") but
/// whole-title: "OtonFM Hits - Song" is a track, not the identity. A string with no letters or
/// digits never matches anything, so a blank identity cannot turn every empty title into a logo.
package struct StationIdentity: Sendable, Equatable {
    private let keys: Set<String>

    package init(_ strings: [String?]) {
        keys = Set(strings.map { MetadataText.matchKey($0) }.filter { !$0.isEmpty })
    }

    /// True when `title` is one of the identity strings.
    package func matches(_ title: String?) -> Bool {
        let key = MetadataText.matchKey(title)
        return !key.isEmpty && keys.contains(key)
    }

    /// True when there is nothing to match against.
    package var isEmpty: Bool { keys.isEmpty }
}
