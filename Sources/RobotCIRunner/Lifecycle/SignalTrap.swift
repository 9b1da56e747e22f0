import Foundation
import ProcessToolkit
import StandardStreams
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets the signal handler stop the work queue once there is one.
final class StopSwitch: Sendable {
    private let queue = Locked<BatchSource?>(nil)

    /// Set first, then checked: a signal that came before stops the queue here, one after
    /// finds it set.
    func attach(_ queue: BatchSource, interruption: RunInterruption) {
        self.queue.withLock { $0 = queue }
        if interruption.isInterrupted { queue.stop() }
    }

    func stop() { queue.current?.stop() }
}

/// Turns SIGINT/SIGTERM into a callback (the default action would leave children behind).
final class SignalTrap {
    private var sources: [DispatchSourceSignal] = []

    init(_ handler: @escaping @Sendable () -> Void) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                StandardStream.error.write("\nrobotci: interrupted; stopping workers and writing a partial report…\n")
                handler()
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for s in sources { s.cancel() }
        sources.removeAll()
    }
}
