import Foundation
@testable import LibraryKit
import PlayerCore
import Presentation
import TerminalUI
import Testing

@testable import Library
@testable import TerminalApp

/// The Music tab's decisions alone: artist → album → song and back, Enter playing an album from a
/// song, `a` adding after what plays (or starting it), `R` updating the index with its progress,
/// `/` searching the index. No store, player or disk: the answers are given as events.
@Suite("Library music state machine")
struct LibraryMusicMachineTests {
    static let folder = URL(fileURLWithPath: "/music", isDirectory: true)

    static func song(_ id: Int64, _ title: String, track: Int, album: String = "Night Ferry", artist: String = "Aurora Trio") -> MusicSongRecord {
        let tags = SongTags(values: [.title: [title], .track: ["\(track)"], .album: [album], .artist: [artist], .date: ["2019"]],
                            audio: AudioProperties(duration: 60))
        return MusicSongRecord(
            id: id, path: "\(artist)/\(album)/\(track) \(title).mp3", stamp: MusicFileStamp(modified: 0, size: 1), added: Date(timeIntervalSince1970: 0),
            tags: tags, failure: nil)
    }

    static let songs = [song(1, "Harbour", track: 1), song(2, "Lanterns", track: 2), song(3, "Tide", track: 3)]
    static var album: MusicAlbum { MusicAlbums.albums(songs)[0] }

    /// A machine on the Music tab listing the artists, as the runner's first read fills it.
    static func machine() -> LibraryStateMachine {
        var machine = LibraryStateMachine(language: .english, bindings: .standard, musicDirectory: folder)
        machine.model.tab = .music
        _ = machine.handle(.rows(.success([(LibraryRow(title: "Aurora Trio"), .artist("Aurora Trio", songs: songs))])))
        return machine
    }

    static func albums() -> [(LibraryRow, LibraryEntry)] {
        [(LibraryRow(title: "Night Ferry"), .album(album))]
    }

    static func albumSongs() -> [(LibraryRow, LibraryEntry)] {
        album.songs.map { (LibraryRow(title: $0.displayTitle), .song($0, album: album)) }
    }

    static func kinds(_ effects: [LibraryEffect]) -> [String] { LibraryStateMachineTests.kinds(effects) }

    static func request(_ effects: [LibraryEffect]) -> PlayRequest? {
        for effect in effects { if case .play(let playback) = effect, case .play(let request) = playback.replacement { return request } }
        return nil
    }

    @Test func enterGoesDownAndBackspaceUpSelectingWhereItCameFrom() {
        var m = Self.machine()
        #expect(Self.kinds(m.handle(.key(.enter))) == ["reload"])
        #expect(m.model.musicPath.map(\.title) == ["Aurora Trio"] && m.model.list.isLoading)
        _ = m.handle(.rows(.success(Self.albums())))
        #expect(Self.kinds(m.handle(.key(.enter))) == ["reload"])
        #expect(m.model.musicPath.map(\.title) == ["Aurora Trio", "Night Ferry"])
        _ = m.handle(.rows(.success(Self.albumSongs())))
        _ = m.handle(.key(.down))

        #expect(Self.kinds(m.handle(.key(.backspace))) == ["reload"])
        #expect(m.model.musicPath.map(\.title) == ["Aurora Trio"])
        // Two albums now: the one left is selected again.
        let other = MusicAlbum(title: "Day Ferry", artist: "Aurora Trio", year: 2021, songs: [])
        _ = m.handle(.rows(.success([(LibraryRow(title: "Day Ferry"), .album(other))] + Self.albums())))
        #expect(m.model.selection == 1)
        #expect(Self.kinds(m.handle(.key(.escape))) == ["reload"])
        #expect(m.model.musicPath.isEmpty)
        _ = m.handle(.rows(.success([(LibraryRow(title: "Aurora Trio"), .artist("Aurora Trio", songs: Self.songs))])))
        // At the top, back has nowhere to go.
        #expect(m.handle(.key(.escape)).isEmpty)

        // Another tab and back: the artists again, from the top.
        _ = m.handle(.key(.enter))
        _ = m.handle(.key(.tab))
        #expect(m.model.tab == .stations && m.model.musicPath.isEmpty)
    }

    @Test func enterOnASongPlaysItsAlbumFromItInOrder() {
        var m = Self.machine()
        _ = m.handle(.key(.enter))
        _ = m.handle(.rows(.success(Self.albums())))
        _ = m.handle(.key(.enter))
        _ = m.handle(.rows(.success(Self.albumSongs())))
        _ = m.handle(.key(.down))
        let effects = m.handle(.key(.enter))
        let request = Self.request(effects)
        #expect(request?.items.map(\.track.title) == ["Lanterns", "Tide"])
        #expect(request?.items.first?.track.url == Self.folder.appendingPathComponent("Aurora Trio/Night Ferry/2 Lanterns.mp3"))
        #expect(request?.items.first?.track.artist == "Aurora Trio")
        #expect(m.model.nowPlayingOpen)
    }

    /// With nothing of the tab playing, `a` starts what it names (the list stays); while a song
    /// plays, `a` puts more after everything upcoming, counted from the song heard.
    @Test func aStartsTheSongsOrPutsThemAfterWhatPlays() {
        var m = Self.machine()
        let started = m.handle(.key(.character("a")))
        #expect(Self.request(started)?.items.map(\.track.title) == ["Harbour", "Lanterns", "Tide"])
        #expect(!m.model.nowPlayingOpen && m.model.notice == "Up next: Aurora Trio")
        // The note goes at the next key.
        _ = m.handle(.key(.down))
        #expect(m.model.notice == nil)

        let playing = PlayerState.playing(track: Self.request(started)!.items[0].track)
        _ = m.handle(.player(.state(playing, audioTime: 0, now: PlayerTime(seconds: 0))))
        _ = m.handle(.player(.notice(.currentItem(index: 1), audioTime: 0)))
        _ = m.handle(.key(.enter))
        _ = m.handle(.rows(.success(Self.albums())))
        _ = m.handle(.key(.enter))
        _ = m.handle(.rows(.success(Self.albumSongs())))
        let added = m.handle(.key(.character("a")))
        guard case .send(.setUpcoming(let change))? = added.first, added.count == 1 else {
            Issue.record("a while a song plays changes what comes next: \(added)")
            return
        }
        // Item 1 (Lanterns) is heard: Tide, then the Harbour just added.
        #expect(change.items.map(\.track.title) == ["Tide", "Harbour"])
        #expect(m.model.notice == "Up next: Harbour")

        // Something else played from the screen since: `a` starts anew.
        let station = Track(id: "station", url: URL(string: "http://127.0.0.1:9/live")!, kind: .liveStream, title: "Night FM")
        _ = m.play(Playback(replacement: .play(PlayRequest(track: station)), operation: "playStation"))
        m.model.nowPlayingOpen = false
        #expect(Self.kinds(m.handle(.key(.character("a")))) == ["play"])
    }

    @Test func rUpdatesTheIndexOnceAndShowsHowFarItIs() {
        var m = Self.machine()
        #expect(Self.kinds(m.handle(.key(.character("R")))) == ["updateMusicIndex"])
        #expect(m.model.musicIndexing == .scanning)
        #expect(m.handle(.key(.character("R"))).isEmpty)
        #expect(m.handle(.musicIndexProgressed(MusicIndexProgress(read: 0, total: 250))).isEmpty)
        // The artists are listed already: read again only at the end.
        #expect(m.handle(.musicIndexProgressed(MusicIndexProgress(read: 100, total: 250))).isEmpty)
        #expect(m.model.musicIndexing?.text(in: .english) == "Reading tags: 100 of 250 files")
        // An empty tab lists the first songs written at once.
        var empty = LibraryStateMachine(language: .english, bindings: .standard, musicDirectory: Self.folder)
        empty.model.tab = .music
        _ = empty.handle(.rows(.success([])))
        _ = empty.handle(.key(.character("R")))
        #expect(Self.kinds(empty.handle(.musicIndexProgressed(MusicIndexProgress(read: 100, total: 250)))) == ["reload"])

        var summary = MusicIndexer.Summary()
        summary.read = 250
        summary.failures = 2
        #expect(Self.kinds(m.handle(.musicIndexed(.success(summary)))) == ["reload"])
        #expect(m.model.musicIndexing == nil)
        #expect(m.model.notice?.contains("2") == true)

        // A folder that is not there is said by the empty tab, and recorded.
        _ = m.handle(.key(.character("R")))
        let missing = m.handle(.musicIndexed(.failure(PlaybackError(.fileNotFound))))
        #expect(Self.kinds(missing) == ["record", "reload"])
        #expect(m.model.missingMusicFolder == "/music")
        // Another failure is the list's error.
        _ = m.handle(.key(.character("R")))
        _ = m.handle(.musicIndexed(.failure(PlaybackError(.libraryUnavailable))))
        #expect(m.model.list.error?.code == .libraryUnavailable)
    }

    @Test func withoutAMusicFolderRDoesNothingAndASongCannotPlay() {
        var m = LibraryStateMachine(language: .english, bindings: .standard)
        m.model.tab = .music
        _ = m.handle(.rows(.success(Self.albumSongs())))
        #expect(m.handle(.key(.character("R"))).isEmpty)
        #expect(Self.kinds(m.handle(.key(.enter))) == ["record"])
        #expect(m.model.alert?.code == .fileNotFound)
    }

    @Test func slashSearchesTheMusicIndexAndBackLeavesTheHits() {
        var m = Self.machine()
        _ = m.handle(.key(.character("/")))
        for c in "harb" { _ = m.handle(.key(.character(c))) }
        #expect(Self.kinds(m.handle(.key(.enter))) == ["reload"])
        #expect(m.model.libraryQuery == "harb" && m.model.search == nil)
        _ = m.handle(.rows(.success([(LibraryRow(title: "Harbour"), .song(Self.songs[0], album: Self.album))])))
        #expect(Self.request(m.handle(.key(.enter)))?.items.map(\.track.title) == ["Harbour", "Lanterns", "Tide"])
        _ = m.handle(.key(.escape))
        #expect(Self.kinds(m.handle(.key(.escape))) == ["reload"])
        #expect(m.model.libraryQuery == nil)
    }

    @Test func theFolderIsShownUnderTheHome() {
        #expect(LibraryStateMachine.shown(URL(fileURLWithPath: "/home/ann/Music"), home: "/home/ann") == "~/Music")
        #expect(LibraryStateMachine.shown(URL(fileURLWithPath: "/srv/music"), home: "/home/ann") == "/srv/music")
        #expect(LibraryStateMachine.shown(URL(fileURLWithPath: "/home/annie/Music"), home: "/home/ann") == "/home/annie/Music")
    }
}
