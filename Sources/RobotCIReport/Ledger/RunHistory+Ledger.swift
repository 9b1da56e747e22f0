import Foundation

extension RunHistory {
    /// This history without its unreadable ledger, and the warning that names the file, the
    /// key and what to do: the runs' history is kept, a new ledger starts with this run.
    /// `keepCopy`: the file as it was is copied aside first (`<name>.ledger-corrupt-<time>`).
    func droppingLedger(at url: URL, keepCopy: Bool) -> (history: RunHistory, warning: String?) {
        var history = self
        let problem = ledger?.problem ?? "unreadable"
        history.ledger = nil
        var kept = ""
        if keepCopy {
            let copy = url.path + ".ledger-corrupt-" + String(Int(Date().timeIntervalSince1970))
            if (try? FileManager.default.copyItem(atPath: url.path, toPath: copy)) != nil { kept = " (the file as it was is kept as \(copy))" }
        }
        return (history, "\(url.path): key 'ledger' is unreadable: \(problem); the flake ledger starts anew with this run, the runs' "
                    + "history is kept\(kept). To keep what it knew, restore the key from a backup (e.g. the CI cache) before the next "
                    + "run; to drop it, delete the key 'ledger' from the file")
    }
}
