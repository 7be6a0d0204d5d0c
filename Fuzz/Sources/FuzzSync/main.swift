import Foundation
import FuzzSupport
import Library
import PlayerCore

// A gpodder.net-compatible sync server's JSON. Input: one byte choosing what it answers (0:
// episode actions, 1: subscription changes, 2: an upload's result), then the JSON.
//
// Contract: every action kept is usable (http(s) addresses within the length cap, a play's
// started <= position <= total with total above 0, no numbers on other actions), survives being
// written and read back unchanged, and merging the actions into a small library moves only its
// episodes, to places from 0 to the action's total; subscription lists hold only http(s)
// addresses; or `.malformedData`.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzSync(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 1)
    do {
        switch header[0] % 3 {
        case 0:
            let received = try GpodderWire.decode(GpodderWire.EpisodeActions.self, from: Data(body))
            fuzzCheck(received.dropped >= 0, "dropped \(received.dropped)")
            for action in received.actions {
                fuzzCheck(action.isUsable, "an unusable action was kept: \(action)")
                let again = try GpodderWire.decode(GpodderWire.EpisodeAction.self, from: (try? JSONEncoder().encode(action)) ?? Data())
                fuzzCheck(again.podcast == action.podcast && again.episode == action.episode && again.action == action.action
                    && again.position == action.position && again.total == action.total && again.started == action.started
                    && abs(again.timestamp.timeIntervalSince1970 - action.timestamp.timeIntervalSince1970.rounded(.down)) < 1,
                    "an action changed on its way back: \(action) -> \(again)")
            }
            let library = (1...3).map { n in
                EpisodeActionMerge.Local(id: Int64(n), podcastURL: "https://example.org/feed", guid: "g\(n)", audioURL: "https://example.org/\(n).mp3")
            }
            let outcome = EpisodeActionMerge.merge(received.actions, into: library)
            for update in outcome.updates {
                fuzzCheck((1...3).contains(update.episodeID), "moved an episode that is not there: \(update.episodeID)")
                fuzzCheck(update.position >= 0 && update.position <= (update.duration ?? 0), "place \(update.position) of \(String(describing: update.duration))")
            }
        case 1:
            let changes = try GpodderWire.decode(GpodderWire.SubscriptionChanges.self, from: Data(body))
            for address in changes.add + changes.remove { fuzzCheck(GpodderWire.isAddress(address), "not an address: \(address)") }
        default:
            _ = try GpodderWire.decode(GpodderWire.UploadResult.self, from: Data(body))
        }
    } catch {
        fuzzCheck(error, isOneOf: [.malformedData])
    }
    return 0
}

runLibFuzzer(fuzzSync)
