import PlayerCore
import Presentation

/// What a key press asks for: a player command (which the state reads through `PlayerCommand`),
/// or a move around the screens.
package enum KeyAction: String, Sendable, Hashable, CaseIterable, Codable {
    case up, down, play, pauseResume, stop, next, seekBackward, seekForward, retry, dismiss, add, search, help, quit
    case volumeUp, volumeDown, sleep, sleepLonger, faster, slower, loudness
    /// Find stations in the directory.
    case directory
    /// Like the song playing (Now Playing) or selected (History, Favourites), or unlike it.
    case like
    /// Keep the selected episode on disk for listening without a network.
    case download
    /// Put the selected episode, station or session at the end of the queue.
    case enqueue
    /// Move the selected queue entry one place up or down.
    case moveUp, moveDown
    /// Take the selected entry off the queue; remove the selected station, podcast or session
    /// from the library (after a yes to a question that names it).
    case remove
    /// Bring back what was removed last while the screen is open.
    case undo
    /// Rename the selected station.
    case rename
    /// Mark the selected episode played (or unplayed again); every episode of a podcast.
    case markPlayed, markAllPlayed
    /// Fetch every podcast's feed again (the Podcasts tab).
    case refreshAll
    /// The start of this chapter, or of the one before within its first seconds (Now Playing).
    case previousChapter
    /// Show or hide the list of the item's chapters (Now Playing).
    case chapters
    /// Show or hide the level meter of what is sent to the output (Now Playing).
    case levelMeter
    /// Show or hide the transcript, which follows the voice; Enter on a line seeks there (Now Playing).
    case transcript
    /// A line with what is playing (the song and station, or the episode at this time), shown and
    /// put on the clipboard (Now Playing).
    case share
    /// Play the selected episode's soundbite, the next one each press (the Episodes list).
    case soundbite

    /// The player command this key stands for, if it is one (Enter opens what is selected, so it
    /// is the screens' own).
    package var command: PlayerCommand? {
        switch self {
        case .pauseResume: .playPause
        case .stop: .stop
        case .dismiss: .cancelRetry
        // One key for "next": the next chapter while an item with chapters plays (the last chapter
        // goes on to the next item), the next item otherwise. A separate key would leave `n`
        // skipping a whole episode, which is rarely what a listener inside one means.
        case .next: .chapter(.next)
        case .previousChapter: .chapter(.previous)
        case .seekBackward: .seekBy(-PlayerControl.seekBackwardSeconds)
        case .seekForward: .seekBy(PlayerControl.seekForwardSeconds)
        case .retry: .retry
        case .volumeUp: .volume(.by(Volume.step))
        case .volumeDown: .volume(.by(-Volume.step))
        case .sleep: .sleep(.cycle)
        case .sleepLonger: .sleep(.extend(by: 300))
        case .faster: .speed(.by(PlaybackSpeed.step))
        case .slower: .speed(.by(-PlaybackSpeed.step))
        case .loudness: .loudness(.cycle)
        case .play, .up, .down, .add, .search, .help, .quit, .directory, .like, .download, .refreshAll, .enqueue, .moveUp, .moveDown, .remove, .markPlayed,
            .markAllPlayed, .undo, .rename, .chapters, .levelMeter, .transcript, .share, .soundbite: nil
        }
    }
}
