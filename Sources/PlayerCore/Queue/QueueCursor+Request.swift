extension QueueCursor {
    /// One request to the player, built by offering entries in play order: the entries it holds
    /// and the entry the queue goes on with once it has played to its end. The rule that an
    /// entry which plays alone is a request of its own is kept here only, so an owner that
    /// learns whether an entry plays alone one entry at a time (the library reads each entry's
    /// session as it goes) offers them as it learns and stops when an offer is refused.
    public struct Request: Sendable, Hashable {
        /// The entries the request holds, in the order they play.
        public private(set) var ids: [ID] = []
        /// The first entry the request could not hold: where the queue goes on after it. Nil
        /// while every entry offered has joined.
        public private(set) var continuesFrom: ID?
        private var holdsOneAlone = false

        public init() {}

        /// Offers the next entry in play order; true when it joins. An entry that plays alone
        /// joins only an empty request, and nothing joins after it; the first entry refused is
        /// `continuesFrom`, and every later offer is refused too.
        public mutating func offer(_ entry: Entry) -> Bool {
            guard continuesFrom == nil else { return false }
            if !ids.isEmpty, holdsOneAlone || entry.playsAlone {
                continuesFrom = entry.id
                return false
            }
            ids.append(entry.id)
            holdsOneAlone = entry.playsAlone
            return true
        }
    }
}
