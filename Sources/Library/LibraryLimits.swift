/// The caps the library puts on what it reads from feeds and files, each a named constant in one
/// place: a server or a file must not be able to make Tonearm hold
/// unbounded text or spend unbounded time.
package enum LibraryLimits {
    /// Largest RSS document parsed, bytes. Big real feeds (decades of a daily show with long show
    /// notes) reach 10-20 MiB; 32 MiB leaves room while refusing a runaway download.
    package static let maxFeedBytes = 32 * 1024 * 1024
    /// Largest OPML file read, bytes. A few thousand subscriptions fit in well under 1 MiB.
    package static let maxOPMLBytes = 4 * 1024 * 1024
    /// Episodes kept per feed, in feed order (usually newest first); later items are dropped.
    package static let maxEpisodesPerFeed = 20_000
    /// Subscriptions kept from one OPML file; later outlines are dropped.
    package static let maxOPMLSubscriptions = 5_000
    /// Longest podcast or episode title kept, characters (an ellipsis marks a cut).
    package static let maxTitleLength = 256
    /// Longest author kept, characters.
    package static let maxAuthorLength = 256
    /// Longest podcast or episode summary kept, characters (plain text, after tags are stripped).
    package static let maxSummaryLength = 4_000
    /// Raw text gathered for one summary element before stripping tags, UTF-8 bytes. Show notes
    /// full of markup shrink a lot when stripped; anything past this cannot reach the kept summary.
    package static let maxRawSummaryBytes = 64 * 1024
    /// Raw text gathered for any other element (title, guid, date, duration), UTF-8 bytes.
    package static let maxRawFieldBytes = 8 * 1024
    /// Longest guid kept as is, characters; a longer one is replaced by its stable hash (cutting
    /// it could make two episodes share one).
    package static let maxGUIDLength = 512
    /// Longest URL taken from a feed or an OPML file, characters; a longer one is dropped, not cut.
    package static let maxURLLength = 2_048
    /// Longest enclosure MIME type kept, characters.
    package static let maxMIMETypeLength = 100
}

extension LibraryLimits {
    /// Titles kept per station in the history; the oldest go first.
    package static let maxHeardTitlesPerStation = 500
}
