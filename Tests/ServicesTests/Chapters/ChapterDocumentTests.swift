import Foundation
import PlayerCore
import Services
import Testing

/// The Podcasting 2.0 JSON chapters parser: good documents, hostile ones, huge ones, unsorted ones.
@Suite("JSON chapters document")
struct ChapterDocumentTests {
    func parse(_ json: String, maxBytes: Int = ServiceLimits.maxChaptersBytes) throws(PlaybackError) -> ChapterList {
        try ChapterDocument.parse(Data(json.utf8), trackID: "episode:1", maxBytes: maxBytes)
    }

    @Test("a document of the format gives its chapters in order, with titles and ends")
    func good() throws {
        let list = try parse(
            """
            {"version": "1.2.0", "author": "x", "chapters": [
              {"startTime": 0, "title": "Intro", "img": "https://example.com/a.jpg"},
              {"startTime": 62.5, "title": "Interview", "url": "https://example.com", "endTime": 900},
              {"startTime": 900, "title": "Outro", "toc": true}
            ]}
            """)
        #expect(list.origin == .feed)
        #expect(list.trackID == "episode:1")
        #expect(list.chapters == [
            Chapter(start: 0, title: "Intro"), Chapter(start: 62.5, end: 900, title: "Interview"), Chapter(start: 900, title: "Outro"),
        ])
    }

    @Test("unsorted entries are sorted by start; a second entry at the same start is dropped")
    func unsorted() throws {
        let list = try parse(
            """
            {"version": "1.2.0", "chapters": [
              {"startTime": 300, "title": "C"}, {"startTime": 0, "title": "A"}, {"startTime": 120, "title": "B"},
              {"startTime": 120, "title": "B again"}
            ]}
            """)
        #expect(list.chapters.map(\.title) == ["A", "B", "C"])
        #expect(list.chapters.map(\.start) == [0, 120, 300])
    }

    @Test("toc false, negative, missing and non-numeric times are left out; a number as a string is read")
    func dropsEntries() throws {
        let list = try parse(
            """
            {"version": "1.2.0", "chapters": [
              {"startTime": 0, "title": "Kept"},
              {"startTime": 10, "title": "Picture change", "toc": false},
              {"startTime": -5, "title": "Negative"},
              {"title": "No time"},
              {"startTime": "soon", "title": "Words"},
              {"startTime": 1e400, "title": "Infinite"},
              {"startTime": "42.5", "title": "String number"},
              {"startTime": 50, "endTime": 20, "title": "End before start"}
            ]}
            """)
        #expect(list.chapters.map(\.title) == ["Kept", "String number", "End before start"])
        #expect(list.chapters[2].end == nil)
    }

    @Test("titles are sanitised: controls and bidi overrides gone, one line, length capped")
    func hostileTitles() throws {
        let long = String(repeating: "x", count: 5000)
        let list = try parse(
            #"{"chapters": [{"startTime": 0, "title": "Evil\u001b[2J\u202Etitle\nsecond line"}, {"startTime": 1, "title": "\#(long)"}, {"startTime": 2, "title": 7}]}"#
        )
        #expect(list.chapters[0].title == "Evil[2Jtitle second line")
        #expect(list.chapters[1].title?.count == TextSanitizer.defaultMaxLength)
        #expect(list.chapters[2].title == nil)
    }

    @Test("not the format is malformedData", arguments: ["", "[]", "{}", "{\"chapters\": 5}", "<html>", "{\"chapters\": [", "null"])
    func malformed(_ json: String) {
        #expect(throws: PlaybackError(.malformedData)) { try parse(json) }
    }

    @Test("a document over the cap is refused before parsing")
    func tooLarge() {
        let json = "{\"chapters\": []}" + String(repeating: " ", count: 2000)
        #expect(throws: PlaybackError(.documentTooLarge)) { try parse(json, maxBytes: 1000) }
    }

    @Test("a huge list is cut to the most chapters kept, the earliest first")
    func huge() throws {
        let entries = (0..<20_000).reversed().map { "{\"startTime\": \($0), \"title\": \"C\($0)\"}" }.joined(separator: ",")
        let list = try parse("{\"version\": \"1.2.0\", \"chapters\": [\(entries)]}")
        #expect(list.count == ChapterList.maxCount)
        #expect(list.chapters.first?.title == "C0")
        #expect(list.chapters.last?.start == Double(ChapterList.maxCount - 1))
    }
}
