import Foundation

/// Takes out of a bug report's text what could point at the listener: web addresses (with their
/// tokens and credentials), the host names of their stations and feeds, paths under their home,
/// their user name, and every secret the configuration holds. Pure, so each rule is tested.
///
/// Why on top of the log's own redaction: a report gathers text Tonearm did not write (the sound
/// server's answer, the configuration file, a log written with `--log-level debug` by an older
/// version), and one missed field is enough to leak.
package struct ReportScrubber: Sendable {
    /// Exact strings to take out wherever they appear (passwords, tokens).
    package var secrets: [String]
    /// Host names of the library's stations and feeds.
    package var hosts: [String]
    /// The listener's home directory, e.g. `/home/alice`.
    package var home: String?
    /// The listener's user name.
    package var user: String?

    package init(secrets: [String] = [], hosts: [String] = [], home: String? = nil, user: String? = nil) {
        self.secrets = secrets
        self.hosts = hosts
        self.home = home
        self.user = user
    }

    package func scrub(_ text: String) -> String {
        var text = text
        // Longest first, so a secret that contains another goes whole.
        for secret in secrets.filter({ $0.count >= 4 }).sorted(by: { $0.count > $1.count }) {
            text = text.replacingOccurrences(of: secret, with: "<secret>")
        }
        text = text.replacing(/[A-Za-z][A-Za-z0-9+.\-]*:\/\/[^\s"'<>]+/, with: "<address>")
        if let home, home.count > 1 {
            let escaped = NSRegularExpression.escapedPattern(for: home)
            text = text.replacingOccurrences(of: escaped + #"(/[^\s"']*)?"#, with: "<home>", options: .regularExpression)
        }
        text = text.replacing(/\/(home|Users)\/[^\s\/"']+(\/[^\s"']*)?/, with: "<home>")
        for host in hosts.filter({ $0.count >= 3 }).sorted(by: { $0.count > $1.count }) {
            text = text.replacingOccurrences(of: host, with: "<host>", options: .caseInsensitive)
        }
        if let user, user.count >= 3, user != "root" {
            let escaped = NSRegularExpression.escapedPattern(for: user)
            text = text.replacingOccurrences(of: #"\b"# + escaped + #"\b"#, with: "<user>", options: .regularExpression)
        }
        return text
    }

    /// A TOML configuration with the value of every key that names a secret removed.
    package static func configuration(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let key = line.split(separator: "=", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard line.contains("="), ["password", "token", "secret", "key", "salt"].contains(where: { key.contains($0) }),
                !key.hasPrefix("[")
            else { return String(line) }
            return "\(line.split(separator: "=", maxSplits: 1)[0])= \"<removed>\""
        }.joined(separator: "\n")
    }
}
