import Foundation

/// A JSON number, or a string holding one (`"startTime": "62.5"`, seen in the wild in chapters
/// and transcripts); nil for anything else, so one odd field drops its entry, not the document.
/// A string longer than a number can be is not read.
struct LenientNumber: Decodable {
    let value: Double?

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let number = try? single.decode(Double.self) {
            value = number
        } else if let text = try? single.decode(String.self), text.utf8.count <= 32 {
            value = Double(text.trimmingCharacters(in: .whitespaces))
        } else {
            value = nil
        }
    }
}
