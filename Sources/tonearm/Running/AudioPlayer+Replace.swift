import AudioEngine
import Foundation
import PlayerCore

extension AudioPlayer {
    /// Starts `intent` (`.play` or `.cannotPlay`) even while something else plays: the state
    /// machine accepts a new play request only when idle, finished or failed, so a running
    /// playback is stopped first (with its fade) and the request follows once it is idle.
    func start(replacingCurrent intent: PlayerEvent) async throws(PlaybackError) {
        if !state.allows(.play), state.allows(.stop) {
            try stop()
            let deadline = Date().addingTimeInterval(5)
            while !state.allows(.play), Date() < deadline {
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        try send(intent)
    }
}
