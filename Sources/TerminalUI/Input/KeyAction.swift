import PlayerCore

/// What a key press asks for. Player actions are sent only when the state's `allowedActions`
/// holds them; the rest move around the screens.
public enum KeyAction: String, Sendable, Hashable, CaseIterable, Codable {
    case up, down, play, pauseResume, stop, next, seekBackward, seekForward, retry, dismiss, add, search, help, quit

    /// The player action this key sends, if it is one.
    public var playerActions: [PlayerAction] {
        switch self {
        case .pauseResume: [.pause, .resume]
        case .stop: [.stop]
        case .dismiss: [.cancelRetry]
        case .next: [.skip]
        case .seekBackward, .seekForward: [.seek]
        case .retry: [.retry, .retryNow]
        case .play: [.play]
        case .up, .down, .add, .search, .help, .quit: []
        }
    }
}
