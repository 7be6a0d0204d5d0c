import AudioEngine
import Foundation
import PlayerCore

/// What an alarm needs from the process it runs in: a player when it is due (the daemon's own, or
/// one opened on the output just then), and what its source plays.
package protocol AlarmHost: Sendable {
    /// A started player to sound the alarm on; the output's typed error when there is none.
    func player() async throws(PlaybackError) -> AudioPlayer

    /// What the alarm's source plays, looked up now.
    func replacement(for source: Alarm.Source) async throws(PlaybackError) -> PlayerEvent.Replacement
}
