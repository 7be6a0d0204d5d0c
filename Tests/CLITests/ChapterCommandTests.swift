import Foundation
import TestProcesses
import Testing

/// Chapters seen from outside: a file with chapters written by the ffmpeg tool plays in line
/// mode, `chapter next` on stdin jumps to the next chapter's start, and the JSON events say which
/// chapter plays.
@Suite("tonearm chapters in line mode", .serialized, .blocking)
struct ChapterCommandTests {
    /// 20 s of tone in an mp3 with ID3 chapters at 0, 5, 10 and 15 s.
    static func chaptered() throws -> (directory: URL, file: URL) {
        let fixtures = try AudioFixtures()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var metadata = ";FFMETADATA1\n"
        for (index, start) in [0, 5, 10, 15].enumerated() {
            metadata += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(start * 1000)\nEND=\((start + 5) * 1000)\ntitle=Part \(index + 1)\n"
        }
        let meta = try fixtures.write("meta.txt", Data(metadata.utf8))
        let file = directory.appendingPathComponent("chaptered.mp3")
        try fixtures.ffmpeg(
            ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=20", "-i", meta.path, "-map", "0:a", "-map_metadata", "1",
             "-map_chapters", "1", "-id3v2_version", "3", "-c:a", "libmp3lame", "-b:a", "128k", file.path])
        return (directory, file)
    }

    static func chapterIndex(_ event: [String: Any]) -> Int? {
        (event["chapter"] as? [String: Any])?["index"] as? Int
    }

    static func positions(_ events: [[String: Any]]) -> [(position: Double, chapter: Int?)] {
        events.filter { $0["event"] as? String == "position" }.compactMap { event in
            (event["position"] as? Double).map { ($0, chapterIndex(event)) }
        }
    }

    @Test func chapterNextJumpsToTheNextChapterAndTheEventsSayWhichPlays() throws {
        let (directory, file) = try Self.chaptered()
        defer { try? FileManager.default.removeItem(at: directory) }
        let r = try PlaybackCommandTests.run(
            ["play", file.path, "--output", "null", "--events", "jsonl"],
            inputs: [
                ({ events in Self.positions(events).contains { $0.position >= 1 } }, "chapter next"),
                ({ events in Self.positions(events).contains { $0.chapter == 1 && $0.position >= 5.5 } }, "chapter next"),
                ({ events in Self.positions(events).contains { $0.chapter == 2 && $0.position >= 10.3 } }, "chapter previous"),
                ({ events in Self.positions(events).contains { $0.chapter == 1 && $0.position >= 5.3 } }, "stop"),
            ])
        #expect(r.status == 0, "stderr: \(r.err)")
        let list = try #require(r.events.first { $0["event"] as? String == "chapters" })
        #expect(list["origin"] as? String == "embedded")
        let titles = (list["chapters"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        #expect(titles == ["Part 1", "Part 2", "Part 3", "Part 4"])

        let positions = Self.positions(r.events)
        // Before the first command: chapter 0 from the start, never beyond the first second or so.
        let first = try #require(positions.first { $0.chapter != nil })
        #expect(first.chapter == 0 && first.position < 1.5, "\(positions.prefix(5))")
        // `chapter next` at about 1 s: the next position is at the second chapter's start, not
        // 1.1 s; the chapter field says 1 from there on.
        let jump = try #require(positions.firstIndex { $0.position >= 4.9 }, "\(positions)")
        #expect(positions[jump].position < 5.3, "\(positions[max(0, jump - 2)...min(positions.count - 1, jump + 2)])")
        #expect(positions[jump].chapter == 1)
        #expect(!positions.contains { $0.position > 1.6 && $0.position < 4.9 }, "the middle of chapter 1 is skipped")
        // The chapter event came as the position entered the chapter, with its title.
        let entered = r.events.filter { $0["event"] as? String == "chapter" }.compactMap { $0["chapter"] as? [String: Any] }
        #expect(entered.map { $0["index"] as? Int } == [0, 1, 2, 1], "\(entered)")
        #expect(entered.dropFirst().first?["title"] as? String == "Part 2")
        #expect(entered.first?["count"] as? Int == 4)
        // `chapter previous` 0.3 s into the third chapter goes back to the second one's start.
        let back = positions.drop { $0.chapter != 2 }.drop { $0.chapter == 2 }
        #expect(back.first.map { $0.position >= 4.9 && $0.position < 5.3 } == true, "\(Array(back.prefix(3)))")
        // State events carry the chapter too.
        #expect(r.events.contains { $0["event"] as? String == "state" && Self.chapterIndex($0) != nil })
    }

    @Test func chapterCommandsAreParsedAndAWrongOneIsAnswered() throws {
        let (directory, file) = try Self.chaptered()
        defer { try? FileManager.default.removeItem(at: directory) }
        let r = try PlaybackCommandTests.run(
            ["play", file.path, "--output", "null", "--events", "jsonl"],
            inputs: [
                ({ events in Self.positions(events).contains { $0.position >= 0.5 } }, "chapter 4"),
                ({ events in Self.positions(events).contains { $0.chapter == 3 } }, "chapter sideways"),
                ({ events in Self.positions(events).contains { $0.chapter == 3 && $0.position >= 15.5 } }, "stop"),
            ])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.err.contains("unknown command: chapter sideways"), "stderr: \(r.err)")
        let jump = try #require(Self.positions(r.events).first { $0.position >= 14.9 })
        #expect(jump.position < 15.3 && jump.chapter == 3)
    }
}
