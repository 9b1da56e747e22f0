// The tests' loopback helpers are the product's own (`LoopbackSockets.Loopback`): free port,
// a listener that holds a port, a connect probe, the socket table. Re-exported, with the
// process toolkit, so a test target that depends on TestSupport has them without naming them.
@_exported import LoopbackSockets
@_exported import ProcessToolkit
