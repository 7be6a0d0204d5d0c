import Foundation
import Synchronization

/// Whole lines to standard output from any thread: the control script answers snapserver's
/// requests on one thread and pushes notifications from its MPD `idle` thread, and two lines must
/// never interleave. When snapserver has closed the pipe it has stopped the stream, and the
/// process ends with it.
public final class StandardOutputLines: Sendable {
    private let writing = Mutex(())

    public init() {}

    public func write(_ line: String) {
        writing.withLock { _ in
            do { try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8)) } catch { Foundation.exit(0) }
        }
    }
}
