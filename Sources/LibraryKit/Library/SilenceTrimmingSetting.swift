import Foundation
import Library
import PlayerCore
import PlayerKit

/// Silence trimming is a choice per podcast (speech shows gain from it, music ones do not), kept
/// in the library's settings.
package enum SilenceTrimmingSetting {
    package static func key(_ podcastID: Int64) -> String { "podcast.\(podcastID).trimSilence" }

    /// Whether episodes of `podcast` have their long silences shortened.
    package static func isOn(in store: LibraryStore, podcast: Int64?) -> Bool {
        guard let podcast else { return false }
        return (try? store.setting(key(podcast))) == "on"
    }

    package static func set(_ on: Bool, in store: LibraryStore, podcast: Int64) throws(PlaybackError) {
        try store.setSetting(key(podcast), on ? "on" : nil)
    }
}
