import Foundation
import PlayerCore

/// The Podcasting 2.0 JSON chapters format (`podcast:chapters`, type `application/json+chapters`):
/// `{"version": "1.2.0", "chapters": [{"startTime": 0, "title": "Intro", "img": "…", "url": "…",
/// "toc": true, "endTime": 62.5}]}`.
///
/// Pure: bytes in, a `ChapterList` out. The document comes from a server the listener does not
/// control, so the parser trusts nothing: the size is capped before parsing, every title goes
/// through `TextSanitizer`, entries without a finite, non-negative `startTime` are dropped, so are
/// entries marked `"toc": false` (the format's "not for navigation": a picture change inside a
/// chapter), and what is left is sorted and cut to `ChapterList.maxCount`. A number written as a
/// string (`"startTime": "62.5"`, seen in the wild) is read as the number. `img` and `url` are not
/// kept: nothing shows them, and every kept address would need the same guarding as artwork.
package enum ChapterDocument {
    /// - Throws: `documentTooLarge` above `maxBytes`; `malformedData` when the bytes are not a JSON
    ///   object with a `chapters` array.
    package static func parse(_ data: Data, trackID: String, maxBytes: Int = ServiceLimits.maxChaptersBytes) throws(PlaybackError)
        -> ChapterList
    {
        guard data.count <= maxBytes else {
            throw PlaybackError(.documentTooLarge, underlying: "chapters document of \(data.count) bytes")
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw PlaybackError(.malformedData, underlying: "chapters document is not the JSON chapters format")
        }
        let chapters = document.chapters.compactMap { entry -> Chapter? in
            guard entry.toc != false, let start = entry.startTime?.value, start.isFinite, start >= 0 else { return nil }
            return Chapter(start: start, end: entry.endTime?.value, title: entry.title)
        }
        return ChapterList(trackID: trackID, origin: .feed, chapters: chapters)
    }

    private struct Document: Decodable {
        let chapters: [Entry]
    }

    /// One entry; every field optional and leniently typed, so one odd entry is dropped rather
    /// than failing the document.
    private struct Entry: Decodable {
        let startTime: LenientNumber?
        let endTime: LenientNumber?
        let title: String?
        let toc: Bool?

        enum CodingKeys: String, CodingKey { case startTime, endTime, title, toc }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            startTime = try? container.decodeIfPresent(LenientNumber.self, forKey: .startTime)
            endTime = try? container.decodeIfPresent(LenientNumber.self, forKey: .endTime)
            title = try? container.decodeIfPresent(String.self, forKey: .title)
            toc = try? container.decodeIfPresent(Bool.self, forKey: .toc)
        }
    }
}
