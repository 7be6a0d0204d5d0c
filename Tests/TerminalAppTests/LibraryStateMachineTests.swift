import Foundation
import LibraryKit
import PlayerCore
import Presentation
import Services
import TerminalUI
import Testing

@testable import Library
@testable import PlayerKit
@testable import TerminalApp

/// The library screen's decisions alone: keys and answers in, the model and effects out, with no
/// terminal, store, player or network. What the effects do is the controller's tests' business.
@Suite("Library state machine")
struct LibraryStateMachineTests {
    static let added = Date(timeIntervalSinceReferenceDate: 0)

    /// A machine whose current tab lists `rows`, as the runner's first read would fill it.
    static func machine(_ rows: [(LibraryRow, LibraryEntry)], tab: LibraryTab = .stations) -> LibraryStateMachine {
        var machine = LibraryStateMachine(language: .english, bindings: .standard)
        machine.model.tab = tab
        _ = machine.handle(.rows(.success(rows)))
        return machine
    }

    static func station(_ id: Int64, _ name: String) -> (LibraryRow, LibraryEntry) {
        let record = StationRecord(id: id, name: name, url: URL(string: "http://127.0.0.1:9/\(id)")!, addedAt: added)
        return (LibraryRow(title: name), .station(record))
    }

    static func episode(_ id: Int64, _ title: String) -> (LibraryRow, LibraryEntry) {
        (LibraryRow(title: title), .episode(EpisodeRecord(id: id, podcastID: 1, podcastTitle: "Trains", guid: "g\(id)", title: title)))
    }

    static func queued(_ id: Int64, at index: Int, _ title: String) -> (LibraryRow, LibraryEntry) {
        let entry = QueueEntryRecord(id: id, index: index, kind: "station", itemID: id, title: title, detail: nil)
        return (LibraryRow(title: "\(index + 1). \(title)"), .queued(entry))
    }

    /// The effects' cases, in order.
    static func kinds(_ effects: [LibraryEffect]) -> [String] { effects.map { String("\($0)".prefix { $0 != "(" }) } }

    static func changes(_ effects: [LibraryEffect]) -> [LibraryChange] {
        effects.compactMap { if case .change(let change) = $0 { change } else { nil } }
    }

    static func type(_ text: String, into machine: inout LibraryStateMachine) {
        for character in text { _ = machine.handle(.key(.character(character))) }
    }

    @Test func anAlertTakesEveryKeyUntilEnterDismissesIt() {
        var m = Self.machine([Self.station(1, "Alpha FM"), Self.station(2, "Beta FM")])
        let recorded = m.handle(.changed(.enqueue(.station(1)), failure: PlaybackError(.alreadyInLibrary)))
        #expect(Self.kinds(recorded) == ["record"])
        #expect(m.model.alert?.code == .alreadyInLibrary)
        #expect(m.handle(.key(.character("X"))).isEmpty)
        #expect(m.handle(.key(.down)).isEmpty)
        #expect(m.model.confirmation == nil && m.model.selection == 0)
        _ = m.handle(.key(.enter))
        #expect(m.model.alert == nil)
        _ = m.handle(.key(.down))
        #expect(m.model.selection == 1)
    }

    /// A station is a name and an http(s) address: anything else is an alert at once, and nothing
    /// is asked of the library; a good one is one change, then the list is read again.
    @Test func theStationPromptAsksTheLibraryOnlyForANameAndAnAddress() {
        var m = Self.machine([])
        _ = m.handle(.key(.character("a")))
        Self.type("justaname", into: &m)
        #expect(Self.kinds(m.handle(.key(.enter))) == ["record"])
        #expect(m.model.alert?.code == .streamUnavailable && m.model.prompt == nil)
        _ = m.handle(.key(.enter))

        _ = m.handle(.key(.character("a")))
        Self.type("Night Jazz http://127.0.0.1:9/jazz", into: &m)
        let added = m.handle(.key(.enter))
        let change = LibraryChange.addStation(name: "Night Jazz", url: URL(string: "http://127.0.0.1:9/jazz")!)
        #expect(Self.changes(added) == [change] && added.count == 1)
        #expect(Self.kinds(m.handle(.changed(change, failure: nil))) == ["reload"])
    }

    /// `n` keeps what the question named; `y` hides it, and the library loses it only at the next
    /// removal (before the list is read again without the second) or when the screen closes.
    @Test func aRemovalIsCarriedOutAtTheNextRemovalOrWhenTheScreenCloses() {
        var m = Self.machine([Self.station(1, "Alpha FM"), Self.station(2, "Beta FM")])
        _ = m.handle(.key(.character("X")))
        #expect(m.model.confirmation?.question.contains("Alpha FM") == true)
        #expect(m.handle(.key(.character("n"))).isEmpty)
        #expect(m.model.confirmation == nil && m.model.pendingRemoval == nil)

        _ = m.handle(.key(.character("X")))
        #expect(Self.kinds(m.handle(.key(.character("y")))) == ["logRemoval", "reload"])
        #expect(m.model.pendingRemoval?.name == "Alpha FM")
        _ = m.handle(.rows(.success([Self.station(2, "Beta FM")])))
        _ = m.handle(.key(.character("X")))
        let second = m.handle(.key(.character("y")))
        #expect(Self.kinds(second) == ["remove", "logRemoval", "reload"])
        if case .remove(.station(let first)) = second[0] { #expect(first.name == "Alpha FM") } else { Issue.record("the first removal is carried out") }
        #expect(m.model.pendingRemoval?.name == "Beta FM")

        let closing = m.handle(.closing)
        if case .remove(.station(let last))? = closing.first { #expect(last.name == "Beta FM") } else { Issue.record("closing carries out the last") }
        #expect(Self.kinds(closing) == ["remove"] && m.model.pendingRemoval == nil)
        #expect(m.handle(.closing).isEmpty)
    }

    /// The answer to a search the listener has searched past changes nothing on screen; its
    /// failure is still recorded. The latest answer fills the list.
    @Test func onlyTheLatestDirectorySearchFillsTheList() {
        var m = Self.machine([])
        _ = m.handle(.key(.character("f")))
        Self.type("jazz", into: &m)
        guard case .searchDirectory(let query, let first)? = m.handle(.key(.enter)).first else {
            Issue.record("Enter in the directory's prompt searches")
            return
        }
        #expect(query == StationQuery.parse("jazz"))
        _ = m.handle(.key(.character("f")))
        Self.type("blues", into: &m)
        _ = m.handle(.key(.enter))
        #expect(m.model.directoryQuery == "blues" && m.model.list.isLoading)

        #expect(Self.kinds(m.handle(.directoryAnswered(search: first, .failure(PlaybackError(.httpRetryable))))) == ["record"])
        #expect(m.model.list.isLoading && m.model.list.error == nil)
        let found = [DirectoryStation(id: "b1", name: "Blues Radio", streamURL: URL(string: "http://127.0.0.1:9/b")!)]
        #expect(Self.kinds(m.handle(.directoryAnswered(search: first + 1, .success(found)))) == ["reload"])
        if case .found(let station)? = m.model.entries.first { #expect(station.id == "b1") } else { Issue.record("the entries are the results") }
    }

    @Test func capitalRStartsOneRefreshAtATimeAndOnlyOnThePodcastsTab() {
        let podcast = PodcastRecord(id: 1, title: "Rivers", feedURL: URL(string: "https://example.org/feed.xml")!, addedAt: Self.added)
        var stations = Self.machine([])
        #expect(stations.handle(.key(.character("R"))).isEmpty)

        var m = Self.machine([(LibraryRow(title: "Rivers"), .podcast(podcast))], tab: .podcasts)
        #expect(Self.kinds(m.handle(.key(.character("R")))) == ["refreshPodcasts"])
        #expect(m.model.list.isLoading && m.model.list.items.count == 1)
        #expect(m.handle(.key(.character("R"))).isEmpty)
        #expect(Self.kinds(m.handle(.podcastsRefreshed(.success(PlaybackError(.httpNotFound))))) == ["reload"])
        #expect(m.model.alert?.code == .httpNotFound && m.model.alertOperation == .feed)
        _ = m.handle(.key(.enter))
        #expect(Self.kinds(m.handle(.key(.character("R")))) == ["refreshPodcasts"])
    }

    /// `d` downloads an episode once; its progress reads the Episodes list again at most twice a
    /// second, by the times the progress reports carry.
    @Test func aDownloadStartsOnceAndRedrawsItsListAtMostTwiceASecond() {
        let podcast = PodcastRecord(id: 1, title: "Trains", feedURL: URL(string: "https://example.org/feed.xml")!, addedAt: Self.added)
        var m = Self.machine([Self.episode(7, "Kept Episode")], tab: .podcasts)
        m.model.episodesOf = (.podcast(podcast), "Trains")
        #expect(Self.kinds(m.handle(.key(.character("d")))) == ["download"])
        #expect(m.handle(.key(.character("d"))).isEmpty)

        let start = Date(timeIntervalSinceReferenceDate: 1_000)
        #expect(Self.kinds(m.handle(.downloadProgressed(episode: 7, at: start))) == ["reload"])
        #expect(m.handle(.downloadProgressed(episode: 7, at: start + 0.2)).isEmpty)
        #expect(Self.kinds(m.handle(.downloadProgressed(episode: 7, at: start + 0.5))) == ["reload"])
        #expect(Self.kinds(m.handle(.downloadFinished(episode: 7, failure: PlaybackError(.httpNotFound)))) == ["reload"])
        #expect(m.model.alert?.code == .httpNotFound && m.model.alertOperation == .download)
        _ = m.handle(.key(.enter))
        #expect(Self.kinds(m.handle(.key(.character("d")))) == ["download"], "a failed download can be asked for again")
    }

    @Test func movingAQueueEntryTakesTheSelectionWithIt() {
        var m = Self.machine([Self.queued(10, at: 0, "Talk 1"), Self.queued(11, at: 1, "Talk 2")], tab: .queue)
        _ = m.handle(.key(.down))
        let moved = m.handle(.key(.character("K")))
        #expect(Self.changes(moved) == [.moveInQueue(entryID: 11, to: 0)])
        #expect(m.model.selection == 0)
        #expect(Self.changes(m.handle(.key(.character("X")))) == [.dequeue(entryID: 10)])
    }

    /// Enter on a queue entry plays the queue without what cannot play (an alert says so); while
    /// the queue plays, each state the player publishes reads the Queue tab again when it is shown.
    @Test func theQueuePlaysWithoutWhatCannotAndItsTabFollowsThePlayer() {
        let entries = [Self.queued(10, at: 0, "Gone"), Self.queued(11, at: 1, "Talk")]
        var m = Self.machine(entries, tab: .queue)
        let resolve = m.handle(.key(.enter))
        guard case .resolve(let target)? = resolve.first else {
            Issue.record("Enter on a queue entry reads the queue")
            return
        }
        #expect(target == .queue(from: 10))
        let track = Track(id: "talk", url: URL(fileURLWithPath: "/tmp/talk.wav"), kind: .file, title: "Talk")
        guard case .queued(let gone) = entries[0].1 else { return }
        let plan = QueuePlan(request: PlayRequest(track: track), targets: [:], skipped: [(gone, PlaybackError(.notInLibrary))])
        let started = m.handle(.queueResolved(.success(plan)))
        #expect(Self.kinds(started) == ["play"])
        #expect(m.model.alert?.code == .notInLibrary && m.model.nowPlayingOpen)

        let playing = PlayerUpdate.state(.playing(track: track), audioTime: 0, now: .zero)
        #expect(Self.kinds(m.handle(.player(playing))) == ["reload"])
        #expect(m.handle(.player(.position(seconds: 1, duration: nil, audioTime: 1))).isEmpty)
        m.model.tab = .sessions
        #expect(m.handle(.player(playing)).isEmpty)

        // A later part of the queue left an entry out: told over Now Playing, which stays open.
        let later = m.handle(.queueEntryFailed(PlaybackError(.fileNotFound)))
        #expect(Self.kinds(later) == ["record"])
        #expect(m.model.alert?.code == .fileNotFound && m.model.nowPlayingOpen)
    }

    /// On Now Playing, `t` opens the transcript; the arrows choose a line instead of moving the
    /// library's selection, and Enter plays from that line.
    @Test func theTranscriptOpensOnNowPlayingAndEnterSeeksToTheChosenLine() {
        var m = Self.machine([Self.station(1, "Alpha FM"), Self.station(2, "Beta FM")])
        let track = Track(id: "talk", url: URL(fileURLWithPath: "/tmp/talk.wav"), kind: .file, title: "Talk", duration: 60)
        let transcript = Transcript(cues: (0..<4).map { TranscriptCue(start: Double($0) * 10 + 0.5, end: Double($0) * 10 + 8, text: "Line \($0)")! })
        _ = m.handle(.player(.state(.playing(track: track), audioTime: 0, now: .zero)))
        _ = m.handle(.player(.notice(.transcript(transcript), audioTime: 0)))
        _ = m.handle(.player(.notice(.cue(TranscriptCuePosition(index: 1, cue: transcript.cues[1])), audioTime: 11)))
        #expect(m.handle(.key(.character("t"))).isEmpty, "t is nothing over the library")
        #expect(!m.model.player.showsTranscript)
        m.model.nowPlayingOpen = true
        _ = m.handle(.key(.character("t")))
        #expect(m.model.player.showsTranscript)
        let selectionBefore = m.model.selection
        _ = m.handle(.key(.down))
        _ = m.handle(.key(.down))
        #expect(m.model.player.transcriptSelection == 3 && m.model.selection == selectionBefore)
        let seek = m.handle(.key(.enter))
        guard case .send(.seek(let to))? = seek.first else {
            Issue.record("Enter on a line seeks: \(seek)")
            return
        }
        #expect(to == 30.5)
        _ = m.handle(.key(.character("t")))
        #expect(!m.model.player.showsTranscript)
    }

    /// A session whose file cannot be read is an alert over the library; an episode the library
    /// cannot read still plays, as a failure its error view shows.
    @Test func whatCannotBeReadIsAnAlertForASessionAndTheErrorViewForAnEpisode() {
        var m = Self.machine([])
        let failed = m.handle(.sessionResolved(.failure(PlaybackError(.fileNotFound))))
        #expect(Self.kinds(failed) == ["record"])
        #expect(m.model.alert?.code == .fileNotFound && !m.model.nowPlayingOpen)
        _ = m.handle(.key(.enter))

        let played = m.handle(.episodeResolved(7, .failure(PlaybackError(.libraryUnavailable))))
        guard case .play(let playback)? = played.first else {
            Issue.record("the episode is played")
            return
        }
        #expect(playback.replacement == .cannotPlay(PlaybackError(.libraryUnavailable)))
        #expect(playback.episode == 7 && m.model.nowPlayingOpen && m.model.alert == nil)
    }

    /// On Now Playing the keys are the player's: space pauses through the shared command mapping,
    /// the left arrow seeks instead of changing tabs, Enter starts nothing, `l` likes the song.
    @Test func onNowPlayingTheKeysAreThePlayers() {
        var m = Self.machine([Self.station(1, "Alpha FM")])
        let track = Track(id: "alpha", url: URL(string: "http://127.0.0.1:9/1")!, kind: .liveStream, title: "Alpha FM")
        _ = m.handle(.player(.state(.playing(track: track), audioTime: 0, now: .zero)))
        m.model.nowPlayingOpen = true
        guard case .send(let intent)? = m.handle(.key(.character(" "))).first else {
            Issue.record("space is sent to the player")
            return
        }
        #expect(intent == .pause)
        _ = m.handle(.key(.left))
        #expect(m.model.tab == .stations)
        #expect(m.handle(.key(.enter)).isEmpty)
        #expect(Self.kinds(m.handle(.key(.character("l")))) == ["likeCurrent"])
        _ = m.handle(.likedCurrent(.success(true)))
        #expect(m.model.player.liked)
    }
}
