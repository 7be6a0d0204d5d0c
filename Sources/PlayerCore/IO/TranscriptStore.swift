import Foundation

/// Where fetched transcripts are kept between runs (the library), so an episode's transcript is
/// fetched once. Implemented by the app; the player only asks and tells.
public protocol TranscriptStore: Sendable {
    /// The transcript kept for the address `link` names, if any.
    func transcript(at link: TranscriptLink) -> Transcript?
    /// Keeps a transcript fetched from `link` (a failure to keep it is the store's to log).
    func keep(_ transcript: Transcript, from link: TranscriptLink)
}
