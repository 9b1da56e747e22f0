import Foundation
import RobotCICore

/// A partition's whole suite as one results.json wrote it (`plan.partition.suite`, the JSON
/// array's bytes) and as it decoded, its digest checked against the list: what the other
/// partitions' files of the run share instead of decoding their own copy.
public struct PartitionSuite: Sendable {
    /// The array exactly as the file wrote it, brackets included.
    let json: [UInt8]
    public let suite: [TestID]
    /// `RunPlan.digest(of: suite)`, which is also the file's `suiteDigest`.
    public let digest: String
}

extension ReportReader {
    /// Reads a partition's results.json for merge. When its suite array is, byte for byte,
    /// `shared`'s, the array is cut out before the JSON is decoded and `shared`'s list used:
    /// equal bytes are an equal list, which a digest alone does not prove. Otherwise the
    /// file is decoded in full. Either way its `suiteDigest` must be its list's digest (merge
    /// compares partitions' suites by digest), or it is refused. Returns the result and the
    /// suite to share with the next files (nil when the file has none or the scan could not
    /// be sure where it is).
    static func partitionResults(at url: URL, sharing shared: PartitionSuite?) throws -> (RunResult, PartitionSuite?) {
        let data = try read(url)
        let found = data.withUnsafeBytes { bytes -> SuiteScanner.Found? in
            guard let shared else { return SuiteScanner.find(in: bytes) }
            return shared.json.withUnsafeBytes { SuiteScanner.find(in: bytes, known: $0) }
        }
        if let shared, let found, found.isKnown {
            var cut = Data(capacity: data.count - found.range.count + 2)
            cut.append(data[data.startIndex..<(data.startIndex + found.range.lowerBound)])
            cut.append(contentsOf: Array("[]".utf8))
            cut.append(data[(data.startIndex + found.range.upperBound)...])
            // A file that does not decode is decoded again whole below, so that its error
            // says what the file (not the cut copy) holds where.
            if var result = try? results(cut, path: url.path), var partition = result.plan?.partition {
                try checkDigest(partition.suiteDigest, of: shared.suite, listed: shared.digest, path: url.path)
                partition.suite = shared.suite
                result.plan?.partition = partition
                return (result, shared)
            }
        }
        let result = try results(data, path: url.path)
        guard let partition = result.plan?.partition else { return (result, nil) }
        let digest = RunPlan.digest(of: partition.suite)
        try checkDigest(partition.suiteDigest, of: partition.suite, listed: digest, path: url.path)
        guard let found, !found.isKnown else { return (result, shared) }
        let json = Array(data[(data.startIndex + found.range.lowerBound)..<(data.startIndex + found.range.upperBound)])
        return (result, PartitionSuite(json: json, suite: partition.suite, digest: digest))
    }

    private static func checkDigest(_ written: String, of suite: [TestID], listed digest: String, path: String) throws {
        guard written != digest else { return }
        throw Error(description: "\(path): the partition's suiteDigest '\(written)' is not the digest of the \(suite.count) tests "
            + "its suite lists ('\(digest)'): the file was edited or written by another tool. Merge the folders robotci wrote, "
            + "or run this partition again")
    }
}
