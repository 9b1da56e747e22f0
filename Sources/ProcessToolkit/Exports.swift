// The lock types live in `Locks` (a module of their own, so MockServer and the report can have
// them without process spawning); code that imports ProcessToolkit keeps seeing them.
@_exported import Locks
