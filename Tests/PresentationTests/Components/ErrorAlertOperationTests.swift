import PlayerCore
import Presentation
import Testing

/// The error alert words an error for what failed: a feed that could not be fetched is not
/// described as playback, and the default stays playback's wording.
@Suite("Error alert wording by operation")
struct ErrorAlertOperationTests {
    @Test(arguments: Language.allCases)
    func aFeedAlertUsesTheFeedsWording(language: Language) {
        let error = PlaybackError(.connectionLost)
        let feed = ErrorAlertViewState(error: error, language: language, operation: .feed)
        #expect(feed.message == error.text(in: language, for: .feed).message)
        #expect(feed.message != error.message(in: language))
        #expect(ErrorAlertViewState(error: error, language: language).message == error.message(in: language))
    }
}
