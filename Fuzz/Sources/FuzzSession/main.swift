import Foundation
import FuzzSupport
import PlayerCore

// The session file reader. Input: the file's bytes.
//
// Contract: a validated `SessionFile` or `.malformedData`; what it accepts respects every bound
// its validation promises, and encodes and decodes back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        let session = try SessionFile.decode(Data(fuzzBytes(data, size)))
        fuzzCheck((1...SessionFile.maximumStages).contains(session.stages.count), "\(session.stages.count) stages")
        for stage in session.stages {
            fuzzCheck(!stage.source.trimmingCharacters(in: .whitespaces).isEmpty, "stage without a source")
            fuzzCheck(stage.loops.map { (1...SessionFile.maximumRepeats).contains($0) } ?? true, "loops \(stage.loops ?? 0)")
            fuzzCheck(stage.duration.map { $0.isFinite && $0 > 0 } ?? true, "duration")
            fuzzCheck(stage.loops == nil || stage.duration == nil, "loops and duration")
            fuzzCheck(stage.volume.map { (0...1).contains($0) } ?? true, "volume")
            for fade in [stage.crossfade, stage.loopCrossfade].compactMap({ $0 }) {
                fuzzCheck((0...CrossfadeSpec.maximumDuration).contains(fade), "stage crossfade \(fade)")
            }
        }
        fuzzCheck(session.crossfade.map { (0...CrossfadeSpec.maximumDuration).contains($0) } ?? true, "crossfade")
        let encoded: Data
        do {
            encoded = try JSONEncoder().encode(session)
        } catch {
            fuzzCheck(false, "an accepted session does not encode: \(error)")
            return 0
        }
        let again = try SessionFile.decode(encoded)
        fuzzCheck(again == session, "a session changed through JSON")
    } catch {
        fuzzCheck(error, isOneOf: [.malformedData])
    }
    return 0
}

runLibFuzzer(fuzzSession)
