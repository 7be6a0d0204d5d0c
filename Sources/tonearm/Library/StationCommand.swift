import ArgumentParser
import Foundation
import Library
import PlayerCore
import PlayerKit
import Presentation
import Streaming

/// `tonearm station ...`: internet radio stations kept by name.
struct StationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "station", abstract: "Internet radio stations: add, import, list, remove.",
        subcommands: [Add.self, Import.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Keep a station under a name.")
        @Argument(help: "The station's name.") var name: String
        @Argument(help: "Its stream or playlist URL (http or https).") var url: String
        @Option(help: "Its genre.") var genre: String?

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.start()
            let streamURL = try WebURL.parse(url, what: "URL")
            let library = await LibraryContext.open()
            let station = await library.attempt("addStation") { () throws(PlaybackError) in try library.store.addStation(name: name, url: streamURL, genre: genre) }
            print("Added \(station.name) (station \(station.id)). Play it with: tonearm play --station \"\(station.name)\"")
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the stations of a .pls, .m3u or .m3u8 file (http(s) entries; names from the file's titles).")
        @Argument(help: "The playlist file.") var file: String

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.start()
            let data = try LocalFile.read(file, maxBytes: StreamingLimits.maxPlaylistBytes)
            let url = URL(fileURLWithPath: file)
            let kind = PlaylistKind.detect(contentType: nil, url: url, firstBytes: [UInt8](data.prefix(PlaylistKind.sniffLength))) ?? .m3u
            let library = await LibraryContext.open()
            let entries = await library.attempt("importStations") { () throws(PlaybackError) in
                // No base URL: a relative entry cannot be a station, and file paths are skipped below.
                try PlaylistParser.parse(data, kind: kind, baseURL: nil)
            }
            var added = 0
            var skipped = 0
            for entry in entries {
                guard let scheme = entry.url.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
                    skipped += 1
                    continue
                }
                let name = entry.title ?? entry.url.host ?? "Station"
                do throws(PlaybackError) {
                    let station = try library.store.addStation(name: name, url: entry.url)
                    print("Added \(station.name) (station \(station.id))")
                    added += 1
                } catch {
                    skipped += 1
                    ErrorOutput.warn(error, about: name)
                }
            }
            print("\(added) of \(entries.count) entries added")
            if added == 0 && !entries.isEmpty { throw ExitCode(1) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List stations.")
        @Flag(help: "Print a JSON array (stable ids) for scripts.") var json = false

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.start()
            let library = await LibraryContext.open()
            let stations = await library.attempt("listStations") { () throws(PlaybackError) in try library.store.stations() }
            if json { return JSONOutput.print(stations) }
            guard !stations.isEmpty else { return print("No stations yet. Add one with: tonearm station add NAME URL") }
            print(TextTable.render(
                header: ["ID", "NAME", "GENRE", "ADDRESS"],
                rows: stations.map { ["\($0.id)", $0.name, $0.genre ?? "-", WebURL.display($0.url)] }))
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a station.")
        @Argument(help: "The station's name or id.") var name: String

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.start()
            let library = await LibraryContext.open()
            await library.attempt("removeStation") { () throws(PlaybackError) in try library.store.removeStation(named: name) }
            print("Removed \(TextSanitizer.singleLine(name, maxLength: 120))")
        }
    }
}
