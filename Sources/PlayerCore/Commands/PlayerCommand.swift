import Foundation

/// What a listener asks a front end for (a key, an MPRIS call, a line on stdin, a row of the
/// library screen) before the player's state says what it means. Every front end turns its input
/// into a `PlayerCommand` and asks `intent(in:position:)`, so one request means one thing wherever
/// it comes from.
///
/// The rules, one per command, each "the first intent the state allows":
/// - `playPause`: pause, resume, retry. From a recoverable `failed` it retries at the saved place,
///   from every front end (space, MPRIS PlayPause, stdin `play`).
/// - `play`: resume, retry (never pauses).
/// - `retry`: retry, or during a reconnect countdown retry now.
/// - `seekBy`: from the position last shown, never before 0.
/// - `open`: always accepted; it replaces what plays (`PlayerEvent.replace`).
/// - `volume`, `sleep`, `speed`, `trimSilence`, `loudness`: always accepted, in every state.
/// - `chapter`: a seek to a chapter's start, worked out from the item's chapters and the position
///   last shown (`ChapterList`'s rules): `next` goes to the next chapter's start, and in the last
///   chapter, or for an item without chapters, means `next` (the next item), so one key serves
///   both; `previous` restarts the current chapter, or within `ChapterList.restartWindow` of its
///   start goes to the one before, and means nothing without chapters; `number(n)` (from 1) goes
///   to that chapter's start.
public enum PlayerCommand: Sendable, Equatable {
    case playPause
    case play
    case pause
    case stop
    /// The next item of the queue.
    case next
    case retry
    case retryNow
    /// During a reconnect countdown: stop trying and show the failure with Retry.
    case cancelRetry
    case reset
    /// Seconds from the current position (negative = back).
    case seekBy(TimeInterval)
    case seekTo(TimeInterval)
    /// Something new to play, in place of what plays.
    case open(PlayerEvent.Replacement)
    case volume(VolumeChange)
    case sleep(SleepRequest)
    case speed(SpeedChange)
    case trimSilence(Bool)
    case loudness(LoudnessChange)
    /// Move between the current item's chapters.
    case chapter(ChapterMove)

    /// Where a `chapter` command goes.
    public enum ChapterMove: Sendable, Equatable {
        case next
        case previous
        /// The chapter numbered from 1, as front ends show it.
        case number(Int)
    }

    /// The intent this command means in `state`, or nil when it means nothing there.
    /// - Parameter state: the player's state as last published.
    /// - Parameter position: the current track's position as last published, for relative seeks.
    /// - Parameter current: the levelling in force, for `loudness(.cycle)`.
    /// - Parameter chapters: the current item's chapters as last published, for `chapter`.
    public func intent(
        in state: PlayerState, position: TimeInterval?, loudness current: LoudnessLevelling = .off, chapters: ChapterList? = nil
    ) -> PlayerEvent? {
        func first(_ actions: [PlayerAction]) -> PlayerEvent? {
            actions.first(where: state.allows).flatMap(Self.event)
        }
        switch self {
        case .playPause: return first([.pause, .resume, .retry])
        case .play: return first([.resume, .retry])
        case .pause: return first([.pause])
        case .stop: return first([.stop])
        case .next: return first([.skip])
        case .retry: return first([.retry, .retryNow])
        case .retryNow: return first([.retryNow])
        case .cancelRetry: return first([.cancelRetry])
        case .reset: return first([.reset])
        case .seekBy(let offset):
            guard state.allows(.seek), offset.isFinite else { return nil }
            return .seek(to: max(0, (position ?? 0) + offset))
        case .seekTo(let target):
            guard state.allows(.seek), target.isFinite, target >= 0 else { return nil }
            return .seek(to: target)
        case .open(let replacement):
            return .replace(replacement)
        case .volume(let change):
            return .setVolume(change)
        case .sleep(let request):
            return .setSleepTimer(request)
        case .speed(let change):
            return .setSpeed(change)
        case .trimSilence(let on):
            return .setSilenceTrimming(on)
        case .loudness(let change):
            return .setLoudness(change.applied(to: current))
        case .chapter(let move):
            // Chapters of another item (published for the one that played before) mean nothing here.
            let list = chapters.flatMap { $0.trackID == state.currentTrack?.id && !$0.isEmpty ? $0 : nil }
            return chapterIntent(move, in: state, position: position ?? 0, chapters: list)
        }
    }

    private func chapterIntent(_ move: ChapterMove, in state: PlayerState, position: TimeInterval, chapters: ChapterList?) -> PlayerEvent? {
        let target: TimeInterval?
        switch move {
        case .next:
            guard let chapters, let start = chapters.nextStart(after: position) else { return first(of: [.skip], in: state) }
            target = start
        case .previous:
            target = chapters?.previousStart(before: position)
        case .number(let number):
            guard let chapters, number >= 1, number <= chapters.count else { return nil }
            target = chapters.chapters[number - 1].start
        }
        guard let target, state.allows(.seek) else { return nil }
        return .seek(to: target)
    }

    private func first(of actions: [PlayerAction], in state: PlayerState) -> PlayerEvent? {
        actions.first(where: state.allows).flatMap(Self.event)
    }

    /// The action a front end names when the state refuses the command (for its message).
    public var action: PlayerAction {
        switch self {
        case .playPause, .play: .resume
        case .pause: .pause
        case .stop: .stop
        case .next: .skip
        case .retry: .retry
        case .retryNow: .retryNow
        case .cancelRetry: .cancelRetry
        case .reset: .reset
        case .seekBy, .seekTo, .chapter: .seek
        case .open: .play
        case .volume, .sleep, .speed, .trimSilence, .loudness: .resume  // never refused: every state accepts them
        }
    }

    /// The intent of an action that needs no argument.
    private static func event(_ action: PlayerAction) -> PlayerEvent? {
        switch action {
        case .pause: .pause
        case .resume: .resume
        case .stop: .stop
        case .skip: .skip
        case .retry: .retry
        case .retryNow: .retryNow
        case .cancelRetry: .cancelRetry
        case .reset: .reset
        case .play, .seek: nil
        }
    }
}
