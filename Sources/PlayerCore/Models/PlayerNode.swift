/// One of the two physical decks (A and B) the mixer crossfades between.
public enum PlayerNode: String, Sendable, Hashable, Codable, CaseIterable {
    case a
    case b

    /// The other deck: where the next track loads.
    public var opposite: PlayerNode { self == .a ? .b : .a }
}
