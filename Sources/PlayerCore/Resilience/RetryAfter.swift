import Foundation

/// A server's `Retry-After` (RFC 9110 §10.2.3): either a number of seconds or an HTTP-date.
public enum RetryAfter: Sendable, Hashable, Codable {
    case seconds(Double)
    case date(Date)

    /// The longest wait Tonearm honours; a server asking for more is capped here.
    public static let maximumDelay: Double = 3600

    /// Parses a header value: delta-seconds (`120`) or an HTTP-date in IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 or asctime form. Returns nil for anything else.
    public static func parse(_ value: String) -> RetryAfter? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber) {
            guard let seconds = Double(trimmed) else { return nil }
            return .seconds(seconds)
        }
        for format in httpDateFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return .date(date) }
        }
        return nil
    }

    /// IMF-fixdate, obsolete RFC 850 and asctime formats, in the order RFC 9110 lists them.
    private static let httpDateFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",
        "EEEE, dd-MMM-yy HH:mm:ss zzz",
        "EEE MMM d HH:mm:ss yyyy",
    ]

    /// Seconds to wait from `now`, never negative and never more than `maximumDelay`.
    public func delay(now: Date) -> Double {
        let raw: Double
        switch self {
        case .seconds(let s): raw = s
        case .date(let d): raw = d.timeIntervalSince(now)
        }
        // NaN means nothing usable; an infinite request (digits overflowing Double) gets the cap.
        guard !raw.isNaN else { return 0 }
        return min(Self.maximumDelay, max(0, raw))
    }
}
