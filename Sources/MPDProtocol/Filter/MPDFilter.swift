/// A song filter as MPD 0.21+ reads one (`find`, `search`, `list`, `searchadd`...): a tree of
/// conditions on a song's tags, its URI, where it lies, when it changed, its audio format and its
/// queue priority. Parsed by `MPDFilterParser`; decided by `matches(_:)`.
public indirect enum MPDFilter: Sendable, Hashable {
    /// A tag's values compared with a string; `tag` nil is `any` (every tag's values).
    case tag(String?, MPDStringMatch)
    /// The song's URI (`file`) compared with a string.
    case uri(MPDStringMatch)
    /// Songs in this directory (or the song of this path itself).
    case base(String)
    /// Songs whose file changed at or after this Unix time.
    case modifiedSince(Int64)
    /// Songs added to the database at or after this Unix time (MPD 0.24).
    case addedSince(Int64)
    /// Songs whose audio format matches, exactly (`==`) or only in the mask's given fields (`=~`).
    case audioFormat(MPDAudioFormat, mask: Bool)
    /// Queue songs whose priority is at least this.
    case priority(atLeast: Int)
    case not(MPDFilter)
    /// Every condition holds; the top level of several arguments is one of these too.
    case and([MPDFilter])
}

extension MPDFilter {
    /// The filter written as an expression MPD parses back to the same filter (MPD's
    /// `ToExpression`): values in double quotes with `"`, `'` and `\` escaped by a backslash.
    public var expression: String {
        switch self {
        case .tag(let name, let match): "(\(name ?? "any") \(match.operatorText) \(Self.quoted(match.value)))"
        case .uri(let match): "(file \(match.operatorText) \(Self.quoted(match.value)))"
        case .base(let path): "(base \(Self.quoted(path)))"
        case .modifiedSince(let time): "(modified-since \(Self.quoted(String(time))))"
        case .addedSince(let time): "(added-since \(Self.quoted(String(time))))"
        case .audioFormat(let format, let mask): "(AudioFormat \(mask ? "=~" : "==") \(Self.quoted(format.description)))"
        case .priority(let value): "(prio >= \(value))"
        case .not(let inner): "(!\(inner.expression))"
        case .and(let items): "(\(items.map(\.expression).joined(separator: " AND ")))"
        }
    }

    /// A value in double quotes, with the quote characters and the backslash escaped.
    public static func quoted(_ value: String) -> String {
        var text = "\""
        for character in value {
            if character == "\"" || character == "'" || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text + "\""
    }
}
