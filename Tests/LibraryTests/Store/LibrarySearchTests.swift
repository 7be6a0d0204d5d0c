import Foundation
import GRDB
import PlayerCore
import Testing

@testable import Library

/// `LibraryStore.search`: titles, notes and transcript lines found through FTS5, in English and in
/// Russian, ranked titles first, and the index kept in step with every change to the library.
@Suite("Library search")
struct LibrarySearchTests {
    /// A library with one podcast whose episode 1 has a transcript; episode 2 none.
    private func library(_ temporary: TemporaryDirectory, lines: [TranscriptCue]? = nil) throws -> (LibraryStore, PodcastRecord, [EpisodeRecord]) {
        let store = try LibraryStore.open(directory: temporary.url)
        var first = StoreFeedFixtures.episode(1, title: "The kernel scheduler")
        first.summary = "We talk about process priorities and niceness."
        let second = StoreFeedFixtures.episode(2, title: "Квантовая физика для всех")
        let podcast = try store.addPodcast(
            feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(title: "Linux Voices", episodes: [first, second]),
            validators: FeedValidators())
        let episodes = try store.episodes(podcastID: podcast.id).sorted { $0.guid < $1.guid }
        let cues = lines ?? [
            TranscriptCue(start: 12, end: 15, text: "Welcome back to the show.", speaker: "Alice")!,
            TranscriptCue(start: 754, end: 760, text: "The completely fair scheduler picks the task with the least runtime.", speaker: "Bob")!,
            TranscriptCue(start: 800, end: 805, text: "Сегодня мы говорим о планировщике задач.")!,
        ]
        try store.keepTranscript(Transcript(cues: cues), format: .webVTT, episodeID: episodes[0].id, url: URL(string: "https://e.org/1.vtt")!)
        return (store, podcast, episodes)
    }

    @Test func aPhraseSaidOnlyInATranscriptNamesTheEpisodeAndTheTime() throws {
        let temporary = try TemporaryDirectory()
        let (store, podcast, episodes) = try library(temporary)
        let hits = try store.search("least runtime")
        #expect(hits.count == 1)
        let hit = try #require(hits.first)
        #expect(hit.match == .transcript)
        #expect(hit.episodeID == episodes[0].id && hit.podcastID == podcast.id)
        #expect(hit.episodeTitle == "The kernel scheduler" && hit.podcastTitle == "Linux Voices")
        #expect(hit.time == 754 && hit.speaker == "Bob")
        #expect(hit.text.contains("least runtime"))
        // A quoted phrase must be whole and in order.
        #expect(try store.search("\"least runtime\"").count == 1)
        #expect(try store.search("\"runtime least\"").isEmpty)
        #expect(try store.search("runtime nonexistentword").isEmpty)
    }

    @Test func russianIsFoundInTitlesAndTranscriptsWhateverTheCaseAndEnding() throws {
        let temporary = try TemporaryDirectory()
        let (store, _, episodes) = try library(temporary)
        let line = try store.search("планировщик")
        #expect(line.map(\.match) == [.transcript])
        #expect(line.first?.time == 800 && line.first?.episodeID == episodes[0].id)
        // Upper case, and a word's stem finds its other endings ("квантовая" by "КВАНТОВ").
        let title = try store.search("КВАНТОВ")
        #expect(title.map(\.match) == [.episodeTitle])
        #expect(title.first?.episodeID == episodes[1].id)
        #expect(try store.search("щука").isEmpty)
    }

    @Test func titlesComeFirstThenNotesThenTranscriptLines() throws {
        let temporary = try TemporaryDirectory()
        let (store, _, episodes) = try library(temporary)
        // "scheduler": episode 1's title and a transcript line; "priorities": its notes only.
        let scheduler = try store.search("scheduler")
        #expect(scheduler.map(\.match) == [.episodeTitle, .transcript])
        #expect(try store.search("priorities").map(\.match) == [.episodeNotes])
        #expect(try store.search("priorities").first?.text.contains("priorities") == true)
        // The podcast's title before any episode; its author and description after every title.
        let voices = try store.search("linux")
        #expect(voices.first?.match == .podcastTitle && voices.first?.episodeID == nil)
        #expect(try store.search("someone").map(\.match) == [.podcastDetails])
        // An episode whose title matched is not told again for its notes.
        #expect(Set(scheduler.compactMap(\.episodeID)) == [episodes[0].id])
    }

    @Test func aWordSaidInEveryLineShowsAFewLinesPerEpisodeAndTheLimitHolds() throws {
        let temporary = try TemporaryDirectory()
        let cues = (0..<40).map { TranscriptCue(start: Double($0) * 10, end: Double($0) * 10 + 5, text: "again and again, line \($0)")! }
        let (store, _, _) = try library(temporary, lines: cues)
        #expect(try store.search("again").count == 3)
        #expect(try store.search("again", linesPerEpisode: 10).count == 10)
        #expect(try store.search("again", limit: 2, linesPerEpisode: 10).count == 2)
        #expect(try store.search("again", limit: 0).isEmpty)
    }

    @Test func theIndexFollowsRefreshesNewTranscriptsAndRemovals() throws {
        let temporary = try TemporaryDirectory()
        let (store, podcast, episodes) = try library(temporary)
        // A refresh that renames episode 1: the new title is found, the old one no longer.
        var renamed = StoreFeedFixtures.episode(1, title: "The memory allocator")
        renamed.summary = "We talk about process priorities and niceness."
        _ = try store.refreshPodcast(
            id: podcast.id, feed: StoreFeedFixtures.feed(title: "Linux Voices", episodes: [renamed, StoreFeedFixtures.episode(2, title: "Квантовая физика для всех")]),
            validators: FeedValidators())
        #expect(try store.search("allocator").map(\.episodeID) == [episodes[0].id])
        #expect(try store.search("scheduler").map(\.match) == [.transcript])
        // A transcript kept again replaces its lines.
        try store.keepTranscript(
            Transcript(cues: [TranscriptCue(start: 5, end: 6, text: "Entirely new words.")!]), format: .srt, episodeID: episodes[0].id,
            url: URL(string: "https://e.org/1.srt")!)
        #expect(try store.search("runtime").isEmpty)
        #expect(try store.search("entirely").first?.time == 5)
        // Removing the podcast takes everything with it.
        try store.removePodcast(id: podcast.id)
        for word in ["linux", "allocator", "entirely", "квантовая"] { #expect(try store.search(word).isEmpty, "\(word)") }
    }

    @Test func linesWithTheWholeWordComeBeforeLinesWhereItBeginsALongerOne() throws {
        let temporary = try TemporaryDirectory()
        let cues = [
            TranscriptCue(start: 1, end: 2, text: "Kernels everywhere, kernels all the way down.")!,
            TranscriptCue(start: 3, end: 4, text: "The kernel.")!,
        ]
        let (store, _, _) = try library(temporary, lines: cues)
        let lines = try store.search("kernel").filter { $0.match == .transcript }
        #expect(lines.map(\.time) == [3, 1])
    }

    @Test func anUntimedTranscriptIsFoundWithoutATime() throws {
        let temporary = try TemporaryDirectory()
        let (store, _, episodes) = try library(temporary)
        try store.keepTranscript(
            Transcript(cues: [TranscriptCue(start: 0, end: 0, text: "A paragraph about compilers.")!], timed: false), format: .html,
            episodeID: episodes[1].id, url: URL(string: "https://e.org/2.html")!)
        let hit = try #require(try store.search("compilers").first)
        #expect(hit.episodeID == episodes[1].id && hit.time == nil)
    }

    @Test(arguments: ["", "   ", "\"", "***", "AND", "NEAR(", "title:", "-", "a\"b", "c++ OR ^x", "{title} : x", String(repeating: "w ", count: 100)])
    func whatTheListenerTypesIsNeverQuerySyntax(text: String) throws {
        let temporary = try TemporaryDirectory()
        let (store, _, _) = try library(temporary)
        // Never a thrown SQL error, whatever the text.
        _ = try store.search(text)
        _ = try store.search("scheduler " + text)
    }

    @Test func wordsAreQuotedPrefixesAndQuotedTextIsAPhrase() {
        #expect(SearchQuery("c++ OR ^x")?.expression == #""c"* "OR"* "x"*"#)
        #expect(SearchQuery("NEAR(a b) title:x")?.expression == #""NEAR"* "a"* "b"* "title"* "x"*"#)
        #expect(SearchQuery("say \"the least runtime\" now")?.expression == #""say"* "the least runtime" "now"*"#)
        // An unclosed quote runs to the end; an empty phrase is nothing.
        #expect(SearchQuery("a \"b c")?.expression == #""a"* "b c""#)
        #expect(SearchQuery("\"\" x")?.expression == #""x"*"#)
        #expect(SearchQuery("Привет, МИР!")?.expression == #""Привет"* "МИР"*"#)
        #expect(SearchQuery(" ,.;*- ") == nil && SearchQuery("") == nil)
        #expect(SearchQuery(String(repeating: "w ", count: 100))?.expression.split(separator: " ").count == SearchQuery.maxWords)
        #expect(SearchQuery(String(repeating: "x", count: 500))?.expression.count == SearchQuery.maxWordLength + 3)
        #expect(SearchQuery("kernel")?.only("title") == #"{title} : ("kernel"*)"#)
        #expect(SearchQuery("say \"the least\" now")?.only("text", whole: true) == #"{text} : ("say" "the least" "now")"#)
    }

    @Test func aLibraryFromBeforeSearchIsIndexedWhenItUpgrades() async throws {
        let temporary = try TemporaryDirectory()
        do {
            let pool = try DatabasePool(path: temporary.databaseURL.path)
            try LibrarySchema.migrator.migrate(pool, upTo: "v11")
            try await pool.write { db in
                try db.execute(sql: """
                    INSERT INTO podcast (id, title, feedURL, addedAt) VALUES (7, 'Old Show', 'https://old.example/feed', 2.0);
                    INSERT INTO episode (id, podcastId, guid, title, summary, feedOrder) VALUES (70, 7, 'g1', 'Pilot', 'Notes on gardening', 0);
                    INSERT INTO transcript (episodeId, url, format, cues, fetchedAt)
                    VALUES (70, 'https://old.example/70.vtt', 'webVTT', '{"timed":true,"cues":[{"start":61.5,"end":63,"text":"Tomatoes need sun."}]}', 1.0);
                    """)
            }
            try pool.close()
        }
        let store = try LibraryStore.open(directory: temporary.url)
        #expect(try store.search("old show").map(\.match) == [.podcastTitle])
        #expect(try store.search("gardening").map(\.match) == [.episodeNotes])
        #expect(try store.search("tomatoes").first?.time == 61.5)
    }
}
