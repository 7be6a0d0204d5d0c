/// A row a list screen draws: an item, or a skeleton placeholder while the first load runs.
package enum ListRow<Item: Sendable & Equatable>: Sendable, Equatable {
    case item(Item)
    /// Placeholder number `index` (0-based).
    case skeleton(index: Int)

    package var item: Item? {
        if case .item(let item) = self { return item }
        return nil
    }

    package var isSkeleton: Bool {
        if case .skeleton = self { return true }
        return false
    }
}

extension ListRow: Hashable where Item: Hashable {}
extension ListRow: Codable where Item: Codable {}
