import Foundation
import PlayerCore
import TestProcesses
import Testing

/// What the docs say that the code can check: the generated sections are what the code prints now,
/// and every relative link leads to a file and a heading that exist (text moves between files;
/// links must move with it). The key table is checked beside the bindings, in TerminalUITests.
@Suite("Documentation", .blocking)
struct DocumentationTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: CLITests.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines between `<!-- NAME:begin …` and `<!-- NAME:end -->` (what `make docs` writes there).
    static func generatedSection(_ name: String, in path: String) throws -> String? {
        let lines = try text(path).components(separatedBy: "\n")
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("<!-- \(name):begin") }),
            let end = lines.firstIndex(of: "<!-- \(name):end -->"), begin < end
        else { return nil }
        return lines[(begin + 1)..<end].joined(separator: "\n") + "\n"
    }

    @Test func statesDocEmbedsTheGeneratedStateSection() throws {
        let embedded = try #require(try Self.generatedSection("states", in: "docs/STATES.md"), "docs/STATES.md has no states markers")
        #expect(embedded == StateDocumentation.markdown(), "docs/STATES.md is stale: run `make docs`")
    }

    @Test func resilienceDocEmbedsTheGeneratedTable() throws {
        let r = try CLITests.run(["resilience", "--markdown"])
        #expect(r.status == 0)
        let embedded = try #require(try Self.generatedSection("resilience", in: "docs/RESILIENCE.md"), "docs/RESILIENCE.md has no resilience markers")
        #expect(embedded == r.out, "docs/RESILIENCE.md is stale: run `make docs`")
    }

    @Test func resilienceTableReadsItsFiguresFromTheCode() throws {
        let r = try CLITests.run(["resilience", "--markdown"])
        #expect(r.out.contains("opens after \(ResilienceDefaults.breakerFailureThreshold) consecutive failures"))
        #expect(r.out.contains("at most \(BackoffPolicy.reconnect.maxAttempts) attempts"))
        #expect(r.out.contains("at most \(BackoffPolicy.backgroundReconnect.maxAttempts) attempts"))
        let plain = try CLITests.run(["resilience"])
        #expect(plain.status == 0)
        #expect(plain.out.contains("circuit breaker: per host"))
    }

    /// The first drawing of docs/ARCHITECTURE.md is where a newcomer starts: every target of
    /// ours (a folder of Sources/, the C shims aside) must be in it.
    @Test func theTargetPictureShowsEveryTarget() throws {
        let text = try Self.text("docs/ARCHITECTURE.md")
        let picture = try #require(text.components(separatedBy: "```").dropFirst().first, "no drawing in docs/ARCHITECTURE.md")
        let sources = CLITests.packageRoot.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix("C") && !$0.hasPrefix(".") }
        #expect(targets.count > 15, "\(targets)")
        let words = Set(picture.split { !$0.isLetter && !$0.isNumber }.map(String.init))
        let missing = targets.filter { !words.contains($0) }.sorted()
        #expect(missing.isEmpty, "the target picture leaves out \(missing)")
    }

    /// The Layout table of docs/ARCHITECTURE.md is a map: a row says what its target is for and
    /// names its main folders in a line; what each folder holds goes under "Inside the targets".
    @Test func theLayoutTableRowsAreOneLineSummaries() throws {
        let lines = try Self.text("docs/ARCHITECTURE.md").components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "## Layout"), "docs/ARCHITECTURE.md has no Layout section")
        let section = lines[(start + 1)...].prefix { !$0.hasPrefix("#") }
        let rows = section.filter { $0.hasPrefix("|") }.dropFirst(2)  // the header and its rule
        #expect(rows.count > 15, "the Layout table has \(rows.count) rows")
        for row in rows {
            let target = row.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? row
            #expect(row.count <= 320, "the Layout row of \(target) is \(row.count) characters (at most 320): its detail goes under Inside the targets")
        }
    }

    /// PlayerKit is the engine an app embeds: what it depends on, all the way down, holds no
    /// library (no GRDB, SQLite or TOMLKit), read from the package's own description.
    @Test func playerKitDependsOnNoLibrary() throws {
        // A scratch folder of its own: the package's .build is locked by the `swift test` running this.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", CLITests.packageRoot.path, "--scratch-path", scratch.path, "dump-package"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let package = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var dependencies: [String: [String]] = [:]
        for target in package["targets"] as? [[String: Any]] ?? [] {
            guard let name = target["name"] as? String else { continue }
            dependencies[name] = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                // {"byName": [name, …]}, {"target": [name, …]} or {"product": [name, package, …]}
                (dependency.values.first as? [Any])?.first as? String
            }
        }
        var closure = Set<String>()
        var pending = ["PlayerKit"]
        while let next = pending.popLast() {
            for dependency in dependencies[next] ?? [] where closure.insert(dependency).inserted { pending.append(dependency) }
        }
        #expect(closure.contains("AudioEngine") && closure.contains("PlayerCore"), "\(closure.sorted())")
        #expect(closure.isDisjoint(with: ["Library", "LibraryKit", "GRDB", "TOMLKit"]), "\(closure.sorted())")
    }

    @Test func relativeLinksLeadToFilesAndHeadingsThatExist() throws {
        let root = CLITests.packageRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        let files = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        for file in files {
            let base = root.appendingPathComponent(file)
            for match in try Self.text(file).matches(of: #/\]\(([^)\s]+)\)/#) {
                let target = String(match.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let linked = parts[0].isEmpty ? base : URL(fileURLWithPath: parts[0], relativeTo: base.deletingLastPathComponent()).standardizedFileURL
                guard FileManager.default.fileExists(atPath: linked.path) else {
                    Issue.record("\(file): \(target) leads to no file")
                    continue
                }
                if parts.count == 2, linked.pathExtension == "md" {
                    let headings = Self.anchors(in: try String(contentsOf: linked, encoding: .utf8))
                    #expect(headings.contains(parts[1]), "\(file): \(target) leads to no heading")
                }
            }
        }
    }

    /// The README's library snippet is the example program `make test` builds (Examples/PlayNow,
    /// which sees only PlayerKit's public API), so the snippet compiles.
    @Test func readmeLibrarySnippetIsTheExampleThatBuilds() throws {
        let readme = try Self.text("README.md")
        let example = try Self.text("Examples/PlayNow/main.swift")
        func between(_ begin: String, _ end: String, in text: String) -> String? {
            guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else { return nil }
            return String(text[start.upperBound..<stop.lowerBound])
        }
        let snippet = try #require(between("<!-- library-snippet:begin -->\n```swift\n", "```\n<!-- library-snippet:end -->", in: readme))
        let program = try #require(between("// <example:begin>\n", "// <example:end>", in: example))
        #expect(snippet == program)
        #expect(program.contains("import PlayerKit"))
    }

    @Test func readmeStaysAFrontDoor() throws {
        let lines = try Self.text("README.md").components(separatedBy: "\n").count
        #expect(lines <= 250, "README.md has \(lines) lines: the reference belongs in docs/")
    }

    /// The anchors GitHub makes of a Markdown file's headings: lower case, spaces as hyphens, and
    /// nothing but letters, digits, hyphens and underscores (headings in code blocks are not headings).
    static func anchors(in markdown: String) -> Set<String> {
        var anchors: Set<String> = []
        var inCode = false
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode, line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { continue }
            let title = line[line.index(after: space)...].lowercased()
            let kept = title.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || "-_ ".unicodeScalars.contains($0) }
            anchors.insert(String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }
}
