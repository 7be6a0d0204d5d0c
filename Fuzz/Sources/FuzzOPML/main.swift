import Foundation
import FuzzSupport
import Library
import PlayerCore

// The OPML reader. Input: the document.
//
// Contract: subscriptions or `.documentTooLarge`, `.wrongContentType`, `.invalidFeed`; titles are
// clean one-line text; feed URLs are http(s) and unique; at most `maxOPMLSubscriptions`.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzOPML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        let subscriptions = try OPMLParser.parse(Data(fuzzBytes(data, size)))
        fuzzCheck(subscriptions.count <= LibraryLimits.maxOPMLSubscriptions, "\(subscriptions.count) subscriptions")
        for subscription in subscriptions {
            fuzzCheckClean(subscription.title, maxLength: LibraryLimits.maxTitleLength)
            fuzzCheckWebURL(subscription.feedURL)
        }
        // Written back out, the list reads in again as itself.
        let written = OPMLWriter.write(subscriptions, title: "Fuzz", dateCreated: Date(timeIntervalSince1970: 0))
        let again = try OPMLParser.parse(written)
        fuzzCheck(again == subscriptions, "OPML round trip changed the subscriptions")
    } catch {
        fuzzCheck(error, isOneOf: [.documentTooLarge, .wrongContentType, .invalidFeed])
    }
    return 0
}

runLibFuzzer(fuzzOPML)
