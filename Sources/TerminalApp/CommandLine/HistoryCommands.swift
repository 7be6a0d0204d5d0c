import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation

/// What `tonearm history` and `tonearm favourites` print once their arguments are parsed.
package enum HistoryCommands {
    /// The titles heard (on one station, or on all), newest first: a table, or JSON objects with
    /// `station`, `title`, `artist` (null when unknown), `heardAt` (ISO 8601) and `liked`.
    package static func history(station: String?, limit: Int, json: Bool, library: LibraryContext) async {
        let heard = await library.attempt("listHistory") { () throws(PlaybackError) in
            try library.store.history(station: station, limit: limit)
        }
        if json { return JSONOutput.print(heard.map(HeardTitleJSON.init)) }
        guard !heard.isEmpty else {
            return print("Nothing heard yet\(station == nil ? "" : " on that station"). Titles of the stations you play are kept here.")
        }
        print(TextTable.render(
            header: ["HEARD", "STATION", "SONG", ""],
            rows: heard.map { [HistoryText.when($0.heardAt), $0.station, $0.song, $0.liked ? "♥" : ""] }))
    }

    package enum Format: String, Sendable, CaseIterable {
        case table, csv, json
    }

    /// The favourites as a table, CSV or JSON, on stdout or into `file`.
    package static func favourites(format: Format, file: String?, library: LibraryContext) async {
        let songs = await library.attempt("listFavourites") { () throws(PlaybackError) in try library.store.favourites() }
        let data: Data
        switch format {
        case .table:
            data = Data((songs.isEmpty
                ? "No favourites yet. Press l while a song plays, or on a title in the History tab.\n"
                : TextTable.render(header: ["LIKED", "SONG", "STATION"], rows: songs.map { [HistoryText.when($0.likedAt), $0.song, $0.station ?? "-"] }) + "\n").utf8)
        case .csv:
            data = Data(FavouritesCSV.render(songs).utf8)
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            data = ((try? encoder.encode(songs.map(FavouriteJSON.init))) ?? Data("[]".utf8)) + Data("\n".utf8)
        }
        guard let file else { return FileHandle.standardOutput.write(data) }
        CommandFailure.orExit { () throws(PlaybackError) in try UserFile.write(data, to: file) }
        FileHandle.standardError.write(Data("Wrote \(songs.count) favourites to \(file)\n".utf8))
    }

    /// A heard title as scripts get it: every key present, `artist` null when unknown.
    struct HeardTitleJSON: Encodable {
        let heard: HeardTitle
        init(_ heard: HeardTitle) { self.heard = heard }

        enum Keys: String, CodingKey { case id, station, title, artist, heardAt, liked }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(heard.id, forKey: .id)
            try container.encode(heard.station, forKey: .station)
            try container.encode(heard.title, forKey: .title)
            try container.encode(heard.artist, forKey: .artist)
            try container.encode(heard.heardAt, forKey: .heardAt)
            try container.encode(heard.liked, forKey: .liked)
        }
    }

    /// A favourite as exported: every key present, null when unknown.
    struct FavouriteJSON: Encodable {
        let song: FavouriteSong
        init(_ song: FavouriteSong) { self.song = song }

        enum Keys: String, CodingKey { case title, artist, station, heardAt, likedAt }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(song.title, forKey: .title)
            try container.encode(song.artist, forKey: .artist)
            try container.encode(song.station, forKey: .station)
            try container.encode(song.heardAt, forKey: .heardAt)
            try container.encode(song.likedAt, forKey: .likedAt)
        }
    }
}

/// The favourites as CSV (RFC 4180: a header line, CRLF line ends, fields with a comma, a quote or
/// a line break quoted, quotes doubled). Dates are ISO 8601 in UTC. A field that a spreadsheet
/// would run as a formula (starting with =, +, - or @) is prefixed with a quote mark: titles come
/// from stations, and an export must not turn one into a command.
package enum FavouritesCSV {
    package static func render(_ songs: [FavouriteSong]) -> String {
        let formatter = ISO8601DateFormatter()
        var lines = ["title,artist,station,heardAt,likedAt"]
        for song in songs {
            lines.append([song.title, song.artist ?? "", song.station ?? "", song.heardAt.map(formatter.string) ?? "", formatter.string(from: song.likedAt)]
                .map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func field(_ text: String) -> String {
        var value = text
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
