import Foundation
import PlayerCore
import Presentation
import Testing

@Suite struct ListScreenStateTests {
    typealias Screen = ListScreenState<String>
    let stations = ["FIP", "Radio Paradise", "SomaFM Groove Salad", "Радио Маяк"]

    @Test func firstLoadShowsSkeletonRows() {
        let loading = Screen.initial
        #expect(loading == .loading(existing: []))
        let rows = loading.visibleRows()
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { $0.isSkeleton })
        #expect(rows == (0..<5).map { .skeleton(index: $0) })
        #expect(loading.visibleRows(skeletonCount: 3).count == 3)
    }

    @Test func loadSucceedsOrIsEmpty() {
        let loaded = Screen.initial.finishLoading(.success(stations))
        #expect(loaded == .loaded(stations))
        #expect(loaded.visibleRows().compactMap(\.item) == stations)
        #expect(Screen.initial.finishLoading(.success([])) == .empty)
        #expect(Screen.empty.visibleRows().isEmpty)
    }

    @Test func loadingOverExistingItemsKeepsThem() {
        let reloading = Screen.loaded(stations).startLoading()
        #expect(reloading == .loading(existing: stations))
        #expect(reloading.isLoading)
        #expect(reloading.items == stations)
        let rows = reloading.visibleRows()
        #expect(!rows.contains { $0.isSkeleton })
        #expect(rows.compactMap(\.item) == stations)
    }

    @Test func errorKeepsItems() {
        let error = PlaybackError(.offline)
        let failed = Screen.loaded(stations).startLoading().finishLoading(.failure(error))
        #expect(failed == .error(error, existing: stations))
        #expect(failed.items == stations)
        #expect(failed.error == error)
        #expect(failed.errorState(in: .english) == nil)
        #expect(failed.inlineError(in: .english)?.message == error.message(in: .english))
        #expect(failed.startLoading() == .loading(existing: stations))
    }

    @Test func errorWithNothingShowsTheErrorState() throws {
        let failed = Screen.initial.finishLoading(.failure(PlaybackError(.connectionTimeout)))
        #expect(failed == .error(PlaybackError(.connectionTimeout), existing: []))
        #expect(failed.visibleRows().isEmpty)
        let state = try #require(failed.errorState(in: .russian))
        #expect(state.retryTitle == "Попробовать снова")
        #expect(failed.inlineError(in: .english) == nil)
    }

    @Test func emptyReloadThenItems() {
        let reloading = Screen.empty.startLoading()
        #expect(reloading == .loading(existing: []))
        #expect(reloading.finishLoading(.success(["FIP"])) == .loaded(["FIP"]))
    }

    @Test func searchFilter() {
        let screen = Screen.loaded(stations)
        #expect(screen.filtered(by: "radio", key: { $0 }) == ["Radio Paradise"])
        #expect(screen.filtered(by: "  ", key: { $0 }) == stations)
        #expect(screen.filtered(by: "маяк", key: { $0 }) == ["Радио Маяк"])
        #expect(screen.filtered(by: "zzz", key: { $0 }).isEmpty)
        struct Row: Sendable, Equatable { let name: String; let genre: String }
        let rows = ListScreenState<Row>.loaded([Row(name: "FIP", genre: "Éclectique"), Row(name: "Groove", genre: "Ambient")])
        #expect(rows.filtered(by: "eclect", key: \.genre).map(\.name) == ["FIP"])
    }

    @Test func roundTripsThroughJSONWhenItemsAreCodable() throws {
        for screen: Screen in [.initial, .loaded(stations), .empty, .error(PlaybackError(.offline), existing: ["FIP"])] {
            let data = try JSONEncoder().encode(screen)
            #expect(try JSONDecoder().decode(Screen.self, from: data) == screen)
        }
    }
}
