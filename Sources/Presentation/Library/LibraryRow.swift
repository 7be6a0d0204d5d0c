/// The library's tabs, in the order the screen shows them.
public enum LibraryTab: Int, Sendable, Hashable, CaseIterable {
    case stations, podcasts, queue, sessions, history, favourites, diagnostics
}

/// One row of a library list: text that was sanitised where it entered.
public struct LibraryRow: Sendable, Hashable {
    public var title: String
    public var detail: String?

    public init(title: String, detail: String? = nil) {
        self.title = title
        self.detail = detail
    }

    /// The rows a `/` search leaves: those whose title or detail contains it; all without one.
    public static func visible(in list: ListScreenState<LibraryRow>, search: String?) -> [LibraryRow] {
        visibleIndices(in: list, search: search).map { list.items[$0] }
    }

    /// The positions in `list.items` of the rows the search leaves.
    public static func visibleIndices(in list: ListScreenState<LibraryRow>, search: String?) -> [Int] {
        guard let search, !search.isEmpty else { return Array(list.items.indices) }
        return list.filteredIndices(by: search) { "\($0.title) \($0.detail ?? "")" }
    }
}
