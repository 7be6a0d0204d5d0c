import Foundation
import PlayerCore

/// A list screen's state: loading (skeleton rows while nothing is there yet), error, empty,
/// loaded. Loading or failing over existing items keeps them on screen.
package enum ListScreenState<Item: Sendable & Equatable>: Sendable, Equatable {
    case loading(existing: [Item])
    case error(PlaybackError, existing: [Item])
    case empty
    case loaded([Item])

    /// How many skeleton rows a first load shows.
    package static var defaultSkeletonCount: Int { 5 }

    /// The initial state: loading, nothing yet.
    package static var initial: ListScreenState { .loading(existing: []) }

    /// The items known now (kept across loading and errors).
    package var items: [Item] {
        switch self {
        case .loading(let items), .error(_, let items), .loaded(let items): items
        case .empty: []
        }
    }

    package var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    package var error: PlaybackError? {
        if case .error(let error, _) = self { return error }
        return nil
    }

    // MARK: Reducer

    /// A (re)load starts; the items on screen stay.
    package func startLoading() -> ListScreenState { .loading(existing: items) }

    /// A load ended: no items -> empty, items -> loaded, failure -> error keeping what was there.
    package func finishLoading(_ result: Result<[Item], PlaybackError>) -> ListScreenState {
        switch result {
        case .success(let items): items.isEmpty ? .empty : .loaded(items)
        case .failure(let error): .error(error, existing: self.items)
        }
    }

    // MARK: Rendering helpers

    /// The rows to draw: `skeletonCount` skeletons while loading with no items, else the items.
    package func visibleRows(skeletonCount: Int = defaultSkeletonCount) -> [ListRow<Item>] {
        if case .loading(let existing) = self, existing.isEmpty {
            return (0..<max(0, skeletonCount)).map { ListRow.skeleton(index: $0) }
        }
        return items.map { ListRow.item($0) }
    }

    /// The items whose `key` contains `query`, ignoring case and diacritics (`/` search). A blank
    /// query keeps everything.
    package func filtered(by query: String, key: (Item) -> String) -> [Item] {
        filteredIndices(by: query, key: key).map { items[$0] }
    }

    /// Where in `items` the rows `filtered(by:key:)` keeps are: rows can repeat (two directory
    /// stations alike), so a selection is resolved by position, never by comparing rows.
    package func filteredIndices(by query: String, key: (Item) -> String) -> [Int] {
        let q = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !q.isEmpty else { return Array(items.indices) }
        return items.indices.filter { key(items[$0]).range(of: q, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
    }

    /// The full-screen error state, when failed with nothing to show.
    package func errorState(in language: Language) -> ErrorStateViewState? {
        guard case .error(let error, let existing) = self, existing.isEmpty else { return nil }
        return ErrorStateViewState(error: error, language: language)
    }

    /// An inline error over kept items, when failed with items on screen.
    package func inlineError(in language: Language) -> InlineErrorViewState? {
        guard case .error(let error, let existing) = self, !existing.isEmpty else { return nil }
        return InlineErrorViewState(error: error, language: language)
    }
}

extension ListScreenState: Hashable where Item: Hashable {}
extension ListScreenState: Codable where Item: Codable {}
