// The tests' loopback helpers are the product's own (`ProcessToolkit.Loopback`): free port,
// a listener that holds a port, a connect probe. Re-exported so a test target that depends on
// TestSupport has them without naming the toolkit.
@_exported import ProcessToolkit
