import ArgumentParser
import Foundation
import Library
import PlayerCore
import PlayerKit
import TerminalApp
import Presentation

/// `tonearm podcast ...`: subscriptions, their episodes, OPML import and export.
struct PodcastCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podcast", abstract: "Podcast subscriptions: add, list, episodes, refresh, remove, import, export, trim-silence, stats.",
        subcommands: [
            Add.self, List.self, Episodes.self, Refresh.self, Remove.self, Import.self, Export.self, TrimSilence.self, Stats.self,
        ])

    struct TrimSilence: LibrarySubcommand {
        static let configuration = CommandConfiguration(
            commandName: "trim-silence", abstract: "Shorten the long silences of a podcast's episodes (on), or not (off).")
        @Argument(help: "The podcast's id or title.") var podcast: String
        @Argument(help: "on or off.") var setting: Switch

        enum Switch: String, ExpressibleByArgument { case on, off }

        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let record = await library.attempt("trimSilence") { () throws(PlaybackError) -> PodcastRecord in
                let record = try library.store.podcast(matching: podcast)
                try SilenceTrimmingSetting.set(setting == .on, in: library.store, podcast: record.id)
                return record
            }
            print("\(record.title): silence trimming \(setting.rawValue)")
        }
    }

    struct Stats: LibrarySubcommand {
        static let configuration = CommandConfiguration(abstract: "The time silence trimming has saved you, per podcast and in total.")
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let saved = await library.attempt("podcastStats") { () throws(PlaybackError) in try library.store.trimmedSilenceByPodcast() }
            print(LibraryListing.trimmedSilence(saved))
        }
    }

    struct Add: LibrarySubcommand {
        static let configuration = CommandConfiguration(abstract: "Subscribe to a podcast by its feed URL (RSS or Atom).")
        @Argument(help: "The feed's http(s) URL.") var feedURL: String
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let url = try webURL(feedURL, what: "FEED_URL")
            do throws(PlaybackError) {
                let podcast = try await library.podcasts.add(feedURL: url)
                print(LibraryListing.added(podcast))
            } catch {
                CommandFailure.exit(error, operation: .feed)
            }
        }
    }

    struct List: LibrarySubcommand {
        static let configuration = CommandConfiguration(abstract: "List subscribed podcasts.")
        @Flag(help: "Print a JSON array (stable ids) for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let podcasts = await library.attempt("listPodcasts") { () throws(PlaybackError) in try library.store.podcasts() }
            json ? JSONOutput.print(podcasts) : print(LibraryListing.podcasts(podcasts))
        }
    }

    struct Episodes: LibrarySubcommand {
        static let configuration = CommandConfiguration(abstract: "List a podcast's episodes, newest first.")
        @Argument(help: "The podcast's id or title.") var podcast: String
        @Flag(help: "Print a JSON array (stable ids) for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let episodes = await library.attempt("listEpisodes") { () throws(PlaybackError) in
                try library.store.episodes(podcastID: try library.store.podcast(matching: podcast).id)
            }
            json ? JSONOutput.print(episodes) : print(LibraryListing.episodes(episodes))
        }
    }

    struct Refresh: LibrarySubcommand {
        static let configuration = CommandConfiguration(abstract: "Fetch new episodes of one podcast, or of all.")
        @Argument(help: "The podcast's id or title (all podcasts when left out).") var podcast: String?
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            if await !PodcastCommands.refresh(podcast, library: library) { throw ExitCode(1) }
        }
    }

    struct Remove: LibrarySubcommand {
        static let configuration = CommandConfiguration(abstract: "Unsubscribe from a podcast (its episodes and positions go too).")
        @Argument(help: "The podcast's id or title.") var podcast: String
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let removed = await library.attempt("removePodcast") { () throws(PlaybackError) -> PodcastRecord in
                let record = try library.store.podcast(matching: podcast)
                try library.store.removePodcast(id: record.id)
                return record
            }
            print("Removed \(removed.title)")
        }
    }

    struct Import: LibrarySubcommand {
        static let configuration = CommandConfiguration(abstract: "Subscribe to every feed of an OPML file; a dead feed is reported and the rest import.")
        @Argument(help: "The OPML file.") var file: String
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            if await !PodcastCommands.importOPML(file, library: library) { throw ExitCode(1) }
        }
    }

    struct Export: LibrarySubcommand {
        static let configuration = CommandConfiguration(abstract: "Write the subscriptions as OPML (to stdout by default).")
        @Argument(help: "The file to write (stdout when left out).") var file: String?
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let data = await library.attempt("exportOPML") { () throws(PlaybackError) in try library.podcasts.exportOPML() }
            guard let file else { return FileHandle.standardOutput.write(data) }
            CommandFailure.orExit { () throws(PlaybackError) in try UserFile.write(data, to: file) }
        }
    }
}
