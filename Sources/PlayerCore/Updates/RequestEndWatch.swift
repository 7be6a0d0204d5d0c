/// Whether a request played to its own end, read from the player's updates: its last item
/// finished by itself, then the player finished (after a session's closing, if it had layers). A
/// stop, a failure, a skip off the end or a new request never counts.
///
/// A front end that plays a queue in more than one request (a session with layers is a request
/// of its own) starts the next part only on this, so a listener's Stop, MPRIS's included, stays
/// a stop. The player tells an item's end before the state that follows it, so the order is
/// always notice, then `finished`.
public struct RequestEndWatch: Sendable, Hashable {
    /// The track id of the request's last item.
    public private(set) var lastItemID: String?
    private var lastItemFinished = false

    public init(lastItemID: String?) {
        self.lastItemID = lastItemID
    }

    /// The request's items changed (`setUpcoming`): its last item may be another.
    public mutating func expect(lastItemID: String?) {
        guard lastItemID != self.lastItemID else { return }
        self.lastItemID = lastItemID
        lastItemFinished = false
    }

    /// Folds `update` in; true once, at the `finished` state that ends a request played to its end.
    public mutating func observe(_ update: PlayerUpdate) -> Bool {
        switch update {
        case .notice(.trackFinished(let track), _):
            lastItemFinished = lastItemID != nil && track.id == lastItemID
            return false
        case .state(let state, _, _):
            switch state.name {
            case .finished:
                defer { lastItemFinished = false }
                return lastItemFinished
            case .fadingOut:
                // A session's closing, or the stop's fade: only the first follows its end.
                return false
            default:
                // Anything that plays again (a seek back after the end, a new request) starts over.
                if state.currentTrack?.id != lastItemID || state.name == .failed || state.name == .idle { lastItemFinished = false }
                return false
            }
        default:
            return false
        }
    }
}
