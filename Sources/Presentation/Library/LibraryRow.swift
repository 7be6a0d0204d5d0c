/// The library's tabs, in the order the screen shows them. Music comes last, after Diagnostics,
/// so the tabs a listener already knows keep their places (and their number of Tab presses); the
/// left arrow from Stations reaches it in one press.
package enum LibraryTab: Int, Sendable, Hashable, CaseIterable {
    case stations, podcasts, queue, sessions, history, favourites, diagnostics, music
}

/// One row of a library list: text that was sanitised where it entered.
package struct LibraryRow: Sendable, Hashable {
    package var title: String
    package var detail: String?

    package init(title: String, detail: String? = nil) {
        self.title = title
        self.detail = detail
    }

    /// The rows a `/` search leaves: those whose title or detail contains it; all without one.
    package static func visible(in list: ListScreenState<LibraryRow>, search: String?) -> [LibraryRow] {
        visibleIndices(in: list, search: search).map { list.items[$0] }
    }

    /// The positions in `list.items` of the rows the search leaves.
    package static func visibleIndices(in list: ListScreenState<LibraryRow>, search: String?) -> [Int] {
        guard let search, !search.isEmpty else { return Array(list.items.indices) }
        return list.filteredIndices(by: search) { "\($0.title) \($0.detail ?? "")" }
    }
}
