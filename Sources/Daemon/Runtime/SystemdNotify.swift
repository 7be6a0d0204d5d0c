import CSDBus
import Foundation

/// Tells systemd how the daemon is (sd_notify(3), for `Type=notify`): READY=1 once the player,
/// the library and every service are up, so `systemctl start` returns when clients can connect;
/// STOPPING=1 when it starts shutting down. Without `NOTIFY_SOCKET` (not run by systemd as
/// `Type=notify`) libsystemd sends nothing.
package enum SystemdNotify {
    package static func ready(pid: Int32 = getpid()) { _ = sd_notify(0, "READY=1\nMAINPID=\(pid)") }
    package static func stopping() { _ = sd_notify(0, "STOPPING=1") }
    package static func status(_ text: String) { _ = sd_notify(0, "STATUS=\(text)") }
}
