import CNettle
import Foundation

/// HMAC-SHA256 (RFC 2104): a keyed digest, so that the same message gives a value only the key's
/// holder can reproduce.
package enum HMACSHA256 {
    package static func authenticationCode(for message: some ContiguousBytes, key: some ContiguousBytes) -> [UInt8] {
        var context = hmac_sha256_ctx()
        key.withUnsafeBytes { raw in
            nettle_hmac_sha256_set_key(&context, raw.count, raw.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        message.withUnsafeBytes { raw in
            guard let start = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { return }
            nettle_hmac_sha256_update(&context, raw.count, start)
        }
        return [UInt8](unsafeUninitializedCapacity: Int(SHA256_DIGEST_SIZE)) { digest, count in
            nettle_hmac_sha256_digest(&context, digest.count, digest.baseAddress)
            count = digest.count
        }
    }
}
