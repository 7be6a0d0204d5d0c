import CPulse
import Foundation
import Media
import PlayerCore
import Synchronization

/// Plays through a PulseAudio server (or PipeWire's PulseAudio service) with libpulse's
/// asynchronous API on a `pa_threaded_mainloop`: one playback stream, Float32LE, 48 kHz, stereo,
/// with a target buffer of `targetLatency` seconds.
///
/// Failures:
/// - `open`: no server, refused, or no READY context within `connectTimeout` (3 s) ->
///   `audioOutputUnavailable` (underlying: libpulse's `pa_strerror` text). A missing `device`
///   makes the stream fail -> `audioOutputUnavailable` too. Autospawn is disabled.
/// - `write`/`drain`: the context fails or terminates (server killed or gone) ->
///   `audioOutputLost`. A 100 ms timer wakes every wait, so a dead server is noticed at once and a
///   server that stops taking audio for `stallTimeout` (5 s, e.g. a frozen server or a suspended
///   sink) is reported as `audioOutputLost` too: `write` never blocks forever.
///
/// Route change (the device disappears while the server stays): PulseAudio either moves the
/// stream to another sink or kills it.
/// - Moved: when the sink the stream was on no longer exists (checked with a sink-info query, so
///   a user moving the stream in a mixer is not a route change), `takeRouteChange()` returns
///   `.deviceRemoved(name:)` with the old sink's name. The stream keeps playing on the new sink;
///   the player pauses when it sees the route change.
/// - Killed (the stream fails while the context stays READY): the same route change is recorded,
///   and from then on `write` does NOT throw: it discards the frames, taking their real-time
///   duration (so the audio clock still runs like a device), and `drain` returns at once. Calling
///   `open()` again (as the player does on resume) creates a new stream on the server's default
///   device. `open()` on a healthy connection does nothing.
///
/// `close` disconnects and frees everything; `open` may be called again afterwards, which is how
/// playback resumes after the server comes back.
///
/// Threading: driven by one render thread (`open`, `write`, `drain`, `close`). The state that
/// libpulse's callbacks touch lives in `PulseConnection` and is guarded by the main loop's lock;
/// the route change and the current connection are `Mutex` state of their own, so
/// `takeRouteChange` may be called from any thread.
package final class PulseAudioSink: AudioSink, Sendable {
    /// How long `open` waits for the context and the stream to become ready.
    package static let connectTimeout = 3.0
    /// How long `write` or `drain` waits without the server taking audio before giving up.
    package static let stallTimeout = 5.0

    package let server: String?
    package let device: String?
    package let applicationName: String
    package let targetLatency: Double
    package var kind: String { "PulseAudio" }
    package var isRealtime: Bool { true }

    private let connection = Mutex<PulseConnection?>(nil)
    private let routes = RouteChangeBox()
    /// What the time limits are measured on, and the device-like wait when a killed stream
    /// discards audio.
    private let clock: any Clock<Duration>

    /// - Parameters:
    ///   - server: a PulseAudio server string such as `unix:/run/user/1000/pulse/native`; nil uses
    ///     libpulse's default (`$PULSE_SERVER`, client.conf, the per-user socket).
    ///   - device: a sink name; nil uses the server's default sink.
    ///   - applicationName: shown in mixers.
    ///   - targetLatency: the playback buffer in seconds (`tlength`).
    ///   - clock: what the connect, stall and drain limits are measured on.
    package init(
        server: String? = nil, device: String? = nil, applicationName: String = "Tonearm", targetLatency: Double = 0.1,
        clock: any Clock<Duration> = SystemClock()
    ) {
        self.clock = clock
        self.server = server
        self.device = device
        self.applicationName = applicationName
        self.targetLatency = targetLatency
    }

    deinit { close() }

    /// Connects (or does nothing when already connected and playing). A connection whose stream
    /// was killed or whose server went away is replaced.
    package func open() throws(PlaybackError) {
        let existing = connection.withLock { $0 }
        if let existing {
            if existing.isHealthy { return }
            close()
        }
        let fresh = try PulseConnection.connect(
            server: server, applicationName: applicationName, timeout: Self.connectTimeout, routes: routes, clock: clock)
        do {
            try fresh.openStream(device: device, targetLatency: targetLatency, timeout: Self.connectTimeout)
        } catch {
            fresh.shutdown()
            throw error
        }
        connection.withLock { $0 = fresh }
    }

    package func write(_ samples: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        guard frames > 0 else { return }
        guard let current = connection.withLock({ $0 }) else {
            throw PlaybackError(.audioOutputUnavailable, underlying: "PulseAudio sink is not open")
        }
        let discarded = try current.write(UnsafeRawPointer(samples), bytes: frames * Self.bytesPerFrame, stallTimeout: Self.stallTimeout)
        if discarded > 0 {
            // The stream was killed (route change): behave like a device so the clock keeps time.
            clock.sleepBlocking(for: .seconds(Double(discarded / Self.bytesPerFrame) / Double(AudioFormat.sampleRate)))
        }
    }

    package func drain() throws(PlaybackError) {
        guard let current = connection.withLock({ $0 }) else { return }
        try current.drain(timeout: targetLatency + Self.stallTimeout)
    }

    package func close() {
        let old = connection.withLock { connection -> PulseConnection? in
            defer { connection = nil }
            return connection
        }
        old?.shutdown()
    }

    package func takeRouteChange() -> RouteChange? { routes.take() }

    /// True when a PulseAudio server at `server` (nil: libpulse's default) accepts a connection
    /// within `timeout` seconds. Never autospawns a server.
    package static func serverAnswers(server: String? = nil, timeout: Double = 1.0) -> Bool {
        guard let connection = try? PulseConnection.connect(
            server: server, applicationName: "Tonearm probe", timeout: timeout, routes: RouteChangeBox(), clock: SystemClock())
        else { return false }
        connection.shutdown()
        return true
    }

    static let bytesPerFrame = AudioFormat.channelCount * MemoryLayout<Float>.size
}

/// The last route change not yet taken.
final class RouteChangeBox: Sendable {
    private let pending = Mutex<RouteChange?>(nil)

    func record(_ change: RouteChange) { pending.withLock { $0 = change } }
    func take() -> RouteChange? {
        pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
    }
}

/// One libpulse connection: a threaded main loop, a context and (after `openStream`) a playback
/// stream. libpulse's callbacks run on the main loop's thread with the loop's lock held and reach
/// this object through unretained userdata, which is valid because `shutdown` stops the thread
/// before the object can go away.
///
/// `@unchecked Sendable`: every `var` is guarded by the main loop's lock, a C lock that libpulse's
/// callbacks already hold and `pa_threaded_mainloop_wait` releases, which no `Mutex` can replace.
final class PulseConnection: @unchecked Sendable {
    private let mainloop: OpaquePointer
    private let routes: RouteChangeBox
    private var context: OpaquePointer?
    private var stream: OpaquePointer?
    private var timer: OpaquePointer?
    private var started = false
    private var closed = false
    /// The sink the stream plays on (set when it becomes ready and when it moves).
    private var deviceName: String?
    private var streamKilled = false
    /// Sinks the stream moved away from, waiting for the sink-info answer that says whether they
    /// still exist.
    private var pendingMoveChecks: [String] = []
    private var pendingCheckFound = false

    /// Seconds on the sink's clock, for the time limits.
    private let now: @Sendable () -> Double

    private init(mainloop: OpaquePointer, routes: RouteChangeBox, clock: any Clock<Duration>) {
        self.mainloop = mainloop
        self.routes = routes
        now = PlayerClock(clock).now
    }

    deinit {
        shutdown()
        pa_threaded_mainloop_free(mainloop)
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseConnection? {
        guard let userdata else { return nil }
        return Unmanaged<PulseConnection>.fromOpaque(userdata).takeUnretainedValue()
    }

    // MARK: - Connecting

    /// A connected context (READY), or `audioOutputUnavailable`.
    static func connect(
        server: String?, applicationName: String, timeout: Double, routes: RouteChangeBox, clock: any Clock<Duration>
    ) throws(PlaybackError) -> PulseConnection {
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw PlaybackError(.audioOutputUnavailable, underlying: "pa_threaded_mainloop_new failed")
        }
        let connection = PulseConnection(mainloop: mainloop, routes: routes, clock: clock)
        do {
            try connection.connectContext(server: server, applicationName: applicationName, timeout: timeout)
        } catch {
            connection.shutdown()
            throw error
        }
        return connection
    }

    private func connectContext(server: String?, applicationName: String, timeout: Double) throws(PlaybackError) {
        guard let context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), applicationName) else {
            throw PlaybackError(.audioOutputUnavailable, underlying: "pa_context_new failed")
        }
        self.context = context
        pa_context_set_state_callback(context, { _, userdata in
            PulseConnection.from(userdata)?.signal()
        }, userdata)
        timer = pa_context_rttime_new(context, pa_rtclock_now() + Self.tickMicroseconds, { _, event, _, userdata in
            PulseConnection.from(userdata)?.tick(event)
        }, userdata)
        let status: Int32
        if let server {
            status = pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil)
        } else {
            status = pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil)
        }
        if status < 0 {
            throw PlaybackError(.audioOutputUnavailable, underlying: "PulseAudio: \(Self.errorText(pa_context_errno(context)))")
        }
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else {
            throw PlaybackError(.audioOutputUnavailable, underlying: "pa_threaded_mainloop_start failed")
        }
        started = true
        let deadline = now() + timeout
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { return }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                throw PlaybackError(.audioOutputUnavailable, underlying: "PulseAudio: \(Self.errorText(pa_context_errno(context)))")
            }
            if now() >= deadline {
                throw PlaybackError(.audioOutputUnavailable, underlying: "PulseAudio: no answer within \(timeout) s")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// Creates the playback stream and waits until it is READY.
    func openStream(device: String?, targetLatency: Double, timeout: Double) throws(PlaybackError) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let context else { throw PlaybackError(.audioOutputUnavailable, underlying: "PulseAudio: no context") }
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(AudioFormat.sampleRate), channels: UInt8(AudioFormat.channelCount))
        var map = pa_channel_map()
        pa_channel_map_init_stereo(&map)
        guard let stream = pa_stream_new(context, "Playback", &spec, &map) else {
            throw PlaybackError(.audioOutputUnavailable, underlying: "PulseAudio: \(Self.errorText(pa_context_errno(context)))")
        }
        self.stream = stream
        pa_stream_set_state_callback(stream, { _, userdata in
            PulseConnection.from(userdata)?.streamStateChanged()
        }, userdata)
        pa_stream_set_write_callback(stream, { _, _, userdata in
            PulseConnection.from(userdata)?.signal()
        }, userdata)
        pa_stream_set_moved_callback(stream, { _, userdata in
            PulseConnection.from(userdata)?.streamMoved()
        }, userdata)
        let latency = pa_usec_t(max(0.005, targetLatency) * 1_000_000)
        var attr = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32(pa_usec_to_bytes(latency, &spec)),
            prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
        let status: Int32
        if let device {
            status = pa_stream_connect_playback(stream, device, &attr, PA_STREAM_ADJUST_LATENCY, nil, nil)
        } else {
            status = pa_stream_connect_playback(stream, nil, &attr, PA_STREAM_ADJUST_LATENCY, nil, nil)
        }
        if status < 0 {
            throw PlaybackError(.audioOutputUnavailable, underlying: "PulseAudio: \(Self.errorText(pa_context_errno(context)))")
        }
        let deadline = now() + timeout
        while true {
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_READY { break }
            if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
                throw PlaybackError(.audioOutputUnavailable, underlying: "PulseAudio stream: \(Self.errorText(pa_context_errno(context)))")
            }
            if now() >= deadline {
                throw PlaybackError(.audioOutputUnavailable, underlying: "PulseAudio: stream not ready within \(timeout) s")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        deviceName = pa_stream_get_device_name(stream).map { String(cString: $0) }
    }

    /// True while the context and the stream are READY.
    var isHealthy: Bool {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard !closed, !streamKilled, let context, let stream else { return false }
        return pa_context_get_state(context) == PA_CONTEXT_READY && pa_stream_get_state(stream) == PA_STREAM_READY
    }

    // MARK: - Playing

    /// Writes all `bytes`, waiting for room. Returns the bytes discarded because the stream was
    /// killed (route change), 0 normally.
    func write(_ data: UnsafeRawPointer, bytes: Int, stallTimeout: Double) throws(PlaybackError) -> Int {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        var offset = 0
        var lastProgress = now()
        while offset < bytes {
            let stream = try liveStream()
            guard let stream else { return bytes - offset }
            let writable = pa_stream_writable_size(stream)
            if writable < 0 {  // (size_t)-1: error
                throw lost("PulseAudio: \(Self.errorText(pa_context_errno(context)))")
            }
            let chunk = min(writable, bytes - offset) / PulseAudioSink.bytesPerFrame * PulseAudioSink.bytesPerFrame
            if chunk == 0 {
                if now() - lastProgress > stallTimeout {
                    throw lost("PulseAudio took no audio for \(stallTimeout) s")
                }
                pa_threaded_mainloop_wait(mainloop)
                continue
            }
            if pa_stream_write(stream, data + offset, chunk, nil, 0, PA_SEEK_RELATIVE) < 0 {
                throw lost("PulseAudio: \(Self.errorText(pa_context_errno(context)))")
            }
            offset += chunk
            lastProgress = now()
        }
        return 0
    }

    /// Waits until the server has played everything written (or the stream was killed).
    func drain(timeout: Double) throws(PlaybackError) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let stream = try liveStream() else { return }
        guard let operation = pa_stream_drain(stream, { _, _, userdata in
            PulseConnection.from(userdata)?.signal()
        }, userdata) else {
            throw lost("PulseAudio: \(Self.errorText(pa_context_errno(context)))")
        }
        defer { pa_operation_unref(operation) }
        let deadline = now() + timeout
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            do {
                guard try liveStream() != nil else { break }
            } catch {
                pa_operation_cancel(operation)
                throw error
            }
            if now() >= deadline {
                pa_operation_cancel(operation)
                throw lost("PulseAudio did not finish playing within \(timeout) s")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// The READY stream; nil when it was killed (route change); `audioOutputLost` when the
    /// context is gone. Called with the lock held.
    private func liveStream() throws(PlaybackError) -> OpaquePointer? {
        guard !closed, let context, let stream else {
            throw PlaybackError(.audioOutputUnavailable, underlying: "PulseAudio sink is not open")
        }
        if pa_context_get_state(context) != PA_CONTEXT_READY {
            throw lost("PulseAudio: \(Self.errorText(pa_context_errno(context)))")
        }
        if streamKilled { return nil }
        if pa_stream_get_state(stream) != PA_STREAM_READY {
            throw lost("PulseAudio stream: \(Self.errorText(pa_context_errno(context)))")
        }
        return stream
    }

    private func lost(_ text: String) -> PlaybackError { PlaybackError(.audioOutputLost, underlying: text) }

    // MARK: - Closing

    /// Disconnects, stops the main loop thread and frees the stream and context. Idempotent.
    func shutdown() {
        pa_threaded_mainloop_lock(mainloop)
        closed = true
        if let timer {
            pa_threaded_mainloop_get_api(mainloop).pointee.time_free(timer)
            self.timer = nil
        }
        if let stream {
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_write_callback(stream, nil, nil)
            pa_stream_set_moved_callback(stream, nil, nil)
            if pa_stream_get_state(stream) == PA_STREAM_READY { pa_stream_disconnect(stream) }
            pa_stream_unref(stream)
            self.stream = nil
        }
        if let context {
            pa_context_set_state_callback(context, nil, nil)
            pa_context_disconnect(context)
            pa_context_unref(context)
            self.context = nil
        }
        pa_threaded_mainloop_signal(mainloop, 0)
        let wasStarted = started
        started = false
        pa_threaded_mainloop_unlock(mainloop)
        if wasStarted { pa_threaded_mainloop_stop(mainloop) }
    }

    // MARK: - Callbacks (main loop thread, lock held)

    private func signal() { pa_threaded_mainloop_signal(mainloop, 0) }

    /// Every 100 ms: wakes waiters so they can check deadlines, and re-arms itself.
    private func tick(_ event: OpaquePointer?) {
        if let event, let context { pa_context_rttime_restart(context, event, pa_rtclock_now() + Self.tickMicroseconds) }
        signal()
    }

    private func streamStateChanged() {
        defer { signal() }
        guard !closed, let stream, let context else { return }
        // A stream that fails while its context stays READY was killed by the server: its device
        // went away. When the context failed too, the server is gone, which is not a route change.
        if pa_stream_get_state(stream) == PA_STREAM_FAILED, pa_context_get_state(context) == PA_CONTEXT_READY,
            let deviceName, !streamKilled
        {
            streamKilled = true
            routes.record(.deviceRemoved(name: deviceName))
        }
    }

    private func streamMoved() {
        defer { signal() }
        guard !closed, let stream, let context else { return }
        let old = deviceName
        deviceName = pa_stream_get_device_name(stream).map { String(cString: $0) }
        guard let old, old != deviceName else { return }
        // Moved because the old sink went away, or because someone moved it in a mixer? Ask.
        pendingMoveChecks.append(old)
        if let operation = pa_context_get_sink_info_by_name(context, old, { _, info, eol, userdata in
            PulseConnection.from(userdata)?.sinkInfo(found: info != nil, eol: eol)
        }, userdata) {
            pa_operation_unref(operation)
        } else {
            pendingMoveChecks.removeLast()
            routes.record(.deviceRemoved(name: old))
        }
    }

    private func sinkInfo(found: Bool, eol: Int32) {
        if eol == 0 {
            if found { pendingCheckFound = true }
            return
        }
        guard !pendingMoveChecks.isEmpty else { return }
        let name = pendingMoveChecks.removeFirst()
        let exists = pendingCheckFound && eol > 0
        pendingCheckFound = false
        if !exists && !closed { routes.record(.deviceRemoved(name: name)) }
        signal()
    }

    // MARK: - Helpers

    private static let tickMicroseconds: pa_usec_t = 100_000

    static func errorText(_ code: Int32) -> String { String(cString: pa_strerror(code)) }

}
