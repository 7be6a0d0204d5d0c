import Foundation
import PlayerCore

/// Every UI string Presentation shows, as a key of the text catalogs (`ui.<case>`; the texts are in
/// `Resources/<language>.lproj/Localizable.strings`). Player-state texts come from
/// `PlayerState.statusText`/`displayText` and error texts from `PlaybackError.text(in:)`; these
/// keys are the rest. Templates mark their arguments `%@` and `%d` (see `Texts`).
package enum UIString: String, Sendable, Hashable, Codable, CaseIterable, TextKey {
    // The expanded player's error view.
    case playbackErrorTitle
    case errorIconLabel
    case retryPlayback
    case retryHintSpoken
    case retryResumesAt
    case retryRejoinsLive
    case retryStartsOver
    case contextEpisode
    case contextPodcast
    case contextTrack
    case contextStation
    case contextArtist
    // Mini player.
    case miniPlayerFailedRetry
    case miniPlayerFailed
    case nothingPlaying
    // Now playing.
    case unknownTitle
    case live
    case stillConnecting
    case nextUp
    case outgoingDeck
    case incomingDeck
    case bufferFill
    case volume
    /// No sound server answered; the session renders to the file (`%@`) instead.
    case outputFellBack
    case speed
    case speedLive
    case sleepIn
    case sleepAtEndOfItem
    case sleepAtEndOfQueue
    case loudnessTrack
    case loudnessSession
    case loudnessGain
    case loudnessAdaptive
    /// A live stream's connection indicator on Now Playing.
    case connection
    case connectionGood
    case connectionFair
    case connectionPoor
    case connectionBitrate
    case connectionBuffered
    case connectionReconnecting
    /// A stream that keeps dropping (`DropWarning`): how often, and what the listener can do.
    case keepsDropping
    /// A podcast's time saved by silence trimming, on the Podcasts tab.
    case silenceSaved
    /// A podcast's episodes never started, on the Podcasts tab.
    case podcastNew
    /// A feed that has not answered for its last runs over days (usually unreachable): left out
    /// of refreshes of all. Short, as it shares the row with the episode counts.
    case usuallyUnreachable
    /// An episode's download on the Episodes list: kept, under way (percent), failed.
    case episodeDownloaded
    case episodeDownloading
    case episodeDownloadFailed
    /// The chapter playing ("Chapter 3/12: Title"), and the list's heading.
    case chapter
    case chapterUntitled
    case chapters
    /// The heading of the transcript pane (`t` on Now Playing).
    case transcript
    /// The same pane's heading when it holds a song's lyrics, and what it says of lyrics without
    /// times (shown whole, not followed).
    case lyrics
    case lyricsNotSynced
    /// A session's layers on Now Playing: its clock, the next bell, the bed (`SessionLayersViewState`).
    case sessionElapsed
    case sessionRemaining
    case sessionOpenEnded
    case nextBellIn
    case endBellIn
    case noBellsLeft
    case bed
    case bedLoading
    case bedFadingIn
    case bedPlaying
    case bedDucking
    case bedDucked
    case bedReleasing
    case bedFadingOut
    case bedEnded
    /// A bell as it sounds, in the line modes.
    case bellStart
    case bellAt
    case bellEnd
    case bellSkipped
    // Controls.
    case controlPlay
    case controlPause
    case controlResume
    case controlStop
    case controlSkip
    case controlSeekBackward
    case controlSeekForward
    case controlRetryNow
    case controlCancelRetry
    case controlRetry
    case controlReset
    // Components.
    case errorStateTitle
    case tryAgain
    case dismiss
    case ok
    case offlineBanner
    case loading
    case emptyStationsTitle
    case emptyStationsMessage
    case emptyStationsAction
    case emptyPodcastsTitle
    case emptyPodcastsMessage
    case emptyPodcastsAction
    case emptyEpisodesTitle
    case emptyEpisodesMessage
    case emptyEpisodesAction
    case emptySessionsTitle
    case emptySessionsMessage
    case emptySessionsAction
    case emptyHistoryTitle
    case emptyHistoryMessage
    case emptyQueueTitle
    case emptyQueueMessage
    case emptyFavouritesTitle
    case emptyFavouritesMessage
    case noResultsTitle
    case noResultsMessage
    /// The Music tab with nothing indexed: how to fill it (the screen's key, or the command).
    case emptyMusicTitle
    case emptyMusicMessage
    case emptyMusicAction
    /// The Music tab when its folder (`%@`) is not there.
    case noMusicFolderTitle
    case noMusicFolderMessage
    /// An update of the music index under way: scanning, then files read of those to read.
    case musicIndexScanning
    case musicIndexReading
    /// After an update: how many files could not be read (`%d`).
    case musicIndexUnreadable
    /// What `a` put after the song playing (`%@`: the song, album or artist).
    case musicQueued

    package var catalogKey: String { "ui.\(rawValue)" }
}

/// UI texts by typed key, looked up in the catalogs through `Texts`.
package enum UIStrings {
    /// The text of `key` in `language`.
    package static func text(_ key: UIString, in language: Language) -> String {
        Texts.string(key, in: language)
    }

    /// The template of `key` with its placeholders filled by `arguments`, in one pass (an
    /// argument that itself contains `%@` is never expanded again).
    package static func format(_ key: UIString, in language: Language, _ arguments: any CVarArg...) -> String {
        Texts.format(key.catalogKey, in: language, arguments: arguments)
    }
}
