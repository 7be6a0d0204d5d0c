import PlayerCore
import Presentation
import Testing

/// The library screen's view model: what a row stands for survives a search, the selection stays
/// on a visible row, and a failed reload keeps what was shown.
@Suite("Library view model")
struct LibraryViewModelTests {
    static func loaded(_ names: [String]) -> LibraryViewModel<String> {
        var model = LibraryViewModel<String>()
        model.reload(.success(names.map { (LibraryRow(title: $0, detail: nil), "entry:\($0)") }))
        return model
    }

    @Test func theSelectedEntryIsTheOneUnderTheSelectionAfterASearch() {
        var model = Self.loaded(["Jazz FM", "Rock Radio", "Smooth Jazz"])
        model.search = "jazz"
        model.selection = 1
        #expect(model.visibleRows.map(\.title) == ["Jazz FM", "Smooth Jazz"])
        #expect(model.selectedEntry == "entry:Smooth Jazz")
    }

    @Test func rowsThatLookAlikeStandForTheirOwnEntries() {
        // Two directory mirrors of one stream read the same; each row is its own station.
        var model = LibraryViewModel<String>()
        let row = LibraryRow(title: "Jazz FM", detail: "MP3 128k · FR")
        model.reload(.success([(row, "mirror-1"), (LibraryRow(title: "Rock"), "rock"), (row, "mirror-2")]))
        model.selection = 2
        #expect(model.selectedEntry == "mirror-2")
        model.search = "jazz"
        model.selection = 1
        #expect(model.selectedEntry == "mirror-2")
    }

    @Test func theSelectionStaysWithinTheVisibleRows() {
        var model = Self.loaded(["A", "B", "C"])
        model.moveSelection(by: -1)
        #expect(model.selection == 0)
        model.moveSelection(by: 5)
        #expect(model.selection == 2)
        model.search = "b"
        model.selection = 0
        model.moveSelection(by: 1)
        #expect(model.selection == 0 && model.selectedEntry == "entry:B")
    }

    @Test func aFailedReloadKeepsTheEntriesAndShowsTheError() {
        var model = Self.loaded(["A", "B"])
        let before = model.version
        model.reload(.failure(PlaybackError(.libraryUnavailable)))
        #expect(model.entries == ["entry:A", "entry:B"])
        #expect(model.list.error?.code == .libraryUnavailable)
        #expect(model.version > before)
    }
}
