import Foundation

/// A Subresource Integrity value (W3C SRI, as `podcast:integrity type="sri"` carries it):
/// `sha384-BASE64` digests, several separated by spaces. Only the strongest algorithm given
/// counts, as SRI §3.3.3 says, and the file matches when its digest equals any of that
/// algorithm's. Unknown algorithms and broken digests are skipped; nothing usable is nil.
public struct SubresourceIntegrity: Sendable, Equatable, Codable {
    public enum Algorithm: String, Sendable, Codable, Comparable, CaseIterable {
        case sha256, sha384, sha512

        /// Digest length, bytes.
        public var byteCount: Int {
            switch self {
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }

        public static func < (a: Algorithm, b: Algorithm) -> Bool { a.byteCount < b.byteCount }
    }

    public let algorithm: Algorithm
    /// The accepted digests of `algorithm`.
    public let digests: [Data]

    public init?(_ text: String) {
        var found: [(Algorithm, Data)] = []
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).prefix(16) {
            // `sha384-BASE64?options`: options after `?` are ignored, as the specification says.
            let value = token.split(separator: "?", maxSplits: 1).first ?? token
            guard let dash = value.firstIndex(of: "-"), let algorithm = Algorithm(rawValue: value[..<dash].lowercased()),
                let digest = Data(base64Encoded: String(value[value.index(after: dash)...])), digest.count == algorithm.byteCount
            else { continue }
            found.append((algorithm, digest))
        }
        guard let strongest = found.map(\.0).max() else { return nil }
        algorithm = strongest
        digests = found.filter { $0.0 == strongest }.map(\.1)
    }

    public init(algorithm: Algorithm, digests: [Data]) {
        self.algorithm = algorithm
        self.digests = digests
    }
}
