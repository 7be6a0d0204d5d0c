import CNettle
import Foundation

/// The SHA-2 functions Tonearm computes: SHA-256 for names derived from content (cache files), and
/// the three a feed's SRI integrity digest may name. Computed by GNU Nettle, a small C library
/// (GnuTLS's, which FFmpeg's libraries load too), rather than by a second copy of BoringSSL
/// compiled into every build.
package enum SHA2: Sendable, CaseIterable {
    case sha256, sha384, sha512

    /// Bytes in a digest.
    package var digestSize: Int {
        switch self {
        case .sha256: Int(SHA256_DIGEST_SIZE)
        case .sha384: Int(SHA384_DIGEST_SIZE)
        case .sha512: Int(SHA512_DIGEST_SIZE)
        }
    }

    /// The digest of `bytes`, all given at once.
    package func hash(_ bytes: some ContiguousBytes) -> [UInt8] {
        var hasher = SHA2Hasher(self)
        hasher.update(bytes)
        return hasher.finalize()
    }
}

/// A SHA-2 digest fed in pieces, for input too large to hold at once (a downloaded episode of
/// hours). A value: a copy goes on from where the original was.
package struct SHA2Hasher: Sendable {
    package let algorithm: SHA2
    // SHA-384 is SHA-512 with other initial values, cut short: Nettle gives it SHA-512's context.
    private var context256 = sha256_ctx()
    private var context512 = sha512_ctx()

    package init(_ algorithm: SHA2) {
        self.algorithm = algorithm
        switch algorithm {
        case .sha256: nettle_sha256_init(&context256)
        case .sha384: nettle_sha384_init(&context512)
        case .sha512: nettle_sha512_init(&context512)
        }
    }

    package mutating func update(_ bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { raw in
            guard let start = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { return }
            switch algorithm {
            case .sha256: nettle_sha256_update(&context256, raw.count, start)
            case .sha384, .sha512: nettle_sha512_update(&context512, raw.count, start)
            }
        }
    }

    /// The digest of everything given so far; the hasher itself can take more.
    package func finalize() -> [UInt8] {
        var context256 = context256
        var context512 = context512
        return [UInt8](unsafeUninitializedCapacity: algorithm.digestSize) { digest, count in
            switch algorithm {
            case .sha256: nettle_sha256_digest(&context256, digest.count, digest.baseAddress)
            case .sha384: nettle_sha384_digest(&context512, digest.count, digest.baseAddress)
            case .sha512: nettle_sha512_digest(&context512, digest.count, digest.baseAddress)
            }
            count = digest.count
        }
    }
}
