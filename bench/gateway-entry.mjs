// Runs the built gateway exactly as `node dist/gateway/main.js` does (the module starts it when loaded), under a
// command line of its own, so that tools stopping gateways by their command line leave the benchmark's alone.
import '../dist/gateway/main.js';
