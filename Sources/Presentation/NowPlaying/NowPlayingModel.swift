import Foundation
import PlayerCore

/// What Now Playing knows, collected from the player's updates: the latest state (with the
/// player-clock time it was published at), position, metadata and the inline error. It records
/// facts only; every decision about what they mean is Presentation's.
package struct NowPlayingModel: Sendable {
    /// The wall clock, passed in by the front end (a test passes its own): countdowns and the
    /// time spent preparing run on it between two updates.
    private let wallClock: @Sendable () -> Date

    package init(wallClock: @escaping @Sendable () -> Date = Date.init) {
        self.wallClock = wallClock
        stateReceived = wallClock()
        sleepReceived = stateReceived
    }

    package var state: PlayerState = .idle
    package var stateNow: PlayerTime?
    package var stateReceived: Date
    package var position: Double?
    package var duration: Double?
    package var metadata: NowPlayingMetadata?
    package var inlineError: PlaybackError?
    /// The listener liked the song playing now (`markLiked`).
    package private(set) var liked = false

    /// The song playing now was liked: shown until the next song.
    package mutating func markLiked() {
        liked = true
        version += 1
    }

    /// The share line last given (`share()`), shown under the controls.
    package private(set) var shared: String?

    /// The line that shares what is playing now (`ShareLine`); nil when nothing plays.
    package mutating func share() -> String? {
        guard let track = state.currentTrack else { return nil }
        shared = ShareLine.line(track: track, metadata: metadata, position: position)
        version += 1
        return shared
    }
    package var preparingSince: Date?
    /// From the connectivity monitor; unknown without one (no banner).
    package var connectivity: Connectivity = .unknown
    package var started = false
    /// The listener's volume, once the player has said it.
    package var volume: Volume?
    /// The speed of files and episodes, once the player has said it.
    package var speed: PlaybackSpeed?
    /// Loudness levelling, once the player has said it, with the current track's gain (nil:
    /// levelled adaptively, or off).
    package var loudness: LoudnessLevelling?
    package var loudnessGain: Double?
    /// A live stream's connection, once the player has said it (cleared with a new track).
    package var connection: ConnectionQuality?
    /// The current stream keeps dropping (`PlayerNotice.keepsDropping`): how often, in how long.
    package private(set) var keepsDropping: (drops: Int, within: Double)?
    /// The layers of the session that plays (its clock, bed and next bell); nil for anything else.
    package var layers: SessionLayersStatus?
    /// The sleep timer, with the player's time when it was told and the wall time it arrived.
    package var sleepTimer: SleepTimer?
    package var sleepNow: PlayerTime?
    package var sleepReceived: Date
    /// The current item's chapters, once the player has said them (nil: none).
    package var chapters: ChapterList?
    /// The chapter the position is in, as the player said (nil: none, or before the first).
    package var chapter: ChapterPosition?
    /// The current item's transcript, once the player has said it (nil: none).
    package var transcript: Transcript?
    /// The cue spoken at the position, as the player said (nil: between cues, or none).
    package var cue: TranscriptCuePosition?
    /// The listener opened the transcript (`t`); it closes with the same key.
    package private(set) var showsTranscript = false
    /// The line the listener moved to in the open transcript; nil: the pane follows the voice.
    package private(set) var transcriptSelection: Int?

    /// Opens or closes the transcript; there is nothing to open for an item without one. It opens
    /// following the voice.
    package mutating func toggleTranscript() {
        showsTranscript = !showsTranscript && transcript?.isEmpty == false
        transcriptSelection = nil
        version += 1
    }

    /// Moves the chosen line by `offset` (from the line spoken, or the first, when none is chosen).
    package mutating func moveTranscriptSelection(by offset: Int) {
        guard showsTranscript, let transcript, !transcript.isEmpty else { return }
        let from = transcriptSelection ?? cue?.index ?? (offset > 0 ? -1 : transcript.cues.count)
        transcriptSelection = min(transcript.cues.count - 1, max(0, from + offset))
        version += 1
    }

    /// Where Enter on the chosen line seeks: its start, in a timed transcript; nil otherwise. The
    /// pane follows the voice again from there.
    package mutating func takeTranscriptSelection() -> TimeInterval? {
        guard showsTranscript, let transcript, transcript.timed, let index = transcriptSelection, transcript.cues.indices.contains(index)
        else { return nil }
        transcriptSelection = nil
        version += 1
        return transcript.cues[index].start
    }

    /// The transcript pane for the current item; nil without a transcript.
    package func transcriptView(language: Language) -> TranscriptViewState? {
        TranscriptViewState(transcript: transcript, current: cue, selection: transcriptSelection, language: language)
    }

    /// The listener opened the list of chapters (`c`); it closes with the same key.
    package private(set) var showsChapters = false

    /// Opens or closes the list of chapters; there is nothing to open for an item without them.
    package mutating func toggleChapters() {
        showsChapters = !showsChapters && chapters?.isEmpty == false
        version += 1
    }

    /// The listener turned the level meter on (`v`); it goes off with the same key.
    package private(set) var showsLevelMeter = false

    package mutating func toggleLevelMeter() {
        showsLevelMeter.toggle()
        version += 1
    }

    /// The chapter line and list for the current item; nil without chapters.
    package func chapterView(language: Language) -> ChapterViewState? {
        ChapterViewState(chapters: chapters, current: chapter, language: language)
    }
    /// Bumped on every change, so the drawing loop redraws only when something changed.
    package var version = 0

    package mutating func apply(_ update: PlayerUpdate) {
        switch update {
        case .state(let state, _, let now):
            if state.name == .preparing, self.state.name != .preparing { preparingSince = wallClock() }
            if state.currentTrack?.id != self.state.currentTrack?.id {
                metadata = nil
                connection = nil
                keepsDropping = nil
            }
            // A new track or episode clears the old problem, as the error view clears too.
            if state.name == .preparing || state.name == .playing, self.state.name == .failed { inlineError = nil }
            self.state = state
            stateNow = now
            stateReceived = wallClock()
            if state.name != .idle { started = true }
        case .position(let seconds, let duration, _):
            position = seconds
            self.duration = duration
        case .notice(.metadata(let metadata), _):
            // Another song: the like shown was for the last one.
            if metadata.title != self.metadata?.title || metadata.artist != self.metadata?.artist { liked = false }
            self.metadata = metadata
        case .notice(.chapters(let list), _):
            chapters = list
            if list?.isEmpty ?? true { showsChapters = false }
        case .notice(.chapter(let position), _):
            chapter = position
        case .notice(.transcript(let transcript), _):
            self.transcript = transcript
            transcriptSelection = nil
            if transcript?.isEmpty ?? true { showsTranscript = false }
        case .notice(.cue(let position), _):
            cue = position
        case .notice(.nonFatal(let error), _), .notice(.serviceProblem(let error), _):
            inlineError = error
        case .notice(.keepsDropping(_, let drops, let within), _):
            keepsDropping = (drops, within)
        case .notice:
            return
        case .volume(let volume, _):
            self.volume = volume
        case .speed(let speed, _):
            self.speed = speed
        case .loudness(let levelling, let gain, _):
            loudness = levelling
            loudnessGain = gain
        case .connection(let quality, _):
            connection = quality
        case .sleepTimer(let timer, _, let now):
            sleepTimer = timer
            sleepNow = now
            sleepReceived = wallClock()
        case .layers(let status, _):
            layers = status
        }
        version += 1
    }

    /// What to tell a listener whose stream keeps dropping; nil when it does not.
    package func keepsDroppingText(language: Language) -> String? {
        keepsDropping.map { Texts.format(UIString.keepsDropping, in: language, $0.drops, Int(($0.within / 60).rounded())) }
    }

    package mutating func networkChanged(online: Bool) {
        connectivity = online ? .online : .offline
        version += 1
    }

    package mutating func dismissInlineError() {
        guard inlineError != nil else { return }
        inlineError = nil
        version += 1
    }

    /// The player-clock time now, for countdowns: the state's time plus the wall time since.
    package var now: PlayerTime? {
        stateNow.map { $0 + wallClock().timeIntervalSince(stateReceived) }
    }

    /// Seconds until the sleep timer runs out, as of now (nil without a countdown).
    package var sleepRemaining: TimeInterval? {
        guard let sleepTimer, let sleepNow else { return nil }
        return sleepTimer.remaining(at: sleepNow + wallClock().timeIntervalSince(sleepReceived))
    }

    /// "Sleep in 29:41", "Sleep at the end of this item", "Sleep at the end of the queue"; nil
    /// without a timer.
    package func sleepText(language: Language) -> String? {
        guard let sleepTimer else { return nil }
        switch sleepTimer.ending {
        case .afterDuration: return Texts.format(UIString.sleepIn, in: language, EpisodeText.clock(sleepRemaining ?? 0))
        case .endOfItem: return Texts.string(UIString.sleepAtEndOfItem, in: language)
        case .endOfQueue: return Texts.string(UIString.sleepAtEndOfQueue, in: language)
        }
    }

    /// "Speed 1.5×" while the current item plays at another speed than 1x; "Speed 1× (live)" when a
    /// live stream ignores the listener's speed.
    package func speedText(language: Language) -> String? {
        guard let speed, speed != .normal, let track = state.currentTrack else { return nil }
        return track.isLive ? Texts.string(UIString.speedLive, in: language) : Texts.format(UIString.speed, in: language, speed.description)
    }

    /// "Level track −4.5 dB", "Level session +2.0 dB", "Level track (adaptive)" while levelling
    /// is on; nil when off.
    package func loudnessText(language: Language) -> String? {
        guard let loudness, loudness.isOn else { return nil }
        let mode = Texts.string(loudness.mode == .track ? UIString.loudnessTrack : UIString.loudnessSession, in: language)
        guard let gain = loudnessGain else { return Texts.format(UIString.loudnessAdaptive, in: language, mode) }
        let sign = gain < 0 ? "−" : "+"
        return Texts.format(UIString.loudnessGain, in: language, mode, sign + String(format: "%.1f", abs(gain)))
    }

    /// "Connection: good · 128 kbit/s · 4.1 s buffered" while a live stream plays, with
    /// "reconnecting in the background…" while its buffer covers a reconnect; nil otherwise.
    package func connectionText(language: Language) -> String? {
        guard let connection, state.currentTrack?.isLive == true else { return nil }
        let rating: UIString = switch connection.rating {
        case .good: .connectionGood
        case .fair: .connectionFair
        case .poor: .connectionPoor
        }
        var parts = [Texts.string(rating, in: language)]
        if connection.reconnecting { parts.append(Texts.string(UIString.connectionReconnecting, in: language)) }
        if let bitrate = connection.bitrate { parts.append(Texts.format(UIString.connectionBitrate, in: language, bitrate)) }
        if let buffered = connection.bufferedSeconds {
            parts.append(Texts.format(UIString.connectionBuffered, in: language, String(format: "%.1f", buffered)))
        }
        return Texts.format(UIString.connection, in: language, parts.joined(separator: " · "))
    }

    /// The layers of the session that plays (its clock, next bell and bed), while it plays.
    package func layersView(language: Language) -> SessionLayersViewState? {
        layers.map { SessionLayersViewState(status: $0, language: language) }
    }

    /// "Volume 80%" in `language`, once the volume is known.
    package func volumeText(language: Language) -> String? {
        volume.map { Texts.format(UIString.volume, in: language, $0.percent) }
    }

    /// The view state; a live stream's announced title is part of the context.
    package func view(language: Language) -> NowPlayingViewState {
        let context = PlaybackContext(
            connectivity: connectivity, position: position, duration: duration, now: now, language: language, nowPlaying: metadata)
        return NowPlayingViewState(
            state: state, context: context, preparingElapsed: preparingSince.map { wallClock().timeIntervalSince($0) })
    }
}
