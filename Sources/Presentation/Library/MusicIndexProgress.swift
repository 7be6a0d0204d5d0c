import PlayerCore

/// How far an update of the music index is, as the Music tab shows it while it runs: the files
/// found on disk that must be read, and how many of them are read so far. `total` is nil while
/// the folder is still being scanned (nothing is known to read yet).
package struct MusicIndexProgress: Sendable, Hashable {
    package var read: Int
    package var total: Int?

    package init(read: Int = 0, total: Int? = nil) {
        self.read = read
        self.total = total
    }

    /// The scan has not ended yet.
    package static let scanning = MusicIndexProgress()

    /// "Reading tags: 120 of 450 files", or "Looking for music files…" before the scan ends.
    package func text(in language: Language) -> String {
        guard let total else { return UIStrings.text(.musicIndexScanning, in: language) }
        return UIStrings.format(.musicIndexReading, in: language, read, total)
    }

    /// 0...1, nil before the scan ends; an update with nothing to read is done.
    package var fraction: Double? {
        guard let total else { return nil }
        return total == 0 ? 1 : min(1, Double(read) / Double(total))
    }
}

/// The Music tab's rows as text: an album with its year, a song with its track number and length.
/// Pure, over what the index holds (sanitised when it entered), so every front end lists alike.
package enum MusicRowText {
    /// "Night Ferry", detail "2019" (nil when no song gives a year).
    package static func album(title: String, year: Int?) -> LibraryRow {
        LibraryRow(title: clean(title), detail: year.map(String.init))
    }

    /// " 3  Harbour", detail "3:05"; a song without a track number is indented alike.
    package static func song(track: Int?, title: String, duration: Double?) -> LibraryRow {
        let number = track.map { String($0) } ?? ""
        let padded = String(repeating: " ", count: max(0, 2 - number.count)) + number
        return LibraryRow(title: "\(padded)  \(clean(title))", detail: duration.map(TimeText.clock))
    }

    /// A song the search found: its title, then artist and album.
    package static func found(title: String, artist: String?, album: String?, duration: Double?) -> LibraryRow {
        let context = [artist, album].compactMap { $0.map(clean) }.joined(separator: " · ")
        let length = duration.map(TimeText.clock)
        let detail = [context.isEmpty ? nil : context, length].compactMap { $0 }.joined(separator: "  ")
        return LibraryRow(title: clean(title), detail: detail.isEmpty ? nil : detail)
    }

    /// An artist as a row.
    package static func artist(_ name: String) -> LibraryRow { LibraryRow(title: clean(name)) }

    /// Tags were sanitised when read; a row is one line, whatever a tag holds.
    private static func clean(_ text: String) -> String { TextSanitizer.singleLine(text, maxLength: 200) }
}
