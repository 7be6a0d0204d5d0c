import AudioEngine
import MPDProtocol
import PlayerCore

/// `replay_gain_mode` applied by Tonearm's own levelling rather than kept as a label: `track`
/// levels each song to the target by its loudness (a ReplayGain or R128 track tag, a kept or a
/// background measurement), `album` levels the album as a whole (its album gain tag, or a
/// session's combined loudness), `off` plays songs as they were mastered, and `auto` is `album`
/// while the queue plays in order and `track` when it is shuffled (an album heard out of order is
/// no album), as mpd decides it. The levelling's target and limiter stay as configured.
extension MPDQueue.ReplayGainMode {
    /// The levelling this mode asks for, with the queue in random order or not.
    func levelling(random: Bool) -> LoudnessMode {
        switch self {
        case .off: .off
        case .track: .track
        case .album: .session
        case .auto: random ? .track : .session
        }
    }

    /// The mode a client is first told: the levelling the daemon started with.
    init(_ levelling: LoudnessMode) {
        switch levelling {
        case .off: self = .off
        case .track: self = .track
        case .session: self = .album
        }
    }
}

extension MPDPlayerBackend {
    /// Gives the player the levelling the queue's options ask for, when it differs from what it
    /// plays with (a client's `tonearm_levelling` or a key on the terminal may have changed it).
    func applyReplayGain() async throws(MPDAck) {
        let current = await player.loudness
        let mode = queue.options.replayGain.levelling(random: queue.options.random)
        guard current.mode != mode else { return }
        logger.info("MPD replay gain mode applied", metadata: ["mode": "\(queue.options.replayGain.rawValue)", "levelling": "\(mode.rawValue)"])
        try await send(.setLoudness(LoudnessLevelling(mode: mode, target: current.target)))
    }
}
