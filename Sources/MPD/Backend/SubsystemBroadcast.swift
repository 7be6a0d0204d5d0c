import Foundation
import MPDProtocol
import Synchronization

/// Hands every change to each connection's stream: one stream per `changes()` call, dropped
/// when its connection goes; all of them end when the backend finishes.
final class SubsystemBroadcast: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<MPDSubsystem>.Continuation]?>([:])

    func stream() -> AsyncStream<MPDSubsystem> {
        // A client that never idles must not make the backend hold changes without end.
        let (stream, continuation) = AsyncStream.makeStream(of: MPDSubsystem.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        let added = listeners.withLock { listeners -> Bool in
            guard listeners != nil else { return false }
            listeners?[id] = continuation
            return true
        }
        guard added else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.listeners.withLock { _ = $0?.removeValue(forKey: id) } }
        return stream
    }

    func send(_ subsystems: Set<MPDSubsystem>) {
        guard !subsystems.isEmpty else { return }
        let all = listeners.withLock { $0.map { Array($0.values) } ?? [] }
        for continuation in all {
            for subsystem in subsystems { continuation.yield(subsystem) }
        }
    }

    func finish() {
        let all = listeners.withLock { listeners in
            defer { listeners = nil }
            return listeners.map { Array($0.values) } ?? []
        }
        for continuation in all { continuation.finish() }
    }
}
