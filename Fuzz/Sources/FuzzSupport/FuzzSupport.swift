import Foundation
import PlayerCore

#if canImport(Glibc)
    import Glibc
#endif

#if FUZZING
    /// libFuzzer's own entry into its loop (compiler-rt's FuzzerInterface: `int
    /// LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *, size_t))`),
    /// linked only into a `-sanitize=fuzzer` build (`make fuzz` also sets `-DFUZZING`).
    @_silgen_name("LLVMFuzzerRunDriver")
    private func llvmFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt
#endif

/// The signature of `LLVMFuzzerTestOneInput`.
package typealias FuzzEntry = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs a target: in a fuzzing build (`-sanitize=fuzzer -DFUZZING`), hands the process to libFuzzer with the command
/// line it was started with; in an ordinary build (`swift build`, `make test`), replays the files
/// named on the command line (each file, or each file in each folder) through the target once,
/// so the committed corpus stays a regression test. Options (`-name=value`) are libFuzzer's and
/// are ignored when replaying.
///
/// Each target defines `@_cdecl("LLVMFuzzerTestOneInput")` and calls this from its `main.swift`.
/// The usual `-parse-as-library` build lets libFuzzer's own `main` run, but SwiftPM links every
/// executable with `main` bound to the module's entry point, so the targets call the driver
/// themselves; the fuzzing loop, its options and its crash handling are libFuzzer's either way.
package func runLibFuzzer(_ testOneInput: FuzzEntry) -> Never {
    #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(llvmFuzzerRunDriver(&argc, &argv, testOneInput))
    #else
        exit(replay(CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }, through: testOneInput))
    #endif
}

/// Feeds every file under `paths` to `testOneInput`; a broken contract aborts, as under libFuzzer.
private func replay(_ paths: some Sequence<String>, through testOneInput: FuzzEntry) -> CInt {
    var files: [URL] = []
    for path in paths {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            FileHandle.standardError.write(Data("no such input: \(path)\n".utf8))
            return 2
        }
        if isFolder.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files += names.sorted().map { url.appendingPathComponent($0) }
        } else {
            files.append(url)
        }
    }
    for file in files {
        guard let bytes = try? Data(contentsOf: file) else { continue }
        _ = bytes.withUnsafeBytes { raw in testOneInput(raw.bindMemory(to: UInt8.self).baseAddress, bytes.count) }
    }
    print("replayed \(files.count) inputs")
    return 0
}

/// The input as bytes (libFuzzer passes a null pointer for the empty input).
package func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Fails the run (libFuzzer saves the input as a crash) when a parser broke its contract.
package func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("contract broken at \(file):\(line): \(message())\n".utf8))
    abort()
}

/// A thrown error must be one of the codes the parser documents.
package func fuzzCheck(_ error: PlaybackError, isOneOf codes: Set<PlaybackError.Code>, file: StaticString = #fileID, line: UInt = #line) {
    fuzzCheck(codes.contains(error.code), "unexpected error code \(error.code): \(error.underlying ?? "")", file: file, line: line)
}

/// Text that reached a caller: no control (C0, DEL, C1) or bidi-override characters, no line
/// breaks unless `allowsNewlines` (then only `\n`), at most `maxLength` characters when given.
package func fuzzCheckClean(
    _ text: String?, allowsNewlines: Bool = false, maxLength: Int? = nil, file: StaticString = #fileID, line: UInt = #line
) {
    guard let text else { return }
    for scalar in text.unicodeScalars where TextSanitizer.isForbidden(scalar) || scalar.properties.isWhitespace && scalar != " " {
        if allowsNewlines && scalar == "\n" { continue }
        fuzzCheck(false, "text holds U+\(String(scalar.value, radix: 16, uppercase: true))", file: file, line: line)
    }
    if let maxLength { fuzzCheck(text.count <= maxLength, "text of \(text.count) characters, cap \(maxLength)", file: file, line: line) }
}

/// A URL that reached a caller from untrusted bytes: http(s) with a host.
package func fuzzCheckWebURL(_ url: URL?, file: StaticString = #fileID, line: UInt = #line) {
    guard let url else { return }
    let scheme = url.scheme?.lowercased()
    fuzzCheck(scheme == "http" || scheme == "https", "URL scheme \(scheme ?? "none")", file: file, line: line)
    fuzzCheck(!(url.host ?? "").isEmpty, "URL without a host", file: file, line: line)
}

/// Reads the input as a small header followed by a body: the first `count` bytes (zero-filled when
/// the input is shorter) steer the target (a mode, a chunk size), the rest is what the parser sees.
package func fuzzSplit(_ bytes: [UInt8], header count: Int) -> (header: [UInt8], body: [UInt8]) {
    let header = Array(bytes.prefix(count)) + Array(repeating: 0, count: max(0, count - bytes.count))
    return (header, Array(bytes.dropFirst(count)))
}
