import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation
import Services
import TerminalUI

/// What reaches the library screen's state machine: the listener's keys, and the answers of what
/// its effects asked for (the library, the station directory, downloads, the player). Every one
/// is a fact; the machine decides what it means.
enum LibraryEvent: Sendable {
    // MARK: The screen and the listener

    /// The screen opens: the first tab is filled.
    case opened
    case key(Key)
    /// MPRIS's Quit or a signal: the screen ends as on `q`.
    case quit
    /// The screen closes: a removal still waiting for its undo is carried out.
    case closing
    /// The network came or went (the offline banner, the player's reconnect pausing).
    case network(online: Bool)

    // MARK: The library's answers (read or changed at once)

    /// The current tab's rows, read for `reload`.
    case rows(Result<[(LibraryRow, LibraryEntry)], PlaybackError>)
    /// A `change` was made, or failed.
    case changed(LibraryChange, failure: PlaybackError?)
    /// A removal could not be carried out (nothing on screen changes; it is recorded).
    case removalFailed(PlaybackError)
    /// What an episode row plays (a failure to read it is the episode's failure).
    case episodeResolved(Int64, Result<PlayerEvent.Replacement, PlaybackError>)
    /// What an episode's soundbite plays, and for how many seconds.
    case soundbiteResolved(Result<(PlayerEvent.Replacement, clip: TimeInterval), PlaybackError>)
    /// What a session row plays, read from its file.
    case sessionResolved(Result<PlayRequest, PlaybackError>)
    /// The queue from the entry Enter was pressed on.
    case queueResolved(Result<QueuePlan, PlaybackError>)
    /// `likeCurrent`: true when a song was playing to like.
    case likedCurrent(Result<Bool, PlaybackError>)
    case diagnosticsLoaded(ErrorAnalyticsSummary?, RetryStatisticsSummary?)

    // MARK: Answers that come later (the network, downloads, the player)

    /// The answer to the directory search numbered `search`.
    case directoryAnswered(search: Int, Result<[DirectoryStation], PlaybackError>)
    /// A feed typed into the prompt was added, or failed (it records its own failures).
    case feedAdded(failure: PlaybackError?)
    /// `refreshPodcasts` ended: the first feed that failed, or the error that stopped the batch.
    case podcastsRefreshed(Result<PlaybackError?, PlaybackError>)
    /// One podcast's new episodes were downloaded by themselves after a refresh.
    case autoDownloaded(failure: PlaybackError?)
    /// Episodes started or stopped downloading, or were removed: their list is out of date.
    case episodesChanged
    /// An episode downloading from this screen got further, at `at`.
    case downloadProgressed(episode: Int64, at: Date)
    case downloadFinished(episode: Int64, failure: PlaybackError?)
    /// The player published `update`.
    case player(PlayerUpdate)
    /// Playback could not start.
    case playFailed(PlaybackError, operation: AnalyticsIdentifier)
    /// A later part of the queue left an entry out, or could not start: told, the rest plays on.
    case queueEntryFailed(PlaybackError)
    /// The music index's update read more files (or ended its scan: `read` 0 of `total`).
    case musicIndexProgressed(MusicIndexProgress)
    /// The music index's update ended, or failed.
    case musicIndexed(Result<MusicIndexer.Summary, PlaybackError>)
}
