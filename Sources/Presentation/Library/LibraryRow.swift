/// The library's tabs, in the order the screen shows them.
public enum LibraryTab: Int, Sendable, Hashable, CaseIterable {
    case stations, podcasts, sessions, diagnostics
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
        guard let search, !search.isEmpty else { return list.items }
        return list.filtered(by: search) { "\($0.title) \($0.detail ?? "")" }
    }
}
