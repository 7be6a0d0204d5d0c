import Foundation
import FuzzSupport
import PlayerCore
import Services

// The Podcasting 2.0 JSON chapters document. Input: the document.
//
// Contract: a list of at most `ChapterList.maxCount` chapters for the track asked about, or
// `.malformedData` / `.documentTooLarge`; each chapter starts at a finite second of 0 or more, in
// order, ends (when it says) after it starts, and has a clean title.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzChapters(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = fuzzBytes(data, size)
    do {
        let list = try ChapterDocument.parse(Data(body), trackID: "episode:1")
        fuzzCheck(list.trackID == "episode:1" && list.origin == .feed, "list for \(list.trackID), \(list.origin)")
        fuzzCheck(list.count <= ChapterList.maxCount, "\(list.count) chapters")
        for chapter in list.chapters {
            fuzzCheck(chapter.start.isFinite && chapter.start >= 0, "start \(chapter.start)")
            fuzzCheck(chapter.end.map { $0.isFinite && $0 > chapter.start } ?? true, "end \(String(describing: chapter.end))")
            fuzzCheckClean(chapter.title)
        }
        fuzzCheck(zip(list.chapters, list.chapters.dropFirst()).allSatisfy { $0.start <= $1.start }, "chapters out of order")
    } catch {
        fuzzCheck(error, isOneOf: [.malformedData, .documentTooLarge])
    }
    return 0
}

runLibFuzzer(fuzzChapters)
