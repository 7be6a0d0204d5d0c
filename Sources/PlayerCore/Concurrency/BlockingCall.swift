import Foundation

/// Blocking work awaited from async code on a thread of its own: an fsync, a lock another process
/// holds, decoding a whole file to measure it. On the concurrency pool such a call would hold one
/// of its few threads (two on a 2-core machine) and every actor would wait with it.
///
/// Written by hand because the standard library has no such bridge, on purpose.
package enum BlockingCall {
    package static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
