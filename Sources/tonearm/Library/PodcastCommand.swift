import ArgumentParser
import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import TerminalApp
import Presentation

/// `tonearm podcast ...`: subscriptions, their episodes, OPML import and export.
struct PodcastCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podcast",
        abstract:
            "Podcast subscriptions: add, list, episodes, refresh, remove, import, export, download, downloads, auto-download, mark, mark-all-played, trim-silence, stats, transcript.",
        subcommands: [
            Add.self, List.self, Episodes.self, Refresh.self, Remove.self, Import.self, Export.self, Download.self, Downloads.self,
            AutoDownload.self, Mark.self, MarkAllPlayed.self, TrimSilence.self, Stats.self, Transcript.self, Soundbites.self,
            PreferBitrate.self,
        ])

    struct PreferBitrate: LibrarySubcommand {
        static let configuration = CommandConfiguration(
            commandName: "prefer-bitrate",
            abstract: "low: take an episode's lowest-bitrate file first where its feed offers several (podcast:alternateEnclosure); default: its enclosure.")
        @Argument(help: "low or default.") var choice: String
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            guard ["low", "default"].contains(choice) else { throw ValidationError("say low or default") }
        }

        func run(on library: LibraryContext) async throws {
            await library.attempt("preferBitrate") { () throws(PlaybackError) in try library.downloads.setPrefersLowBitrate(choice == "low") }
            print(choice == "low" ? "Downloads and streams take an episode's lowest bitrate first." : "Downloads and streams take an episode's own file first.")
        }
    }

    struct Soundbites: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "soundbites", 
            abstract: "List an episode's soundbites (podcast:soundbite), to play with: tonearm play --episode ID --soundbite N.")
        @Argument(help: "The episode's id.") var episode: Int64
        @Flag(help: "Print a JSON array for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await PodcastCommands.soundbites(episodeID: episode, json: json, library: library)
        }
    }

    struct Transcript: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "transcript", 
            abstract: "Print an episode's transcript with times (fetched once from its feed's podcast:transcript, then kept).")
        @Argument(help: "The episode's id.") var episode: Int64
        @Flag(help: "Print JSON (the cues with start, end, text, speaker) for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await PodcastCommands.transcript(episodeID: episode, json: json, library: library)
        }
    }

    struct Mark: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "mark", abstract: "Mark an episode played or unplayed.")
        @Argument(help: "The episode's id.") var episode: Int64
        @Argument(help: "played or unplayed.") var mark: PlayedMark

        enum PlayedMark: String, ExpressibleByArgument { case played, unplayed }

        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await PodcastCommands.mark(episodeID: episode, played: mark == .played, library: library)
        }
    }

    struct MarkAllPlayed: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "mark-all-played", abstract: "Mark every episode of a podcast played.")
        @Argument(help: "The podcast's id or title.") var podcast: String
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await PodcastCommands.markAllPlayed(podcast, library: library)
        }
    }

    struct Download: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "download", 
            abstract: "Keep episodes on disk to play without a network: one episode, or a podcast's newest.",
            discussion: """
                TARGET is an episode id (as `podcast episodes --json` gives it) or a podcast's id or title. A podcast \
                gets its newest episode downloaded, or its newest N with --latest (with --latest, TARGET always names a \
                podcast). At most two download at once; a cut download continues at the byte next time.
                """)
        @Argument(help: "An episode id, or a podcast's id or title.") var target: String
        @Option(help: "Download the podcast's newest N episodes.") var latest: Int?
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if let latest, latest < 1 { throw ValidationError("--latest must be at least 1") }
        }

        func run(on library: LibraryContext) async throws {
            if await !DownloadCommands.download(target, latest: latest, library: library) { throw ExitCode(1) }
        }
    }

    struct Downloads: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "downloads", 
            abstract: "List downloaded episodes and their sizes; remove one; set the storage cap.",
            discussion: """
                With --cap, downloads are kept under SIZE (such as 500M or 2G; `none` for no cap): played episodes go \
                first, oldest first, then ones never started; a partly played episode is never removed without asking.
                """)
        @Flag(help: "Print a JSON array for scripts.") var json = false
        @Option(help: "Delete the download of this episode id.") var remove: Int64?
        @Option(help: "The storage cap: a size such as 500M or 2G, or none.") var cap: String?
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if let cap, StorageSize.parse(cap) == nil { throw ValidationError("--cap takes a size such as 500M or 2G, or none") }
        }

        func run(on library: LibraryContext) async throws {
            if let remove { return await DownloadCommands.remove(remove, library: library) }
            if let cap, let parsed = StorageSize.parse(cap) { return await DownloadCommands.setCap(parsed.bytes, library: library) }
            await DownloadCommands.list(json: json, library: library)
        }
    }

    struct AutoDownload: LibrarySubcommand {
        static let configuration = CommandConfiguration(
            commandName: "auto-download",
            abstract: "Download a podcast's new episodes by themselves (on), keeping the newest N, or not (off).",
            discussion: "New episodes are downloaded when the podcast is refreshed (`podcast refresh`, R in the terminal).")
        @Argument(help: "The podcast's id or title.") var podcast: String
        @Argument(help: "on or off.") var setting: TrimSilence.Switch
        @Option(help: "How many of the newest episodes to keep downloaded.") var keep: Int = 3
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if keep < 1 { throw ValidationError("--keep must be at least 1") }
        }

        func run(on library: LibraryContext) async throws {
            if await !DownloadCommands.setAuto(podcast, keep: setting == .on ? keep : nil, library: library) { throw ExitCode(1) }
        }
    }

    struct TrimSilence: LibrarySubcommand {
        static let configuration = CommandConfiguration(
            commandName: "trim-silence", abstract: "Shorten the long silences of a podcast's episodes (on), or not (off).")
        @Argument(help: "The podcast's id or title.") var podcast: String
        @Argument(help: "on or off.") var setting: Switch

        enum Switch: String, ExpressibleByArgument { case on, off }

        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await PodcastCommands.trimSilence(podcast, on: setting == .on, library: library)
        }
    }

    struct Stats: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "The time silence trimming has saved you, per podcast and in total.")
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await PodcastCommands.stats(library: library)
        }
    }

    struct Add: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Subscribe to a podcast by its feed URL (RSS or Atom).")
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
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List subscribed podcasts.")
        @Flag(help: "Print a JSON array (stable ids) for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await PodcastCommands.list(json: json, library: library)
        }
    }

    struct Episodes: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "episodes", 
            abstract: "List a podcast's episodes (newest first; --sort season for seasons and episode numbers), with their guests.")
        @Argument(help: "The podcast's id or title.") var podcast: String
        @Option(help: "newest, oldest, or season (by season and episode number, as the feed numbers them).") var sort: EpisodeOrder = .newest
        @Flag(help: "Print a JSON array (stable ids) for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await PodcastCommands.episodes(podcast, order: sort, json: json, library: library)
        }
    }

    struct Refresh: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Fetch new episodes of one podcast, or of all.")
        @Argument(help: "The podcast's id or title (all podcasts when left out).") var podcast: String?
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            // The feeds, then the automatic downloads, then the sync.
            let refreshed = await PodcastCommands.refresh(podcast, library: library)
            if !refreshed { throw ExitCode(1) }
        }
    }

    struct Remove: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Unsubscribe from a podcast (its episodes and positions go too).")
        @Argument(help: "The podcast's id or title.") var podcast: String
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await PodcastCommands.remove(podcast, library: library)
        }
    }

    struct Import: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "import", abstract: "Subscribe to every feed of an OPML file; a dead feed is reported and the rest import.")
        @Argument(help: "The OPML file.") var file: String
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            if await !PodcastCommands.importOPML(file, library: library) { throw ExitCode(1) }
        }
    }

    struct Export: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "export", abstract: "Write the subscriptions as OPML (to stdout by default).")
        @Argument(help: "The file to write (stdout when left out).") var file: String?
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let data = await library.attempt("exportOPML") { () throws(PlaybackError) in try library.podcasts.exportOPML() }
            guard let file else { return FileHandle.standardOutput.write(data) }
            CommandFailure.orExit { () throws(PlaybackError) in try UserFile.write(data, to: file) }
        }
    }
}
