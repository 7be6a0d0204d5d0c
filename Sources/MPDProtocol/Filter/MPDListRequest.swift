/// `list TAG [FILTER] [group GROUPTAG]...` read as MPD 0.23's `handle_list` reads it: the tag
/// whose values are listed (a tag or `file`), an optional filter, and the tags the values are
/// grouped by. The one old form, `list Album ARTIST`, is a filter on the artist.
public struct MPDListRequest: Sendable, Hashable {
    /// The caller's spelling of the tag, or `file`.
    public var tag: String
    public var filter: MPDFilter?
    /// Group tags, outermost first.
    public var groups: [String]

    public init(tag: String, filter: MPDFilter?, groups: [String]) {
        self.tag = tag
        self.filter = filter
        self.groups = groups
    }

    /// The request of `list`'s arguments (at least the tag), tags named as `parser` knows them.
    public init(_ arguments: [String], parser: MPDFilterParser) throws(MPDAck) {
        guard let name = arguments.first else { throw MPDAck(.argument, "too few arguments for \"list\"") }
        let tag: String
        if MPDFilterParser.asciiLowercased(name) == "file" || MPDFilterParser.asciiLowercased(name) == "filename" {
            tag = "file"
        } else if let known = parser.tagName(name) {
            tag = known
        } else {
            throw MPDAck(.argument, "Unknown tag type: \(name)")
        }
        var rest = Array(arguments.dropFirst())
        var filter: MPDFilter?
        if rest.count == 1, rest[0].utf8.first != UInt8(ascii: "(") {
            // Before MPD 0.12 `list Album ARTIST` listed an artist's albums; only that form is kept.
            guard tag == parser.tagName("Album"), let artist = parser.tagName("Artist") else {
                throw MPDAck(.argument, "should be \"Album\" for 3 arguments")
            }
            filter = .tag(artist, try MPDStringMatch(.equals, rest[0]))
            rest = []
        }
        var groups: [String] = []
        while rest.count >= 2, rest[rest.count - 2] == "group" {
            let groupName = rest[rest.count - 1]
            guard let group = parser.tagName(groupName) else { throw MPDAck(.argument, "Unknown tag type: \(groupName)") }
            guard group != tag, !groups.contains(group) else { throw MPDAck(.argument, "Conflicting group") }
            groups.insert(group, at: 0)
            rest.removeLast(2)
        }
        if !rest.isEmpty { filter = try parser.parse(rest) }
        self.init(tag: tag, filter: filter, groups: groups)
    }
}
