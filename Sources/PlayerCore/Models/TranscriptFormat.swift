import Foundation

/// The transcript formats podcasts publish (`podcast:transcript`'s `type`), in the order of
/// preference when a feed offers several: timed formats first, WebVTT (the namespace's
/// recommendation, with speakers) before SRT, the JSON format, then HTML, which is only text.
public enum TranscriptFormat: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case webVTT = "vtt"
    case srt
    case json
    case html

    /// From a MIME type (`text/vtt`, `application/x-subrip`, `application/json`, `text/html`;
    /// parameters ignored); nil for anything else.
    public init?(mimeType: String) {
        let type = mimeType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch type {
        case "text/vtt", "text/webvtt": self = .webVTT
        case "application/srt", "application/x-subrip", "text/srt", "text/x-srt", "application/x-srt": self = .srt
        case "application/json", "text/json", "application/json+transcript": self = .json
        case "text/html", "application/xhtml+xml": self = .html
        default: return nil
        }
    }

    /// From a file name's extension (`.vtt`, `.srt`, `.json`, `.html`/`.htm`).
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "vtt": self = .webVTT
        case "srt": self = .srt
        case "json": self = .json
        case "html", "htm": self = .html
        default: return nil
        }
    }

    /// Whether the format carries times (it can follow the voice).
    public var isTimed: Bool { self != .html }

    public static func < (a: TranscriptFormat, b: TranscriptFormat) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A transcript a feed names for an episode: where it is and in which format.
public struct TranscriptLink: Sendable, Hashable, Codable {
    public var url: URL
    public var format: TranscriptFormat

    public init(url: URL, format: TranscriptFormat) {
        self.url = url
        self.format = format
    }
}
