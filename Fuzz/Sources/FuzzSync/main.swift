import Foundation
import FuzzSupport
import Library
import PlayerCore

// A gpodder.net-compatible sync server's JSON. Input: one byte choosing what it answers (0:
// episode actions, 1: subscription changes, 2: an upload's result, 3: the account's devices,
// 4: its sync groups), then the JSON.
//
// Contract: every action kept is usable (http(s) addresses within the length cap, a play's
// place not negative, its start and length, when given, around it with a length above 0, no
// numbers on other actions), survives being written and read back unchanged, and merging the
// actions into a small library moves only its episodes, to places from 0 to the action's length
// when it gave one, and holds only actions it did not match, one per episode; subscription lists
// hold only http(s) addresses; device lists hold at most `maxDevices` distinct API device ids
// with captions free of control characters; sync groups hold only device ids, none empty; or
// `.malformedData`.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzSync(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 1)
    do {
        switch header[0] % 5 {
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
                fuzzCheck(update.position >= 0 && update.position <= (update.duration ?? .infinity), "place \(update.position) of \(String(describing: update.duration))")
            }
            let heldKeys = outcome.held.map(EpisodeActionMerge.heldKey)
            fuzzCheck(Set(heldKeys).count == heldKeys.count && outcome.held.count <= outcome.unmatched, "held \(outcome.held.count) of \(outcome.unmatched)")
            fuzzCheck(outcome.held.allSatisfy { $0.action == .play || $0.action == .new }, "held a download or delete")
        case 1:
            let changes = try GpodderWire.decode(GpodderWire.SubscriptionChanges.self, from: Data(body))
            for address in changes.add + changes.remove { fuzzCheck(GpodderWire.isAddress(address), "not an address: \(address)") }
        case 2:
            _ = try GpodderWire.decode(GpodderWire.UploadResult.self, from: Data(body))
        case 3:
            let devices = try GpodderWire.decode(GpodderWire.Devices.self, from: Data(body)).devices
            fuzzCheck(devices.count <= GpodderWire.maxDevices && Set(devices.map(\.id)).count == devices.count, "\(devices.count) devices")
            for device in devices {
                fuzzCheck(GpodderWire.isDeviceID(device.id) && device.subscriptions >= 0, "device \(device)")
                fuzzCheck(!(device.caption + device.type).unicodeScalars.contains { $0.properties.generalCategory == .control }, "a control character in \(device)")
            }
        default:
            let groups = try GpodderWire.decode(GpodderWire.SyncGroups.self, from: Data(body))
            fuzzCheck(groups.synchronized.allSatisfy { !$0.isEmpty && $0.allSatisfy(GpodderWire.isDeviceID) }, "groups \(groups)")
            fuzzCheck(groups.notSynchronized.allSatisfy(GpodderWire.isDeviceID), "single devices \(groups)")
            if let someone = groups.synchronized.first?.first { fuzzCheck(!groups.linked(with: someone).contains(someone), "linked with itself") }
        }
    } catch {
        fuzzCheck(error, isOneOf: [.malformedData])
    }
    return 0
}

runLibFuzzer(fuzzSync)
