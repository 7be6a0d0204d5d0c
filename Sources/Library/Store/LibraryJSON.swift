import Foundation

/// Lists kept in one column as JSON (a feed's people, its support links): small, read whole,
/// never queried inside. An empty list is stored as NULL; a value that no longer decodes reads as
/// an empty list (the next refresh writes it anew), never as an error.
enum LibraryJSON {
    static func text<T: Encodable>(_ list: [T]) -> String? {
        guard !list.isEmpty, let data = try? sortedEncoder.encode(list) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func list<T: Decodable>(_ text: String?, of type: T.Type = T.self) -> [T] {
        guard let text, let list = try? JSONDecoder().decode([T].self, from: Data(text.utf8)) else { return [] }
        return list
    }

    /// One value (a live episode's status), or nil.
    static func value<T: Encodable>(_ value: T) -> String? {
        guard let data = try? sortedEncoder.encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// A value kept by `value(_:)`; nil when it no longer decodes.
    static func decoded<T: Decodable>(_ text: String) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    /// Sorted keys: the same list is the same text, so a refresh that changes nothing is no change.
    private static let sortedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
