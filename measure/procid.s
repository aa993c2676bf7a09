// This file is empty on purpose: an assembly file in the package lets
// procid.go declare runtime.procPin and procUnpin without bodies.
