import ArgumentParser
import LibraryKit
import PlayerKit
import TerminalApp

/// `tonearm search WORDS [--play N]`: finds podcasts, episodes and lines of fetched transcripts,
/// and plays a hit from where its words are said.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search podcast titles, episode titles and notes, and fetched transcripts; --play N plays hit N from where it is said.",
        discussion: """
            Every word must be found; a word also finds longer ones that start with it (kern finds kernel). \
            Put a phrase in double quotes to find its words together: tonearm search '"fair scheduler"'.
            """)

    @Argument(help: "The words to find.") var words: [String]
    @Flag(help: "Print a JSON array of hits for scripts.") var json = false
    @Option(help: "The most hits shown.") var limit = 50
    @Option(help: "Play hit N of this search: an episode, from the time a transcript line is said.") var play: Int?
    @OptionGroup var playback: PlaybackOptions
    @OptionGroup var stream: StreamOptions
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("give the words to find") }
        guard (1...500).contains(limit) else { throw ValidationError("--limit must be 1-500") }
        if play != nil && json { throw ValidationError("--play and --json do not go together") }
    }

    func run() async throws {
        logging.start()
        let library = await LibraryContext.openForCommand()
        let hits = await SearchCommands.hits(for: words.joined(separator: " "), limit: limit, library: library)
        guard let play else { return SearchCommands.print(hits, json: json) }
        switch SearchCommands.episode(ofHit: play, in: hits) {
        case .failure(let refusal): throw ValidationError(refusal.description)
        case .success(let episode):
            await CommandPlayback.playEpisode(
                episode.id, from: episode.from, settings: playback.settings, services: stream.services(for: []),
                configuration: playback.configuration())
        }
    }
}
