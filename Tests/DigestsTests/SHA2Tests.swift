import Digests
import Foundation
import Testing

/// The published test vectors (FIPS 180-2's examples, RFC 4231's HMAC cases), and pieces against a
/// whole: a digest that is wrong, or depends on how its input was cut, fails here before it
/// misnames a cache file or rejects a good download.
@Suite("SHA-2 and HMAC-SHA256 over Nettle")
struct SHA2Tests {
    @Test(arguments: [
        (SHA2.sha256, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (.sha256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (.sha256, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (.sha384, "abc", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"),
        (.sha512, "abc",
         "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
    ])
    func publishedVectors(function: SHA2, input: String, expected: String) {
        let digest = function.hash(Array(input.utf8))
        #expect(digest.count == function.digestSize)
        #expect(digest.lowercaseHexadecimal == expected)
    }

    @Test func aMillionLettersFedInUnevenPiecesGiveTheWholesDigest() {
        var hasher = SHA2Hasher(.sha256)
        var fed = 0
        var size = 1
        while fed < 1_000_000 {
            let piece = min(size, 1_000_000 - fed)
            hasher.update(Data(repeating: UInt8(ascii: "a"), count: piece))
            fed += piece
            size = size * 3 + 1  // 1, 4, 13, 40, ...: pieces shorter and longer than a block
        }
        #expect(hasher.finalize().lowercaseHexadecimal == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: SHA2.allCases)
    func everyCutOfAnInputGivesTheSameDigest(function: SHA2) {
        let input = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let whole = function.hash(input)
        for cut in 0...input.count {
            var hasher = SHA2Hasher(function)
            hasher.update(input[..<cut])
            hasher.update(input[cut...])
            #expect(hasher.finalize() == whole, "cut at \(cut)")
        }
    }

    @Test func finalizingLeavesTheHasherGoingOn() {
        var hasher = SHA2Hasher(.sha512)
        hasher.update(Array("ab".utf8))
        #expect(hasher.finalize() == SHA2.sha512.hash(Array("ab".utf8)))
        hasher.update(Array("c".utf8))
        #expect(hasher.finalize() == SHA2.sha512.hash(Array("abc".utf8)))
    }

    @Test(arguments: [
        ([UInt8](repeating: 0x0B, count: 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        // A key longer than SHA-256's block is hashed first.
        ([UInt8](repeating: 0xAA, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ])
    func hmacMatchesRFC4231(key: [UInt8], message: String, expected: String) {
        #expect(HMACSHA256.authenticationCode(for: Array(message.utf8), key: key).lowercaseHexadecimal == expected)
    }

    @Test func hexadecimalHasTwoLowercaseDigitsABytes() {
        #expect([0x00, 0x0F, 0xA0, 0xFF].lowercaseHexadecimal == "000fa0ff")
        #expect([UInt8]().lowercaseHexadecimal == "")
    }
}
