import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Services

/// What the library screen's state machine asks its runner to do.
enum LibraryEffect: Sendable {
    // MARK: The library, read or changed at once

    /// Reads the current tab's rows (answered by `rows`).
    case reload
    /// Changes the library (answered by `changed`).
    case change(LibraryChange)
    /// Removes from the library what the listener removed on the screen (a podcast with its
    /// downloaded files); a failure is answered by `removalFailed`.
    case remove(LibraryEntry)
    /// Logs that `entry` left the screen (its kind only).
    case logRemoval(LibraryEntry)
    /// Reads what a row plays (answered by `episodeResolved`, `sessionResolved`, `queueResolved`).
    case resolve(PlayTarget)
    /// Likes the song playing (answered by `likedCurrent`).
    case likeCurrent

    // MARK: What waits for the network, the disk or the player

    /// Starts something on the app's one player (made on first use); a failure is `playFailed`.
    case play(Playback)
    /// Sends an intent to the player, when there is one.
    case send(PlayerEvent)
    /// Searches the station directory (answered by `directoryAnswered` with the same number).
    case searchDirectory(StationQuery, search: Int)
    /// Tells the directory a station of it was played.
    case countClick(directoryID: String)
    /// Fetches and keeps a podcast's feed (answered by `feedAdded`).
    case addFeed(URL)
    /// Fetches every podcast's feed again, then their new episodes for those that download by
    /// themselves (answered by `podcastsRefreshed`, `episodesChanged`, `autoDownloaded`).
    case refreshPodcasts
    /// Downloads an episode (answered by `episodesChanged`, `downloadProgressed`, `downloadFinished`).
    case download(episode: Int64)
    /// Reads the error and retry summaries for the Diagnostics tab (answered by `diagnosticsLoaded`).
    case loadDiagnostics
    /// Records an error in the local analytics.
    case record(PlaybackError, operation: AnalyticsIdentifier)
    /// Brings the music index up to date with the music folder, on a thread of its own (answered
    /// by `musicIndexProgressed` as it goes, then `musicIndexed`).
    case updateMusicIndex(rescan: Bool)

    /// True for the library's reads and changes: the runner performs them on the thread that
    /// handles the event, before the screen is drawn again, as the lists are read there.
    var isAtOnce: Bool {
        switch self {
        case .reload, .change, .remove, .logRemoval, .resolve, .likeCurrent: true
        case .play, .send, .searchDirectory, .countClick, .addFeed, .refreshPodcasts, .download, .loadDiagnostics, .record, .updateMusicIndex: false
        }
    }
}

/// A change of the library a key asks for.
enum LibraryChange: Sendable, Equatable {
    case addStation(name: String, url: URL)
    /// Keeps a directory result (with its directory id).
    case addFoundStation(DirectoryStation)
    case renameStation(id: Int64, name: String)
    case enqueue(QueueTarget)
    case moveInQueue(entryID: Int64, to: Int)
    case dequeue(entryID: Int64)
    case markPlayed(episodeID: Int64, Bool)
    case markAllPlayed(podcastID: Int64)
    /// Likes a title heard on a station (at the time the runner makes the change).
    case like(HeardTitle)
    case unlike(title: String, artist: String?)

    /// The operation a failure is recorded under.
    var operation: AnalyticsIdentifier {
        switch self {
        case .addStation, .addFoundStation: "addStation"
        case .renameStation: "renameStation"
        case .enqueue: "enqueue"
        case .moveInQueue: "moveInQueue"
        case .dequeue: "dequeue"
        case .markPlayed, .markAllPlayed: "markPlayed"
        case .like, .unlike: "likeSong"
        }
    }
}

/// A row whose playable form the library must read first.
enum PlayTarget: Sendable, Equatable {
    /// An episode, from `from` (a search hit's time) or where the listener stopped.
    case episode(Int64, from: TimeInterval? = nil)
    /// A session, from its file.
    case session(path: String)
    /// The queue from this entry on, in order.
    case queue(from: Int64)
    /// An episode's soundbite `number` (from 1): from its start, for its length.
    case soundbite(episode: Int64, number: Int)
}

/// Something to start on the player, with Now Playing open.
struct Playback: Sendable {
    var replacement: PlayerEvent.Replacement
    /// The episode it is: its place is kept, and it plays at its podcast's speed.
    var episode: Int64?
    /// The queue's plan when it plays the queue: its recorder keeps the queue and each episode's place.
    var queue: QueuePlan?
    /// A clip's seconds (a soundbite): it plays at 1x for this long, then fades in a second, and
    /// the listener's place in its episode is not touched.
    var clip: TimeInterval?
    var operation: AnalyticsIdentifier

    init(
        replacement: PlayerEvent.Replacement, episode: Int64? = nil, queue: QueuePlan? = nil, clip: TimeInterval? = nil,
        operation: AnalyticsIdentifier
    ) {
        self.replacement = replacement
        self.episode = episode
        self.queue = queue
        self.clip = clip
        self.operation = operation
    }
}
