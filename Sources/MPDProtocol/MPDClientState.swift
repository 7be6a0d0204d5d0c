/// What one connection has set for itself, which the backend reads with each of its commands
/// (`MPDCommand.client`): the most bytes of a binary answer it takes in one piece (`binarylimit`,
/// for `albumart` and `readpicture`) and the tags its songs are told with (`tagtypes`). Each
/// connection has its own, as in MPD; a new one starts with MPD's defaults.
public struct MPDClientState: Sendable, Hashable {
    /// MPD's default chunk of a binary answer.
    public static let defaultBinaryLimit = 8192
    /// The smallest `binarylimit` MPD takes ("Value too small" below it).
    public static let minimumBinaryLimit = 64

    public var binaryLimit: Int
    /// The tags this connection turned off (`tagtypes disable`, `clear`), named as `MPDTagNames`
    /// spells them; every tag is on when it connects.
    public var hiddenTags: Set<String>

    public init(binaryLimit: Int = MPDClientState.defaultBinaryLimit, hiddenTags: Set<String> = []) {
        self.binaryLimit = binaryLimit
        self.hiddenTags = hiddenTags
    }

    /// Whether a song's `tag` field is told to this connection.
    public func shows(tag: String) -> Bool { !hiddenTags.contains(tag) }

    /// A song's fields as this connection asked for them: the fields of the tags it turned off
    /// are left out, everything else (`file`, `Pos`, `Id`, `Time`, `duration`…) stays. For
    /// answers that print songs (`playlistinfo`, `currentsong`, `find`…), not for `list`, whose
    /// tag fields are the answer itself.
    public func songFields(_ fields: MPDResponse) -> MPDResponse {
        guard !hiddenTags.isEmpty else { return fields }
        return MPDResponse(fields.fields.filter { !hiddenTags.contains($0.key) })
    }
}

/// The tag names of MPD 0.23 (its `tag_item_names`), in its order: what `tagtypes enable` and
/// `disable`, `addtagid` and `cleartagid` accept, whatever the case, whether or not this server's
/// songs carry the tag.
public enum MPDTagNames {
    public static let all = [
        "Artist", "ArtistSort", "Album", "AlbumSort", "AlbumArtist", "AlbumArtistSort", "Title", "Track", "Name", "Genre", "Date",
        "OriginalDate", "Composer", "ComposerSort", "Performer", "Conductor", "Work", "Movement", "MovementNumber", "Ensemble",
        "Location", "Grouping", "Comment", "Disc", "Label", "MUSICBRAINZ_ARTISTID", "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMARTISTID",
        "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_RELEASETRACKID", "MUSICBRAINZ_WORKID",
    ]

    /// The name as MPD spells it, for a name given in any case (`tag_name_parse_i`); nil for a
    /// name MPD does not know.
    public static func canonical(_ name: String) -> String? {
        let lowered = name.lowercased()
        return all.first { $0.lowercased() == lowered }
    }

    /// `names` in MPD's order, unknown ones left out.
    public static func ordered(_ names: some Sequence<String>) -> [String] {
        let given = Set(names)
        return all.filter { given.contains($0) }
    }
}
