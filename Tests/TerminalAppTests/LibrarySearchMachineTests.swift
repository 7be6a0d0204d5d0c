import Foundation
import PlayerCore
import Presentation
import TerminalUI
import Testing

@testable import Library
@testable import TerminalApp

/// The library search's keys on the library screen's machine alone: `/`, words, Enter on the
/// podcast list searches the library; elsewhere it stays the list's filter.
@Suite("Library screen: search")
struct LibrarySearchMachineTests {
    typealias M = LibraryStateMachineTests

    static func hit(episode: Int64, at time: TimeInterval?) -> (LibraryRow, LibraryEntry) {
        let hit = LibrarySearchHit(
            match: .transcript, podcastID: 1, podcastTitle: "Trains", episodeID: episode, episodeTitle: "Steam", time: time, text: "All aboard")
        return (LibraryRow(title: "All aboard"), .hit(hit))
    }

    static func target(_ effects: [LibraryEffect]) -> PlayTarget? {
        guard effects.count == 1, case .resolve(let target) = effects[0] else { return nil }
        return target
    }

    @Test func enterAfterWordsOnThePodcastListSearchesTheLibrary() {
        var m = M.machine([], tab: .podcasts)
        _ = m.handle(.key(.character("/")))
        M.type("steam", into: &m)
        #expect(M.kinds(m.handle(.key(.enter))) == ["reload"])
        #expect(m.model.libraryQuery == "steam" && m.model.search == nil && !m.model.typingSearch)
        _ = m.handle(.rows(.success([Self.hit(episode: 7, at: 754), Self.hit(episode: 8, at: nil)])))
        // A line plays from its time; a line without one from where the listener stopped.
        #expect(Self.target(m.handle(.key(.enter))) == .episode(7, from: 754))
        _ = m.handle(.key(.down))
        #expect(Self.target(m.handle(.key(.enter))) == .episode(8, from: nil))
        // Esc leaves the hits for the podcasts.
        #expect(M.kinds(m.handle(.key(.escape))) == ["reload"])
        #expect(m.model.libraryQuery == nil)
    }

    @Test func punctuationSearchesNothingAndOtherListsKeepTheirFilter() {
        var m = M.machine([], tab: .podcasts)
        _ = m.handle(.key(.character("/")))
        M.type("?!", into: &m)
        #expect(m.handle(.key(.enter)).isEmpty)
        #expect(m.model.libraryQuery == nil)

        var stations = M.machine([M.station(1, "Alpha FM"), M.station(2, "Beta FM")])
        _ = stations.handle(.key(.character("/")))
        M.type("beta", into: &stations)
        #expect(stations.handle(.key(.enter)).isEmpty)
        #expect(stations.model.libraryQuery == nil && stations.model.search == "beta")

        // A podcast's episodes are filtered, not searched; a new tab forgets the search.
        var searched = M.machine([], tab: .podcasts)
        _ = searched.handle(.key(.character("/")))
        M.type("x", into: &searched)
        _ = searched.handle(.key(.enter))
        _ = searched.handle(.key(.tab))
        #expect(searched.model.libraryQuery == nil)
    }
}
