import Foundation

/// What another device's episode actions do to this library: pure decisions, so every rule the
/// sync must keep is a unit test.
///
/// The rules, and the failures of other players they prevent:
/// - An action finds its episode by the feed's guid first and by the audio address only then, so
///   a podcast that moved its files to another CDN keeps its history.
/// - Of all actions for one episode only the latest counts, and only when it is newer than what
///   this library last did with the episode: positions go to the latest action by timestamp,
///   whatever order the server lists them in.
/// - A play action never marks a finished episode unfinished (a full resync replays old plays);
///   only a `new` action that is newer than the listener's "played" does.
/// - `download` and `delete` say what another device keeps on its disk; they change nothing here
///   (a re-download elsewhere never makes an episode new again).
/// - An action whose episode this library does not have yet is not lost: the latest one per
///   episode is returned as `held`, kept by the library and merged again when the episode
///   appears (a refresh, a subscription, a feed that moved), by these same rules.
package enum EpisodeActionMerge {
    /// An episode of this library as the merge sees it.
    package struct Local: Sendable, Equatable {
        package var id: Int64
        package var podcastURL: String
        package var guid: String
        package var audioURL: String?
        package var position: TimeInterval
        package var played: Bool
        /// When the listener last moved it here; nil when never played or marked.
        package var updatedAt: Date?

        package init(
            id: Int64, podcastURL: String, guid: String, audioURL: String?, position: TimeInterval = 0, played: Bool = false, updatedAt: Date? = nil
        ) {
            self.id = id
            self.podcastURL = podcastURL
            self.guid = guid
            self.audioURL = audioURL
            self.position = position
            self.played = played
            self.updatedAt = updatedAt
        }
    }

    /// What to write for one episode.
    package struct Update: Sendable, Equatable {
        package var episodeID: Int64
        package var position: TimeInterval
        package var played: Bool
        /// The episode's length as the other device knew it (nil when it did not say), for an
        /// episode whose length is unknown here.
        package var duration: TimeInterval?
        /// The action's time, kept as the row's time so the change is not sent back.
        package var at: Date
    }

    /// What a batch of actions does.
    package struct Outcome: Sendable, Equatable {
        package var updates: [Update]
        /// Actions whose episode this library does not have (yet, or any more).
        package var unmatched: Int
        /// Of those, the latest play or new action per episode, to keep until the episode appears.
        package var held: [GpodderWire.EpisodeAction]
        /// Actions older than what this library did, or superseded by a later one.
        package var older: Int
    }

    /// Finds episodes by guid (preferring the same feed) and by audio address.
    package struct Matcher: Sendable {
        private var byGUID: [String: [Local]] = [:]
        private var byAudio: [String: Local] = [:]

        package init(_ episodes: [Local]) {
            for episode in episodes {
                byGUID[episode.guid, default: []].append(episode)
                if let audio = episode.audioURL, byAudio[audio] == nil { byAudio[audio] = episode }
            }
        }

        package func match(_ action: GpodderWire.EpisodeAction) -> Local? {
            if let guid = action.guid, let found = byGUID[guid], !found.isEmpty {
                if let samePodcast = found.first(where: { $0.podcastURL == action.podcast }) { return samePodcast }
                if found.count == 1 { return found[0] }
            }
            return byAudio[action.episode]
        }
    }

    /// The updates `actions` make to `episodes`.
    package static func merge(_ actions: [GpodderWire.EpisodeAction], into episodes: [Local]) -> Outcome {
        let matcher = Matcher(episodes)
        var latest: [Int64: (local: Local, action: GpodderWire.EpisodeAction)] = [:]
        var held: [String: GpodderWire.EpisodeAction] = [:]
        var unmatched = 0
        var older = 0
        for action in actions where action.action == .play || action.action == .new {
            guard let local = matcher.match(action) else {
                unmatched += 1
                let key = heldKey(action)
                if let kept = held[key], kept.timestamp >= action.timestamp { continue }
                held[key] = action
                continue
            }
            if let kept = latest[local.id] {
                older += 1
                if kept.action.timestamp >= action.timestamp { continue }
            }
            latest[local.id] = (local, action)
        }
        var updates: [Update] = []
        for (local, action) in latest.values.sorted(by: { $0.local.id < $1.local.id }) {
            if let mine = local.updatedAt, action.timestamp <= mine {
                older += 1
                continue
            }
            switch action.action {
            case .play:
                guard let position = action.position else { continue }
                let finished = action.total.map { position >= $0 } ?? false
                updates.append(
                    Update(
                        episodeID: local.id, position: TimeInterval(position), played: local.played || finished,
                        duration: action.total.map(TimeInterval.init), at: action.timestamp))
            case .new:
                updates.append(Update(episodeID: local.id, position: 0, played: false, duration: nil, at: action.timestamp))
            case .download, .delete:
                continue
            }
        }
        return Outcome(
            updates: updates, unmatched: unmatched, held: held.values.sorted { ($0.timestamp, $0.episode) < ($1.timestamp, $1.episode) },
            older: older)
    }

    /// One key per episode for actions kept until their episode appears: the feed's address
    /// with the guid when the sender gave one (it survives a new CDN; guids are only unique
    /// within a feed), else the audio address.
    package static func heldKey(_ action: GpodderWire.EpisodeAction) -> String {
        action.podcast + "\n" + (action.guid.map { "guid:" + $0 } ?? "url:" + action.episode)
    }
}
