/// Which of the two decks (A and B) the mixer crossfades between: the name the state machine and
/// the engine use for a deck, while `Deck` in the engine is the deck itself.
public enum DeckID: String, Sendable, Hashable, Codable, CaseIterable {
    case a
    case b

    /// The other deck: where the next track loads.
    public var opposite: DeckID { self == .a ? .b : .a }
}
