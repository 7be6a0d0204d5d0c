import PlayerCore

/// Resolves what a listener typed (`3`, `the daily`, `dail`) to one library item. Pure, so every
/// rule (and every ambiguity) is tested without a database.
enum LibraryLookup {
    struct Candidate: Sendable, Equatable {
        let id: Int64
        let name: String
    }

    enum Outcome: Sendable, Equatable {
        case found(Int64)
        case none
        /// Several items match equally well; their ids.
        case ambiguous([Int64])
    }

    /// For podcasts, whose titles come from feeds and may repeat: a numeric id, else the exact
    /// title ignoring case, else a title prefix ignoring case; each step must find exactly one.
    static func podcast(_ query: String, among candidates: [Candidate]) -> Outcome {
        let cleaned = TextSanitizer.singleLine(query)
        guard !cleaned.isEmpty else { return .none }
        if let id = Int64(cleaned), candidates.contains(where: { $0.id == id }) { return .found(id) }
        let key = LibraryText.key(cleaned)
        let exact = candidates.filter { LibraryText.key($0.name) == key }
        if !exact.isEmpty { return outcome(exact) }
        return outcome(candidates.filter { LibraryText.key($0.name).hasPrefix(key) })
    }

    /// For stations and sessions, whose names the listener chose and which are unique: the exact
    /// name ignoring case, else a numeric id. Name first, because station names are often numbers
    /// (Radio 538, 1LIVE's "1").
    static func named(_ query: String, among candidates: [Candidate]) -> Outcome {
        let cleaned = TextSanitizer.singleLine(query)
        guard !cleaned.isEmpty else { return .none }
        let key = LibraryText.key(cleaned)
        if let match = candidates.first(where: { LibraryText.key($0.name) == key }) { return .found(match.id) }
        if let id = Int64(cleaned), candidates.contains(where: { $0.id == id }) { return .found(id) }
        return .none
    }

    /// The outcome as an id or `.notInLibrary` (whose log text says which of none or ambiguous).
    static func require(_ outcome: Outcome, _ what: String) throws(PlaybackError) -> Int64 {
        switch outcome {
        case .found(let id): return id
        case .none: throw PlaybackError(.notInLibrary, underlying: "no \(what) matches")
        case .ambiguous(let ids): throw PlaybackError(.notInLibrary, underlying: "\(ids.count) \(what)s match; be more specific")
        }
    }

    private static func outcome(_ matches: [Candidate]) -> Outcome {
        switch matches.count {
        case 0: return .none
        case 1: return .found(matches[0].id)
        default: return .ambiguous(matches.map(\.id))
        }
    }
}
