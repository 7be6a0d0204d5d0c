import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Test harnesses (PulseAudio, Icecast) start their servers through this rather than Foundation's
/// `Process`: on Linux, `Process.waitUntilExit` was seen to hang on short-lived children while a
/// long-lived one was running in the same test process.
/// A child started with `posix_spawn` from an argument vector (no shell), reaped by a thread that
/// waits for its end, so `wait` returns when the child ends.
package final class ChildProcess: @unchecked Sendable {
    package struct SpawnError: Error, CustomStringConvertible {
        package var description: String
    }

    package let pid: pid_t
    private let end = End()

    /// Starts `executable` with `arguments`; stdin is /dev/null, stdout and stderr go to files
    /// (truncated, or appended to with `appendStderr`).
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        stdout: String, stderr: String, appendStderr: Bool = false
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | (appendStderr ? O_APPEND : O_TRUNC), 0o600)
        // The child gets stdin, stdout and stderr and nothing else: a descriptor of the test
        // process that is not close-on-exec (a socket, a pipe of a CLI test) would otherwise live
        // on in a long-lived server, and a connection or pipe the test closes would never end for
        // its peer.
        for descriptor in Self.inheritableDescriptors() {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // A child starts with no signal blocked and the usual dispositions: the thread that
        // spawns may be a dispatch or NIO thread that blocks every signal, and a server started
        // with SIGCHLD and SIGTERM blocked (tmux, Icecast) never reaps its children nor stops.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SpawnError(description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        let end = self.end
        // Waits for the child's end on a thread of its own, so `wait` is woken by it.
        let pid = child
        Thread.detachNewThread { end.reap(pid) }
    }

    /// Open descriptors above stderr without close-on-exec, read from /proc/self/fd. (glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` would say it in one call, but Swift's Glibc module
    /// does not declare it.)
    private static func inheritableDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }.filter { $0 > 2 && fcntl($0, F_GETFD) >= 0 && fcntl($0, F_GETFD) & FD_CLOEXEC == 0 }
    }

    deinit {
        if exitStatus == nil {
            send(SIGKILL)
            _ = wait(timeout: 5)
        }
    }

    /// The exit status (or 128 + signal) once the child has ended; nil while it runs.
    package var exitStatus: Int32? { end.status }

    package func send(_ signal: Int32) {
        end.whileRunning { _ = Glibc.kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the child to end; its status, or nil if it still runs.
    package func wait(timeout: Double) -> Int32? {
        end.wait(until: Date(timeIntervalSinceNow: timeout))
    }

    /// A child's end, told by the thread that waits for it.
    private final class End: @unchecked Sendable {
        private let condition = NSCondition()
        private var reaped: Int32?

        var status: Int32? { condition.withLock { reaped } }

        /// Runs `body` (a signal) only while the child has not been reaped: its pid cannot have
        /// been given to another process meanwhile.
        func whileRunning(_ body: () -> Void) {
            condition.withLock { if reaped == nil { body() } }
        }

        func wait(until deadline: Date) -> Int32? {
            condition.withLock {
                while reaped == nil, condition.wait(until: deadline) {}
                return reaped
            }
        }

        /// Blocks until `pid` ends, then reaps it and wakes the waiters. The end is awaited without
        /// reaping (`WNOWAIT`), and the child reaped under the lock, so a signal sent meanwhile still
        /// reaches the child and never a process that took its pid.
        func reap(_ pid: pid_t) {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
            condition.withLock {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid {
                    let signal = raw & 0x7f
                    reaped = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
                } else {
                    reaped = -1  // reaped by someone else
                }
                condition.broadcast()
            }
        }
    }
}
