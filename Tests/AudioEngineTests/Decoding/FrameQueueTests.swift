import Foundation
import Testing

@testable import AudioEngine
import Media

/// The decode thread waits in `push` while the queue holds `capacityFrames`; the render thread's
/// `pop` wakes it only once there is room again, and never leaves it asleep when there is.
@Suite struct FrameQueueTests {
    /// A chunk of `frames` stereo frames whose samples count up from `first`.
    private func chunk(frames: Int, from first: Int = 0) -> [Float] {
        (0..<frames * AudioFormat.channelCount).map { Float(first + $0) }
    }

    @Test func aFullQueuesProducerResumesOnceAPopMakesRoomAndTheOrderHolds() async throws {
        let queue = FrameQueue(capacityFrames: 4_096)
        defer { queue.close() }  // releases a producer left waiting by a failure
        let generation = queue.generation
        #expect(queue.push(chunk(frames: 8_192), generation: generation))
        let pushed = DispatchSemaphore(value: 0)
        let second = chunk(frames: 1_024, from: 8_192 * AudioFormat.channelCount)
        Thread.detachNewThread {
            _ = queue.push(second, generation: generation)
            pushed.signal()
        }
        // The producer must be asleep in `push` before the pops, or nothing here tests its wake-up.
        let deadline = Date().addingTimeInterval(30)
        while queue.blockedProducers == 0, Date() < deadline { usleep(1_000) }
        #expect(queue.blockedProducers == 1)
        var out = [Float](repeating: 0, count: 8_192 * AudioFormat.channelCount)
        var taken = 0
        for frames in [2_048, 2_048] {
            let popped = out.withUnsafeMutableBufferPointer { queue.pop(into: $0.baseAddress! + taken * AudioFormat.channelCount, frames: frames, blocking: false) }
            taken += popped.frames
        }
        // 4,096 frames left: still full, so the producer may not have pushed.
        #expect(queue.bufferedFrames == 4_096)
        // One frame less than full: the producer's condition holds, and it must be woken.
        let last = out.withUnsafeMutableBufferPointer { queue.pop(into: $0.baseAddress! + taken * AudioFormat.channelCount, frames: 1, blocking: false) }
        taken += last.frames
        try #require(pushed.wait(timeout: .now() + 30) == .success, "the producer was left waiting with room in the queue")
        #expect(queue.bufferedFrames == 4_095 + 1_024)
        var rest = [Float](repeating: 0, count: (4_095 + 1_024) * AudioFormat.channelCount)
        let drained = rest.withUnsafeMutableBufferPointer { queue.pop(into: $0.baseAddress!, frames: 4_095 + 1_024, blocking: false) }
        #expect(drained.frames == 4_095 + 1_024)
        let all = Array(out[0..<taken * AudioFormat.channelCount]) + rest
        let counted: [Float] = (0..<all.count).map { Float($0) }
        #expect(all == counted)
    }
}
